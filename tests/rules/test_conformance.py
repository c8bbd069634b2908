"""The shared random-playout checks, run over every game in the registry and every player count.

A game lands in ``rules.GAMES`` and is checked here without editing this file.
"""

from __future__ import annotations

import pytest

from rules import GAMES
from rules.conformance import check_determinism, check_playout, check_seed_matters

SEEDS = ("alpha", "bravo")

CASES = [
    (game_id, players, seed)
    for game_id, game in sorted(GAMES.items())
    for players in range(game.min_players, game.max_players + 1)
    for seed in SEEDS
]


@pytest.mark.parametrize(("game_id", "players", "seed"), CASES)
def test_random_playout_keeps_the_contract(game_id: str, players: int, seed: str) -> None:
    game = GAMES[game_id]
    deep_every = getattr(game, "conformance_deep_every", 1)
    playout = check_playout(game, players, seed, deep_every=deep_every)
    check_determinism(game, players, seed, playout.actions)
    assert game.outcome(playout.final) is not None


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_setup_depends_on_the_seed(game_id: str) -> None:
    game = GAMES[game_id]
    check_seed_matters(game, game.min_players, ["s1", "s2", "s3", "s4"])


def test_registry_ids_match_their_games() -> None:
    for game_id, game in GAMES.items():
        assert game.id == game_id
        assert 1 <= game.min_players <= game.max_players
