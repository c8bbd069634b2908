"""End-game scoring (spec 7, 8): reveal, then hill by hill A-G on the changing board, soldiers
first (all at once), then the influence of merchants and farmers and the award of the laurel."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import Event, Outcome, rank_by, tie_notes
from rules.palatinus import components as comp
from rules.palatinus.config import Config
from rules.palatinus.geometry import Board
from rules.palatinus.state import Piece
from rules.words import counted, listed

MERCHANT_POINTS = {"M": 1, "F": 2, "S": 3}
FARMER_POINTS = 2
_BASE = comp.BASE_TYPES
# What a merchant or farmer adds to its owner's total on its hill: (board, pieces by type,
# field, type) -> points.
Worth = Callable[[Board, Mapping[str, str], str, str], float]


def _base(kind: str) -> str:
    # The table first: a kind loaded from a stored game might be none of ``KINDS``.
    return _BASE.get(kind) or comp.base_type(kind)


def influence(board: Board, kinds: Mapping[str, str], field: str) -> int:
    """What the merchant or farmer on ``field`` is worth; ``kinds`` maps occupied fields to kinds.

    Merchant: +1 per adjacent merchant, +2 per farmer, +3 per soldier (spec 7.4).
    Farmer: +2 per adjacent empty field, +2 per adjacent spring (occupied or not), +2 on a spring.
    """
    base = _base(kinds[field])
    if base == "M":
        points = 0
        for n in board.neighbours[field]:
            if n in kinds:
                points += MERCHANT_POINTS[_base(kinds[n])]
        return points
    if base == "F":
        points = FARMER_POINTS if field in board.springs else 0
        for n in board.neighbours[field]:
            if n not in kinds:
                points += FARMER_POINTS
            if n in board.springs:
                points += FARMER_POINTS
        return points
    return 0


def _clockwise_from_arrow(field: str, arrow: int) -> int:
    """Rank of a field going clockwise round its hill from the arrow (directions run
    counter-clockwise, so clockwise is the falling direction number)."""
    return (arrow - (int(field[1:]) - 1)) % 6


def _soldiers(
    board: Board, kinds: Mapping[str, str], owners: Mapping[str, int], letter: str
) -> list[dict[str, Any]]:
    """Each soldier on the hill's tile, judged on the board as it stands (spec 7.3)."""
    out = []
    for field in board.tile_fields[letter]:
        if field not in kinds or _base(kinds[field]) != "S":
            continue
        near = [n for n in board.neighbours[field] if n in kinds]
        merchants = sorted(n for n in near if _base(kinds[n]) == "M")
        farmers = sorted(n for n in near if _base(kinds[n]) == "F")
        if len(merchants) == len(farmers):
            took, captured = None, []
        else:
            took = "merchants" if len(merchants) > len(farmers) else "farmers"
            captured = merchants if took == "merchants" else farmers
        out.append(
            {
                "field": field,
                "owner": owners[field],
                "merchants": len(merchants),
                "farmers": len(farmers),
                "result": "left" if took is None else "captured",
                "took": took,
                "captured": captured,
            }
        )
    return out


def score(
    board: Board,
    pieces: Sequence[Piece],
    laurels: Mapping[str, int],
    players: int,
    config: Config,
    disc_values: tuple[int, int] | None = None,
) -> tuple[tuple[Piece, ...], dict[str, Any]]:
    """Score every hill in letter order; returns the pieces left and the scoring record.

    ``disc_values`` is (tied hill disc, shared capture disc); the data file gives the default.
    """
    if disc_values is None:
        data = comp.scoring_data()
        disc_values = (data["tied_hill_disc"], data["shared_capture_disc"])
    tie_disc, shared_disc = disc_values
    kinds = {p.field: p.kind for p in pieces}
    owners = {p.field: p.owner for p in pieces}
    tallies: list[dict[str, Any]] = [
        {"laurels": [], "discs": [], "captured": 0} for _ in range(players)
    ]
    hills = []
    for letter in sorted(board.tile_fields):
        soldiers = _soldiers(board, kinds, owners, letter)
        arrow = config.arrow_of(letter)
        soldiers.sort(key=lambda s: _clockwise_from_arrow(s["field"], arrow))
        captures = _resolve_captures(soldiers, kinds, owners, tallies, shared_disc)
        influence_rows = []
        totals = [0] * players
        for field in board.tile_fields[letter]:
            if field not in kinds or _base(kinds[field]) == "S":
                continue
            points = influence(board, kinds, field)
            neutral = comp.is_extra(kinds[field]) and config.two_player_extras == "neutral"
            row = {"field": field, "owner": owners[field], "kind": kinds[field], "points": points}
            if neutral:
                row["neutral"] = True
            else:
                totals[owners[field]] += points
            influence_rows.append(row)
        award = _award(totals, laurels.get(letter, 0), tie_disc)
        for seat in award["seats"]:
            key = "laurels" if award["result"] == "laurel" else "discs"
            tallies[seat][key].append(award["value"])
        hills.append(
            {
                "letter": letter,
                "laurel": laurels.get(letter, 0),
                "soldiers": soldiers,
                "captures": captures,
                "influence": influence_rows,
                "totals": totals,
                "award": award,
            }
        )
    remaining = tuple(p for p in pieces if p.field in kinds)
    return remaining, {"hills": hills, "tallies": tallies}


