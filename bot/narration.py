"""Turning a table's state into notices: narration, per-seat private news, who acts next."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.notices import Notice, SeatNotice
from bot.store import SeatRecord, TableRecord
from rules.core import Event, Game, State, format_text


@dataclass
class Loaded:
    """A table with its seats, its game and its current state, as one use case sees it."""

    table: TableRecord
    seats: list[SeatRecord]
    game: Game
    state: State | None


def named_view(loaded: Loaded, state: State, seat: int | None) -> dict[str, Any]:
    """The engine's view plus the players' names, so images can say "Alice" not "Player 1"."""
    return {**loaded.game.view(state, seat), "names": [s.name for s in loaded.seats]}


def private_notices(
    loaded: Loaded,
    state: State,
    before: State | None,
    events: tuple[Event, ...],
    *,
    every_human: bool = False,
    only_seats: set[int] | None = None,
) -> list[SeatNotice]:
    """A notice for each human seat whose private view changed (or every one, at start).

    Builds several views of the game: callers run it off the event loop."""
    game = loaded.game
    public_now = game.view(state, None)
    public_before = game.view(before, None) if before is not None else None
    out = []
    for seat_rec in loaded.seats:
        seat = seat_rec.position
        if seat_rec.is_computer or (only_seats is not None and seat not in only_seats):
            continue
        mine = [e for e in events if e.to is not None and seat in e.to]
        changed = every_human or only_seats is not None or bool(mine)
        view = game.view(state, seat)
        if not changed and before is not None and public_before is not None:
            changed = private_part(view, public_now) != private_part(
                game.view(before, seat), public_before
            )
        if changed:
            text = narrate(tuple(mine), seat)
            out.append(seat_notice(loaded, seat, state, text, view))
    return out


def seat_notice(
    loaded: Loaded, seat: int, state: State, text: str, view: dict[str, Any] | None = None
) -> SeatNotice:
    """A seat's private news; ``view`` is the engine's view of the seat when already built."""
    rec = loaded.seats[seat]
    view = {**(view if view is not None else loaded.game.view(state, seat)),
            "names": [s.name for s in loaded.seats]}
    names = [s.name for s in loaded.seats]
    body = format_text(text, names)
    described = describe(loaded, view)
    return SeatNotice(
        seat,
        rec.member_id,
        rec.name,
        "\n".join(t for t in (body, described) if t),
        view,
        rec.dm_closed,
    )


def describe(loaded: Loaded, view: Mapping[str, Any]) -> str:
    return format_text(loaded.game.describe(view), [s.name for s in loaded.seats])


def play_notice(loaded: Loaded, lines: list[str], private: list[SeatNotice]) -> Notice:
    table, game, state = loaded.table, loaded.game, loaded.state
    names = [s.name for s in loaded.seats]
    text_lines = [format_text(line, names) for line in lines if line]
    next_members: list[int] = []
    next_names: list[str] = []
    outcome = game.outcome(state) if state is not None else None
    if outcome is not None:
        text_lines.append(outcome_text(outcome.to_json(), names))
        text_lines.append(
            f"The secret seed was `{table.seed}` (its SHA-256 was announced at the start); "
            "`/export` gives the replay."
        )
    elif state is not None:
        for seat in sorted(game.active_seats(state)):
            rec = loaded.seats[seat]
            next_names.append(rec.name)
            if rec.member_id is not None:
                next_members.append(rec.member_id)
    view = named_view(loaded, state, None) if state is not None else None
    return Notice(
        table.id,
        table.game_id,
        table.version,
        table.status,
        "\n".join(text_lines),
        public_view=view,
        private=tuple(private),
        next_members=tuple(next_members),
        next_names=tuple(next_names),
    )


def private_part(view: Mapping[str, Any], public: Mapping[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the public one: the part worth a DM when it changes."""
    return {k: v for k, v in view.items() if public.get(k) != v}


def narrate(events: tuple[Event, ...], seat: int | None) -> str:
    return " ".join(e.text for e in events if e.text and e.visible_to(seat)).strip()


def outcome_text(outcome: Mapping[str, Any], names: list[str]) -> str:
    places = []
    scores = outcome.get("scores", [])
    for place, group in enumerate(outcome.get("ranking", []), start=1):
        who = " and ".join(f"{names[s]} ({scores[s]})" for s in group)
        places.append(f"{place}. {who}")
    notes = " ".join(outcome.get("notes", []))
    return "**Game over.** " + "; ".join(places) + (f". {notes}" if notes else "")


def lobby_notice(
    table: TableRecord, game: Game, seats: list[SeatRecord], headline: str
) -> Notice:
    """Who sits at a lobby, how many seats are left, and whether it can start."""
    limit = table.max_players or game.max_players
    listing = ", ".join(
        f"{i + 1}. {s.name}" + (" (computer)" if s.is_computer else "")
        for i, s in enumerate(seats)
    )
    ready = (
        "Ready to start."
        if len(seats) >= game.min_players
        else f"Needs at least {game.min_players} players."
    )
    lobby = f"**{game.title}** lobby: {len(seats)}/{limit} seats: {listing}. {ready}"
    text = "\n".join(line for line in (headline, lobby) if line)
    return Notice(table.id, table.game_id, table.version, table.status, text,
                  data={"seats": [s.name for s in seats], "limit": limit})
