"""Audit scenarios for setup, tile laying, placement and hidden information (spec §3-§6, §9).

Each test pins one rule fact of the specification that the other test modules leave open.
"""

from __future__ import annotations

import json
import re

import pytest

from rules.core import Event, Rng
from rules.palatinus import GAME
from rules.palatinus.components import KINDS, is_wolf
from rules.palatinus.geometry import CENTRE, DIRS, RING, RING_BY_NUMBER, add, rotate
from rules.palatinus.placing import soldier_free_turns
from rules.palatinus.state import PalatinusState
from tests.rules.test_palatinus_helpers import board_state, pinned

S = KINDS.index("S")

Hex = tuple[int, int]


def flower(hill: Hex) -> set[Hex]:
    return {hill} | {add(hill, d) for d in DIRS}


def shared_edges(a: set[Hex], b: set[Hex]) -> int:
    return sum(1 for h in a for d in DIRS if add(h, d) in b)


# ---------------------------------------------------------------------------------- laying


def test_every_ring_position_shares_three_edges_with_the_centre_and_its_ring_neighbours() -> None:
    # §3.2 properties: an outer flower shares three hex edges with the centre flower and with
    # each ring neighbour of its set; outer flowers that are not ring neighbours do not touch.
    centre = flower(CENTRE)
    for pos in RING:
        mine = flower(pos.hill)
        assert not mine & centre
        assert shared_edges(mine, centre) == 3
        for other in RING:
            if other.hand != pos.hand or other.number == pos.number:
                continue
            theirs = flower(other.hill)
            assert not mine & theirs
            neighbours = (other.index - pos.index) % 6 in (1, 5)
            assert shared_edges(mine, theirs) == (3 if neighbours else 0)


def test_a_flower_of_the_other_hand_overlaps_or_touches_no_outer_tile() -> None:
    # §3.2: once a tile of one hand is down, a tile of the other hand overlaps it or cannot
    # touch both the centre and another outer tile.
    for pos in RING:
        for other in RING:
            if other.hand == pos.hand:
                continue
            mine, theirs = flower(pos.hill), flower(other.hill)
            assert mine & theirs or shared_edges(mine, theirs) == 0


def _geometric_positions(state: PalatinusState) -> set[int]:
    """Ring positions where a flower overlaps no laid tile, touches the centre and, from the
    third tile on, touches an outer tile (the laying rule of §3.2 and §4.3)."""
    laid = [flower(state.board.hills[t.letter]) for t in state.tiles]
    outer = laid[1:]
    out = set()
    for pos in RING:
        mine = flower(pos.hill)
        if any(mine & other for other in laid):
            continue
        if shared_edges(mine, laid[0]) == 0:
            continue
        if outer and not any(shared_edges(mine, other) for other in outer):
            continue
        out.add(pos.number)
    return out


@pytest.mark.parametrize("seed", ["g1", "g2", "g3", "g4", "g5", "g6"])
def test_free_positions_are_exactly_where_a_flower_fits_against_the_laid_tiles(seed: str) -> None:
    # §3.2 / §4.3: the offered positions match the touch-without-overlap rule at every step,
    # whatever the handedness chosen by the first outer tile.
    state = GAME.setup(3, seed, pinned())
    rng = Rng(seed)
    while state.phase == "laying":
        legal = GAME.legal_actions(state, state.turn)
        offered = {a["position"] for a in legal}
        assert offered == _geometric_positions(state)
        assert len(legal) == 6 * len(offered)  # every rotation of every free position
        state = GAME.apply(state, state.turn, legal[rng.randbelow(len(legal))]).state
    assert {RING_BY_NUMBER[t.position].hand for t in state.tiles[1:]} in ({"L"}, {"R"})


