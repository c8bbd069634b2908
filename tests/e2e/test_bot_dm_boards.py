"""Whole games played from the boards held in DMs: a DM offers "My moves" only while its
member has something to do (the button is taken off in place once their part ends), a click
on an older board lists the moves of now or says what is true (whose turn it is, a part
already done), and at most one click in ten is refused as out of date."""

from __future__ import annotations

from pathlib import Path

import pytest

from rendering import has_renderer
from rules import ENTRIES, GAMES
from rules.core import Rng
from tests.e2e.harness import WAIT, Table, custom_id, mentioned_ids, table
from tests.e2e.test_bot_game import open_and_start
from tests.standin import Member, Message, StandIn

MAX_MOVES = 1500
HUMANS = ("alice", "bob")
MOVES = "tabula:board:moves"
# Palermo's pawns head home or to a business when they can: random walks make long games.
PREFERRED = ("home", "business")


def _moves_button(message: Message) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith(MOVES)), None)


class Clicks:
    """Every click on a DM board or its menu, and the answers that said "out of date"."""

    def __init__(self) -> None:
        self.made = 0
        self.stale = 0
        self.truths: list[str] = []

    def answered(self, text: str) -> None:
        self.made += 1
        self.stale += "out of date" in text


async def _pick_from(t: Table, member: Member, menu: Message, rng: Rng, clicks: Clicks) -> bool:
    s = t.standin
    pick_id = custom_id(menu, "tabula:pick")
    options = [o["value"] for o in menu.find_component(pick_id)["options"]]  # type: ignore[index]
    liked = [o for o in options if any(word in o for word in PREFERRED)] or options
    r = await s.select(member, menu, pick_id, [liked[rng.randbelow(len(liked))]])
    answer = await r.wait_reply(WAIT)
    clicks.answered(answer.text)
    return "Done" in answer.text


async def _click(t: Table, member: Member, board: Message, rng: Rng, clicks: Clicks) -> bool:
    """Click "My moves" on a DM board and play from its menu; whether a move was made."""
    moves_id = _moves_button(board)
    assert moves_id is not None
    r = await t.standin.click(member, board, moves_id)
    answer = await r.wait_reply(WAIT)
    clicks.answered(answer.text)
    if answer.message is None or not answer.message.custom_ids():
        if "moves to choose from" not in answer.text:  # not "too many for a menu: type them"
            clicks.truths.append(answer.text)
        return False
    return await _pick_from(t, member, answer.message, rng, clicks)


async def _typed(t: Table, member: Member, rng: Rng) -> None:
    s = t.standin
    dm = s.dm_channel(member)
    choices = []
    for typed in (*PREFERRED, ""):
        choices = await s.autocomplete(member, dm, "move", {"action": typed}, focused="action")
        if choices:
            break
    r = await s.slash(member, dm, "move",
                      {"action": choices[rng.randbelow(len(choices))].value, "confirm": True})
    assert "Done" in (await r.wait_reply(WAIT)).text


def _newest_board(t: Table, member: Member) -> Message | None:
    boards = [m for m in t.standin.dms(member)
              if any(a.filename.startswith("hand") for a in m.attachments)]
    return boards[-1] if boards else None


async def _settled(t: Table, board: Message) -> None:
    """Once a board is up, the newest DM board of a member it does not mention offers no
    moves (older DM boards, replaced by newer ones, answer with the moves of now)."""
    waiting = set(mentioned_ids(board))
    idle = [t.members[n] for n in HUMANS if t.members[n].id not in waiting]

    def offering() -> list[Message]:
        newest = (_newest_board(t, member) for member in idle)
        return [m for m in newest if m is not None and _moves_button(m)]

    await t.standin.wait_until(lambda: not offering(), WAIT,
                               "no moves button on the DM boards of members with nothing to do")


@pytest.mark.parametrize("game", sorted(g for g in GAMES if has_renderer(g)))
async def test_a_whole_game_from_dm_boards_is_seldom_out_of_date(
    game: str, standin: StandIn, tmp_path: Path
) -> None:
    async with table(standin, tmp_path / "dm.db") as t:
        s = t.standin
        for name in HUMANS:  # a pick plays at once: one click fewer per move
            r = await s.slash(t.members[name], s.dm_channel(t.members[name]), "settings",
                              {"preview": False})
            await r.wait_reply(WAIT)
        board = await open_and_start(t, game)
        rng = Rng(f"dm-boards-{game}")
        clicks = Clicks()
        by_id = {m.id: m for m in t.members.values()}
        from_dm = 0
        for _ in range(MAX_MOVES):
            if "Game over" in board.text:
                break
            await _settled(t, board)
            before = len(t.boards())
            waiting = mentioned_ids(board)
            member = by_id[waiting[rng.randbelow(len(waiting))]]
            # Now and then the other member clicks the newest board they hold that still
            # offers moves, as players do: never out of date, it says what is true.
            other = next(t.members[n] for n in HUMANS if t.members[n] is not member)
            held = [m for m in s.dms(other) if _moves_button(m)]
            if held and rng.randbelow(4) == 0 and other.id not in waiting:
                assert not await _click(t, other, held[-1], rng, clicks)
            boards = [m for m in s.dms(member) if _moves_button(m)]
            if boards and await _click(t, member, boards[-1], rng, clicks):
                from_dm += 1
            else:
                await _typed(t, member, rng)
            board = await t.next_board(before)
        assert "Game over" in board.text
        # A short game (its registry entry says how short) offers fewer moves to click.
        midgame = ENTRIES[game].facts.midgame_moves
        assert from_dm > min(5, midgame // 2) and clicks.made > min(10, midgame)
        assert clicks.stale * 10 <= clicks.made, (clicks.stale, clicks.made, clicks.truths)
        # A refusal says what is true: whose turn it is, or that the member's part is done.
        assert all("turn" in text or "part is done" in text for text in clicks.truths), (
            clicks.truths)
        # The game is over: no newest DM board offers moves any more (edited in place).
        await s.wait_until(
            lambda: not any((m := _newest_board(t, t.members[n])) and _moves_button(m)
                            for n in HUMANS), WAIT, "no moves button on DMs after the game")
        assert s.violations == []
        assert s.unhandled == []
