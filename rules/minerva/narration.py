"""What a move's event says: one line per player and what the move gained (what the player
decides next is the view's pending prompt, shown to that player, not told to the table).

A move's log holds entries of the acting player, entries about other players (``{p1} passes
again ...``) and round entries (``round 3 begins ...``). The acting player's entries make one
line; every other entry becomes an event of its own, so no sentence runs two players together.
"""

from __future__ import annotations

from rules.core import Action, Event

_ROUND = ("round ", "the game is over")
_ATTACHED = ("+", "nothing to pay with")
"""Entries that say what the entry before them gained (``+2 grain``) or why it gained
nothing; they join that entry after a colon."""


def _joined(entries: list[str]) -> str:
    """Entries joined by ``; ``, a gain (``+2 grain``) attached to the entry it belongs to."""
    out: list[str] = []
    for entry in entries:
        if entry.startswith(_ATTACHED) and out:
            out[-1] += (", " if ": " in out[-1] else ": ") + entry
        else:
            out.append(entry)
    return "; ".join(out)


def events(seat: int, action: Action, round_no: int, log: list[str]) -> tuple[Event, ...]:
    own = [e for e in log if not e.startswith("{p") and not e.startswith(_ROUND)]
    text = f"{{p{seat}}} " + (_joined(own) or "acts") + "."
    data = {"seat": seat, "action": action, "round": round_no}
    out = [Event(kind=str(action["type"]), data=data, text=text)]
    for entry in log:
        if entry.startswith("{p"):
            out.append(Event(kind="narration", data={"round": round_no}, text=entry + "."))
        elif entry.startswith(_ROUND):
            out.append(Event(kind="round", data={"round": round_no},
                             text=entry[0].upper() + entry[1:] + "."))
    return tuple(out)
