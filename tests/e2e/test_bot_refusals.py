"""Every refusal is ephemeral: a member's mistake is told to that member only, whatever the
command, and no public trace (not even a "thinking…" placeholder) stays in the channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import GAMES
from tests.e2e.harness import Table, table
from tests.e2e.test_bot_game import open_and_start
from tests.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")

NO_TABLE = [
    ("game join", {}), ("game leave", {}), ("game add-bot", {}), ("game remove", {"seat": 1}),
    ("game start", {}), ("game status", {}), ("game abandon", {}), ("move", {"action": "x"}),
    ("move", {"action": "x", "confirm": True}), ("move", {}), ("board", {}), ("hand", {}),
    ("undo", {}), ("history", {}), ("export", {}),
]
STRANGER_AT_A_GAME = [
    ("game start", {}), ("game abandon", {}), ("game leave", {}), ("game remove", {"seat": 1}),
    ("move", {"action": "1 r0"}), ("move", {"action": "1 r0", "confirm": True}), ("move", {}),
    ("hand", {}), ("undo", {}), ("game new", {"game": "palatinus"}),
]


async def _all_refused_in_private(t: Table, who: str, commands: list[tuple[str, dict]]) -> None:
    s = t.standin
    public_before = len(t.bot_messages())
    for command, options in commands:
        record = await s.slash(t.members[who], t.channel, command, options)
        answer = await t.reply(record)
        assert answer.ephemeral, f"/{command} answered in public: {answer.text!r}"
        assert answer.text, f"/{command} gave no reason"
    assert len(t.bot_messages()) == public_before
    assert s.violations == []


async def test_refusals_without_a_table_are_private(standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db", names=("alice", "bob", "mallory")) as t:
        await _all_refused_in_private(t, "mallory", NO_TABLE)


async def test_refusals_to_a_stranger_at_a_game_are_private(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db", names=("alice", "bob", "mallory")) as t:
        await open_and_start(t)
        await _all_refused_in_private(t, "mallory", STRANGER_AT_A_GAME)
