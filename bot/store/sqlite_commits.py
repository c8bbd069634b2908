"""Group commit for the SQLite store: every write waits in one queue, and the connection's
thread writes whatever waits in one transaction, a savepoint each.

The thread drains the queue itself, batch after batch, and only hands the results back to the
event loop: the next batch never waits for the loop to get round to starting it (with twenty
busy tables that wait was several milliseconds a commit, and every table waited on it). A
change refused alone (a stale version, a repeated key, a write that raised) rolls back its own
savepoint; the others commit. Nobody hears of a change before its transaction is durable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.store.errors import DuplicateKey, StaleVersion
from bot.store.records import NewAction, Step

log = logging.getLogger(__name__)

BATCHES_PER_TURN = 8  # then other work on the connection's thread gets its turn


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@dataclass
class Queued:
    """A change waiting for the next group commit: a table's steps, or any other write."""

    table_id: int
    expected_version: int
    steps: Sequence[Step]
    done: asyncio.Future[Any]
    # The store's own follow-up in the same transaction (planning turns, the announced mark).
    then: Callable[[sqlite3.Connection], Any] | None = None
    after: list[Any] = field(default_factory=list)  # what ``then`` returned
    # Each step's snapshot and action as JSON, encoded before queueing: the writing thread
    # holds the GIL while it encodes, and every table waiting on the commit waits for that.
    encoded: list[tuple[str, str | None]] = field(default_factory=list)
    write: Callable[[sqlite3.Connection], Any] | None = None  # a write other than steps


def steps_change(table_id: int, expected_version: int, steps: Sequence[Step],
                 done: asyncio.Future[Any], then: Callable[[sqlite3.Connection], Any] | None
                 ) -> Queued:
    encoded = [(dumps(step.snapshot),
                None if step.entry.action is None else dumps(step.entry.action))
               for step in steps]
    return Queued(table_id, expected_version, steps, done, then, encoded=encoded)


class Failed:
    """A queued change refused on its own (its savepoint rolled back), others committed."""

    def __init__(self, error: Exception) -> None:
        self.error = error


class GroupCommitter:
    def __init__(self, conn: sqlite3.Connection, thread: ThreadPoolExecutor) -> None:
        self._conn = conn
        self._thread = thread
        self._waiting: deque[Queued] = deque()
        self._guard = threading.Lock()  # the queue and ``_draining``, shared with the thread
        self._draining = False
        self._drains: set[asyncio.Future[None]] = set()
        self.commits = 0  # transactions that wrote moves (the benches report them)

    def submit(self, item: Queued) -> None:
        """Queue ``item`` (on the event loop); its ``done`` settles once it is durable."""
        with self._guard:
            self._waiting.append(item)
            if self._draining:
                return
            self._draining = True
        self._start(asyncio.get_running_loop())

    async def flush(self) -> None:
        """Wait until nothing is queued or being written."""
        while self._drains or self._draining:
            if self._drains:
                await asyncio.gather(*self._drains, return_exceptions=True)
            else:
                await asyncio.sleep(0)  # the next turn is about to be queued

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        drain = loop.run_in_executor(self._thread, self._drain, loop)
        self._drains.add(drain)
        drain.add_done_callback(self._drains.discard)

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the connection's thread: write batches while changes wait."""
        for _ in range(BATCHES_PER_TURN):
            with self._guard:
                if not self._waiting:
                    self._draining = False
                    return
                batch = list(self._waiting)
                self._waiting.clear()
            try:
                results = write_batch(self._conn, batch)
            except BaseException as exc:
                loop.call_soon_threadsafe(self._settle, batch, None, exc)
                if not isinstance(exc, Exception):
                    with self._guard:
                        self._draining = False
                    raise
                continue
            loop.call_soon_threadsafe(self._settle, batch, results, None)
        # More waits: queue another turn behind whatever else the thread was asked to do.
        loop.call_soon_threadsafe(self._start, loop)

    def _settle(self, batch: list[Queued], results: list[Any] | None,
                error: BaseException | None) -> None:
        """On the event loop: tell each waiting caller how its change went."""
        if results is None:
            for item in batch:
                if not item.done.done():
                    item.done.set_exception(error or RuntimeError("the batch failed"))
            return
        if any(item.steps for item in batch):
            self.commits += 1
        for item, result in zip(batch, results, strict=True):
            if item.done.done():
                continue
            if isinstance(result, Failed):
                item.done.set_exception(result.error)
            else:
                item.done.set_result(result)


