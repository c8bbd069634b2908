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


class NotTabula(StoreError):
    """An existing SQLite file that holds no Tabula database (refused, never filled)."""


class AlreadyExists(StoreError):
    """A name that must be unique (a league's, in its server) is taken."""
