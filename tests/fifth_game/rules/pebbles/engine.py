"""Pebbles: a tiny card game that exercises the engine contract (and, dropped into the package
folders, the game registry) in tests only.

Cards 1-9, twice each, shuffled from the seed. Every player holds 2 hidden cards. On your turn
you either ``play N`` (score a card from your hand, then draw one: a draw, so irreversible) or
``hold`` (nothing happens; reversible). After each player has had ``turns`` turns, the highest
total wins; ties are broken by fewer cards played, then stay tied.
"""

from __future__ import annotations

import copy
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
    check_seat,
    merge_options,
    rank_by,
)
from rules.validation import WHOLE, ActionShapes, check_move_text, read_number

DEFAULTS: dict[str, Any] = {"turns": 4, "hand": 2, "deck": None, "first": None}
SHAPES = ActionShapes({"play": {"card": WHOLE}, "hold": {}}, hint=" Moves: play N, hold.")


class Pebbles:
    id = "pebbles"
    title = "Pebbles"
    min_players = 2
    max_players = 4

    def options(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return merge_options(DEFAULTS, overrides)

    def moves_hint(self) -> str:
        return "play and a card, such as play 7, or hold"

    def rules_summary(self) -> str:
        return "Play a card from your hand (`play 7`) or `hold`. Highest total wins."

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> Any:
        opts = self.options(options)
        rng = Rng(seed)
        deck = list(opts["deck"]) if opts["deck"] else rng.shuffled([n for n in range(1, 10)] * 2)
        hands = [[deck.pop() for _ in range(opts["hand"])] for _ in range(players)]
        first = opts["first"] if opts["first"] is not None else rng.randbelow(players)
        return {
            "players": players, "deck": deck, "hands": hands, "played": [[] for _ in hands],
            "turn": first, "turns_left": opts["turns"] * players, "rng": rng.state,
        }

    def active_seats(self, state: Any) -> frozenset[int]:
        return frozenset() if state["turns_left"] <= 0 else frozenset({state["turn"]})

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        if seat not in self.active_seats(state):
            return []
        plays = [{"type": "play", "card": c} for c in sorted(set(state["hands"][seat]))]
        return [*plays, {"type": "hold"}]

    def apply(self, state: Any, seat: int, action: Action) -> Transition:
        check_seat(self, state, seat)
        kind = self.check_shape(action)["type"]
        new = copy.deepcopy(state)
        events: list[Event] = []
        irreversible = False
        if kind == "play":
            card = action.get("card")
            if not isinstance(card, int):
                raise InvalidAction("Write `play N` with a card number.")
            if card not in new["hands"][seat]:
                held = ", ".join(str(c) for c in sorted(new["hands"][seat])) or "nothing"
                raise IllegalAction(f"You do not hold a {card}. You hold: {held}.")
            new["hands"][seat].remove(card)
            new["played"][seat].append(card)
            events.append(Event("play", {"seat": seat, "card": card},
                                text=f"{{p{seat}}} played {card}."))
            if new["deck"]:
                drawn = new["deck"].pop()
                new["hands"][seat].append(drawn)
                irreversible = True
                events.append(Event("draw", {"card": drawn}, to=frozenset({seat}),
                                    text=f"You drew {drawn}."))
                events.append(Event("draw", {"seat": seat}, text=f"{{p{seat}}} drew a card."))
        elif kind == "hold":
            events.append(Event("hold", {"seat": seat}, text=f"{{p{seat}}} held."))
        else:
            raise InvalidAction("Moves are `play N` or `hold`.")
        new["turn"] = (seat + 1) % new["players"]
        new["turns_left"] -= 1
        return Transition(new, tuple(events), irreversible)

    def check_shape(self, action: Any) -> Action:
        return SHAPES.check(action)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.id,
            "players": state["players"],
            "played": state["played"],
            "hand_sizes": [len(h) for h in state["hands"]],
            "deck_size": len(state["deck"]),
            "active": sorted(self.active_seats(state)),
            "turns_left": state["turns_left"],
        }
        if seat is not None:
            out["hand"] = sorted(state["hands"][seat])
        result = self.outcome(state)
        if result is not None:
            out["outcome"] = result.to_json()
        return out

    def outcome(self, state: Any) -> Outcome | None:
        if state["turns_left"] > 0:
            return None
        scores = tuple(sum(p) for p in state["played"])
        keys = [(scores[s], -len(state["played"][s])) for s in range(state["players"])]
        return Outcome(scores, rank_by(keys),
                       tuple({"cards": sum(p)} for p in state["played"]))

    def determinize(self, state: Any, seat: int | None, seed: str) -> Any:
        new = copy.deepcopy(state)
        rng = Rng(seed)
        hidden_hands = [s for s in range(state["players"]) if s != seat]
        pool = list(new["deck"]) + [c for s in hidden_hands for c in new["hands"][s]]
        # Sorted first: the re-deal must depend on what the seat sees, not on the true order.
        pool = rng.shuffled(sorted(pool))
        for s in hidden_hands:
            new["hands"][s] = [pool.pop() for _ in new["hands"][s]]
        new["deck"] = pool
        return new

    def parse_action(self, state: Any, seat: int, text: str) -> Action:
        words = check_move_text(text).strip().lower().split()
        if words == ["hold"]:
            return {"type": "hold"}
        if len(words) == 2 and words[0] == "play" and words[1].isdigit():
            return {"type": "play", "card": read_number(words[1])}
        raise InvalidAction("Moves are `play N` or `hold`.")

    def format_action(self, state: Any, action: Action) -> str:
        return f"play {action['card']}" if action["type"] == "play" else "hold"

    def dump(self, state: Any) -> dict[str, Any]:
        return copy.deepcopy(dict(state))

    def load(self, data: dict[str, Any]) -> Any:
        return copy.deepcopy(data)

    def describe(self, view: Mapping[str, Any]) -> str:
        lines = [
            f"{{p{s}}}: played {sum(p)} ({_cards(len(p))})" for s, p in enumerate(view["played"])
        ]
        if "hand" in view:
            lines.append("Your hand: " + ", ".join(str(c) for c in view["hand"]))
        lines.append(f"Deck: {_cards(view['deck_size'])}; turns left: {view['turns_left']}")
        return "\n".join(lines)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


GAME = Pebbles()
