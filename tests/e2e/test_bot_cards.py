"""Cards through Discord: a board post and a DM are one card each in the colour of the seat
they are about, and their detail and "Text view" buttons answer the presser alone, a seat's
own view only for its member."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ui.cards import accent_of
from bot.ui.details import NOT_YOURS
from rules import GAMES
from tests.e2e.cards import assert_dm_reads_short, assert_one_card, gallery_items
from tests.e2e.harness import WAIT, Table, running_bot, table
from tests.e2e.test_bot_hadrians_wall import start_three
from tests.standin import Message, StandIn

pytestmark = pytest.mark.skipif("hadrians-wall" not in GAMES, reason="needs Hadrian's Wall")


def accent(message: Message) -> int | None:
    return message.components[0].get("accent_color")


def ids_of(message: Message, prefix: str) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith(prefix)]


async def pressed(t: Table, who: str, message: Message, custom_id: str) -> Message:
    record = await t.standin.click(t.members[who], message, custom_id)
    answer = await record.wait_reply(WAIT)
    assert answer.ephemeral and answer.message is not None
    return answer.message


async def test_a_board_and_a_dm_are_cards_whose_details_open_for_the_presser(
        standin: StandIn, tmp_path: Path) -> None:
    async with table(standin, tmp_path / "e2e.db", closed_dms=("carol",)) as t:
        board = await start_three(t)
        assert_one_card(board)
        # Everyone chooses at once in Hadrian's Wall: the card is in the first seat's colour.
        assert accent(board) == accent_of(0)
        heading = board.text.splitlines()[0]
        assert "Hadrian's Wall" in heading and "Year 1 of 6" in heading
        assert {"My moves", "My hand", "Text view"} <= set(board.labels())

        # The board's detail opens for anyone who presses it, as a card of one image.
        [public_detail] = ids_of(board, "tabula:detail:")
        shown = await pressed(t, "carol", board, public_detail)
        assert_one_card(shown)

        await standin.wait_until(lambda: standin.dms(t.members["alice"]), WAIT, "alice's DM")
        dm = standin.dms(t.members["alice"])[-1]
        assert_one_card(dm)
        assert_dm_reads_short(dm)
        assert accent(dm) == accent_of(0)
        assert "Your turn" in dm.text.splitlines()[0]
        assert "It is your turn: **My moves** lists what you can play." in dm.text
        details = ids_of(dm, "tabula:detail:")
        assert len(details) >= 2  # the two halves of each sheet, one button each
        own = await pressed(t, "alice", dm, details[0])
        assert_one_card(own)
        [item] = gallery_items(own)
        assert "alice's left sheet" in str(item["description"]).lower()
        # Another member pressing alice's button is refused, and sees no image.
        refused = await pressed(t, "bob", dm, details[0])
        assert refused.text == NOT_YOURS and refused.attachments == []
        # "Text view" tells the whole view in words, for alice only.
        [text_id] = ids_of(dm, "tabula:text:")
        words = await pressed(t, "alice", dm, text_id)
        assert_one_card(words, images=0)
        assert "Your view in words" in words.text and len(words.text) > len(dm.text)
        assert (await pressed(t, "bob", dm, text_id)).text == NOT_YOURS

        # Closed DMs: /hand shows the same card, one image with its detail buttons.
        r = await standin.slash(t.members["carol"], t.channel, "hand")
        hand = (await t.reply(r)).message
        assert hand is not None and hand.ephemeral
        assert_one_card(hand)
        assert ids_of(hand, "tabula:detail:") and accent(hand) == accent_of(2)
        assert standin.violations == []


async def test_detail_and_text_view_buttons_answer_after_a_restart(
        standin: StandIn, tmp_path: Path) -> None:
    db = tmp_path / "e2e.db"
    async with table(standin, db) as t:
        board = await start_three(t)
        await standin.wait_until(lambda: standin.dms(t.members["bob"]), WAIT, "bob's DM")
        dm = standin.dms(t.members["bob"])[-1]
    # The same database, a new process-worth of bot: the buttons are routed by their ids.
    async with running_bot(standin, db) as bot:
        t.bot = bot
        [public_detail] = ids_of(board, "tabula:detail:")
        assert_one_card(await pressed(t, "alice", board, public_detail))
        own = await pressed(t, "bob", dm, ids_of(dm, "tabula:detail:")[-1])
        assert_one_card(own)
        [text_id] = ids_of(dm, "tabula:text:")
        assert "Your view in words" in (await pressed(t, "bob", dm, text_id)).text
        assert (await pressed(t, "carol", dm, text_id)).text == NOT_YOURS
        assert standin.violations == []
