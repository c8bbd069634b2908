"""Computer players: no peeking, determinism, legal choices, level names.

The leak test: a state and its re-deal for the deciding seat (``determinize`` keeps that seat's
view) cannot be told apart by the seat, so every level must choose the same action in both.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from rules import ENTRIES, GAMES
from rules.core import Game, RulesError, derive_seed
from rules.players import LEVELS, choose, choose_from_snapshot, parse_level
from rules.players.registry import games_with_players
from rules.random_player import UniformRandomPlayer
from tests.rules.budgets import cap_budgets

SETTINGS = [(g, n) for g in games_with_players()
            for n in sorted({GAMES[g].min_players, max(2, GAMES[g].min_players)})]
DEPTHS = (4, 30)  # random decisions before the position is examined


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The properties do not depend on the budget; small ones keep the suite quick."""
    cap_budgets(monkeypatch, 12, 4)


def _position(game: Game, n: int, depth: int) -> tuple[Any, int]:
    # A short game is walked no further than its middle (its registry entry says where).
    depth = min(depth, ENTRIES[game.id].facts.midgame_moves)
    state = game.setup(n, f"pos-{depth}")
    chooser = UniformRandomPlayer(derive_seed("walk", game.id, depth))
    for _ in range(depth):
        active = sorted(game.active_seats(state))
        if not active:
            break
        state = game.apply(state, active[0], chooser.choose(game, state, active[0])).state
    active = sorted(game.active_seats(state))
    assert active, "the position walk ended the game; use a shorter walk"
    return state, active[-1]


@pytest.mark.parametrize(("game_id", "n"), SETTINGS)
@pytest.mark.parametrize("depth", DEPTHS)
def test_indistinguishable_states_give_the_same_decision(game_id: str, n: int,
                                                         depth: int) -> None:
    game = GAMES[game_id]
    state, seat = _position(game, n, depth)
    twin = game.determinize(state, seat, "another deal")
    assert game.view(twin, seat) == game.view(state, seat)
    for level in LEVELS:
        assert choose(game, state, seat, level, "s") == choose(game, twin, seat, level, "s"), level


@pytest.mark.parametrize(("game_id", "n"), SETTINGS)
def test_decisions_are_repeatable_and_legal(game_id: str, n: int) -> None:
    game = GAMES[game_id]
    state, seat = _position(game, n, DEPTHS[1])
    legal = game.legal_actions(state, seat)
    for level in LEVELS:
        first = choose(game, state, seat, level, "seed-1")
        assert first in legal, level
        assert choose(game, state, seat, level, "seed-1") == first, level
        game.apply(state, seat, first)


@pytest.mark.parametrize(("game_id", "n"), SETTINGS)
def test_the_random_level_is_the_seeded_uniform_player(game_id: str, n: int) -> None:
    """``choose`` hands the legal moves it listed to the uniform player (not listed twice);
    the pick is the one that player makes from the same seed on its own."""
    game = GAMES[game_id]
    for depth in DEPTHS:
        state, seat = _position(game, n, depth)
        for seed in ("a", "b", "c"):
            alone = UniformRandomPlayer(seed).choose(game, state, seat)
            if len(game.legal_actions(state, seat)) > 1:
                assert choose(game, state, seat, "random", seed) == alone


@pytest.mark.parametrize(("game_id", "n"), SETTINGS)
def test_the_pool_entry_point_reads_a_snapshot(game_id: str, n: int) -> None:
    game = GAMES[game_id]
    state, seat = _position(game, n, DEPTHS[0])
    snapshot = game.dump(state)
    pickle.dumps(snapshot)
    assert choose_from_snapshot(game_id, snapshot, seat, "normal", "x") == choose(
        game, state, seat, "normal", "x")


def test_a_short_game_among_easy_players_ends() -> None:
    game = GAMES["palermo"]
    state = game.setup(3, "short")
    for step in range(2000):
        active = sorted(game.active_seats(state))
        if not active:
            break
        action = choose(game, state, active[0], "easy", derive_seed("g", step))
        state = game.apply(state, active[0], action).state
    assert game.outcome(state) is not None


@pytest.mark.parametrize("name", ["expert", "", "hard!", "Hard "])
def test_level_names(name: str) -> None:
    if name == "Hard ":
        assert parse_level(name) == "hard"
        return
    with pytest.raises(RulesError, match="Levels: random, easy, normal, hard"):
        parse_level(name)


def test_an_unknown_level_is_refused_before_any_work() -> None:
    game = GAMES["palermo"]
    state = game.setup(3, "x")
    with pytest.raises(RulesError):
        choose(game, state, min(game.active_seats(state)), "grandmaster", "s")


def test_a_projection_mid_game_rewards_the_margin_only() -> None:
    from rules.players.values import rewards

    ahead, behind = rewards([10.0, 9.0], scale=5.0, final=False)
    assert ahead + behind == pytest.approx(1.0)
    assert 0.5 < ahead < 0.6  # a small lead is a small reward, no step for leading
    won, lost = rewards([10.0, 9.0], scale=5.0, final=True)
    assert won > 0.75 and lost < 0.25


def test_searching_levels_play_the_easy_choice_where_the_projection_is_flat() -> None:
    game = GAMES["palermo"]
    state = game.setup(3, "build")
    for step in range(6):  # still building the city: every score is zero
        seat = min(game.active_seats(state))
        for level in ("normal", "hard"):
            assert choose(game, state, seat, level, "s") == choose(game, state, seat, "easy", "s")
        state = game.apply(state, seat, choose(game, state, seat, "easy", str(step))).state


def test_minerva_easy_builds_its_city_instead_of_passing() -> None:
    game = GAMES["minerva"]
    state = game.setup(2, "engine")
    seat = min(game.active_seats(state))
    assert choose(game, state, seat, "easy", "s")["type"] != "pass"
