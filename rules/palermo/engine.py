"""The Palermo ``Game``: setup, turn order, legal actions, apply, views and the outcome."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import (
    Action,
    InvalidAction,
    Outcome,
    Transition,
    check_players,
    check_seat,
    merge_options,
)
from rules.palermo import notation, scoring, turns, views
from rules.palermo.actions import check_shape, legal_for, why_illegal
from rules.palermo.building import Placement
from rules.palermo.collecting import Move
from rules.palermo.components import CORNERS, default_options, make_config, options_json
from rules.palermo.state import OVER, PalermoState, dump_state, load_state
from rules.validation import check_move_text


class PalermoGame:
    id = "palermo"
    title = "Palermo"
    min_players = 3
    max_players = 5
    # A game runs to several hundred decisions; the costly per-step conformance checks
    # (determinize for every observer, notation of every legal action) run every few steps.
    conformance_deep_every = 3

    # ------------------------------------------------------------------ setup and options

    def options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        merged = merge_options(default_options(), overrides)
        try:
            make_config(merged)
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidAction(f"Bad option: {exc}") from None
        return merged

    def setup(
        self, players: int, seed: str, options: Mapping[str, Any] | None = None
    ) -> PalermoState:
        check_players(self, players)
        merged = self.options(options)
        cfg = make_config(merged)
        if cfg.first_player is not None and cfg.first_player >= players:
            raise InvalidAction(f"first_player must be a seat from 0 to {players - 1}.")
        return turns.new_state(players, seed, options_json(merged), cfg)

    # ------------------------------------------------------------------ play

    def active_seats(self, state: PalermoState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset({state.turn})

    def legal_actions(self, state: PalermoState, seat: int) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        return [dict(a) for a in legal_for(state)]

    def apply(self, state: PalermoState, seat: int, action: Action) -> Transition:
        check_seat(self, state, seat)
        action = check_shape(action)
        if action not in legal_for(state):
            raise why_illegal(state, action)
        geo, cfg = state.geo, state.config
        kind = action["type"]
        if kind == "start":
            space = geo.parse_space(action["space"])
            assert space is not None
            new, events = turns.lay_start(state, seat, space)
        elif kind == "build":
            space = geo.parse_space(action["space"])
            assert space is not None
            house = cfg.house(action["kind"])
            rotation = (CORNERS.index(action["door"]) - house.door) % 4
            new, events = turns.build(state, seat, Placement(space, house.name, rotation))
        elif kind == "walk_on":
            new, events = turns.walk_on(state, seat)
        elif kind in ("police", "keep"):
            target = geo.parse_cell(action["to"]) if kind == "police" else None
            new, events = turns.place_police(state, seat, target)
        else:
            to = geo.parse_cell(action["to"])
            assert to is not None
            new, events = turns.move_pawn(state, seat, Move(to, action["cost"], action["end"]))
        return Transition(new, tuple(events))

    # ------------------------------------------------------------------ information

    def view(self, state: PalermoState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: PalermoState) -> Outcome | None:
        return scoring.outcome(state)

    def determinize(self, state: PalermoState, seat: int | None, seed: str) -> PalermoState:
        """Nothing is hidden in Palermo, and no randomness is left after setup."""
        return state

    def parse_action(self, state: PalermoState, seat: int, text: str) -> Action:
        return notation.parse_action(state, seat, check_move_text(text))

    def format_action(self, state: PalermoState, action: Action) -> str:
        return notation.format_action(state, action)

    def dump(self, state: PalermoState) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> PalermoState:
        try:
            return load_state(data)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidAction(f"Not a Palermo state: {exc}") from None

    def describe(self, view: Mapping[str, Any]) -> str:
        return views.describe(view)

    def moves_hint(self) -> str:
        return ("in phase 1 a space such as C4, or a house kind such as H2 (the house with 2 "
                "roof sections); in phase 2 a cell such as e5, or police, keep, business, home "
                "or walk on")

    def rules_summary(self) -> str:
        return (
            "Palermo (3-5 players). Phase 1: in turn, build one house next to an existing roof "
            "and mark its door with your chip ('H2 C4 door SW': H1, H2 and H3 are houses with "
            "1, 2 or 3 roof sections; the first player starts with "
            "the Start/Finish tile, 'SF C3'). Phase 2: each turn, optionally re-place your "
            "police stone ('police e5' or 'keep'), then move your pawn: stop at one of your "
            "doors to take its chip and score the points left over ('move e5 cost 3 "
            "business'), or 'walk on' and end where your movement points run out ('move g7 "
            "cost 6 "
            "exact'). Collect every chip and get home to Start/Finish; highest score wins."
        )

