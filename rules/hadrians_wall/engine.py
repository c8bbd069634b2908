"""The Hadrian's Wall engine: setup, who acts, legal actions, apply, views, outcome."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules.core import (
    Action,
    Event,
    IllegalAction,
    InvalidAction,
    Outcome,
    Rng,
    Transition,
    check_players,
    check_seat,
    derive_seed,
    merge_options,
)
from rules.hadrians_wall import notation, parse_moves, scoring, views, year
from rules.hadrians_wall.actions import KINDS, SHAPES, Kind, active, legal
from rules.hadrians_wall.components import (
    FATE_IDS,
    NEUTRAL_REVEAL,
    OPTION_CHOICES,
    OPTION_DEFAULTS,
    PLAYER_CARD_IDS,
)
from rules.hadrians_wall.rewards import gained_text
from rules.hadrians_wall.state import State, Work, dump_state, load_state, new_sheet
from rules.validation import check_move_text

PINNED = ("fate_order", "player_cards", "neutral_order")
FLAGS = ("gift_reactivates", "fate_reshuffle", "training_when_guard_locked", "favours_persist",
         "forager_counts_prefilled", "market_from_own_card")
PHASE_HINTS = {
    "choose": "Now each player chooses a Path card (choose path NAME).",
    "actions": "Now is the action phase.",
    "attack": "Now the Picts attack: use a favour or resolve the attack.",
    "over": "The game is over.",
}


def _order(value: Any, ids: tuple[str, ...], what: str) -> list[str] | None:
    if value is None:
        return None
    if (not isinstance(value, list) or not all(isinstance(v, str) for v in value)
            or sorted(value) != sorted(ids)):
        raise InvalidAction(f"{what} must list each of these once: {', '.join(ids)}.")
    return list(value)


def _refuse_out_of_turn(state: State, seat: int, kind: Kind) -> None:
    """An action of another phase, or anything but the Road income owed first."""
    if kind.phase != state.phase:
        raise IllegalAction(PHASE_HINTS[state.phase])
    if state.phase == "actions" and state.sheets[seat]["road_pending"] and kind is not KINDS[
            "road"]:
        raise IllegalAction("Take your Road income first (road income: +1 ATTRIBUTE).")


def _close(work: Work, seat: int, action: Action) -> None:
    """What follows every action: a favour's aftermath, then the turn or the Year moves on."""
    if action["type"] == "favour":
        year.after_favour(work, seat)
    year.advance(work)


