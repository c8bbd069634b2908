"""Setup, tile laying and placement (spec §3.2, §4, §5, §6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.core import IllegalAction, InvalidAction, NotYourTurn, Rng
from rules.palatinus import GAME
from rules.palatinus.components import KINDS
from rules.palatinus.placing import soldier_free_turns
from tests.rules.test_palatinus_helpers import board_state, pinned, play_randomly

S = KINDS.index("S")


def screen(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(k, 0) for k in KINDS)


# ---------------------------------------------------------------------------------- setup


def test_centre_tile_is_random_and_carries_the_palatinus_laurel() -> None:
    # §4.2: a random tile goes in the centre with the laurel worth 6.
    centres = set()
    for seed in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"):
        state = GAME.setup(3, seed)
        centre = state.tiles[0]
        assert centre.position == 0
        assert state.laurels == ((centre.letter, 6),)
        centres.add(centre.letter)
    assert len(centres) > 1


def test_setup_options_pin_tiles_laurels_and_start_seat() -> None:
    # §4: every random part of setup can be pinned.
    state = GAME.setup(4, "any", pinned(start_seat=2))
    assert state.tiles[0].letter == "A" and state.current_tile == "B"
    assert state.turn == 2 and state.start_seat == 2
    assert state.laurel_stack == (3, 4, 5, 3, 4, 5)


@pytest.mark.parametrize(
    ("players", "total", "soldiers"), [(2, 16, 2), (3, 12, 2), (4, 8, 1), (5, 7, 1)]
)
def test_inhabitants_per_player_count(players: int, total: int, soldiers: int) -> None:
    # §5: 16 / 12 / 8 / 7 pieces per player.
    state = GAME.setup(players, "x")
    for seat in range(players):
        assert sum(state.screens[seat]) == total
        assert state.screens[seat][S] == soldiers


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidAction):
        GAME.options({"no_such_option": 1})
    with pytest.raises(InvalidAction):
        GAME.options({"tile_order": "ABCDEFF"})
    with pytest.raises(InvalidAction):
        GAME.options({"laurel_order": [6, 3, 4, 4, 5, 5]})
    with pytest.raises(InvalidAction):
        GAME.options({"colour_set": {"S": 30}})
    with pytest.raises(InvalidAction):
        GAME.setup(3, "x", {"start_seat": 3})
    assert GAME.options({"tile_springs": {"A": [5]}})["tile_springs"]["B"] == [0, 1]


# ---------------------------------------------------------------------------------- laying


def test_first_outer_tile_may_go_anywhere_then_the_arc_grows() -> None:
    # §3.2: 12 positions x 6 rotations for the first outer tile; it fixes the handedness and
    # every later tile goes next to an outer tile already laid.
    state = GAME.setup(3, "x", pinned())
    assert len(GAME.legal_actions(state, 0)) == 72
    state = GAME.apply(state, 0, {"type": "lay", "position": 1, "rotation": 4}).state
    positions = {a["position"] for a in GAME.legal_actions(state, 1)}
    assert positions == {3, 11}
    with pytest.raises(IllegalAction, match="3, 11"):
        GAME.apply(state, 1, {"type": "lay", "position": 2, "rotation": 0})
    state = GAME.apply(state, 1, {"type": "lay", "position": 11, "rotation": 0}).state
    assert {a["position"] for a in GAME.legal_actions(state, 2)} == {3, 9}


def test_tiles_are_laid_in_seat_order_from_the_start_player() -> None:
    # §4.3: with 4 players the start player lays tiles 2 and 6.
    state = GAME.setup(4, "x", pinned(start_seat=1))
    layers = []
    for position in (2, 4, 6, 8, 10, 12):
        layers.append(state.turn)
        with pytest.raises(NotYourTurn):
            GAME.apply(state, (state.turn + 1) % 4, {"type": "lay", "position": 2, "rotation": 0})
        state = GAME.apply(
            state, state.turn, {"type": "lay", "position": position, "rotation": 0}
        ).state
    assert layers == [1, 2, 3, 0, 1, 2]
    assert state.phase == "placing" and state.turn == 1


def test_laurels_are_dealt_once_the_board_is_complete() -> None:
    # §4.4: the six other laurels go on the outer hills (in letter order from the pile).
    state = board_state()
    assert dict(state.laurels) == {"A": 6, "B": 3, "C": 4, "D": 5, "E": 3, "F": 4, "G": 5}
    assert len(state.board.fields) == 42


def test_laying_is_irreversible_only_when_it_draws_from_a_shuffled_pile() -> None:
    random_order = GAME.setup(3, "x", {"start_seat": 0})
    assert GAME.apply(random_order, 0, {"type": "lay", "position": 1, "rotation": 0}).irreversible
    fixed = GAME.setup(3, "x", pinned())
    assert not GAME.apply(fixed, 0, {"type": "lay", "position": 1, "rotation": 0}).irreversible


def test_a_placement_is_refused_while_tiles_are_laid() -> None:
    state = GAME.setup(3, "x", pinned())
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "place", "field": "A1", "piece": "M"})
    with pytest.raises(InvalidAction):
        GAME.apply(state, 0, {"type": "jump"})


# ---------------------------------------------------------------------------------- placing


def test_placing_puts_one_piece_on_an_empty_field() -> None:
    # §6.2: one inhabitant on an empty field; undo is allowed (reversible).
    state = board_state()
    move = GAME.apply(state, 0, {"type": "place", "field": "C4", "piece": "M"})
    assert not move.irreversible
    after = move.state
    assert after.turn == 1 and sum(after.screens[0]) == 11
    with pytest.raises(IllegalAction, match="taken"):
        GAME.apply(after, 1, {"type": "place", "field": "C4", "piece": "F"})
    with pytest.raises(InvalidAction):
        GAME.apply(after, 1, {"type": "place", "field": "H9", "piece": "F"})


def test_soldier_must_go_down_before_the_soldier_free_turns() -> None:
    # §6.4: 5 players have 7 turns and no soldier in the last 3: holding the soldier with 4
    # pieces left, the player must place it now.
    state = board_state(players=5)
    assert soldier_free_turns(5) == 3
    state = replace(state, screens=(screen(F=1, Fw=2, S=1), *state.screens[1:]))
    legal = GAME.legal_actions(state, 0)
    assert legal and {a["piece"] for a in legal} == {"S"}
    with pytest.raises(IllegalAction, match="soldier now"):
        GAME.apply(state, 0, {"type": "place", "field": "A1", "piece": "F"})
    after = GAME.apply(state, 0, {"type": "place", "field": "A1", "piece": "S"}).state
    assert after.screens[0] == screen(F=1, Fw=2)


def test_soldier_is_allowed_early_alongside_other_pieces() -> None:
    # §6.4: on turn 1 of 7 the soldier and every other piece may go down.
    state = board_state(players=5)
    kinds = {a["piece"] for a in GAME.legal_actions(state, 0)}
    assert kinds == {"M", "Mw", "F", "Fw", "S"}


def test_two_soldiers_in_the_last_stretch_are_both_forced() -> None:
    # §6.4 with 2-3 players (last 4 turns soldier-free): two soldiers and 6 pieces left means
    # both soldiers go down now, one after the other.
    state = board_state(players=3)
    state = replace(state, screens=(screen(M=2, F=2, S=2), *state.screens[1:]))
    assert {a["piece"] for a in GAME.legal_actions(state, 0)} == {"S"}
    state = replace(
        GAME.apply(state, 0, {"type": "place", "field": "A1", "piece": "S"}).state, turn=0
    )
    assert {a["piece"] for a in GAME.legal_actions(state, 0)} == {"S"}
    state = replace(
        GAME.apply(state, 0, {"type": "place", "field": "A2", "piece": "S"}).state, turn=0
    )
    assert {a["piece"] for a in GAME.legal_actions(state, 0)} == {"M", "F"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nobody_is_ever_left_holding_an_unplaceable_soldier(players: int) -> None:
    # §6.4: random games always keep enough unrestricted turns for every soldier left.
    free = soldier_free_turns(players)
    for seed in ("a", "b", "c", "d"):
        state = board_state(players, colour_set={"S": 3})
        rng = Rng(seed)
        for _ in range(60):
            if state.phase != "placing":
                break
            left = sum(state.screens[state.turn])
            soldiers = state.screens[state.turn][S]
            assert soldiers == 0 or soldiers <= left - free
            legal = GAME.legal_actions(state, state.turn)
            assert legal
            pick = legal[rng.randbelow(len(legal))]
            state = GAME.apply(state, state.turn, pick).state
        assert state.phase == "over"
        assert all(sum(s) == 0 for s in state.screens)


def test_last_placement_reveals_and_scores() -> None:
    # §7: after the last placement the wolf pieces are revealed and the hills scored.
    state = play_randomly(board_state(), "last", stop=35)
    move = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0])
    assert move.irreversible
    kinds = [e.kind for e in move.events]
    assert kinds.count("hill_scored") == 7 and "revealed" in kinds and kinds[-1] == "game_over"
    assert GAME.active_seats(move.state) == frozenset()
    assert GAME.outcome(move.state) is not None


def test_two_player_game_runs_to_the_end() -> None:
    # §11: 16 pieces each (the extras owned), 3 outer tiles each, no soldier in the last 4.
    state = GAME.setup(2, "duel", {"start_seat": 1})
    layers = []
    while state.phase == "laying":
        layers.append(state.turn)
        state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0]).state
    assert layers == [1, 0, 1, 0, 1, 0]
    assert state.screens[0] == screen(M=4, Mw=3, F=3, Fw=4, S=2)
    final = play_randomly(state, "duel")
    assert final.scoring is not None and len(final.scoring["placed"]) == 32
    result = GAME.outcome(final)
    assert result is not None and len(result.scores) == 2
    assert sorted(s for g in result.ranking for s in g) == [0, 1]
    assert all(set(b) == {"laurels", "discs", "captures"} for b in result.breakdown)
    assert result.scores == tuple(sum(b.values()) for b in result.breakdown)


def test_neutral_extras_sit_apart_on_a_two_player_screen() -> None:
    # §5.1 alternative switch.
    state = GAME.setup(2, "x", {"two_player_extras": "neutral"})
    assert state.screens[0] == screen(M=3, Mw=2, F=2, Fw=3, S=2, xM=1, xMw=1, xF=1, xFw=1)
