"""What a move tells the channel, or a member other than its mover, holds nothing that only a
hidden part of the game decides (DESIGN.md: secrets leave the engine only through ``view``).

Two tables of one game are played side by side through the table use cases. Before each move
the second is given either the same state, for a different move of the mover that leaves every
view an observer has unchanged (a Path card chosen in secret, which piece goes under a wolf), or
a twin of the state re-dealt from ``determinize`` (other seats' hands, deck order), for the
same move. Whenever an observer's view is the same at both tables before and after, everything
that observer is told must be the same too: the channel's narration and next players, standing
answers, DMs and their recaps, and the new lines of ``/history`` and of ``/export`` before
the end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.notices import Notice
from bot.store import open_store
from bot.tables import Tables
from bot.tables.live import Loaded
from bot.tables.narration import narrate
from bot.values import Member
from rules import ENTRIES, GAMES
from rules.core import Game, Rng, State
from rules.players import choose
from tests.conftest import ALICE, BOB, CAROL

MAX_STEPS = 700  # a bound on moves per game; each game's random play ends well within it
MAX_GAMES = 8  # a short game is played again until the check compared enough
ALTERNATIVES = 30  # moves tried as the different move of the same mover
LOG_EVERY = 4
DRAW_TRIES = 25
TWINS = 8  # re-deals tried for one whose draw the channel sees as the same
ALWAYS_SHARE = 4  # one move in this many is made the mover's standing answer


@pytest.fixture
async def sqlite_tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await open_store(str(tmp_path / "hidden.db"))
    yield Tables(store)
    await store.close()


def _views(game: Game, state: State, players: int) -> list[dict[str, Any]]:
    """Every observer's view: the channel's (index 0), then each seat's."""
    return [game.view(state, None), *(game.view(state, s) for s in range(players))]


def _same_for(before: tuple[list[Any], list[Any]], after: tuple[list[Any], list[Any]],
              observer: int) -> bool:
    return before[0][observer] == before[1][observer] and after[0][observer] == after[1][observer]


def secret_choice(game_id: str, action: dict[str, Any]) -> bool:
    """A move whose choice the rules keep from the other players (DESIGN.md's table of
    hidden information, declared in each game's registry entry): Hadrian's Wall's Path card
    until the reveal, the kind of a Palatinus wolf piece. Other moves are public as made, so
    two of them may be told apart even where they change nothing."""
    secret = ENTRIES[game_id].facts.secret_move
    return secret is not None and secret(action)


def _players(game_id: str) -> int:
    facts = ENTRIES[game_id].facts
    return facts.narration_seats or facts.seats


def _others_see(game: Game, state: State, seat: int, players: int) -> list[dict[str, Any]]:
    return [v for i, v in enumerate(_views(game, state, players)) if i != seat + 1]


def _pick(game: Game, state: State, seat: int, rng: Rng, step: int) -> dict[str, Any]:
    """A move of the easy computer player or a random one, preferring (among a few random
    ones) one that draws or reveals something: that is where hidden parts come out."""
    if rng.randbelow(2) == 0:
        return choose(game, state, seat, "easy", f"hidden-{step}")
    legal = game.legal_actions(state, seat)
    tried = [legal[rng.randbelow(len(legal))] for _ in range(DRAW_TRIES)]
    drawing = [a for a in tried if game.apply(state, seat, a).irreversible]
    return (drawing or tried)[0]


def _public_after(game: Game, state: State, seat: int, action: dict[str, Any]
                  ) -> dict[str, Any]:
    return game.view(game.apply(state, seat, action).state, None)


def _alternative(game: Game, state: State, seat: int, action: dict[str, Any],
                 players: int, rng: Rng) -> dict[str, Any] | None:
    """Another secret choice of ``seat`` after which everyone else's view is the same as
    after ``action``: nobody else can tell the two apart."""
    wanted = _others_see(game, game.apply(state, seat, action).state, seat, players)
    legal = [a for a in game.legal_actions(state, seat)
             if a != action and secret_choice(game.id, a)]
    for _ in range(min(ALTERNATIVES, len(legal))):
        other = legal.pop(rng.randbelow(len(legal)))
        if _others_see(game, game.apply(state, seat, other).state, seat, players) == wanted:
            return other
    return None


