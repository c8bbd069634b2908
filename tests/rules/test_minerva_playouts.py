"""Long Minerva playouts biased towards building and activating (the uniform playouts of the
conformance suite pass early and rarely reach the deeper effects)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.core import Action, Rng
from rules.minerva import GAME


def _pick(rng: Rng, legal: list[Action]) -> Action:
    busy = [a for a in legal if a["type"] not in ("pass", "sell", "done")]
    if busy and rng.randbelow(20):
        return busy[rng.randbelow(len(busy))]
    return legal[rng.randbelow(len(legal))]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_biased_playout_keeps_the_contract(players: int) -> None:
    state = GAME.setup(players, f"biased{players}")
    rng = Rng(f"chooser{players}")
    seen: Counter[str] = Counter()
    for step in range(3000):  # bounded; a game takes a few hundred steps
        active = GAME.active_seats(state)
        if not active:
            break
        seat = min(active)
        legal = GAME.legal_actions(state, seat)
        assert legal, f"no legal action at step {step}"
        if step % 5 == 0:
            for action in legal:
                text = GAME.format_action(state, action)
                assert GAME.parse_action(state, seat, text) == action, text
            for observer in (None, *range(players)):
                other = GAME.determinize(state, observer, f"d{step}")
                assert GAME.view(other, observer) == GAME.view(state, observer)
        before = json.dumps(GAME.dump(state), sort_keys=True)
        assert json.dumps(GAME.dump(GAME.load(json.loads(before))), sort_keys=True) == before
        action = _pick(rng, legal)
        seen[action["type"]] += 1
        state = GAME.apply(state, seat, action).state
        assert json.dumps(GAME.dump(GAME.load(json.loads(before))), sort_keys=True) == before
    result = GAME.outcome(state)
    assert result is not None
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert {"build", "residence", "direction", "take", "pass"} <= set(seen)
    assert state.round == 6
    json.dumps(GAME.view(state, None))
