"""Store errors: each says what happened in words a player can read."""

from __future__ import annotations


class StoreError(Exception):
    pass


class ChannelBusy(StoreError):
    """The channel already has a live table (the partial unique index refused another)."""


class StaleVersion(StoreError):
    """Someone else changed the table first: the caller's view of it is out of date."""


class DuplicateKey(StoreError):
    """An action with this idempotency key was already recorded."""


class AlreadySeated(StoreError):
    pass


class IntegrityFailure(StoreError):
    """``PRAGMA integrity_check`` did not answer ``ok`` at start."""


def newer_schema(version: int, newest: int) -> IntegrityFailure:
    """A database migrated past this program, in both backends' words."""
    return IntegrityFailure(
        f"The database schema is at migration {version}; this program knows only {newest}. "
        "Run the newer program, or restore a matching backup."
    )


class NotTabula(StoreError):
    """An existing SQLite file that holds no Tabula database (refused, never filled)."""


class AlreadyExists(StoreError):
    """A name that must be unique (a league's, in its server) is taken."""


class UniqueViolation(Exception):
    """A unique constraint refused a write, in either backend's words (``constraint``: its
    name, where the backend tells it). Not a ``StoreError``: the store turns the ones a player
    can cause into one of those; any other is a fault, like any database error."""

    def __init__(self, message: str, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint
