"""Placing inhabitants (spec 6) and the switch to scoring after the last placement (spec 7)."""

from __future__ import annotations

from dataclasses import replace

from rules.core import Action, Event, IllegalAction, InvalidAction, Transition
from rules.palatinus import components as comp
from rules.palatinus import scoring
from rules.palatinus.state import OVER, PalatinusState, Piece, with_placement

SOLDIER = comp.KINDS.index("S")


def soldier_free_turns(players: int) -> int:
    free: int = comp.inhabitant_data()["soldier_free_turns"][players]
    return free


def allowed_kinds(state: PalatinusState, seat: int) -> list[str]:
    """Kinds the seat may place now, after the soldier restriction (spec 6.4).

    With ``R`` pieces behind the screen and ``N`` soldier-free turns, a soldier needs ``R > N``
    and anything else needs ``soldiers <= R - 1 - N``, so no soldier is ever left stranded.
    The spec's formula is read with the obvious exception: with no soldier left, anything goes
    (taken literally it would forbid every placement in the last N turns)."""
    screen = state.screens[seat]
    left = sum(screen)
    free = soldier_free_turns(state.players)
    soldiers = screen[SOLDIER]
    out = []
    for kind, count in zip(comp.KINDS, screen, strict=True):
        if count == 0:
            continue
        if kind == "S" and left <= free:
            continue
        if kind != "S" and soldiers and soldiers > left - 1 - free:
            continue
        out.append(kind)
    return out


def empty_fields(state: PalatinusState) -> list[str]:
    taken = {p.field for p in state.pieces}
    tile_fields = state.board.tile_fields
    return [
        name
        for letter in sorted(tile_fields)
        for name in tile_fields[letter]
        if name not in taken
    ]


def legal_places(state: PalatinusState, seat: int) -> list[Action]:
    kinds = allowed_kinds(state, seat)
    empty = empty_fields(state)
    return [
        {"type": "place", "field": field, "piece": kind}
        for kind in kinds
        for field in empty
    ]


def apply_place(state: PalatinusState, seat: int, action: Action) -> Transition:
    field = action.get("field")
    kind = action.get("piece")
    if not isinstance(field, str) or field not in state.board.fields:
        raise InvalidAction("Name a field by tile letter and number, e.g. C4.")
    if not isinstance(kind, str) or kind not in comp.KINDS:
        raise InvalidAction("Name a piece: M, F, S, wolf M or wolf F.")
    if any(p.field == field for p in state.pieces):
        raise IllegalAction(f"{field} is taken; place on an empty field.")
    screen = state.screens[seat]
    index = comp.KINDS.index(kind)
    if screen[index] == 0:
        raise IllegalAction(f"You have no {comp.kind_name(kind)} left.")
    if kind not in allowed_kinds(state, seat):
        free = soldier_free_turns(state.players)
        if kind == "S":
            raise IllegalAction(f"No soldier in your last {free} turns; place another piece.")
        raise IllegalAction(f"Place your soldier now: none may be left for your last {free} turns.")
    new_screen = tuple(n - 1 if i == index else n for i, n in enumerate(screen))
    screens = tuple(new_screen if s == seat else state.screens[s] for s in range(state.players))
    pieces = (*state.pieces, Piece(field, seat, kind))
    events = list(placement_events(seat, field, kind))
    nxt = (seat + 1) % state.players
    placed = with_placement(state, screens, pieces, nxt)
    if any(sum(s) for s in screens):
        return Transition(placed, tuple(events), False)
    final, more = finish(placed)
    return Transition(final, (*events, *more), True)


def placement_events(seat: int, field: str, kind: str) -> tuple[Event, ...]:
    """The public account, plus the type for the owner alone when it is a wolf piece."""
    neutral = "neutral " if comp.is_extra(kind) else ""
    if not comp.is_wolf(kind):
        name = comp.kind_name(kind)
        return (
            Event(
                "placed",
                {"seat": seat, "field": field, "piece": kind},
                None,
                f"{{p{seat}}} placed a {name} on {field}.",
            ),
        )
    return (
        Event(
            "placed",
            {"seat": seat, "field": field, "piece": None, "wolf": True},
            None,
            f"{{p{seat}}} placed a {neutral}wolf piece on {field}.",
        ),
        Event(
            "placed_hidden",
            {"seat": seat, "field": field, "piece": kind},
            frozenset({seat}),
            f"Your wolf piece on {field} is a {comp.kind_name(kind)}.",
        ),
    )


def finish(state: PalatinusState) -> tuple[PalatinusState, tuple[Event, ...]]:
    """Reveal every wolf piece and score all hills; the state becomes final."""
    wolves = [p for p in state.pieces if comp.is_wolf(p.kind)]
    revealed = "; ".join(f"{{p{p.owner}}} {comp.kind_name(p.kind)} on {p.field}" for p in wolves)
    events = [
        Event(
            "revealed",
            {"pieces": [[p.field, p.owner, p.kind] for p in wolves]},
            None,
            f"Every piece is down. The wolf pieces are turned up: {revealed or 'none'}.",
        )
    ]
    laurels = dict(state.laurels)
    remaining, record = scoring.score(
        state.board, state.pieces, laurels, state.players, state.config
    )
    record["placed"] = [[p.field, p.owner, p.kind] for p in state.pieces]
    events.extend(scoring.hill_events(record))
    result = scoring.outcome(record, state.config.tie_break)
    # One line per player, best first: a single paragraph was hard to read.
    order = [s for group in result.ranking for s in group]
    summary = "\n".join(
        f"{{p{s}}} {result.scores[s]} VP (laurels {result.breakdown[s]['laurels']}, discs "
        f"{result.breakdown[s]['discs']}, captures {result.breakdown[s]['captures']})"
        for s in order
    )
    winners = _winner_text(result.ranking[0])
    events.append(
        Event(
            "game_over",
            {"scores": list(result.scores), "ranking": [list(g) for g in result.ranking]},
            None,
            f"Final VP:\n{summary}\n{winners}",
        )
    )
    final = replace(state, phase=OVER, turn=-1, pieces=remaining, scoring=record)
    return final, tuple(events)


def _winner_text(group: tuple[int, ...]) -> str:
    names = " and ".join(f"{{p{s}}}" for s in group)
    return f"{names} win{'s' if len(group) == 1 else ''}."
