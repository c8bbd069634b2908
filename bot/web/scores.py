"""Each seat's score after a step, read from the step's public view: the running score a game
shows on its board (Hadrian's Wall's sheets, Palermo's table), the points Minerva has banked
(culture and glory tiles; temples, money and turn order count only at the end), and the final
scores once there is an outcome. Palatinus scores only at the end: no running score."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Scores = tuple[float, ...]


def _seat_values(rows: Any, value: Callable[[Mapping[str, Any]], Any]) -> Scores | None:
    if not isinstance(rows, Sequence) or not rows:
        return None
    try:
        return tuple(float(value(row)) for row in rows)
    except (KeyError, TypeError, ValueError):
        return None


def _banked(row: Mapping[str, Any]) -> int:
    return sum(int(t["vp"]) for t in (*row.get("culture_tiles", ()),
                                      *row.get("glory_tiles", ())))


RUNNING: dict[str, Callable[[Mapping[str, Any]], Scores | None]] = {
    "hadrians-wall": lambda v: _seat_values(v.get("sheets"), lambda s: s["score"]["total"]),
    "palermo": lambda v: _seat_values(v.get("table"), lambda s: s["score"]),
    "minerva": lambda v: _seat_values(v.get("seats"), _banked),
}


def has_running_score(game_id: str) -> bool:
    return game_id in RUNNING


def scores_of(game_id: str, view: Mapping[str, Any],
              final: Sequence[float] | None = None) -> Scores | None:
    """The seats' scores after this view's step (``final``: the outcome's, at the end)."""
    if final is not None:
        return tuple(float(x) for x in final)
    running = RUNNING.get(game_id)
    return running(view) if running is not None else None
