"""A read-only backup of the SQLite store, for ``python -m bot backup``.

The source is opened with ``mode=ro``: no migrations, no checkpoint, nothing written, so a backup
never changes the database of a running bot (nor upgrades an older one). SQLite's backup API
reads a consistent snapshot, committed pages still in the WAL included.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.store.errors import StoreError

BUSY_TIMEOUT_S = 5.0


class BackupError(StoreError):
    """A backup that cannot be made; the message is one line for the command line."""


class NoDatabase(BackupError):
    """The source file does not exist (an empty database is never made in its place)."""


def backup(source: Path, target: Path) -> int:
    """Copy the database ``source`` to ``target``; returns the copied schema version."""
    if not source.is_file():
        raise NoDatabase(f"No database at {source.absolute()}.")
    if not target.parent.is_dir():
        raise BackupError(f"The folder {target.parent.absolute()} does not exist.")
    if target.exists() and target.samefile(source):
        raise BackupError("The backup must go to another file than the database itself.")
    created = not target.exists()
    try:
        with contextlib.closing(sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro",
                                                uri=True, timeout=BUSY_TIMEOUT_S)) as src:
            # Reading the version first fails at once on a file that is not a database.
            version = int(src.execute("PRAGMA user_version").fetchone()[0])
            with contextlib.closing(sqlite3.connect(target, timeout=BUSY_TIMEOUT_S)) as dest:
                src.backup(dest)
    except sqlite3.Error as exc:
        if created:
            with contextlib.suppress(OSError):
                target.unlink()
        raise BackupError(f"Could not back up {source.absolute()} to {target}: {exc}.") from exc
    return version