def _told(notice: Notice, mover: int) -> dict[int, Any]:
    """What each observer heard of a move: the channel (0) and each seat but the mover's."""
    heard: dict[int, Any] = {0: (notice.public_text, notice.next_names, notice.next_members)}
    for seat_notice in notice.private:
        if seat_notice.seat != mover:
            heard[seat_notice.seat + 1] = (seat_notice.text, seat_notice.recap, seat_notice.state)
    return heard


async def _set_state(tables: Tables, table_id: int, state: State, like: Loaded) -> None:
    """The second table's in-memory copy takes ``state`` and the first's standing answers."""
    loaded = await tables.live.load(table_id)
    loaded.state = state
    loaded.chain = None
    loaded.untold = set(like.untold)
    for seat, twin in zip(like.seats, list(loaded.seats), strict=True):
        if seat.standing != twin.standing:
            await tables.store.set_standing(table_id, seat.position, seat.standing)
            loaded.seats[seat.position] = replace(twin, standing=seat.standing)


async def _start_pair(tables: Tables, game_id: str, players: int, seed: str,
                      channels: tuple[int, int]) -> tuple[int, int, list[Member]]:
    members = [ALICE, BOB, CAROL][:players]
    ids = []
    for channel in channels:
        opened = await tables.open(game_id, channel, members[0], seat_order="join", seed=seed)
        for member in members[1:]:
            await tables.join(opened.table_id, member)
        await tables.start(opened.table_id, members[0])
        ids.append(opened.table_id)
    return ids[0], ids[1], members


async def _new_lines(tables: Tables, channel: int, seen: dict[str, int]) -> tuple[Any, Any]:
    history = await tables.history(channel)
    exported = await tables.export(channel)
    # Before the end the replay holds the public log only (its actions and seed come at the
    # end, when nothing is hidden any more).
    live = exported["seed"] is None
    log: list[Any] = list(exported["public_log"]) if live else []  # type: ignore[call-overload]
    new = history[seen.get("history", 0):], log[seen.get("log", 0):]
    seen["history"], seen["log"] = len(history), len(log)
    return new


def _enough(game_id: str, compared: dict[str, int]) -> bool:
    """The check compared something of each kind: a secret choice made in two ways, once as
    a standing answer, where the game has such choices."""
    secret = ENTRIES[game_id].facts.secret_move is not None
    return (compared["twin"] > 10 and compared["always"] > 0
            and (not secret or (compared["secret"] > 0 and compared["secret always"] > 0)))


@pytest.mark.parametrize("game_id", sorted(ENTRIES))
async def test_no_move_tells_others_what_only_a_hidden_part_decides(
    sqlite_tables: Tables, game_id: str
) -> None:
    compared = dict.fromkeys(
        ("alternative", "twin", "same", "always", "secret", "secret always"), 0)
    # A long game compares enough in one play; a short one is played again with new seeds.
    for round_ in range(MAX_GAMES):
        await _play_pair(sqlite_tables, game_id, round_, compared)
        if _enough(game_id, compared):
            break
    assert compared["twin"] > 10 and compared["always"] > 0
    if ENTRIES[game_id].facts.secret_move is not None:
        assert compared["secret"] > 0 and compared["secret always"] > 0


