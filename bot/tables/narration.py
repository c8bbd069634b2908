"""Turning a table's state into notices: narration, per-seat private news, who acts next.

Texts are trusted templates with ``{p0}``-style seat placeholders; member names go in once, at
the end, escaped for Discord (``bot.text``). Views for images carry the plain names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from bot.notices import Notice, SeatNotice
from bot.store import SeatRecord, TableRecord
from bot.tables.computers import standing_move
from bot.tables.live import Loaded, Views
from bot.text import escape, fill
from rules.core import Event, Game, State
from rules.words import counted, placed


def plain_names(loaded: Loaded) -> list[str]:
    return [s.name for s in loaded.seats]


def text_names(seats: Iterable[SeatRecord]) -> list[str]:
    """Names as they go into message text: shown literally, never as markup or mentions."""
    return [escaped(s.name) for s in seats]


@lru_cache(maxsize=4096)
def escaped(name: str) -> str:
    return escape(name)


def named_view(loaded: Loaded, state: State, seat: int | None) -> dict[str, Any]:
    """The engine's view plus the players' names, so images can say "Alice" not "Player 1"."""
    return {**loaded.game.view(state, seat), "names": plain_names(loaded)}


# Per game, the keys seen in an idle seat's own view: such a key is something a seat keeps
# (a screen, a hand), whatever the state, so once seen it needs no idle view built again.
_LASTING: dict[str, frozenset[str]] = {}


def lasting_keys(now: Views, seats: Iterable[int], active: frozenset[int]) -> set[str] | None:
    """The keys of a private view that a seat keeps when it is not its turn (a screen, a
    sheet, a hand), as opposed to help shown only to the seat on the move (reachable cells).
    ``None`` when every seat is on the move, so there is nobody to tell them apart by."""
    idle = [s for s in seats if s not in active]
    if not idle:
        return None
    return set(now.own(idle[0]))


def private_notices(
    loaded: Loaded,
    now: Views,
    before: Views | None,
    events: Iterable[Event],
    *,
    every_human: bool = False,
    only_seats: set[int] | None = None,
    recaps: Mapping[int, str] | None = None,
    movers: Iterable[int] = (),
) -> list[SeatNotice]:
    """A notice for each human seat with news of its own, all built from the state of ``now``.

    A seat hears when an event is addressed to it, when the game starts, when its turn comes,
    or when what it keeps out of sight of the table (a screen, a sheet) changed; help shown
    only to the seat on the move (Palermo's reachable cells) is no news by itself, and neither
    is what a member's own move changed once their turn is over (they made the change; their
    view comes as their next turn does, and a seat still on the move hears at once). A seat's
    recap (what happened since its last turn, as its turn comes) rides on its notice and is
    no news by itself either: DMs stay for news. Builds several views: callers run it off
    the loop."""
    game = loaded.game
    events = tuple(events)
    movers = set(movers)
    active_now = game.active_seats(now.state)
    active_before = game.active_seats(before.state) if before is not None else frozenset()
    positions = [s.position for s in loaded.seats]
    out = []
    for seat_rec in loaded.seats:
        seat = seat_rec.position
        if seat_rec.is_computer or (only_seats is not None and seat not in only_seats):
            continue
        mine = tuple(e for e in events if e.to is not None and seat in e.to)
        recap = (recaps or {}).get(seat, "")
        news = every_human or only_seats is not None or bool(mine)
        if not news and seat in movers and seat not in active_now:
            if before is not None and now.own(seat) != before.own(seat):
                loaded.untold.add(seat)
            continue
        if not news and before is not None:
            own_now, own_then = now.own(seat), before.own(seat)
            changed = {k for k in own_now.keys() | own_then.keys()
                       if own_now.get(k) != own_then.get(k)}
            turn_comes = seat in active_now and seat not in active_before
            if changed and not turn_comes:
                known = _LASTING.get(game.id, frozenset())
                if changed & known:
                    news = True
                else:
                    lasting = lasting_keys(now, positions, active_now)
                    # Replaced, never changed in place: tables may be told in threads.
                    _LASTING[game.id] = known | (lasting or set())
                    news = lasting is None or bool(changed & lasting)
            else:
                news = bool(changed) or (turn_comes and seat in loaded.untold)
        if news:
            loaded.untold.discard(seat)
            out.append(seat_notice(loaded, now, seat, narrate(mine, seat), recap))
    return out


def seat_notice(loaded: Loaded, now: Views, seat: int, text: str, recap: str = ""
                ) -> SeatNotice:
    """A seat's private news (``text``, and ``recap``: what happened since its last turn,
    both templates), with its view of the state of ``now`` and that view in words."""
    rec = loaded.seats[seat]
    view = {**now.of(seat), "names": plain_names(loaded)}
    body = fill(text, text_names(loaded.seats))
    described = describe(loaded, view)
    return SeatNotice(
        seat,
        rec.member_id,
        rec.name,
        body,
        view,
        rec.dm_closed,
        version=loaded.table.version,
        fingerprint=now.fingerprint(seat),
        state=described,
        recap=fill(recap, text_names(loaded.seats)),
    )


def describe(loaded: Loaded, view: Mapping[str, Any]) -> str:
    return fill(loaded.game.describe(view), text_names(loaded.seats))


def play_notice(
    loaded: Loaded, lines: list[str], private: list[SeatNotice], since: int | None = None,
    deferred: tuple[int, ...] = (),
) -> Notice:
    table, game, state = loaded.table, loaded.game, loaded.state
    names = text_names(loaded.seats)
    text_lines = [fill(line, names) for line in lines if line]
    next_members: list[int] = []
    next_names: list[str] = []
    outcome = game.outcome(state) if state is not None else None
    lead: int | None = None
    if outcome is not None:
        ranking = outcome.to_json().get("ranking") or [[]]
        lead = ranking[0][0] if ranking[0] else None
        text_lines.append(outcome_text(outcome.to_json(), names))
        text_lines.append(
            f"The secret seed was `{table.seed}` (its SHA-256 was announced at the start)."
        )
    elif state is not None:
        for seat in sorted(game.active_seats(state)):
            lead = seat if lead is None else lead
            rec = loaded.seats[seat]
            next_names.append(names[seat])
            if rec.member_id is not None:
                next_members.append(rec.member_id)
    # A deferred notice is usually told again, whole, with the computers' replies.
    view = ({**loaded.views().of(None), "names": plain_names(loaded)}
            if state is not None and not deferred else None)
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
        channel_id=table.channel_id,
        since=since,
        computers_due=bool(due_computers(loaded)),
        deferred=deferred,
        lead_seat=lead,
    )


def due_computers(loaded: Loaded) -> list[int]:
    if loaded.state is None or loaded.table.status != "playing":
        return []
    game, state = loaded.game, loaded.state
    active = game.active_seats(state)
    return sorted(
        s.position for s in loaded.seats
        if s.position in active and (s.is_computer or standing_move(game, state, s) is not None)
    )


def narrate(events: Iterable[Event], seat: int | None) -> str:
    """The events one observer may see: one line per doer (a new line whenever the seat an
    event is about changes, so two players' actions never share a sentence), and a text said
    twice in a row said once."""
    lines: list[str] = []
    last_text: str | None = None
    last_actor: object = object()
    for event in events:
        if not event.text or not event.visible_to(seat) or event.text == last_text:
            continue
        actor = event.data.get("seat") if isinstance(event.data, Mapping) else None
        if lines and actor == last_actor:
            lines[-1] += " " + event.text.strip()
        else:
            lines.append(event.text.strip())
        last_text, last_actor = event.text, actor
    return "\n".join(lines)


def outcome_text(outcome: Mapping[str, Any], names: list[str]) -> str:
    """The ranking in a sentence: "**Game over.** bob wins with 42 points; carol is second
    with 30 points.", then the game's notes (how a tie was broken)."""
    scores = outcome.get("scores", [])
    said = placed([([names[s] for s in group],
                    f"with {counted(scores[group[0]], 'point')}" if scores else "")
                   for group in outcome.get("ranking", [])])
    notes = " ".join(outcome.get("notes", []))
    return "**Game over.** " + said + "." + (f" {notes}" if notes else "")


def lobby_notice(
    table: TableRecord, game: Game, seats: list[SeatRecord], headline: str
) -> Notice:
    """Who sits at a lobby, how many seats are left, and whether it can start (``headline``
    is finished text: any member name in it is already escaped)."""
    limit = table.max_players or game.max_players
    names = text_names(seats)
    listing = ", ".join(
        f"{i + 1}. {names[i]}" + (f" (computer, {s.level or 'random'})" if s.is_computer else "")
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
                  data={"seats": [s.name for s in seats], "limit": limit},
                  channel_id=table.channel_id)