def test_a_laid_tile_turns_its_fields_with_its_rotation() -> None:
    # §3.1: field n of a tile sits in local direction n - 1, turned with the tile: after
    # `lay 4 r2`, field B1 lies at hill + rot^2(d0) and its springs turn with it.
    state = GAME.setup(3, "x", pinned())
    state = GAME.apply(state, 0, {"type": "lay", "position": 4, "rotation": 2}).state
    hill = RING_BY_NUMBER[4].hill
    board = state.board
    assert board.hills["B"] == hill
    for i in range(6):
        assert board.fields[f"B{i + 1}"] == add(hill, rotate(DIRS[i], 2))
    assert {"B1", "B2"} <= board.springs  # tile B's springs are local directions 0 and 1
    assert rotate(DIRS[0], 1) == DIRS[1]  # one step turns each direction to the next


@pytest.mark.parametrize(
    ("players", "start", "layers"),
    [
        (2, 0, [0, 1, 0, 1, 0, 1]),
        (3, 2, [2, 0, 1, 2, 0, 1]),
        (5, 3, [3, 4, 0, 1, 2, 3]),
    ],
)
def test_outer_tiles_are_laid_in_seat_order_and_placement_starts_with_the_start_player(
    players: int, start: int, layers: list[int]
) -> None:
    # §4.3: the start player lays the second tile, then each player clockwise; §6.1 (design
    # choice 10): the same start player places the first inhabitant.
    state = GAME.setup(players, "x", pinned(start_seat=start))
    seen = []
    while state.phase == "laying":
        seen.append(state.turn)
        state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0]).state
    assert seen == layers
    assert state.phase == "placing" and state.turn == start


def test_unpinned_laurels_put_the_six_values_on_the_outer_hills() -> None:
    # §4.4: the other six laurels (3, 3, 4, 4, 5, 5) go one on each outer hill at random.
    deals = set()
    for seed in ("l1", "l2", "l3", "l4", "l5", "l6"):
        state = GAME.setup(3, seed, {"tile_order": "ABCDEFG", "start_seat": 0})
        while state.phase == "laying":
            state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0]).state
        laurels = dict(state.laurels)
        assert laurels["A"] == 6
        outer = tuple(laurels[letter] for letter in "BCDEFG")
        assert sorted(outer) == [3, 3, 4, 4, 5, 5]
        deals.add(outer)
    assert len(deals) > 1


# ---------------------------------------------------------------------------------- placing


def test_inhabitants_go_only_on_the_42_fields_never_on_a_hill() -> None:
    # §6.2 / §3.1: any empty field, never a hill.
    state = board_state()
    board = state.board
    fields = {a["field"] for a in GAME.legal_actions(state, 0)}
    assert len(fields) == 42
    assert not {board.fields[f] for f in fields} & set(board.hills.values())


@pytest.mark.parametrize(
    ("players", "free", "soldier_turns"),
    [(2, 4, [11, 12]), (3, 4, [7, 8]), (4, 3, [5]), (5, 3, [4])],
)
def test_soldier_is_offered_until_the_last_safe_turn_per_player_count(
    players: int, free: int, soldier_turns: list[int]
) -> None:
    # §5 / §6.4: no soldier in a player's last 3 turns (4-5 players) or last 4 turns (2-3
    # players). A player who keeps the soldiers back as long as possible must put them down on
    # exactly these turns (5 players: 7 turns, the soldier on turn 4 at the latest, as in the
    # rules' example), and a soldier is offered on every earlier turn and never later.
    assert soldier_free_turns(players) == free
    state = board_state(players)
    total = sum(state.screens[0])
    placed: dict[int, list[int]] = {seat: [] for seat in range(players)}
    while state.phase == "placing":
        seat = state.turn
        screen = state.screens[seat]
        left = sum(screen)
        turn = total - left + 1
        kinds = {a["piece"] for a in GAME.legal_actions(state, seat)}
        assert ("S" in kinds) == (screen[S] > 0 and left > free), (seat, turn)
        others = sorted(kinds - {"S"})
        piece = others[0] if others else "S"
        if piece == "S":
            placed[seat].append(turn)
        field = GAME.legal_actions(state, seat)[0]["field"]
        state = GAME.apply(state, seat, {"type": "place", "field": field, "piece": piece}).state
    assert all(turns == soldier_turns for turns in placed.values())


