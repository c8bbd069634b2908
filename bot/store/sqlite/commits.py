"""Group commit for the SQLite store: every write waits in one queue, and whatever waits is
written in one transaction, a savepoint each.

A change refused alone (a stale version, a repeated key, a write that raised) rolls back its
own savepoint; the others commit. Nobody hears of a change before its transaction is durable.

The writing connection is an ``aiosqlite.Connection``: one thread of its own runs, in order,
the jobs queued for it. A group commit is one such job, from ``BEGIN IMMEDIATE`` through every
waiting change to ``COMMIT``; a backup or an integrity check is another, so they take turns
between two commits. aiosqlite's public methods queue one statement each, which would split a
transaction across jobs (anything queued meanwhile would land inside it) and cost a hand-off
per statement; so the store queues whole functions with ``Connection._execute(fn, *args)``,
the one private call (``bot.store.sqlite.setup.on_thread``), which every public method of
aiosqlite is a thin wrapper over. Reads of several statements go the same way to the reader.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import aiosqlite

from bot.store.errors import DuplicateKey, StaleVersion
from bot.store.records import NewAction, Step, last_snapshot
from bot.store.sqlite.setup import on_thread

log = logging.getLogger(__name__)

T = TypeVar("T")


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    # Snapshots and actions are trees of plain values: no cycle to look for.
    return json.dumps(value, separators=(",", ":"), sort_keys=True, check_circular=False)


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
    # The last step's snapshot (the row keeps only the latest) and each step's action, as
    # JSON encoded before queueing, away from the open transaction.
    snapshot: str = ""
    actions: list[str | None] = field(default_factory=list)
    write: Callable[[sqlite3.Connection], Any] | None = None  # a write other than steps


def steps_change(table_id: int, expected_version: int, steps: Sequence[Step],
                 done: asyncio.Future[Any], then: Callable[[sqlite3.Connection], Any] | None
                 ) -> Queued:
    actions = [None if step.entry.action is None else dumps(step.entry.action) for step in steps]
    return Queued(table_id, expected_version, steps, done, then,
                  snapshot=dumps(last_snapshot(steps)) if steps else "", actions=actions)


class Failed:
    """A queued change refused on its own (its savepoint rolled back), others committed."""

    def __init__(self, error: Exception) -> None:
        self.error = error


class GroupCommitter:
    """One writer for the connection. ``submit`` (on the event loop) queues a change; one job
    on the connection's thread then commits whatever waits, and while a batch commits the
    next gathers, taken by the same job at once (no round trip through a busy loop between
    two commits). The job yields the thread after a commit whenever another use of the
    connection (``outside``) waits, and is queued again behind it."""

    def __init__(self, conn: aiosqlite.Connection, db: sqlite3.Connection) -> None:
        self._conn = conn
        self._db = db  # the connection aiosqlite wraps: used only on its thread
        self._waiting: deque[Queued] = deque()
        self._guard = threading.Lock()  # ``_waiting``, ``_active``, ``_outside``
        self._active = False  # a group commit job is queued or running
        self._outside = 0  # other jobs queued for the connection
        self._jobs: set[asyncio.Task[None]] = set()
        self._quiet = asyncio.Event()
        self._quiet.set()
        self.commits = 0  # transactions that wrote moves (the benches report them)

    def submit(self, item: Queued) -> None:
        """Queue ``item`` (on the event loop); its ``done`` settles once it is durable."""
        self._quiet.clear()
        with self._guard:
            self._waiting.append(item)
            if self._active:
                return
            self._active = True
        self._queue_job()

    async def outside(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the connection's thread, between two group commits."""
        ran = False

        def job() -> T:
            nonlocal ran
            ran = True
            with self._guard:
                self._outside -= 1
            return fn(self._db)

        with self._guard:
            self._outside += 1
        try:
            return await on_thread(self._conn, job)
        finally:
            if not ran:  # never queued (the connection closed)
                with self._guard:
                    self._outside -= 1

    async def flush(self) -> None:
        """Wait until nothing is queued or being written."""
        await self._quiet.wait()

    def _queue_job(self) -> None:
        job = asyncio.ensure_future(on_thread(self._conn, self._drain,
                                              asyncio.get_running_loop()))
        self._jobs.add(job)
        job.add_done_callback(self._job_done)

    def _job_done(self, job: asyncio.Task[None]) -> None:
        self._jobs.discard(job)
        if not job.cancelled() and job.exception() is not None:
            # The connection refused the job itself (it closed): nobody waits in vain.
            self._refuse_waiting(job.exception() or RuntimeError("the writer stopped"))

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the connection's thread: commit batch after batch while changes wait. Each
        batch's callers hear of it in one call on the loop, with the news that nothing more
        waits (one wake-up of the loop a batch)."""
        batch = self._next(loop, first=True)
        if not batch:  # taken meanwhile: the loop still hears that the committer is idle
            loop.call_soon_threadsafe(self._settle, [], [], None)
        while batch:
            results, error = self._transaction(batch)
            following = self._next(loop, first=False)
            loop.call_soon_threadsafe(self._settle, batch, results, error, not following)
            batch = following

    def _next(self, loop: asyncio.AbstractEventLoop, *, first: bool) -> list[Queued]:
        """The next batch for this job; none when nothing waits (the committer is idle) or when
        another job waits for the connection (this job is queued again, behind it)."""
        with self._guard:
            if not self._waiting:
                self._active = False
                return []
            if self._outside and not first:
                loop.call_soon_threadsafe(self._queue_job)
                return []
            batch = list(self._waiting)
            self._waiting.clear()
            return batch

    def _transaction(self, batch: list[Queued]) -> tuple[list[Any] | None, BaseException | None]:
        """The batch in one transaction, durable once this returns results."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except Exception as exc:  # locked past the busy timeout, or the disk failed
            return None, exc
        try:
            results = write_statements(self._db, batch)
            self._db.execute("COMMIT")
        except Exception as exc:  # the database itself failed: the batch fails with it
            try:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            except Exception:
                log.exception("could not roll back a failed group commit")
            return None, exc
        return results, None

    def _refuse_waiting(self, error: BaseException) -> None:
        with self._guard:
            batch = list(self._waiting)
            self._waiting.clear()
            self._active = False
        self._settle(batch, None, error)

    def _settle(self, batch: list[Queued], results: list[Any] | None,
                error: BaseException | None, last: bool = True) -> None:
        """On the event loop: tell each waiting caller how its change went (``last``: the
        job ended, so the committer may be idle now)."""
        if last:
            with self._guard:
                if not self._active:
                    self._quiet.set()
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


