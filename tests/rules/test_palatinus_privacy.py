"""Hidden information (spec §6.3, §9): wolf pieces, screens, the undrawn tiles."""

from __future__ import annotations

import json
import re

from rules.core import Event, Rng
from rules.palatinus import GAME
from rules.palatinus.components import is_wolf
from rules.palatinus.state import PalatinusState
from tests.rules.test_palatinus_helpers import board_state, play_randomly


def mid_game() -> PalatinusState:
    state = play_randomly(board_state(), "privacy", stop=18)
    assert any(is_wolf(p.kind) for p in state.pieces)
    return state


def test_public_view_hides_the_type_of_wolf_pieces() -> None:
    # §6.3: a wolf piece shows its owner, never its type, to everyone but the owner.
    state = mid_game()
    public = GAME.view(state, None)
    text = json.dumps(public)
    assert '"Mw"' not in text and '"Fw"' not in text
    assert "screen" not in public and "may_place" not in public
    wolves = {p.field: p for p in state.pieces if is_wolf(p.kind)}
    for entry in public["pieces"]:
        if entry["field"] in wolves:
            assert entry["type"] is None and entry["wolf"] is True
            assert entry["owner"] == wolves[entry["field"]].owner
    assert public["left"] == [sum(s) for s in state.screens]


def test_owner_sees_own_wolves_and_nobody_elses() -> None:
    # §6.3: a player may look at their own hidden pieces at any time.
    state = mid_game()
    wolves = {p.field: p for p in state.pieces if is_wolf(p.kind)}
    for seat in range(state.players):
        view = GAME.view(state, seat)
        assert sum(view["screen"].values()) == sum(state.screens[seat])
        for entry in view["pieces"]:
            piece = wolves.get(entry["field"])
            if piece is None:
                continue
            if piece.owner == seat:
                assert entry["type"] == piece.kind[0]
            else:
                assert entry["type"] is None


def test_describe_of_the_public_view_names_no_hidden_type() -> None:
    state = mid_game()
    text = GAME.describe(GAME.view(state, None))
    for piece in state.pieces:
        if is_wolf(piece.kind):
            match = re.search(rf"{piece.field}( spring)?: ([^;\n]*)", text)
            assert match is not None
            assert match.group(2) == f"P{piece.owner + 1} wolf"
    assert "Behind your screen" not in text


def test_event_texts_to_everyone_never_name_a_wolf_type() -> None:
    state = board_state()
    rng = Rng("events")
    public: list[Event] = []
    private: list[Event] = []
    for _ in range(40):
        if state.phase != "placing":
            break
        legal = GAME.legal_actions(state, state.turn)
        action = legal[rng.randbelow(len(legal))]
        move = GAME.apply(state, state.turn, action)
        if is_wolf(action["piece"]) and len(state.pieces) < 35:
            for event in move.events:
                (public if event.to is None else private).append(event)
                if event.to is None:
                    assert "merchant" not in event.text and "farmer" not in event.text
                    assert event.data.get("piece") is None
                else:
                    assert event.to == frozenset({state.turn})
        state = move.state
    assert public and private
    assert all("wolf piece" in e.text for e in public)


def test_wolf_pieces_are_revealed_at_scoring() -> None:
    # §7.1: every piece is turned face up; the reveal cannot be undone.
    state = play_randomly(board_state(), "reveal", stop=35)
    move = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0])
    assert move.irreversible
    revealed = next(e for e in move.events if e.kind == "revealed")
    assert revealed.to is None and revealed.data["pieces"]
    public = GAME.view(move.state, None)
    assert all(p["type"] is not None for p in public["pieces"])
    assert all(len(p) == 3 for p in public["scoring"]["placed"])


def test_determinize_keeps_each_view_and_redeals_hidden_wolves() -> None:
    state = mid_game()
    changed = False
    for n in range(6):
        for observer in (None, 0, 1, 2):
            other = GAME.determinize(state, observer, f"d{n}")
            assert GAME.view(other, observer) == GAME.view(state, observer)
            changed = changed or other.pieces != state.pieces
    assert changed


def test_determinize_reshuffles_the_undrawn_tiles() -> None:
    state = GAME.setup(3, "x", {"start_seat": 0})
    orders = {GAME.determinize(state, 0, f"t{n}").tile_stack for n in range(6)}
    assert len(orders) > 1
    assert all(sorted(o) == sorted(state.tile_stack) for o in orders)
    assert "tile_stack" not in GAME.view(state, None)
