"""Palermo words: the reachable cells are explained in words, only at their cheapest cost."""

from __future__ import annotations

import re

import pytest

from rules.core import RulesError
from rules.palermo import GAME
from rules.palermo.views import cheapest_moves
from tests.rendering.test_palermo_render import collecting, play_until


def test_cheapest_moves_drop_dearer_ways_to_end_the_same_way() -> None:
    moves = [{"cost": 3, "end": "business"}, {"cost": 1, "end": "business"},
             {"cost": 2, "end": "business"}, {"cost": 4, "end": "exact"}]
    assert cheapest_moves(moves) == [{"cost": 1, "end": "business"}, {"cost": 4, "end": "exact"}]


def test_reachable_cells_are_explained_without_shorthand() -> None:
    state = play_until(4, collecting)
    text = GAME.describe(GAME.view(state, state.turn))
    line = next(line for line in text.split("\n") if line.startswith("You can reach"))
    # Each cell with how the pawn ends there and what it costs, in words: "i1 (an exact
    # stop for 7 movement points)", never a legend in brackets to decode.
    assert re.search(r"^You can reach [a-z]\d+ \((an exact stop|a business stop|home|a blocked "
                     r"stop) for \d+ movement points?", line), line
    assert "(cell, then" not in line
    assert not re.search(r"\(\d+[a-z](/|\))", line)  # no "(1b/2b/3b)" shorthand



def test_police_and_keep_leave_the_prompt_to_the_view() -> None:
    """The table hears what was done; what comes next is the view's "To play" line (the
    mover's own text), never a "Next:" hint told to everyone, computers included."""
    from rules.palermo.state import POLICE

    state = play_until(3, lambda s: s.phase == "collect" and s.step == POLICE
                       and not s.is_home(s.turn))
    assert state.step == POLICE
    seat = state.turn
    legal = GAME.legal_actions(state, seat)
    keep = next(a for a in legal if GAME.format_action(state, a) in ("keep", "skip"))
    kept = GAME.apply(state, seat, keep)
    texts = [e.text for e in kept.events]
    assert any("keeps their police stone" in t for t in texts)
    assert not any("Next:" in t for t in texts)
    assert "a stop, or 'walk on'" in GAME.describe(GAME.view(kept.state, seat))
    moved = next((a for a in legal if a is not keep and a.get("type") == keep.get("type")
                  and a != keep), None) or next(a for a in legal if a != keep)
    placed = GAME.apply(state, seat, moved)
    assert not any("Next:" in e.text for e in placed.events)
    assert "a stop, or 'walk on'" in GAME.describe(GAME.view(placed.state, seat))


def test_phase_one_mistakes_get_phase_one_hints() -> None:
    state = GAME.setup(3, "hints", {"first_player": 0})
    for step_hint in ("SF C3", "H2 C4 door SW"):
        for text in ("", "e5", "hello", "police e5", "move e5", "keep", "walk on"):
            with pytest.raises(RulesError) as caught:
                GAME.parse_action(state, state.turn, text)
            message = str(caught.value)
            assert step_hint in message, message
            assert "cell" not in message and "move e5" not in message, message
        state = GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0]).state


def test_houses_are_explained_and_points_say_what_they_count() -> None:
    """"an H2 house (2 roof sections)", never "a H2 house"; a pawn moves "using 4 movement
    points" (the image's name for the idea), never "for 4"."""
    state = GAME.setup(3, "words", {"first_player": 0})
    said: list[str] = []
    view_texts: list[str] = []
    for _ in range(400):
        if GAME.outcome(state) is not None:
            break
        seat = sorted(GAME.active_seats(state))[0]
        view_texts.append(GAME.describe(GAME.view(state, seat)))
        action = GAME.legal_actions(state, seat)[-1]
        transition = GAME.apply(state, seat, action)
        said += [e.text for e in transition.events]
        state = transition.state
    text = "\n".join(said + view_texts)
    assert re.search(r"built an H[123] house \([123] roof sections?\) on", text)
    assert "a H" not in text and "allowance" not in text
    assert re.search(r"using \d+ movement points?\.", text)
    assert not re.search(r"for \d+\.", text)
    assert re.search(r"\d+ movement points? a turn", text)
    assert "× H1 house (1 roof section)" in text