def vp_totals(
    board: Board,
    pieces: Sequence[Piece],
    laurels: Mapping[str, int],
    players: int,
    config: Config,
    worth: Worth | None = None,
) -> list[float]:
    """Each seat's VP as ``score`` would give them (the sum of ``vp_breakdown`` of its tallies),
    without the record: the computer players score thousands of boards a move.

    The same steps as ``score``, hill by hill: soldiers judged on the board as it stands, each
    captured piece to the first of them clockwise from the arrow (a disc to the others), tied
    soldiers leave, then influence and the award. Pieces are held by type (``M``, ``F``,
    ``S``), the only thing the steps look at besides owners and neutral extras. ``worth``
    values a merchant or farmer in place of its influence on this board (the computer players
    weigh the board still to come); the VP are whole numbers without it."""
    data = comp.scoring_data()
    tie_disc, shared_disc = data["tied_hill_disc"], data["shared_capture_disc"]
    kinds = {p.field: p.kind for p in pieces}
    bases = {field: _BASE.get(kind) or comp.base_type(kind) for field, kind in kinds.items()}
    owners = {p.field: p.owner for p in pieces}
    neutral = (frozenset(field for field, kind in kinds.items() if comp.is_extra(kind))
               if config.two_player_extras == "neutral" else frozenset())
    value_of = worth or _worth
    vp: list[float] = [0] * players
    for letter, fields, clockwise in _hills(board, config):
        _capture(board, bases, owners, clockwise, vp, shared_disc)
        totals: list[float] = [0] * players
        for field in fields:
            base = bases.get(field)
            if base is None or base == "S" or field in neutral:
                continue
            totals[owners[field]] += value_of(board, bases, field, base)
        best = max(totals, default=0)
        if best > 0:
            top = [seat for seat, total in enumerate(totals) if total == best]
            value = laurels.get(letter, 0) if len(top) == 1 else tie_disc
            for seat in top:
                vp[seat] += value
    return vp


def _worth(board: Board, bases: Mapping[str, str], field: str, base: str) -> int:
    """``influence`` of a piece of type ``base``, pieces given by type."""
    points = 0
    if base == "M":
        for n in board.neighbours[field]:
            other = bases.get(n)
            if other is not None:
                points += MERCHANT_POINTS[other]
    elif base == "F":
        springs = board.springs
        points = FARMER_POINTS if field in springs else 0
        for n in board.neighbours[field]:
            if n not in bases:
                points += FARMER_POINTS
            if n in springs:
                points += FARMER_POINTS
    return points


Hill = tuple[str, tuple[str, ...], tuple[str, ...]]
_HILLS: dict[tuple[int, tuple[int, ...]], tuple[Board, tuple[Hill, ...]]] = {}


def _hills(board: Board, config: Config) -> tuple[Hill, ...]:
    """(letter, fields, fields clockwise from the arrow) of every hill in letter order, kept
    per board and arrows (a game has a handful of boards; they are scored thousands of times).
    """
    key = (id(board), config.arrows)
    kept = _HILLS.get(key)
    if kept is not None and kept[0] is board:
        return kept[1]
    hills = []
    for letter in sorted(board.tile_fields):
        fields = board.tile_fields[letter]
        arrow = config.arrow_of(letter)
        # Field numbers differ on a tile, so the clockwise ranks do too: no tie to break.
        clockwise = tuple(sorted(fields, key=lambda f: _clockwise_from_arrow(f, arrow)))
        hills.append((letter, fields, clockwise))
    if len(_HILLS) >= 512:
        _HILLS.clear()
    _HILLS[key] = (board, tuple(hills))  # the board is kept with its id: no id is reused
    return tuple(hills)


def _capture(board: Board, bases: dict[str, str], owners: dict[str, int],
             clockwise: Sequence[str], vp: list[float], shared_disc: int) -> None:
    """``_soldiers`` and ``_resolve_captures`` of one hill for ``vp_totals``: VP for captures
    and shared discs; captured pieces and tied soldiers leave the board."""
    holders: dict[str, list[int]] = {}
    left = []
    for field in clockwise:
        if bases.get(field) != "S":
            continue
        merchants, farmers = [], []
        for n in board.neighbours[field]:
            base = bases.get(n)
            if base == "M":
                merchants.append(n)
            elif base == "F":
                farmers.append(n)
        if len(merchants) == len(farmers):
            left.append(field)
            continue
        for n in merchants if len(merchants) > len(farmers) else farmers:
            holders.setdefault(n, []).append(owners[field])
    for field, seats in holders.items():
        vp[seats[0]] += 1
        for other in seats[1:]:
            vp[other] += shared_disc
        del bases[field]
        del owners[field]
    for field in left:
        del bases[field]
        del owners[field]


