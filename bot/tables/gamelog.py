"""Reading a table's append-only log: which actions still count, the replay file, history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import ActionRecord, TableRecord
from bot.store.records import SeatChange
from bot.text import escape
from rules.core import Game, State, format_text


@dataclass(frozen=True)
class Played:
    """One action that still counts (not taken back by an undo)."""

    record: ActionRecord
    seat: int
    action: dict[str, Any]


def effective(log: list[ActionRecord]) -> list[Played]:
    """The actions in force: every 'act' entry minus those an 'undo' entry took back."""
    undone = {r.undoes for r in log if r.kind == "undo"}
    return [
        Played(r, int(r.seat or 0), r.action or {})
        for r in log
        if r.kind == "act" and r.id not in undone
    ]


def rebuild(game: Game, table: TableRecord, players: int, played: list[Played]) -> State:
    """Setup from the table's seed and options, then every action in force, in order."""
    state = game.setup(players, table.seed, table.options)
    for entry in played:
        state = game.apply(state, entry.seat, entry.action).state
    return state


def replay_file(
    table: TableRecord, names: list[str], played: list[Played]
) -> dict[str, Any]:
    """The replay file of DESIGN.md once the game is over or abandoned.

    While the game is live, the seed and the actions' JSON stay secret (an action can name a
    hidden piece, and the seed re-deals everything hidden): the file then carries only the
    public log and the seed's hash.
    """
    base: dict[str, Any] = {
        "game": table.game_id,
        "players": len(names),
        "seed": None,
        "seed_sha256": table.seed_hash,
        "options": table.options,
    }
    if table.status in ("over", "abandoned"):
        base["seed"] = table.seed
        base["actions"] = [{"seat": p.seat, "action": p.action} for p in played]
    else:
        base["actions"] = None
        base["public_log"] = history_lines(names, played)
    return base


def history_lines(names: list[str], played: list[Played],
                  changes: Sequence[SeatChange] = ()) -> list[str]:
    """The log as players saw it in the channel (public narration, so nothing hidden), numbered,
    with seats changing hands where they did. ``names`` are the seats' names now (ready for
    text); each move shows the name of whoever held its seat then."""
    names = list(names)
    for change in reversed(changes):  # the names at the start
        if change.seat < len(names):
            names[change.seat] = escape(change.old_name)
    pending = sorted(changes, key=lambda c: c.version)
    lines = []
    for number, entry in enumerate(played, start=1):
        while pending and pending[0].version <= entry.record.version:
            lines.append(_changed(names, pending.pop(0)))
        who = names[entry.seat] if entry.seat < len(names) else f"Seat {entry.seat + 1}"
        told = format_text(entry.record.text or "", names).splitlines()
        first, rest = (told[0], told[1:]) if told else (f"{who} moved.", [])
        # A move's narration names its player; an old log entry may hold notation only.
        lines.append(f"{number}. {first}" if who in first else f"{number}. {who}: {first}")
        lines.extend(f"    {line}" for line in rest)
    lines.extend(_changed(names, change) for change in pending)
    return lines


def _changed(names: list[str], change: SeatChange) -> str:
    """A seat changing hands, as a line of the history (and the names from then on)."""
    if change.seat < len(names):
        names[change.seat] = escape(change.new_name)
    return (f"- Seat {change.seat + 1}: {escape(change.new_name)} takes over from "
            f"{escape(change.old_name)}.")
