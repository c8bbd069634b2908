"""A standing answer (``/move ... always:true``) is confirmed to its member only: it may name
what they keep hidden (a Path card before the reveal, the piece under a wolf), so the
channel hears of the move as of any other, and nothing of the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import GAMES
from tests.e2e.harness import mentioned_ids, table
from tests.e2e.test_bot_game import open_and_start
from tests.standin import StandIn

pytestmark = pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus")


async def test_a_standing_answer_is_told_to_its_member_alone(
    standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "e2e.db") as t:
        board = await open_and_start(t)
        mover = next(m for m in t.members.values() if m.id == mentioned_ids(board)[0])
        choices = await standin.autocomplete(mover, t.channel, "move", {"action": ""},
                                             focused="action")
        move = choices[0].value
        before = len(t.boards())
        r = await standin.slash(mover, t.channel, "move", {"action": move, "always": True})
        answer = await t.reply(r)
        assert answer.ephemeral
        assert f"From now on, “{move}” will be played for you whenever it is legal" in answer.text
        await t.next_board(before)
        for message in t.bot_messages():
            assert "will be played for you" not in message.text, message.text
        assert standin.violations == []
