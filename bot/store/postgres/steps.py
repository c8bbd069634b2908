"""A change of a table's moves in one PostgreSQL statement.

The UPDATE of the table's row checks the version (PostgreSQL holds that row lock until commit
and re-checks the condition for a writer that waited on it, so of two processes racing on one
table exactly one wins) and the same statement appends the log rows, one per step: one
statement is one round trip, and the unique index on idempotency keys refuses the whole of it.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from bot.store.errors import DuplicateKey, StaleVersion
from bot.store.records import Step, last_snapshot
from bot.store.sql.tables import STALE, dumps, now


async def write_steps(conn: asyncpg.Connection, table_id: int, expected_version: int,
                    steps: Sequence[Step]) -> int:
    """The steps' one statement (its own transaction, or the caller's)."""
    last = steps[-1]
    entries = [s.entry for s in steps]
    try:
        version = await conn.fetchval(
            "WITH moved AS (UPDATE game_tables SET snapshot = $3, status = $4,"
            " version = $2 + $5, updated_at = $6 WHERE id = $1 AND version = $2"
            " RETURNING id),"
            " logged AS (INSERT INTO actions (table_id, version, kind, seat, member_id,"
            " action, text, irreversible, undoes, idem_key, created_at, notation)"
            " SELECT moved.id, $2 + e.n, e.kind, e.seat, e.member_id, e.action, e.text,"
            " e.irreversible, e.undoes, e.idem_key, $6, e.notation FROM moved,"
            " unnest($7::text[], $8::int[], $9::bigint[], $10::text[], $11::text[],"
            " $12::bool[], $13::bigint[], $14::text[], $15::text[]) WITH ORDINALITY"
            " AS e(kind, seat, member_id, action, text, irreversible, undoes, idem_key,"
            " notation, n))"
            " SELECT $2 + $5 FROM moved",
            table_id, expected_version, dumps(last_snapshot(steps)), str(last.status),
            len(steps), now(),
            [e.kind for e in entries], [e.seat for e in entries],
            [e.member_id for e in entries],
            [None if e.action is None else dumps(e.action) for e in entries],
            [e.text for e in entries], [e.irreversible for e in entries],
            [e.undoes for e in entries], [e.idem_key for e in entries],
            [e.notation for e in entries],
        )
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name == "one_action_per_key":
            raise DuplicateKey("That action was already received.") from exc
        raise StaleVersion(STALE) from exc
    if version is None:
        raise StaleVersion(STALE)
    return int(version)
