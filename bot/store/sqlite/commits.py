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
import logging
import sqlite3
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiosqlite

from bot.store.errors import DuplicateKey, UniqueViolation
from bot.store.sql.script import Script
from bot.store.sqlite.driver import run
from bot.store.sqlite.setup import on_thread

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass
class Queued:
    """A write waiting for the next group commit (a script), and what follows it in the same
    transaction (``then``: planning turns), which may fail alone."""

    write: Script[Any]
    done: asyncio.Future[Any]
    then: Script[Any] | None = None
    after: list[Any] = field(default_factory=list)  # what ``then`` returned
    moves: bool = False  # the write is a table's moves (the benches count those commits)


@dataclass
class Failed:
    """A queued write refused on its own (its savepoint rolled back), others committed."""

    error: Exception


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
        if any(item.moves for item in batch):
            self.commits += 1
        for item, result in zip(batch, results, strict=True):
            if item.done.done():
                continue
            if isinstance(result, Failed):
                item.done.set_exception(result.error)
            else:
                item.done.set_result(result)


# -- inside the open transaction --------------------------------------------------------------


def write_statements(db: sqlite3.Connection, batch: list[Queued]) -> list[Any]:
    """Every queued write inside the open transaction, each in its own savepoint: one that
    fails is undone alone and the batch goes on (if the database itself fails, so does the
    rollback, and with it the whole batch)."""
    results: list[Any] = []
    for item in batch:
        db.execute("SAVEPOINT move")
        try:
            results.append(run(db, item.write))
        except Exception as exc:
            db.execute("ROLLBACK TO move")
            results.append(Failed(_refusal(exc)))
        else:
            if item.then is not None:
                _then(db, item)
        db.execute("RELEASE move")
    return results


def _then(db: sqlite3.Connection, item: Queued) -> None:
    """Run a queued write's follow-up in a savepoint of its own: it may fail alone."""
    db.execute("SAVEPOINT follow_up")
    try:
        assert item.then is not None
        item.after.append(run(db, item.then))
    except Exception:
        log.exception("the follow-up of a queued write failed")
        db.execute("ROLLBACK TO follow_up")
    db.execute("RELEASE follow_up")


def _refusal(exc: Exception) -> Exception:
    if isinstance(exc, UniqueViolation) and "idem_key" in str(exc):
        return DuplicateKey("That action was already received.")
    return exc