def test_two_player_screens_hold_sixteen_pieces_all_owned() -> None:
    # §5.1 / §11: 12 of the colour plus 2 merchants (1 wolf) and 2 farmers (1 wolf) of an unused
    # colour; in the default "owned" mode they are the player's own pieces and score for them.
    state = board_state(players=2)
    counts = dict(zip(KINDS, state.screens[0], strict=True))
    assert counts == {
        "M": 4, "Mw": 3, "F": 3, "Fw": 4, "S": 2, "xM": 0, "xMw": 0, "xF": 0, "xFw": 0,
    }  # fmt: skip
    assert GAME.options()["two_player_extras"] == "owned"


# ---------------------------------------------------------------------------------- privacy


def _hidden_wolves(state: PalatinusState, observer: int | None) -> dict[str, int]:
    return {p.field: p.owner for p in state.pieces if is_wolf(p.kind) and p.owner != observer}


def _check_public_event(event: Event) -> None:
    if event.kind == "placed" and event.data.get("wolf"):
        assert event.data.get("piece") is None
        assert "merchant" not in event.text and "farmer" not in event.text


@pytest.mark.parametrize(
    ("players", "extras"), [(2, "owned"), (2, "neutral"), (3, "owned"), (4, "owned"), (5, "owned")]
)
def test_nothing_reveals_a_wolf_type_to_anyone_but_its_owner(players: int, extras: str) -> None:
    # §6.3 / §9: a wolf piece shows its owner, never its type, until the reveal (§7.1): not in
    # the public view, not in another seat's view, not in a public event, not in describe().
    state = board_state(players, two_player_extras=extras)
    rng = Rng(f"privacy-{players}-{extras}")
    while state.phase == "placing":
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        move = GAME.apply(state, seat, legal[rng.randbelow(len(legal))])
        for event in move.events:
            if event.to is None:
                _check_public_event(event)
            else:
                assert event.to == frozenset({seat})
        state = move.state
        if state.phase != "placing":
            break
        for observer in (None, *range(players)):
            view = GAME.view(state, observer)
            hidden = _hidden_wolves(state, observer)
            for entry in view["pieces"]:
                if entry["field"] in hidden:
                    assert entry["type"] is None and entry["wolf"] is True
                    assert entry["owner"] == hidden[entry["field"]]
            if observer is None:
                text = json.dumps(view)
                for key in ('"screen"', '"may_place"', '"rng"', '"tile_stack"'):
                    assert key not in text
                described = GAME.describe(view)
                for field, owner in hidden.items():
                    found = re.search(rf"\b{field}( spring)?: ([^;\n]*)", described)
                    assert found is not None
                    assert found.group(2) in (f"P{owner + 1} wolf", f"P{owner + 1} neutral wolf")
            else:
                assert sum(view["screen"].values()) == sum(state.screens[observer])
    assert state.phase == "over"
    public = GAME.view(state, None)
    assert all(p["type"] is not None for p in public["pieces"])


def test_public_view_while_laying_hides_the_tile_and_laurel_order() -> None:
    # §9: the order of the undrawn tiles and undealt laurels is hidden; the drawn tile and the
    # multiset of laurels are public.
    one = GAME.setup(3, "x", pinned(tile_order="ABCDEFG", laurel_order=[3, 4, 5, 3, 4, 5]))
    two = GAME.setup(3, "x", pinned(tile_order="ABGFEDC", laurel_order=[5, 5, 4, 4, 3, 3]))
    for observer in (None, 0, 1, 2):
        assert GAME.view(one, observer) == GAME.view(two, observer)
    assert GAME.view(one, None)["laying"]["tile"] == "B"
    assert GAME.view(one, None)["laurels_to_deal"] == [3, 3, 4, 4, 5, 5]
