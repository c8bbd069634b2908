"""``record``, one change of a table, written the same way by both stores: a chain of one step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.records import NewAction, Status, Step


class OneStep:
    async def record_steps(self, table_id: int, expected_version: int, steps: Sequence[Step]
                           ) -> int:
        raise NotImplementedError

    async def record(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        entry: NewAction,
        status: str = Status.PLAYING,
    ) -> int:
        """Write the new snapshot and its log entry; returns the new version once durable.

        ``StaleVersion`` if the table moved on since ``expected_version`` was read;
        ``DuplicateKey`` if ``entry.idem_key`` was recorded before."""
        return await self.record_steps(table_id, expected_version,
                                       [Step(snapshot, entry, status)])
