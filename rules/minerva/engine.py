"""The Minerva ``Game``: who acts, what is legal, applying actions, views and the outcome."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import (
    Action,
    IllegalAction,
    Outcome,
    Rng,
    Transition,
    check_players,
    check_seat,
    find_legal,
)
from rules.minerva import narration, notation, views
from rules.minerva.actions import SHAPES
from rules.minerva.city import on_frontier
from rules.minerva.components import Catalogue, catalogue
from rules.minerva.economy import can_pay, sell
from rules.minerva.effects import decide, decisions
from rules.minerva.rounds import apply_hire, hire_actions
from rules.minerva.scoring import outcome
from rules.minerva.setup import redeal, resolve_options, setup
from rules.minerva.state import MinervaState
from rules.minerva.turns import (
    apply_main,
    build_choices,
    continue_turn,
    fee_due,
    legal_main,
    sell_actions,
    tile_cost,
)
from rules.validation import check_move_text

MAIN_TYPES = frozenset(("build", "coins", "residence", "assistant", "pass"))


class MinervaGame:
    id = "minerva"
    title = "Minerva"
    min_players = 1
    max_players = 4

    def __init__(self, cat: Catalogue | None = None) -> None:
        self.cat = cat or catalogue()

    # ---- set-up and turn order ---------------------------------------------------------

    def setup(
        self, players: int, seed: str, options: Mapping[str, Any] | None = None
    ) -> MinervaState:
        check_players(self, players)
        return setup(self.cat, players, seed, resolve_options(self.cat, options))

    def options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return resolve_options(self.cat, overrides)

    def active_seats(self, state: MinervaState) -> frozenset[int]:
        if state.phase == "main":
            return frozenset((state.current,))
        if state.phase == "hire" and state.hire_queue:
            return frozenset((state.hire_queue[0],))
        return frozenset()

    # ---- legal actions -------------------------------------------------------------------

    def legal_actions(self, state: MinervaState, seat: int) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        p = state.players[seat]
        if state.phase == "hire":
            return [*hire_actions(self.cat, p), {"type": "done"}, *sell_actions(p)]
        if state.stack:
            return [*decisions(self.cat, state), *sell_actions(p)]
        return [*legal_main(self.cat, state, seat), *sell_actions(p)]

    def _check(self, state: MinervaState, seat: int, action: Action) -> None:
        """Raise the error a player should see when ``action`` is not legal now."""
        kind = action["type"]
        placing = kind in ("build", "residence", "assistant")
        if placing and not state.stack and state.phase == "main":
            if self._main_action_ok(state, seat, action):
                return
        elif find_legal(self.legal_actions(state, seat), action) is not None:
            return
        raise IllegalAction(views.refusal(self.cat, state, seat, action))

    def _main_action_ok(self, state: MinervaState, seat: int, action: Action) -> bool:
        """The legality of a build, residence or assistant without listing every placement."""
        p = state.players[seat]
        x, y = action.get("x"), action.get("y")
        if not isinstance(x, int) or not isinstance(y, int) or isinstance(x, bool):
            return False
        fee = fee_due(self.cat, state)
        kind = action["type"]
        if kind == "assistant":
            return set(action) == {"type", "x", "y"} and p.reserve > 0 and (
                p.city.get((x, y)) == "R" and can_pay(self.cat, p, (0, 0, 0, 0), fee)
            )
        if not on_frontier(p.city, (x, y)):
            return False
        if kind == "residence":
            return set(action) == {"type", "x", "y"} and p.houses > 0 and (
                can_pay(self.cat, p, (0, 0, 0, 0), fee)
            )
        for key, code, drop in build_choices(self.cat, state):
            wanted = {"type": "build", "tile": key, "x": x, "y": y}
            if drop is not None:
                wanted["drop"] = drop
            if wanted == action:
                return can_pay(self.cat, p, tile_cost(self.cat, code), fee)
        return False

    # ---- apply ---------------------------------------------------------------------------

    def apply(self, state: MinervaState, seat: int, action: Action) -> Transition:
        check_seat(self, state, seat)
        self._check(state, seat, SHAPES.check(action))
        s = state.clone()
        log: list[str] = []
        kind = action["type"]
        p = s.players[seat]
        if kind == "sell":
            sell(self.cat, p, action["resource"])
            log.append(f"sold 1 {action['resource']}")
        elif s.phase == "hire":
            apply_hire(self.cat, s, seat, action, log)
        elif kind in MAIN_TYPES:
            apply_main(self.cat, s, action, log)
        else:
            decide(self.cat, s, action, log)
            if not s.stack:
                continue_turn(self.cat, s, log)
        drew = len(s.deck) != len(state.deck) or len(s.temple_stack) != len(state.temple_stack)
        said = narration.events(seat, action, s.round, log)
        return Transition(state=s, events=said, irreversible=drew)

    # ---- views and outcome ---------------------------------------------------------------

    def view(self, state: MinervaState, seat: int | None) -> dict[str, Any]:
        out = views.public_view(self.cat, state, self.outcome(state))
        out["seat"] = seat
        if seat is not None:
            # The seat's own choices, from its legal actions: where a tile it buys may go.
            builds = [a for a in self.legal_actions(state, seat) if a["type"] == "build"]
            out["private"] = {
                "build_cells": [list(c) for c in sorted({(a["x"], a["y"]) for a in builds})],
                "buildable": sorted({str(a["tile"]) for a in builds}),
            }
        return out

    def outcome(self, state: MinervaState) -> Outcome | None:
        if state.phase != "over":
            return None
        return outcome(self.cat, state)

    def determinize(self, state: MinervaState, seat: int | None, seed: str) -> MinervaState:
        s = state.clone()
        rng = Rng(seed)
        redeal(self.cat, s, rng)
        s.rng = rng.state
        return s

    # ---- notation, storage, presentation -------------------------------------------------

    def parse_action(self, state: MinervaState, seat: int, text: str) -> Action:
        return notation.parse_action(self.cat, state, seat, check_move_text(text))

    def format_action(self, state: MinervaState, action: Action) -> str:
        return notation.format_action(self.cat, state, action)

    def dump(self, state: MinervaState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> MinervaState:
        return MinervaState.load(data)

    def describe(self, view: Mapping[str, Any]) -> str:
        return views.describe(view)

    def moves_hint(self) -> str:
        return ("what you do and where, such as build wheat field or build 1,0 (a tile's name "
                "or a cell), or residence, activate, assistant, sell or pass")

    def rules_summary(self) -> str:
        return views.RULES_SUMMARY