class HadriansWall:
    id = "hadrians-wall"
    title = "Hadrian's Wall"
    min_players = 1
    max_players = 6
    # Long games: the costly per-step conformance checks run every few steps.
    conformance_deep_every = 2

    # ---------------------------------------------------------------------------- options

    def options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        opts = merge_options(OPTION_DEFAULTS, overrides)
        for key, allowed in OPTION_CHOICES.items():
            if opts[key] not in allowed:
                raise InvalidAction(f"Option {key} is one of: {', '.join(allowed)}.")
        for key in FLAGS:
            if not isinstance(opts[key], bool):
                raise InvalidAction(f"Option {key} is true or false.")
        _order(opts["fate_order"], FATE_IDS, "fate_order")
        _order(opts["neutral_order"], PLAYER_CARD_IDS, "neutral_order")
        cards = opts["player_cards"]
        if cards is not None:
            if not isinstance(cards, list):
                raise InvalidAction("player_cards is a list with one card order per seat.")
            for entry in cards:
                _order(entry, PLAYER_CARD_IDS, "Each player_cards entry")
        return opts

    # ---------------------------------------------------------------------------- setup

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        check_players(self, players)
        opts = self.options(options)
        rng = Rng(seed)
        fate = _order(opts["fate_order"], FATE_IDS, "fate_order") or rng.shuffled(FATE_IDS)
        pinned = opts["player_cards"] or []
        decks = []
        for seat in range(players):
            entry = pinned[seat] if seat < len(pinned) else None
            decks.append(list(entry) if entry else rng.shuffled(PLAYER_CARD_IDS))
        neutral: list[str] = []
        if players in NEUTRAL_REVEAL:
            neutral = (_order(opts["neutral_order"], PLAYER_CARD_IDS, "neutral_order")
                       or rng.shuffled(PLAYER_CARD_IDS))
        kept = {k: v for k, v in opts.items() if k not in PINNED}
        state = State(
            players=players, options=kept, year=0, phase="choose", rng=rng.state,
            fate_draw=tuple(fate), fate_discard=(), year_card=None, attack=(),
            neutral_deck=tuple(neutral), neutral=(), last_attack=None,
            sheets=tuple(new_sheet(d) for d in decks),
        )
        work = Work(state)
        year.start_year(work, 1)
        return work.freeze()

    # ---------------------------------------------------------------------------- turns

    def active_seats(self, state: State) -> frozenset[int]:
        return active(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> Transition:
        check_seat(self, state, seat)
        kind = KINDS[SHAPES.check(action)["type"]]
        _refuse_out_of_turn(state, seat, kind)
        try:
            action = json.loads(json.dumps(action))
        except (TypeError, ValueError) as exc:
            raise InvalidAction("A move is plain JSON.") from exc
        reason = kind.check(state, seat, action)
        if reason:
            raise IllegalAction(reason)
        said = notation.action_sentence(action)
        work = Work(state)
        kind.run(work, seat, action)
        if action["type"] != "choose":
            extra = "".join(f"; {n}" for n in work.notes)
            text = f"{{p{seat}}} {said}{gained_text(work.gained)}{extra}." if said else ""
            work.events.insert(0, Event("action", {"seat": seat, "action": action}, None, text))
        _close(work, seat, action)
        return Transition(work.freeze(), tuple(work.events), work.irreversible)

    def successor(self, state: State, seat: int, action: Action) -> State:
        """``apply(state, seat, action).state`` for one of ``legal_actions(state, seat)``, which
        have their shape and are plain JSON already: the computer players weigh thousands of
        them a move and read no event. Raises where ``apply`` would for such an action."""
        check_seat(self, state, seat)
        kind = KINDS[action["type"]]
        _refuse_out_of_turn(state, seat, kind)
        reason = kind.check(state, seat, action)
        if reason:
            raise IllegalAction(reason)
        work = Work(state)
        kind.run(work, seat, action)
        _close(work, seat, action)
        return work.freeze()

    # ---------------------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def describe(self, view: Mapping[str, Any]) -> str:
        return views.describe(view)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return scoring.outcome(state.sheets, state.options)

    def determinize(self, state: State, seat: int | None, seed: str) -> State:
        """Re-deal the Fate draw pile, the Neutral deck, every deck order and what other seats
        drew (and chose) this Year but have not revealed."""
        # Hidden pools are sorted before shuffling so the result depends only on what ``seat``
        # sees and the seed (computer players rely on it: indistinguishable states, same move).
        rng = Rng(derive_seed("determinize", seed))
        sheets = []
        for s, sheet in enumerate(state.sheets):
            if s == seat:
                sheets.append({**sheet, "deck": rng.shuffled(sorted(sheet["deck"]))})
                continue
            drawn = list(sheet["drawn"])
            pool = rng.shuffled(sorted([*sheet["deck"], *drawn]))
            new_drawn = pool[: len(drawn)]
            chosen = sheet["chosen"]
            if chosen is not None and new_drawn:
                chosen = rng.choice(new_drawn)
            sheets.append({**sheet, "deck": pool[len(drawn):], "drawn": new_drawn,
                           "chosen": chosen})
        return State(
            players=state.players, options=state.options, year=state.year, phase=state.phase,
            rng=Rng(derive_seed("determinize-rng", seed)).state,
            fate_draw=tuple(rng.shuffled(sorted(state.fate_draw))), fate_discard=state.fate_discard,
            year_card=state.year_card, attack=state.attack,
            neutral_deck=tuple(rng.shuffled(sorted(state.neutral_deck))), neutral=state.neutral,
            last_attack=state.last_attack, sheets=tuple(sheets), steps=state.steps,
        )

    # ---------------------------------------------------------------------------- notation

    def parse_action(self, state: State, seat: int, text: str) -> Action:
        return parse_moves.parse_action(state, seat, check_move_text(text))

    def format_action(self, state: State, action: Action) -> str:
        return notation.format_action(action)

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)

    def moves_hint(self) -> str:
        return ("an area and a box number such as fort 7 or wall guard 2, or citizen, the "
                "worker you pay with (servant), or pass")

    def rules_summary(self) -> str:
        return (
            "Hadrian's Wall: 6 Years. Each Year everyone gains the Fate card's workers, chooses a "
            "Path card in secret (choose path NAME), then acts at their own pace, paying workers "
            "and resources to fill boxes on both sheets, until everyone has passed. Then the "
            "Picts attack: cohorts stop them, favours may ignore cards (favour left temple, "
            "resolve attack).\n"
            "Moves name the area, box and cost, e.g. 'wall 4 (1 resource), left cohort', "
            "'fort 5 (1 builder)', 'build medium granary', 'citizen traders 3', 'market 2 from "
            "left neighbour', 'scout A1 A2 B1 B2 from own card', 'pass'."
        )


GAME = HadriansWall()
