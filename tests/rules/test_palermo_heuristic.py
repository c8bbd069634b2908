"""Palermo's computer players find their way: the distance they plan by prices police stones as
the rules do, and games among them end (spec 7)."""

from __future__ import annotations

from dataclasses import replace

from rules.arena import play_game
from rules.core import derive_seed
from rules.palermo import GAME
from rules.palermo.collecting import city_graph
from rules.palermo.heuristic import LOOPING, _cost_to, _rival_police, candidates, searchable
from rules.palermo.state import POLICE
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
# stones of players home, a pawn whose exact moves went round a few cells, and (the last) a
# pawn that the random moves meant to free it sent round the city for 222 rounds.
LONG_GAMES = [(4, "8c307a09aa38d630f6a0b473addfd059"), (5, "6af0e662f7367350f78e367d980bce84"),
              (5, derive_seed("pal5", 76))]


def test_games_among_easy_players_end() -> None:
    for players, seed in LONG_GAMES:
        played = play_game("palermo", players, ["easy"] * players, seed)
        assert played["rounds"] <= 2 * LOOPING, (seed, played["rounds"])
        # Nobody ran away with waiting bonuses while a pawn was stuck.
        assert max(played["scores"]) < 150, (seed, played["scores"])


def _stone_of_a_player_home(lead: int) -> tuple[str, str]:
    """Where seat 0, home ``lead`` points ahead of seat 1, puts its stone, which stands on d5
    in seat 1's corridor (seat 1's pawn on d7 is on its way to its door on d4)."""
    state = collecting_state(houses=CORRIDOR, pawns={1: "d7", 2: "f6"}, police={0: "d5"},
                             step=POLICE, home_order=(0,), bonus=(lead, 0, 0))
    legal = GAME.legal_actions(state, 0)
    chosen = candidates(state, 0, legal)[0]
    return str(chosen["type"]), str(chosen.get("to", "d5"))


def test_a_player_home_blocks_only_a_rival_who_could_still_catch_up() -> None:
    # Slowing a pawn that cannot catch up only pays every player home the waiting bonus
    # again: the stone steps out of the corridor. Against a close rival it stays.
    kind, to = _stone_of_a_player_home(lead=200)
    assert kind == "police" and to not in ("d4", "d5", "d6", "d7")
    assert _stone_of_a_player_home(lead=0) == ("keep", "d5")


def test_past_the_loop_round_the_searching_levels_play_the_planned_way() -> None:
    # Far behind, a pawn's margin is squashed flat and a search wandered for 100 rounds.
    state = collecting_state(houses=CORRIDOR, pawns={1: "d7"})
    assert searchable(replace(state, turns=LOOPING * state.players))
    assert not searchable(replace(state, turns=(LOOPING + 1) * state.players))
