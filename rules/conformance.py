"""The shared checks every game must pass (random playouts, in the manner of OpenSpiel's).

``check_playout`` plays one seeded random game to its end and checks, at every step:

* the state survives a JSON round trip (``dump`` -> ``json`` -> ``load`` -> ``dump``);
* ``apply`` leaves its input unchanged;
* every active seat has a legal action, every legal action applies, and inactive seats get
  ``NotYourTurn``;
* ``format_action`` / ``parse_action`` round-trip every legal action;
* ``apply`` accepts exactly what ``legal_actions`` lists: a legal action with an unknown key or a
  wrongly typed value (``true`` for a number, a number for text, ...) is an ``InvalidAction``, a
  missing key or a non-object is refused, and neither the state nor the action changes;
* ``determinize`` keeps every observer's view (the public one included) unchanged;
* views are JSON-able and never carry the generator state;
* the game ends within ``max_steps`` with an outcome that ranks every seat once.

``check_determinism`` replays the same actions from the same seed and compares every state.
Failures raise ``ConformanceError`` naming the game, players, seed and step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import (
    Action,
    Game,
    InvalidAction,
    NotYourTurn,
    Rng,
    RulesError,
    State,
    derive_seed,
    same_json,
)


class ConformanceError(AssertionError):
    pass


@dataclass(frozen=True)
class Playout:
    """What a playout did: the actions (for replays) and the final state."""

    actions: list[tuple[int, Action]]
    final: State
    steps: int


def _fail(game: Game, players: int, seed: str, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"{game.id} players={players} seed={seed!r} step={step}: {what}")


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _check_view_json(view: Mapping[str, Any], rng_state: str | None) -> str:
    text = _canonical(view)
    if rng_state and rng_state in text:
        raise AssertionError("a view contains the generator state")
    return text


def check_playout(
    game: Game,
    players: int,
    seed: str,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 20_000,
    deep_every: int = 1,
) -> Playout:
    """Play one random game to its end, checking the contract at every step.

    ``deep_every`` > 1 runs the costlier checks (determinize for every observer, notation round
    trip of every legal action) only every so many steps, for long games.
    """
    state = game.setup(players, seed, options)
    chooser = Rng(derive_seed("conformance", game.id, players, seed))
    # A generator of its own, so the strictness probes do not change which game is played.
    prober = Rng(derive_seed("conformance-strict", game.id, players, seed))
    taken: list[tuple[int, Action]] = []
    observers: list[int | None] = [None, *range(players)]
    for step in range(max_steps + 1):
        deep = step % deep_every == 0
        dumped = game.dump(state)
        text = _canonical(dumped)
        again = game.dump(game.load(json.loads(text)))
        if _canonical(again) != text:
            raise _fail(game, players, seed, step, "state does not survive a JSON round trip")
        rng_state = _find_rng(dumped)

        active = game.active_seats(state)
        over = game.outcome(state)
        if not active:
            if over is None:
                raise _fail(game, players, seed, step, "no active seat but no outcome")
            _check_outcome(game, players, seed, step, over)
            for observer in observers:
                _check_view_json(game.view(state, observer), rng_state)
            return Playout(taken, state, step)
        if over is not None:
            raise _fail(game, players, seed, step, "an outcome while seats are still active")
        if not active <= set(range(players)):
            raise _fail(game, players, seed, step, f"active seats {sorted(active)} out of range")

        for seat in range(players):
            if seat in active:
                continue
            if game.legal_actions(state, seat):
                raise _fail(game, players, seed, step, f"inactive seat {seat} has legal actions")
            try:
                probe = _any_action(game, state, active)
                game.apply(state, seat, probe)
            except NotYourTurn:
                pass
            except RulesError as exc:
                raise _fail(
                    game, players, seed, step, f"inactive seat {seat} got {exc!r}, not NotYourTurn"
                ) from exc
            else:
                raise _fail(game, players, seed, step, f"inactive seat {seat} could act")

        if deep:
            for observer in observers:
                before = _check_view_json(game.view(state, observer), rng_state)
                other = game.determinize(state, observer, derive_seed(seed, step, observer))
                after = _canonical(game.view(other, observer))
                if before != after:
                    raise _fail(
                        game, players, seed, step,
                        f"determinize changed the view of observer {observer}",
                    )
                # The re-dealt state must itself be playable the same way.
                if game.active_seats(other) != active:
                    raise _fail(game, players, seed, step, "determinize changed the active seats")

        seats = sorted(active)
        seat = seats[chooser.randbelow(len(seats))]
        legal = game.legal_actions(state, seat)
        if not legal:
            raise _fail(game, players, seed, step, f"active seat {seat} has no legal action")
        if deep:
            for action in legal:
                written = game.format_action(state, action)
                parsed = game.parse_action(state, seat, written)
                if parsed != action:
                    raise _fail(
                        game, players, seed, step,
                        f"notation does not round-trip: {action} -> {written!r} -> {parsed}",
                    )
        if deep:
            # A refused action that changed the state is caught below with the real move.
            problem = _check_strictness(game, state, seat, legal, prober)
            if problem:
                raise _fail(game, players, seed, step, problem)
        action = legal[chooser.randbelow(len(legal))]
        transition = game.apply(state, seat, json.loads(_canonical(action)))
        if _canonical(game.dump(state)) != text:
            raise _fail(game, players, seed, step, "apply mutated its input state")
        for event in transition.events:
            if event.to is not None and not event.to <= set(range(players)):
                raise _fail(game, players, seed, step, f"event {event.kind} to unknown seats")
        taken.append((seat, action))
        state = transition.state
    raise _fail(game, players, seed, max_steps, "the game did not end")


def check_determinism(
    game: Game,
    players: int,
    seed: str,
    actions: list[tuple[int, Action]],
    options: Mapping[str, Any] | None = None,
) -> None:
    """Two runs of the same seed and actions give equal states at every step."""
    a = game.setup(players, seed, options)
    b = game.setup(players, seed, options)
    for step, (seat, action) in enumerate(actions):
        if _canonical(game.dump(a)) != _canonical(game.dump(b)):
            raise _fail(game, players, seed, step, "same seed and actions gave different states")
        a = game.apply(a, seat, action).state
        b = game.apply(b, seat, action).state
    if _canonical(game.dump(a)) != _canonical(game.dump(b)):
        raise _fail(game, players, seed, len(actions), "same seed and actions diverged at the end")


def check_seed_matters(game: Game, players: int, seeds: list[str]) -> None:
    """Different seeds should not all give the same setup (randomness actually used)."""
    dumps = {_canonical(game.dump(game.setup(players, s))) for s in seeds}
    if len(dumps) == 1 and len(seeds) > 1:
        raise ConformanceError(f"{game.id}: every seed gives the same setup")


def _check_outcome(game: Game, players: int, seed: str, step: int, outcome: Any) -> None:
    if len(outcome.scores) != players:
        raise _fail(game, players, seed, step, "outcome scores do not cover every seat")
    ranked = [s for group in outcome.ranking for s in group]
    if sorted(ranked) != list(range(players)):
        raise _fail(game, players, seed, step, f"ranking {outcome.ranking} is not a partition")
    json.dumps(outcome.to_json())


def _any_action(game: Game, state: State, active: frozenset[int]) -> Action:
    """A legal action of some active seat: what an inactive seat tries to sneak in."""
    for seat in sorted(active):
        legal = game.legal_actions(state, seat)
        if legal:
            return legal[0]
    return {"type": "pass"}


_SAMPLES: dict[str, Any] = {
    "bool": True, "int": 7, "float": 0.5, "str": "x", "null": None, "list": [], "object": {},
}
"""One value of each JSON kind, to put where a value of another kind belongs."""


def _kind(value: Any) -> str:
    for name, types in (("bool", bool), ("int", int), ("float", float), ("str", str),
                        ("list", list), ("object", dict)):
        if isinstance(value, types):
            return name
    return "null"


def _check_strictness(
    game: Game, state: State, seat: int, legal: list[Action], chooser: Rng
) -> str | None:
    """Bend one legal action out of shape in every way and check ``apply`` refuses it."""
    action = legal[chooser.randbelow(len(legal))]
    probes: list[tuple[str, Any, bool]] = [  # (what, bent action, must be InvalidAction)
        ("an unknown key", {**action, f"unknown_{chooser.randbelow(1000)}": 1}, True),
        ("a type that is not text", {**action, "type": 1}, True),
        ("an action that is not an object", [action], True),
    ]
    keys = sorted(k for k in action if k != "type")
    if keys:  # one field per step; a playout comes to all of them
        key = keys[chooser.randbelow(len(keys))]
        value = action[key]
        # Kinds this field takes in some legal action of the type are not "wrong".
        seen = {_kind(a[key]) for a in legal if a["type"] == action["type"] and key in a}
        wrong = [v for name, v in _SAMPLES.items() if name not in seen]
        bad = wrong[chooser.randbelow(len(wrong))]
        probes.append((f"{key} of the wrong type ({_kind(bad)})", {**action, key: bad}, True))
        if isinstance(value, list) and value:
            inner = {_kind(v) for v in value}
            odd = [v for name, v in _SAMPLES.items() if name not in inner]
            bent = [*value[:-1], odd[chooser.randbelow(len(odd))]]
            probes.append((f"{key} with an item of the wrong type", {**action, key: bent}, True))
        probes.append((f"no {key}", {k: v for k, v in action.items() if k != key}, False))
    for what, bent, strict in probes:
        sent = _canonical(bent)
        try:
            game.apply(state, seat, bent)
        except InvalidAction:
            pass
        except RulesError as exc:
            if strict:
                return f"{what} gave {type(exc).__name__}, not InvalidAction: {bent}"
        else:
            if not any(same_json(bent, a) for a in legal):
                return f"apply accepted {what}, which legal_actions does not list: {bent}"
        if _canonical(bent) != sent:
            return f"apply changed the action it was given ({what})"
    return None


def _find_rng(dumped: Any) -> str | None:
    """The generator state inside a dump, found by the conventional key ``"rng"``."""
    if isinstance(dumped, dict):
        value = dumped.get("rng")
        if isinstance(value, str) and len(value) >= 16:
            return value
    return None