# -- on the connection's thread ----------------------------------------------------------------


def write_batch(db: sqlite3.Connection, batch: Sequence[Queued]) -> list[Any]:
    """Every queued change in one transaction, each inside its own savepoint."""
    results: list[Any] = []
    now = now_text()
    with transaction(db):
        for item in batch:
            db.execute("SAVEPOINT move")
            if item.write is not None:
                results.append(_write_alone(db, item.write))
            else:
                results.append(_write_steps(db, item, now))
            db.execute("RELEASE move")
    return results


def _write_steps(db: sqlite3.Connection, item: Queued, now: str) -> Any:
    try:
        version = item.expected_version
        for step, (snapshot, action) in zip(item.steps, item.encoded, strict=True):
            bump(db, item.table_id, version, "snapshot = ?, status = ?, ",
                 (snapshot, str(step.status)))
            version += 1
            _insert_action(db, item.table_id, version, step.entry, now, action)
    except (StaleVersion, sqlite3.IntegrityError) as exc:
        db.execute("ROLLBACK TO move")
        return Failed(_refusal(exc))
    if item.then is not None:
        _then(db, item)
    return version


def _write_alone(db: sqlite3.Connection, write: Callable[[sqlite3.Connection], Any]) -> Any:
    """A write that fails alone: its own statements are undone, the batch goes on (if the
    database itself fails, so does the rollback, and with it the whole batch)."""
    try:
        return write(db)
    except Exception as exc:
        db.execute("ROLLBACK TO move")
        return Failed(exc)


def _then(db: sqlite3.Connection, item: Queued) -> None:
    """Run a queued change's follow-up in a savepoint of its own: it may fail alone."""
    db.execute("SAVEPOINT follow_up")
    try:
        assert item.then is not None
        item.after.append(item.then(db))
    except Exception:
        log.exception("the follow-up of a change of table %s failed", item.table_id)
        db.execute("ROLLBACK TO follow_up")
    db.execute("RELEASE follow_up")


def bump(db: sqlite3.Connection, table_id: int, expected: int, sets: str = "",
         params: tuple[Any, ...] = ()) -> None:
    """Advance the table's version by one, refusing with ``StaleVersion`` if it moved on."""
    cursor = db.execute(
        f"UPDATE game_tables SET {sets}version = version + 1, updated_at = ?"
        " WHERE id = ? AND version = ?",
        (*params, now_text(), table_id, expected),
    )
    if cursor.rowcount != 1:
        raise StaleVersion("This table changed meanwhile; look at the latest board.")


def _insert_action(db: sqlite3.Connection, table_id: int, version: int, entry: NewAction,
                   now: str, action: str | None) -> None:
    db.execute(
        "INSERT INTO actions (table_id, version, kind, seat, member_id, action, text,"
        " irreversible, undoes, idem_key, created_at, notation)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            table_id, version, entry.kind, entry.seat, entry.member_id, action, entry.text,
            int(entry.irreversible), entry.undoes, entry.idem_key, now, entry.notation,
        ),
    )


def _refusal(exc: Exception) -> Exception:
    if isinstance(exc, sqlite3.IntegrityError) and (
        "idem_key" in str(exc) or "one_action_per_key" in str(exc)
    ):
        return DuplicateKey("That action was already received.")
    return exc
