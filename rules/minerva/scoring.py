"""Temple scoring, final scores, tie-breaks and the solitaire title (spec §6, §7, §11, §12)."""

from __future__ import annotations

from rules.core import Outcome, rank_by, tie_notes
from rules.minerva.city import cross, ring8
from rules.minerva.components import RESOURCES, Catalogue, Temple
from rules.minerva.effects import category_of
from rules.minerva.state import Cell, MinervaState, PlayerState

SOURCES = ("culture", "glory", "temples", "money", "order")


def temple_score(cat: Catalogue, p: PlayerState, cell: Cell, temple: Temple) -> int:
    if temple.area == "none":
        resource = temple.count.removeprefix("resource:")
        return temple.vp_each * p.res[RESOURCES.index(resource)]
    area = ring8(cell) if temple.area == "surround8" else cross(p.city, cell)
    kinds = [category_of(cat, p.city[c]) for c in area if c in p.city]
    if temple.count == "distinct_types":
        return temple.vp_each * len(set(kinds))
    return temple.vp_each * kinds.count(temple.count)


def temples_of(cat: Catalogue, p: PlayerState) -> list[tuple[Cell, Temple]]:
    return sorted(
        ((cell, cat.temples[code]) for cell, code in p.city.items() if code in cat.temples),
        key=lambda item: (item[0][1], item[0][0]),
    )


def money_points(cat: Catalogue, s: MinervaState, p: PlayerState) -> int:
    divisor = int(cat.const("end_money_divisor"))
    if s.options.get("money_scoring", "combined") == "separate":
        return p.money // divisor + sum(p.res) // divisor
    return (p.money + sum(p.res)) // divisor


def order_points(cat: Catalogue, s: MinervaState, p: PlayerState) -> int:
    """Only round-6 tiles score, and the highest number in play shows no VP."""
    if p.order is None or p.order >= s.n:
        return 0
    return cat.order_vp.get(p.order, 0)


def breakdown(cat: Catalogue, s: MinervaState, p: PlayerState) -> dict[str, int]:
    return {
        "culture": sum(vp for _, _, vp in p.culture_tiles),
        "glory": sum(vp for _, _, vp in p.glory_tiles),
        "temples": sum(temple_score(cat, p, cell, t) for cell, t in temples_of(cat, p)),
        "money": money_points(cat, s, p),
        "order": order_points(cat, s, p),
    }


def solo_title(cat: Catalogue, score: int) -> str:
    for minimum, title in cat.solo_titles:
        if score >= minimum:
            return title
    return cat.solo_titles[-1][1]


def outcome(cat: Catalogue, s: MinervaState) -> Outcome:
    parts = [breakdown(cat, s, p) for p in s.players]
    scores = tuple(sum(b.values()) for b in parts)
    keys = [
        (
            scores[seat],
            len(p.culture_tiles) + len(p.glory_tiles),
            len(temples_of(cat, p)),
            -(p.order or 0),
        )
        for seat, p in enumerate(s.players)
    ]
    notes: list[str] = []
    if s.solo:
        notes.append(f"Title: {solo_title(cat, scores[0])} ({scores[0]} VP).")
    notes.extend(tie_notes(keys, ("more culture and glory tiles", "more temples",
                                  "an earlier place in the turn order"), "VP"))
    return Outcome(
        scores=scores,
        ranking=rank_by(keys),
        breakdown=tuple({**b, "total": scores[seat]} for seat, b in enumerate(parts)),
        notes=tuple(notes),
    )