# -- inside the open transaction --------------------------------------------------------------


def write_statements(db: sqlite3.Connection, batch: Sequence[Queued]) -> list[Any]:
    """Every queued change inside the open transaction, each in its own savepoint."""
    results: list[Any] = []
    now = now_text()
    for item in batch:
        db.execute("SAVEPOINT move")
        if item.write is not None:
            results.append(_write_alone(db, item.write))
        else:
            results.append(_write_steps(db, item, now))
        db.execute("RELEASE move")
    return results


def _write_steps(db: sqlite3.Connection, item: Queued, now: str) -> Any:
    version = item.expected_version
    try:
        if item.steps:
            # One update for the chain: the table keeps the last step's snapshot and status.
            bump(db, item.table_id, version, "snapshot = ?, status = ?, ",
                 (item.snapshot, str(item.steps[-1].status)), by=len(item.steps), now=now)
        for step, action in zip(item.steps, item.actions, strict=True):
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
         params: tuple[Any, ...] = (), by: int = 1, now: str | None = None) -> None:
    """Advance the table's version (by one, or ``by``), refusing with ``StaleVersion`` if it
    moved on."""
    cursor = db.execute(
        f"UPDATE game_tables SET {sets}version = version + ?, updated_at = ?"
        " WHERE id = ? AND version = ?",
        (*params, by, now or now_text(), table_id, expected),
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