def _resolve_captures(
    soldiers: list[dict[str, Any]],
    kinds: dict[str, str],
    owners: dict[str, int],
    tallies: list[dict[str, Any]],
    shared_disc: int,
) -> list[dict[str, Any]]:
    """Apply this hill's soldiers at once: tied soldiers leave, captured pieces are taken.

    A piece taken by several soldiers goes to the first of them clockwise from the arrow; each
    other capturing soldier's owner takes a 1-point disc (spec 7.3)."""
    by_piece: dict[str, list[int]] = {}
    for soldier in soldiers:
        for field in soldier["captured"]:
            by_piece.setdefault(field, []).append(soldier["owner"])
    captures = []
    for field in sorted(by_piece):
        holder, *others = by_piece[field]
        tallies[holder]["captured"] += 1
        for seat in others:
            tallies[seat]["discs"].append(shared_disc)
        captures.append(
            {
                "field": field,
                "owner": owners[field],
                "kind": kinds[field],
                "holder": holder,
                "discs_to": others,
            }
        )
    for field in by_piece:
        del kinds[field]
        del owners[field]
    for soldier in soldiers:
        if soldier["result"] == "left":
            del kinds[soldier["field"]]
            del owners[soldier["field"]]
    return captures


def _award(totals: list[int], laurel: int, tie_disc: int) -> dict[str, Any]:
    best = max(totals, default=0)
    if best <= 0:
        return {"result": "discarded", "seats": [], "value": 0}
    top = [seat for seat, total in enumerate(totals) if total == best]
    if len(top) == 1:
        return {"result": "laurel", "seats": top, "value": laurel}
    return {"result": "tie", "seats": top, "value": tie_disc}


# --------------------------------------------------------------------------------------------
# Final score (spec 8).


def vp_breakdown(tally: Mapping[str, Any]) -> dict[str, int]:
    return {
        "laurels": sum(tally["laurels"]),
        "discs": sum(tally["discs"]),
        "captures": int(tally["captured"]),
    }


def items(tally: Mapping[str, Any]) -> int:
    """Tokens, discs and captured pieces held: the default tie-break (spec 8)."""
    return len(tally["laurels"]) + len(tally["discs"]) + int(tally["captured"])


def outcome(record: Mapping[str, Any], tie_break: str) -> Outcome:
    tallies = record["tallies"]
    breakdown = tuple(vp_breakdown(t) for t in tallies)
    scores = tuple(sum(b.values()) for b in breakdown)
    keys: list[tuple[int, ...]]
    if tie_break == "items":
        keys = [(scores[s], items(t)) for s, t in enumerate(tallies)]
        note = "Ties on VP are broken by the most laurels, discs and captured pieces held."
    else:
        keys = [(scores[s],) for s in range(len(tallies))]
        note = "Ties on VP are shared."
    broken = tie_notes(keys, ("the most laurels, discs and captured pieces held",), "VP")
    return Outcome(scores, rank_by(keys), breakdown, (note, *broken))


# --------------------------------------------------------------------------------------------
# Narration.


def _seat_list(seats: Sequence[int]) -> str:
    return ", ".join(f"{{p{s}}}" for s in seats)


def soldier_text(soldier: Mapping[str, Any]) -> str:
    who = f"{{p{soldier['owner']}}}'s soldier on {soldier['field']}"
    near = f"{counted(soldier['merchants'], 'merchant')}, {counted(soldier['farmers'], 'farmer')}"
    if soldier["result"] == "left":
        return f"{who} leaves ({near}: a tie)"
    taken = ", ".join(soldier["captured"])
    word = soldier["took"][:-1]
    return f"{who} captures {counted(len(soldier['captured']), word)} ({taken})"


def shared_capture_text(capture: Mapping[str, Any]) -> str:
    """A piece several soldiers captured: one owner keeps it, the others get a disc."""
    others = capture["discs_to"]
    takes = "takes a 1-point disc" if len(others) == 1 else "each take a 1-point disc"
    return (f"{{p{capture['holder']}}} keeps the piece on {capture['field']} that more than "
            f"one soldier captured, and {listed([f'{{p{s}}}' for s in others])} {takes} for it")


def award_text(hill: Mapping[str, Any]) -> str:
    award = hill["award"]
    if award["result"] == "laurel":
        return f"{{p{award['seats'][0]}}} takes the laurel ({award['value']})"
    if award["result"] == "tie":
        return f"tie: {_seat_list(award['seats'])} take a {award['value']}-point disc each"
    return "nobody has influence: the laurel is discarded"


def hill_events(record: Mapping[str, Any]) -> list[Event]:
    events = []
    for hill in record["hills"]:
        parts = [soldier_text(s) for s in hill["soldiers"]]
        shares = [shared_capture_text(c) for c in hill["captures"] if c["discs_to"]]
        totals = ", ".join(
            f"{{p{seat}}} {total}" for seat, total in enumerate(hill["totals"]) if total
        )
        text = f"Hill {hill['letter']} (laurel {hill['laurel']}): "
        text += "; ".join(parts + shares) + (". " if parts else "")
        text += f"Influence: {totals or 'none'}; {award_text(hill)}."
        events.append(Event("hill_scored", {"hill": hill}, None, text))
    return events
