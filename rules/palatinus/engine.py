"""The Palatinus ``Game``: setup, turns, views, outcome and the rest of the engine contract."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.core import (
    Action,
    IllegalAction,
    InvalidAction,
    Outcome,
    Rng,
    Transition,
    check_players,
    check_seat,
    derive_seed,
)
from rules.palatinus import components as comp
from rules.palatinus import notation, scoring, views
from rules.palatinus import state as st
from rules.palatinus.config import allocation_for, build_config, merged_options
from rules.palatinus.laying import apply_lay, free_positions, legal_lays
from rules.palatinus.placing import apply_place, legal_places
from rules.palatinus.state import LAYING, OVER, PLACING, PalatinusState, Piece, Tile
from rules.validation import TEXT, WHOLE, ActionShapes, check_move_text

SHAPES = ActionShapes(
    {"lay": {"position": WHOLE, "rotation": WHOLE}, "place": {"field": TEXT, "piece": TEXT}},
    hint=" Lay a tile ('lay 3 r2') or place an inhabitant ('M C4').",
)


class Palatinus:
    id = "palatinus"
    title = "Palatinus"
    min_players = 2
    max_players = 5
    conformance_deep_every = 1

    # ---------------------------------------------------------------------------- setup

    def options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return merged_options(overrides)

    def setup(
        self, players: int, seed: str, options: Mapping[str, Any] | None = None
    ) -> PalatinusState:
        check_players(self, players)
        config = build_config(merged_options(options))
        rng = Rng(seed)
        start = config.start_seat
        if start is None:
            start = rng.randbelow(players)
        elif start >= players:
            raise InvalidAction(f"start_seat must be 0 to {players - 1}.")
        order = config.tile_order or "".join(rng.shuffled(comp.LETTERS))
        laurels = config.laurel_order or tuple(rng.shuffled(config.laurels))
        alloc = allocation_for(config, players)
        screen = tuple(alloc[k] for k in comp.KINDS)
        centre = order[0]
        return PalatinusState(
            players=players,
            config=config,
            rng=rng.state,
            start_seat=start,
            phase=LAYING,
            tile_stack=tuple(order[2:]),
            current_tile=order[1],
            tiles=(Tile(centre, 0, 0),),
            laurel_stack=tuple(laurels),
            laurels=((centre, config.palatinus_laurel),),
            turn=start,
            screens=(screen,) * players,
            pieces=(),
        )

    # ---------------------------------------------------------------------------- turns

    def active_seats(self, state: PalatinusState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset({state.turn})

    def legal_actions(self, state: PalatinusState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.turn:
            return []
        if state.phase == LAYING:
            return legal_lays(state)
        return legal_places(state, seat)

    def apply(self, state: PalatinusState, seat: int, action: Action) -> Transition:
        check_seat(self, state, seat)
        kind = SHAPES.check(action)["type"]
        if state.phase == LAYING:
            if kind != "lay":
                raise IllegalAction(
                    "Inhabitants are placed once every tile is laid: lay tile "
                    f"{state.current_tile} first, e.g. lay 3 r2.")
            return apply_lay(state, seat, action)
        if kind != "place":
            raise IllegalAction("Every tile is laid; place an inhabitant, e.g. M C4.")
        return apply_place(state, seat, action)

    def outcome(self, state: PalatinusState) -> Outcome | None:
        if state.phase != OVER or state.scoring is None:
            return None
        return scoring.outcome(state.scoring, state.config.tie_break)

    # ---------------------------------------------------------------------------- information

    def view(self, state: PalatinusState, seat: int | None) -> dict[str, Any]:
        return views.build_view(state, seat)

    def describe(self, view: Mapping[str, Any]) -> str:
        return views.describe(view)

    def determinize(self, state: PalatinusState, seat: int | None, seed: str) -> PalatinusState:
        """Re-deal the undrawn tiles, the undealt laurels and, for every other seat, which
        wolf-backed kinds are on the board and which are still behind the screen."""
        # Pools are sorted before shuffling so the result depends only on the view and the seed.
        rng = Rng(derive_seed("palatinus-determinize", seed, seat))
        tile_stack = state.tile_stack
        if state.config.tile_order is None:
            tile_stack = tuple(rng.shuffled(sorted(tile_stack)))
        laurel_stack = state.laurel_stack
        if state.config.laurel_order is None:
            laurel_stack = tuple(rng.shuffled(sorted(laurel_stack)))
        screens = list(state.screens)
        pieces = list(state.pieces)
        if state.phase == PLACING:
            for other in range(state.players):
                if other != seat:
                    _redeal_wolves(other, screens, pieces, rng)
        return st.same_board(replace(
            state,
            rng=rng.state,
            tile_stack=tile_stack,
            laurel_stack=laurel_stack,
            screens=tuple(screens),
            pieces=tuple(pieces),
        ), state)

    # ---------------------------------------------------------------------------- notation

    def parse_action(self, state: PalatinusState, seat: int, text: str) -> Action:
        text = check_move_text(text)
        if state.phase == OVER:
            raise IllegalAction("The game is over: no more moves.")
        lay_help = notation.LAY_HELP
        if state.phase == LAYING:
            free = ", ".join(str(p) for p in free_positions(state))
            lay_help = (f"Now lay tile {state.current_tile} on a free position ({free}), "
                        "turned r0-r5, e.g. lay 3 r2.")
        return notation.parse_action(text, state.phase, lay_help)

    def format_action(self, state: PalatinusState, action: Action) -> str:
        return notation.format_action(action)

    def dump(self, state: PalatinusState) -> dict[str, Any]:
        return st.dump(state)

    def load(self, data: dict[str, Any]) -> PalatinusState:
        return st.load(data)

    def moves_hint(self) -> str:
        return ("a field such as c4, after a piece's letter (M c4 for a merchant, F for a "
                "farmer, S for a soldier) or wolf; to lay the tile, lay and a ring position, "
                "such as lay 3")

    def rules_summary(self) -> str:
        return (
            "Palatinus (2-5 players). First the 7 tiles are laid: on your turn put the drawn tile "
            "on a numbered free position of the ring, turned r0-r5 (e.g. `lay 3 r2`). Then take "
            "turns placing one inhabitant on an empty field (e.g. `M C4`, `F B2`, `S A1`, "
            "`wolf M C4`). Wolf pieces go down wolf side up, hidden from the others. No soldier "
            "in your last 3 turns (4 with 2-3 players). At the end hills A-G are scored in order: "
            "soldiers capture the larger adjacent group of merchants or farmers (or leave on a "
            "tie), then merchants and farmers on the hill's fields give influence; the most "
            "influence takes the laurel, a tie gives each tied player a 2-point disc. "
            "VP = laurels + discs + 1 per captured piece."
        )


_WOLF_GROUPS = (("Mw", "Fw"), ("xMw", "xFw"))


def _redeal_wolves(
    seat: int, screens: list[tuple[int, ...]], pieces: list[Piece], rng: Rng
) -> None:
    """Shuffle the hidden kinds among ``seat``'s wolf pieces on the board and behind its screen.

    Own and neutral wolves stay apart: a view shows whether a piece is neutral."""
    screen = list(screens[seat])
    for group in _WOLF_GROUPS:
        slots = [i for i, p in enumerate(pieces) if p.owner == seat and p.kind in group]
        pool = [p.kind for p in (pieces[i] for i in slots)]
        for kind in group:
            pool.extend([kind] * screen[comp.KINDS.index(kind)])
        pool = rng.shuffled(sorted(pool))  # sorted: the result depends on the view only
        for i, kind in zip(slots, pool, strict=False):
            pieces[i] = replace(pieces[i], kind=kind)
        rest = pool[len(slots) :]
        for kind in group:
            screen[comp.KINDS.index(kind)] = rest.count(kind)
    screens[seat] = tuple(screen)