async def _play_pair(tables: Tables, game_id: str, round_: int, compared: dict[str, int]
                     ) -> None:
    """One game at two tables side by side, adding what it compared to ``compared``."""
    game, players = GAMES[game_id], _players(game_id)
    suffix = f"-{round_}" if round_ else ""
    channels = (9301 + 2 * round_, 9302 + 2 * round_)
    first, second, members = await _start_pair(tables, game_id, players,
                                               f"hidden-{game_id}{suffix}", channels)
    rng = Rng(f"hidden-texts-{game_id}{suffix}")
    seen_first: dict[str, int] = {}
    seen_second: dict[str, int] = {}
    over = False
    for step in range(MAX_STEPS):
        a = await tables.live.load(first)
        state = a.state
        assert state is not None
        active = sorted(game.active_seats(state))
        if not active:
            over = True
            break
        mover = active[rng.randbelow(len(active))]
        action = _pick(game, state, mover, rng, step)
        secret = secret_choice(game_id, action)
        other = _alternative(game, state, mover, action, players, rng) if secret else None
        if other is not None:
            kind, twin_state, twin_action = "alternative", state, other
        else:
            # A twin whose draws the channel would see differently is no use: the tables'
            # logs (recaps, /history) must stay alike for the moves that follow.
            kind, twin_action = "same", action
            twin_state = state
            wanted = _public_after(game, state, mover, action)
            # A seat with a standing answer must see the same too: its answer is played
            # for it as its own view allows, and the two tables must play alike.
            standing = [s.position for s in a.seats if s.standing and s.position != mover]
            for n in range(TWINS):
                twin = game.determinize(state, mover, f"twin-{step}-{n}")
                if _public_after(game, twin, mover, action) == wanted and all(
                        game.view(twin, s) == game.view(state, s) for s in standing):
                    kind, twin_state = "twin", twin
                    break
        await _set_state(tables, second, twin_state, a)
        before = (_views(game, state, players), _views(game, twin_state, players))
        always = rng.randbelow(ALWAYS_SHARE) == 0
        got = [
            await tables.act(table_id, members[mover], act, always=always)
            for table_id, act in ((first, action), (second, twin_action))
        ]
        states = [(await tables.live.load(t)).state for t in (first, second)]
        after = tuple(_views(game, s, players) for s in states if s is not None)
        assert len(after) == 2
        heard = [_told(n, mover) for n in got]
        # The logs' new lines, every few moves (each look reads the whole log).
        read = step % LOG_EVERY == 0 or got[0].over
        lines = [await _new_lines(tables, channels[0], seen_first),
                 await _new_lines(tables, channels[1], seen_second)] if read else [None, None]
        for observer in range(players + 1):
            if observer == mover + 1 or not _same_for(before, after, observer):  # type: ignore[arg-type]
                assert observer != 0 or kind == "twin", "the tables' logs went apart"
                continue
            where = f"{game_id} step {step} ({kind}, always={always}), observer {observer}"
            assert heard[0].get(observer) == heard[1].get(observer), where
            if observer == 0:
                assert lines[0] == lines[1], where
                compared[kind] += 1
                compared["always"] += always
                if kind == "alternative":
                    compared["secret"] += 1
                    compared["secret always"] += always
        if got[0].over:
            over = True
            break
    assert over, f"{game_id} did not end within {MAX_STEPS} moves"


def _draw_ahead(seed: str) -> tuple[State, int, dict[str, Any]]:
    """A Hadrian's Wall game played on until a seat can draw from the Fate deck (a Market
    purchase or a gladiator battle), with that move."""
    game = GAMES["hadrians-wall"]
    rng = Rng(seed)
    for game_number in range(20):
        state = game.setup(2, f"{seed}-{game_number}")
        while seats := sorted(game.active_seats(state)):
            for seat in seats:
                for action in game.legal_actions(state, seat):
                    if action["type"] == "battle" or action.get("from") == "deck":
                        return state, seat, action
            seat = seats[rng.randbelow(len(seats))]
            legal = game.legal_actions(state, seat)
            # A kind of move at random, then one of that kind: building comes up often.
            busy = [a for a in legal if a["type"] not in ("pass", "defend")] or legal
            kinds = sorted({a["type"] for a in busy})
            kind = kinds[rng.randbelow(len(kinds))]
            options = [a for a in busy if a["type"] == kind]
            state = game.apply(state, seat, options[rng.randbelow(len(options))]).state
    raise AssertionError("no draw from the Fate deck came up")


@pytest.mark.parametrize("seed", ["fate-1", "fate-2", "fate-3"])
def test_a_fate_card_drawn_in_the_year_is_told_as_the_table_sees_it(seed: str) -> None:
    """Spec 2.6 and 4.5: a card drawn for a Market purchase or a battle is drawn, used and
    discarded face up, so the channel may be told which it was, and its view shows it."""
    game = GAMES["hadrians-wall"]
    state, seat, action = _draw_ahead(seed)
    told = game.apply(state, seat, action)
    drawn = told.state.fate_draw != state.fate_draw
    assert drawn
    card = state.fate_draw[0]
    public = game.view(told.state, None)
    assert card in [c["id"] for c in public["fate_drawn"]]
    assert card in narrate(told.events, None) and card in game.describe(public)
    # Whatever the hidden deck order, the channel is told what its view shows, nothing more.
    for n in range(12):
        twin = game.apply(game.determinize(state, seat, f"{seed}-{n}"), seat, action)
        if game.view(twin.state, None) == public:
            assert narrate(twin.events, None) == narrate(told.events, None)
