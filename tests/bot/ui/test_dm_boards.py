"""Which DM boards lose their "My moves" button: those whose member has nothing to do as of
the newest notice of the table, even when notices are told out of order."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.notices import Notice
from bot.ui.cards import Card
from bot.ui.dm_boards import YOUR_PART_DONE, DmBoards, dm_actions
from bot.ui.ids import Mark
from bot.ui.rate_limit import Pacer

TABLE = 7


def _notice(version: int, waiting: tuple[int, ...], status: str = "playing") -> Notice:
    return Notice(TABLE, "palatinus", version, status, "", next_members=waiting)


def _message(message_id: int) -> discord.Message:
    return cast(discord.Message, SimpleNamespace(id=message_id, channel=SimpleNamespace(id=5)))


def _card(notice: Notice, member: int, url: str | None = None) -> Card:
    actions = dm_actions(notice, member, member - 1, Mark(fingerprint="ab"),
                         (("part1", "Your sheet"),), url)
    return Card("### **Palatinus** · Turn 3 · Your turn", body="Your move.",
                hint="It is your turn: **My moves** lists what you can play.",
                filename="hand.png", alt="Your tiles.", actions=actions, game_id="palatinus",
                stage="Turn 3")


def _boards() -> DmBoards:
    return DmBoards(cast(Any, None), Pacer())


def test_a_board_is_idle_once_its_member_is_no_longer_on_the_move() -> None:
    boards = _boards()
    sent = _notice(5, (1, 2))
    boards.keep(sent, 1, 5, _message(50), _card(sent, 1))
    boards.keep(sent, 2, 5, _message(51), _card(sent, 2))
    assert boards.idle(sent) == []
    assert boards.idle(_notice(6, (2,))) == [(1, (5, 50))]
    assert boards.idle(_notice(7, (2,))) == []  # taken off once; 2 still on the move
    assert boards.idle(_notice(9, ())) == [(2, (5, 51))]  # a computer's turn


def test_every_board_is_idle_when_the_game_ends() -> None:
    boards = _boards()
    boards.keep(_notice(5, (1,)), 1, 5, _message(50), _card(_notice(5, (1,)), 1))
    boards.keep(_notice(6, (2,)), 2, 6, _message(60), _card(_notice(6, (2,)), 2))
    assert sorted(boards.idle(_notice(7, (1, 2), "over"))) == [(1, (5, 50)), (2, (5, 60))]


def test_a_board_sent_after_a_newer_notice_was_told_is_judged_by_the_newer() -> None:
    boards = _boards()
    assert boards.idle(_notice(9, (2,))) == []  # the newer notice went out first
    older = _notice(8, (1, 2))
    boards.keep(older, 1, 8, _message(80), _card(older, 1))
    assert boards.idle(older) == [(1, (5, 80))]


def test_a_member_not_on_the_move_gets_no_board_to_remember() -> None:
    boards = _boards()
    notice = _notice(3, (2,))
    boards.keep(notice, 1, 3, _message(30), _card(notice, 1))
    assert boards.idle(_notice(4, ())) == []


class _Edited:
    """A DM message's edits, as ``DmBoards.retire`` makes them."""

    def __init__(self) -> None:
        self.views: list[discord.ui.LayoutView] = []

    def get_partial_messageable(self, channel_id: int) -> _Edited:
        return self

    def get_partial_message(self, message_id: int) -> _Edited:
        return self

    async def edit(self, *, view: discord.ui.LayoutView) -> None:
        self.views.append(view)


def _labels(view: discord.ui.LayoutView) -> list[tuple[str | None, str | None]]:
    return [(item.label, item.url) for item in view.walk_children()
            if isinstance(item, discord.ui.Button)]


def _texts(view: discord.ui.LayoutView) -> list[str]:
    return [item.content for item in view.walk_children()
            if isinstance(item, discord.ui.TextDisplay)]


async def test_a_retired_board_keeps_its_link_to_the_seats_web_view() -> None:
    edited = _Edited()
    boards = DmBoards(cast(Any, edited), Pacer())
    url = "https://games.example.org/p/abc/0?sig=x"
    boards.keep(_notice(5, (1, 2)), 1, 5, _message(50), _card(_notice(5, (1, 2)), 1, url))
    boards.keep(_notice(5, (1, 2)), 2, 5, _message(51), _card(_notice(5, (1, 2)), 2))
    await boards.retire(_notice(6, ()))
    with_link, without = edited.views
    assert ("My view on the web", url) in _labels(with_link)
    assert all(u is None for _, u in _labels(without))  # none was sent: none is added
    assert all(label != "My moves" for label, _ in _labels(with_link) + _labels(without))
    # The card stays whole: its words, its image (named, not sent again) and its details;
    # its heading names nobody's turn, and what the member can do is said as of now.
    for view in (with_link, without):
        assert _texts(view) == ["### **Palatinus** · Turn 3", "Your move.", YOUR_PART_DONE]
        [gallery] = [i for i in view.walk_children() if isinstance(i, discord.ui.MediaGallery)]
        assert [(m.media.url, m.description) for m in gallery.items] == [
            ("attachment://hand.png", "Your tiles.")]
        assert ("Your sheet", None) in _labels(view) and ("Text view", None) in _labels(view)


async def test_a_retired_board_names_nobody_s_turn_over_its_older_image() -> None:
    """Its image is the moment it was sent ("To play: you"): the heading says neither that
    moment's turn nor the one of now, which the image would contradict."""
    edited = _Edited()
    boards = DmBoards(cast(Any, edited), Pacer())
    boards.keep(_notice(5, (1,)), 1, 5, _message(50), _card(_notice(5, (1,)), 1))
    now = replace(_notice(6, (2,)), next_names=("Bob",))
    await boards.retire(now)
    (view,) = edited.views
    heading = _texts(view)[0]
    assert heading == "### **Palatinus** · Turn 3"
    assert "Bob" not in heading and "Your turn" not in heading
