"""Web page ids shared by both backends: random public ids of tables and leagues."""

from __future__ import annotations

import secrets

KINDS = ("table", "league")


def new_public_id() -> str:
    """16 URL-safe characters from 96 random bits: not guessable, not enumerable."""
    return secrets.token_urlsafe(12)


def check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"public ids are for {' and '.join(KINDS)}, not {kind!r}")
