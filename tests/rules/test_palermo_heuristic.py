"""Palermo's computer players find their way: the distance they plan by prices police stones as
the rules do, and games among them end (spec 7)."""

from __future__ import annotations

from rules.arena import play_game
from rules.palermo.collecting import city_graph
from rules.palermo.heuristic import LOOPING, _cost_to, _rival_police
from tests.rules.test_palermo_fixtures import CORRIDOR, cell, collecting_state, legal_moves


def test_the_planned_cost_of_a_walk_is_what_the_rules_charge() -> None:
    # Spec 7.3: entering a rival's stone costs one point more; one's own costs nothing more.
    for police, extra in (({1: "d6"}, 1), ({0: "d6"}, 0), ({}, 0)):
        state = collecting_state(houses=CORRIDOR, pawns={0: "d4"}, police=police,
                                 collected={0: 1})
        charged = {m["to"]: m["cost"] for m in legal_moves(state) if m["end"] == "exact"}
        planned = _cost_to(city_graph(state), frozenset({cell(state, "d7")}),
                           _rival_police(state, 0))
        assert planned[cell(state, "d4")] == 3 + extra
        if "d7" in charged:
            assert charged["d7"] == planned[cell(state, "d4")]


# Games among easy players that once went on for hundreds of rounds: a pawn chased by the
# stones of players home, a pawn whose exact moves went round a few cells.
LONG_GAMES = [(4, "8c307a09aa38d630f6a0b473addfd059"), (5, "6af0e662f7367350f78e367d980bce84")]


def test_games_among_easy_players_end() -> None:
    for players, seed in LONG_GAMES:
        played = play_game("palermo", players, ["easy"] * players, seed)
        assert played["rounds"] <= 5 * LOOPING, (seed, played["rounds"])
