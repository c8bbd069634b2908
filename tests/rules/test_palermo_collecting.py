"""Phase 2 scenarios: movement, income, police stones, home and the end (spec 7)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import IllegalAction
from rules.palermo import GAME
from rules.palermo.collecting import city_graph, own_doors
from rules.palermo.state import MOVE, OVER, POLICE, WALK, PalermoState
from rules.random_player import UniformRandomPlayer
from tests.rules.test_palermo_fixtures import (
    CORRIDOR,
    cell,
    collecting_state,
    house,
    legal_moves,
)


def move(to: str, cost: int, end: str) -> dict[str, Any]:
    return {"type": "move", "to": to, "cost": cost, "end": end}


def triples(state: PalermoState) -> set[tuple[str, int, str]]:
    return {(m["to"], m["cost"], m["end"]) for m in legal_moves(state)}


def own_corridor(owner: int) -> dict[str, Any]:
    """The corridor city with the door on d4 belonging to ``owner``."""
    return {**CORRIDOR, "B2": house("H3", "SE", owner)}


def test_income_example_allowance_7_business_3_away_scores_4() -> None:
    # Spec 7.4 ending 2 and the Sumo example: allowance 7, business 3 squares away -> 4 points.
    state = collecting_state(houses=own_corridor(0), pawns={0: "d7"}, collected={0: 4})
    assert state.allowance(0) == 7
    legal = GAME.legal_actions(state, 0)
    assert move("d4", 3, "business") in legal and {"type": "walk_on"} in legal
    after = GAME.apply(state, 0, move("d4", 3, "business")).state
    assert after.score(0) == 4 and after.income[0] == 4
    assert after.collected[0] == 5 and after.allowance(0) == 8  # from the next turn
    b2 = after.geo.parse_space("B2")
    assert b2 is not None
    tile = after.tiles[b2]
    assert tile is not None and not tile.chip
    assert after.pawns[0] == cell(after, "d4")


def test_collecting_with_no_points_left_still_takes_the_chip() -> None:
    # Spec 7.4 ending 2 and 8.2: arriving with exactly 0 points left takes the chip, raises
    # the allowance, and earns nothing.
    state = collecting_state(houses=own_corridor(0), pawns={0: "d7"})
    after = GAME.apply(state, 0, move("d4", 3, "business")).state
    assert after.score(0) == 0 and after.collected[0] == 1 and after.allowance(0) == 4


def test_a_pawn_may_walk_past_its_own_door() -> None:
    # Spec 7.4 ending 2 ("may stop"): the door d6 is the player's, yet the pawn may pass it.
    houses = {**CORRIDOR, "B3": house("H2", "SE", 0)}  # door cell d6
    state = collecting_state(houses=houses, pawns={0: "d4"})
    assert triples(state) == {("d6", 2, "business")}
    legal = GAME.legal_actions(state, 0)
    assert {"type": "walk_on"} in legal
    walking = GAME.apply(state, 0, {"type": "walk_on"}).state
    assert walking.step == WALK and GAME.active_seats(walking) == {0}
    assert triples(walking) == {("d7", 3, "exact")}
    after = GAME.apply(walking, 0, move("d7", 3, "exact")).state
    assert after.collected[0] == 0 and after.pawns[0] == cell(after, "d7")


def test_a_full_move_is_refused_until_the_player_walks_on() -> None:
    # The turn's decisions (README): with a stop on offer, 'walk on' comes before the
    # destination of a full move.
    houses = {**CORRIDOR, "B3": house("H2", "SE", 0)}
    state = collecting_state(houses=houses, pawns={0: "d4"})
    with pytest.raises(IllegalAction, match="walk on"):
        GAME.apply(state, 0, move("d7", 3, "exact"))


def test_entering_an_opponents_police_stone_costs_an_extra_point() -> None:
    # Spec 7.4 cost: +1 for entering a space with another colour's stone. The stone on d6
    # makes d6 cost 1 + 2 = 3, so d7 (4) is out of reach of 3 points.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4"}, police={1: "d6"})
    assert triples(state) == {("d6", 3, "exact")}


def test_crossing_your_own_police_stone_costs_nothing_extra() -> None:
    # Spec 7.4: a pawn passes or lands on its own stone without penalty.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4"}, police={0: "d6"})
    assert triples(state) == {("d7", 3, "exact")}


def test_ending_on_an_opponents_stone_costs_a_point_next_turn_and_freezes_it() -> None:
    # Spec 7.4 and 7.5: landing on another colour's stone with the next-to-last point; next
    # turn the pawn has 1 point less, and the stone may not move on its owner's next turn.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d4", 1: "r5", 2: "r30"}, police={1: "d6"}
    )
    after = GAME.apply(state, 0, move("d6", 3, "exact")).state
    assert after.penalty[0] == 1 and after.frozen[1]
    # Player 1's turn: the frozen stone (with a pawn on it, too) offers no police decision.
    assert after.turn == 1 and after.step == MOVE
    moved = GAME.apply(after, 1, legal_moves(after)[0]).state
    assert not moved.frozen[1]  # the block lasts one turn of its owner
    # Player 2, then back to player 0 with one point less.
    assert moved.turn == 2 and moved.step == POLICE
    moved = GAME.apply(moved, 2, {"type": "keep"}).state
    moved = GAME.apply(moved, 2, legal_moves(moved)[0]).state
    assert moved.turn == 0
    view = GAME.view(moved, 0)
    assert view["budget"] == 2


def test_a_stone_under_a_pawn_cannot_move() -> None:
    # Spec 7.5: while any pawn rests on a police stone, the stone cannot move.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d6", 1: "r5"}, police={0: "d6"}, step=POLICE
    )
    assert GAME.view(state, None)["police"][0]["may_move"] is False


def test_police_stones_keep_their_distance_and_avoid_pieces() -> None:
    # Spec 7.5: a stone goes on a street or ring cell with no pawn and no stone, never
    # orthogonally next to another stone (diagonally is fine), and not on Start/Finish.
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d4", 1: "h8"}, police={1: "g4"}, step=POLICE
    )
    targets = {a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "police"}
    assert {"g3", "g5", "f4", "h4"}.isdisjoint(targets)  # next to the stone on g4
    assert {"h3", "h5", "f5"} <= targets  # diagonal neighbours (f3 is a roof)
    assert "g4" not in targets and "h8" not in targets and "d4" not in targets
    assert {"a1", "b1", "a2", "b2"}.isdisjoint(targets)  # the Start/Finish tile
    assert {"type": "keep"} in GAME.legal_actions(state, 0)
    after = GAME.apply(state, 0, {"type": "police", "to": "k10"}).state
    assert after.police[0] == cell(after, "k10") and after.step == MOVE


def test_a_blocked_pawn_stops_one_space_short() -> None:
    # Spec 7.4 ending 4: the only cell 3 points away (d7) holds a pawn, so the pawn stops on
    # the free cell it reaches with the most points, d6.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4", 1: "d7"})
    assert triples(state) == {("d6", 2, "blocked")}
    after = GAME.apply(state, 0, move("d6", 2, "blocked")).state
    assert after.pawns[0] == cell(after, "d6") and after.score(0) == 0


def test_a_pawn_cannot_land_on_a_stone_with_its_last_point() -> None:
    # Spec 7.4: with the stone on d7 the landing would cost 4 of 3 points; the pawn remains
    # back one space.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4"}, police={1: "d7"})
    assert triples(state) == {("d6", 2, "blocked")}


def test_no_cell_is_entered_twice_in_one_turn() -> None:
    # Spec 7.4 [design choice] simple paths: from the corridor's end, 4 points reach only the
    # cells round d7; shuttling back to d5 or d6 is not allowed unless the option is off.
    state = collecting_state(houses=CORRIDOR, pawns={0: "d4"}, collected={0: 1})
    assert triples(state) == {("c7", 4, "exact"), ("e7", 4, "exact"), ("d8", 4, "exact")}
    loose = collecting_state(
        houses=CORRIDOR, pawns={0: "d4"}, collected={0: 1}, options={"simple_paths": False}
    )
    assert {("d6", 4, "exact"), ("d4", 4, "exact")} <= triples(loose)


def test_bypass_jumps_reach_the_far_corner_in_two_points() -> None:
    # Spec 7.3 (b) and (d): from a ring space to the corner of its side in one move, then to
    # the next corner in one more.
    state = collecting_state(houses=CORRIDOR, pawns={0: "r5"}, penalty=(1, 0, 0))
    moves = triples(state)
    assert ("r27", 2, "exact") in moves and ("r40", 2, "exact") in moves
    assert ("r7", 2, "exact") in moves  # two plain steps along the side


def test_several_pawns_may_share_start_finish() -> None:
    # Spec 7.1 / 11.1: Start/Finish cells hold any number of pawns.
    state = collecting_state(houses=CORRIDOR, pawns={0: "e1", 1: "b1"})
    assert ("b1", 3, "exact") in triples(state)


def test_home_with_leftover_points_scores_them() -> None:
    # Spec 7.4 ending 3 and 7.6: with every chip collected, entering a Start/Finish cell ends
    # the move and the points left over are scored.
    state = collecting_state(houses=CORRIDOR, pawns={0: "c1"}, collected={0: 11})
    assert ("b1", 1, "home") in triples(state)
    after = GAME.apply(state, 0, move("b1", 1, "home")).state
    assert after.leftover[0] == 13 and after.score(0) == 13
    assert after.home_order == (0,) and after.phase != OVER


@pytest.mark.parametrize(("players", "bonus"), [(3, 5), (4, 4), (5, 3)])
def test_the_waiting_bonus_is_paid_each_round_at_home(players: int, bonus: int) -> None:
    # Spec 7.6: a home player scores 5/4/3 (3/4/5 players) at each of their turns while
    # someone is still out, and may still place their police stone.
    pawns = {0: "b1", **{s: f"r{3 * s + 2}" for s in range(1, players)}}
    state = collecting_state(
        players=players, houses=CORRIDOR, pawns=pawns, turn=players - 1, home_order=(0,)
    )
    transition = GAME.apply(state, players - 1, legal_moves(state)[0])
    after = transition.state
    assert after.turn == 0 and after.bonus[0] == bonus and after.step == POLICE
    assert "waiting_bonus" in [e.kind for e in transition.events]
    after = GAME.apply(after, 0, {"type": "keep"}).state
    assert after.turn == 1 and after.bonus[0] == bonus


def test_the_game_ends_when_the_last_pawn_gets_home() -> None:
    # Spec 7.6 and 7.7: the last pawn home ends the game at once; highest score wins.
    state = collecting_state(
        houses=CORRIDOR,
        pawns={0: "c1", 1: "a1", 2: "b2"},
        collected={0: 11, 1: 11, 2: 11},
        home_order=(1, 2),
        income=(5, 20, 1),
        bonus=(0, 10, 5),
    )
    after = GAME.apply(state, 0, move("b1", 1, "home")).state
    assert after.phase == OVER and GAME.active_seats(after) == frozenset()
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.scores == (18, 30, 6)
    assert outcome.ranking == ((1,), (0,), (2,))
    assert outcome.breakdown[0] == {
        "income": 5, "home_leftover": 13, "waiting_bonus": 0, "total": 18
    }
    assert GAME.view(after, None)["outcome"]["ranking"] == [[1], [0], [2]]


def test_equal_scores_share_a_place_unless_the_first_home_tie_break_is_chosen() -> None:
    # Spec 7.7 [design choice]: ties are shared; optionally the player home first wins them.
    common: dict[str, Any] = {
        "houses": CORRIDOR,
        "pawns": {0: "c1", 1: "a1", 2: "b2"},
        "collected": {0: 11, 1: 11, 2: 11},
        "home_order": (2, 1),
        "income": (0, 13, 1),
    }
    shared = GAME.apply(collecting_state(**common), 0, move("b1", 1, "home")).state
    outcome = GAME.outcome(shared)
    assert outcome is not None and outcome.ranking == ((0, 1), (2,))
    strict = collecting_state(options={"tie_break": "first_home"}, **common)
    outcome = GAME.outcome(GAME.apply(strict, 0, move("b1", 1, "home")).state)
    assert outcome is not None and outcome.ranking == ((1,), (0,), (2,))


def test_the_private_view_lists_the_reachable_destinations() -> None:
    # Only the player to move gets their destinations; nothing else differs (spec 9).
    state = collecting_state(houses=own_corridor(0), pawns={0: "d7"}, collected={0: 4})
    mine, public = GAME.view(state, 0), GAME.view(state, None)
    assert public["reachable"] is None and GAME.view(state, 1)["reachable"] is None
    cells = {r["cell"]: r["moves"] for r in mine["reachable"]}
    assert {"cost": 3, "end": "business"} in cells["d4"]
    assert {k: v for k, v in mine.items() if k not in ("reachable", "observer")} == {
        k: v for k, v in public.items() if k not in ("reachable", "observer")
    }


def test_jumps_can_be_set_to_charge_for_the_stones_they_pass_over() -> None:
    # Spec 7.3 [design choice] jumps_pass_over: by default a jump ignores what it skips.
    # From r5, r1 then r40 costs 2; with a stone on r3 and the setting on, r5 -> r1 costs 2.
    common: dict[str, Any] = {
        "houses": CORRIDOR, "pawns": {0: "r5"}, "police": {1: "r3"}, "penalty": (1, 0, 0)
    }
    assert ("r40", 2, "exact") in triples(collecting_state(**common))
    strict = collecting_state(options={"jumps_pass_over": True}, **common)
    assert ("r40", 2, "exact") not in triples(strict)
    assert ("r27", 2, "exact") in triples(strict)  # r5 -> r14 -> r27 skips no stone


def test_police_spacing_can_count_the_ends_of_a_jump() -> None:
    # Spec 7.5 [design choice] police_spacing: jump links are not adjacency by default.
    common: dict[str, Any] = {
        "houses": CORRIDOR, "pawns": {0: "d7"}, "police": {1: "r1"}, "step": POLICE
    }

    def targets(state: PalermoState) -> set[str]:
        return {a["to"] for a in GAME.legal_actions(state, 0) if a["type"] == "police"}

    assert "r7" in targets(collecting_state(**common))
    spaced = collecting_state(options={"police_spacing": "steps_and_jumps"}, **common)
    assert "r7" not in targets(spaced) and "r30" in targets(spaced)


def test_police_may_be_allowed_on_start_finish() -> None:
    # Spec 7.5 [design choice] police_on_start_finish.
    common: dict[str, Any] = {
        "houses": CORRIDOR, "pawns": {0: "d7", 1: "h8", 2: "k3"}, "step": POLICE
    }
    plain = {a.get("to") for a in GAME.legal_actions(collecting_state(**common), 0)}
    state = collecting_state(options={"police_on_start_finish": True}, **common)
    allowed = {a.get("to") for a in GAME.legal_actions(state, 0)}
    assert "a1" not in plain and {"a1", "b1", "a2", "b2"} <= allowed


def test_a_blocked_pawn_may_be_set_to_stop_anywhere_short() -> None:
    # Spec 7.4 ending 4 [design choice] blocked_stop = "any_cost".
    state = collecting_state(
        houses=CORRIDOR, pawns={0: "d4", 1: "d7"}, options={"blocked_stop": "any_cost"}
    )
    assert triples(state) == {("d5", 1, "blocked"), ("d6", 2, "blocked")}


# A 5-player city whose last houses waived Rule 3 (no placement passed it) and walled
# Start/Finish in with a few doors, every other door outside (found by the arena: easy
# players built it, and the game then never ended).
WALLED_IN_SEED = "26e377fec039abc44606dd521d099d58"
WALLED_IN_BUILD = [
    "SF C3",
    "H3 C2 door SW",
    "H3 C1 door NE",
    "H3 B1 door NE",
    "H1 D1 door NW",
    "H3 D2 door SW",
    "H2 D3 door NW",
    "H2 D4 door NW",
    "H3 B2 door SE",
    "H1 B3 door NE",
    "H3 E2 door SW",
    "H2 A3 door NW",
    "H3 E4 door NW",
    "H1 A2 door SW",
    "H2 A4 door NW",
    "H1 E1 door NW",
    "H2 B4 door NE",
    "H3 C4 door SE",
    "H1 A1 door SW",
    "H2 A5 door NW",
    "H2 F2 door SE",
    "H3 B5 door NE",
    "H1 E3 door SW",
    "H1 F3 door NW",
    "H2 C5 door NE",
    "H1 F1 door NW",
    "H2 D5 door NW",
    "H1 C6 door SE",
    "H1 F4 door NW",
    "H2 E5 door NW",
    "H2 F5 door SE",
    "H3 B6 door NE",
    "H1 A6 door SE",
    "H1 E6 door SE",
    "H2 F6 door SW",
    "H3 D6 door NE",
]


def _reached(graph: Any, sources: frozenset[int]) -> set[int]:
    seen, frontier = set(sources), list(sources)
    while frontier:
        node = frontier.pop()
        for other, _ in graph.edges[node]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen


def test_doors_start_finish_cannot_reach_lose_their_chips_and_the_game_ends() -> None:
    """Spec 6.2's waiver of Rule 3 can wall Start/Finish in. A door no pawn can reach from it
    cannot be visited, like a door walled in itself: its chip leaves the game, so every pawn
    can still collect what is left and go home."""
    state = GAME.setup(5, WALLED_IN_SEED)
    for text in WALLED_IN_BUILD:
        [seat] = GAME.active_seats(state)
        state = GAME.apply(state, seat, GAME.parse_action(state, seat, text)).state
    assert state.phase != "build"
    graph = city_graph(state)
    ring = frozenset(range(state.geo.city_count, state.geo.node_count))
    home = _reached(graph, graph.start)
    assert not home & ring  # walled in: the case at hand
    for seat in range(5):
        doors = own_doors(state, seat)
        assert doors and doors <= home
        assert state.lost[seat] == state.chips_total() - len(doors)
    player = UniformRandomPlayer("walled in")
    for _ in range(5_000):
        active = sorted(GAME.active_seats(state))
        if not active:
            break
        state = GAME.apply(state, active[0], player.choose(GAME, state, active[0])).state
    assert state.phase == OVER
