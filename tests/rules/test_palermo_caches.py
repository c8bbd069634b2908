"""What Palermo's computer players keep between calls changes no answer: a state hashes as a
frozen dataclass does (worked out once, never carried to another process), and the remembered
police choice is the one worked out afresh, for a position met again with new action objects;
``evolve`` makes the state ``dataclasses.replace`` makes."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from rules.palermo import GAME
from rules.palermo.heuristic import _police_choice, _police_pick
from rules.palermo.state import POLICE, PalermoState, evolve
from rules.players import choose

MAX_STEPS = 600  # a 3-player game between easy players is about 150 decisions


def _field_hash(state: PalermoState) -> int:
    return hash(tuple(getattr(state, f.name) for f in dataclasses.fields(state)))


def test_state_hash_is_the_dataclass_hash_and_stays_home() -> None:
    state = GAME.setup(3, "caches-hash")
    assert hash(state) == _field_hash(state)
    assert hash(state) == hash(state)  # the kept value
    copy = pickle.loads(pickle.dumps(state))
    assert "_hash" not in copy.__dict__ and copy == state
    moved = dataclasses.replace(state, turns=state.turns + 1)
    assert hash(moved) == _field_hash(moved) and moved != state


def test_remembered_police_choice_is_the_fresh_one() -> None:
    state = GAME.setup(3, "caches-police")
    picks = 0
    for step in range(MAX_STEPS):
        active = GAME.active_seats(state)
        if not active:
            break
        seat = min(active)
        if state.step == POLICE:
            fresh = _police_choice(state, seat, GAME.legal_actions(state, seat))
            for _ in range(2):  # first worked out, then remembered
                offered = GAME.legal_actions(state, seat)
                picked = _police_pick(state, seat, offered)
                assert picked == fresh and any(picked is a for a in offered)
            picks += 1
        state = GAME.apply(state, seat, choose(GAME, state, seat, "easy", f"caches-{step}")).state
    assert GAME.outcome(state) is not None
    assert picks > 10


def test_evolve_is_dataclasses_replace() -> None:
    state = GAME.setup(3, "caches-evolve")
    hash(state)  # a kept hash must not follow the state into its successor
    changes = {"turn": 2, "step": POLICE, "pawns": (4, 5, 6), "turns": 9}
    made = evolve(state, **changes)
    assert made == dataclasses.replace(state, **changes)  # type: ignore[arg-type]
    assert type(made) is PalermoState and hash(made) == _field_hash(made)
    assert state.turn != 2 and made.tiles is state.tiles
    with pytest.raises(TypeError):
        evolve(state, pawn=(1, 2, 3))
