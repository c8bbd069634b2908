"""Tables with other seeds play other games; the same view, level and seed the same move."""

from __future__ import annotations

import json

from rules import GAMES
from rules.core import derive_seed
from rules.players import DEFAULT_LEVEL, choose

TABLES = [f"table-{i}" for i in range(10)]
DECISIONS = 6  # Palermo: the building phase alone already tells the tables apart


def _opening(game_id: str, players: int, table: str, decisions: int) -> str:
    """The first ``decisions`` moves of an all-computer table at the default level, seeded
    the way a table seeds its computer seats (table seed, version, seat)."""
    game = GAMES[game_id]
    state = game.setup(players, table)
    moves = []
    for version in range(decisions):
        active = sorted(game.active_seats(state))
        if not active:
            break
        seat = active[0]
        action = choose(game, state, seat, DEFAULT_LEVEL, derive_seed(table, version, seat))
        moves.append([seat, action])
        state = game.apply(state, seat, action).state
    return json.dumps(moves, sort_keys=True)


def test_ten_palermo_tables_play_at_least_seven_different_games() -> None:
    openings = {_opening("palermo", 3, t, DECISIONS) for t in TABLES}
    assert len(openings) >= 7


def test_ten_palatinus_tables_open_in_at_least_three_ways() -> None:
    openings = {_opening("palatinus", 2, t, 1) for t in TABLES}
    assert len(openings) >= 3


def test_the_same_view_level_and_seed_give_the_same_move() -> None:
    for game_id, players in (("palermo", 3), ("palatinus", 2)):
        game = GAMES[game_id]
        state = game.setup(players, "same")
        seat = min(game.active_seats(state))
        twin = game.determinize(state, seat, "another deal")
        assert game.view(twin, seat) == game.view(state, seat)
        for seed in ("a", "b", "c"):
            move = choose(game, state, seat, DEFAULT_LEVEL, seed)
            assert choose(game, twin, seat, DEFAULT_LEVEL, seed) == move
            assert choose(game, state, seat, DEFAULT_LEVEL, seed) == move
