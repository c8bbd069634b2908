"""What ``TABULA_DB`` names, a PostgreSQL URL or a SQLite file, and how to show it safely:
below both backends, which name it in their messages."""

from __future__ import annotations

from pathlib import Path

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def redacted(target: str | Path) -> str:
    """``target`` without a URL's password, for messages and logs."""
    url = str(target)
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, user = head.partition("://")
    return f"{scheme}://{user.split(':', 1)[0]}@{tail}"
