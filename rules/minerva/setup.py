"""Setting up a game (spec §8, §11) and the setup options that pin every random part."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rules.core import InvalidAction, Rng, merge_options, same_json
from rules.minerva.components import CULTURE, Catalogue
from rules.minerva.rounds import ROUND_TILE, draw
from rules.minerva.state import MinervaState, PlayerState

DEFAULTS: dict[str, Any] = {
    # Random parts of the set-up; null = drawn from the seed.
    "start_seat": None,
    "deck": None,
    "temple_order": None,
    "starting_order": None,
    # Rulings of the specification where the seed text is open (spec §13, §14).
    "aqueduct_connectivity": "city",
    "circus_keeps_city_connected": True,
    "money_scoring": "combined",
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "aqueduct_connectivity": ("city", "facilities"),
    "circus_keeps_city_connected": (True, False),
    "money_scoring": ("combined", "separate"),
}


def resolve_options(cat: Catalogue, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option in force; checks what can be checked without the player count."""
    merged = merge_options(DEFAULTS, overrides)
    for key, allowed in _CHOICES.items():
        if not any(same_json(merged[key], a) for a in allowed):
            shown = ", ".join(json.dumps(a) if isinstance(a, bool) else str(a) for a in allowed)
            raise InvalidAction(f"Option {key} must be one of {shown}.")
    seat = merged["start_seat"]
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise InvalidAction("Option start_seat must be a seat number (0 is the first seat).")
    for key in ("deck", "temple_order", "starting_order"):
        value = merged[key]
        if value is not None and (
            not isinstance(value, list) or not all(isinstance(v, str) for v in value)
        ):
            raise InvalidAction(f"Option {key} must be a list of tile ids, top first.")
    if merged["temple_order"] is not None:
        _check_permutation(merged["temple_order"], list(cat.temples), "temple_order")
    return merged


def _check_permutation(given: list[str], expected: list[str], key: str) -> None:
    if sorted(given) != sorted(expected):
        raise InvalidAction(f"Option {key} must list exactly these tiles: {', '.join(expected)}.")


def _kept(cat: Catalogue, players: int) -> tuple[list[str], list[str]]:
    count = 2 if players == 1 else players  # solitaire uses the 2-player set
    starting = [t.id for t in cat.starting if t.mark is None or t.mark <= count]
    normal = [t.id for t in cat.normal if t.mark is None or t.mark <= count]
    return starting, normal


def pile_size(cat: Catalogue, players: int) -> int:
    """Normal locations per pile (each pile also holds one round tile)."""
    return len(_kept(cat, players)[1]) // cat.round_tiles


def _deck(cat: Catalogue, rng: Rng, normal: list[str], given: list[str] | None) -> list[str]:
    piles = cat.round_tiles
    size = len(normal) // piles
    if given is not None:
        _check_permutation(given, normal + [ROUND_TILE] * piles, "deck")
        for k in range(piles):
            if given[k * (size + 1):(k + 1) * (size + 1)].count(ROUND_TILE) != 1:
                raise InvalidAction(
                    f"Option deck: each run of {size + 1} tiles needs exactly one round tile R."
                )
        return list(given)
    shuffled = rng.shuffled(normal)
    deck: list[str] = []
    for k in range(piles):
        deck.extend(rng.shuffled([*shuffled[k * size:(k + 1) * size], ROUND_TILE]))
    return deck


def _culture(cat: Catalogue, players: int) -> dict[str, list[tuple[int, int]]]:
    out = {}
    for stack in CULTURE:
        tiles = sorted(cat.culture_tiles[stack], key=lambda t: (t[1], t[0]))
        for vp in cat.culture_removal.get(players, ()):
            tiles.remove(next(t for t in tiles if t[1] == vp))
        out[stack] = tiles
    return out


def setup(cat: Catalogue, players: int, seed: str, options: dict[str, Any]) -> MinervaState:
    if not 1 <= players <= 4:
        raise InvalidAction("Minerva is for 1 to 4 players.")
    rng = Rng(seed)
    starting, normal = _kept(cat, players)
    start = options["start_seat"]
    if start is None:
        start = rng.randbelow(players)
    elif start >= players:
        raise InvalidAction(f"Option start_seat must be below {players}.")
    money = cat.const("start_money_by_seat_from_start_player")
    grain = int(cat.const("start_grain"))
    seats = [
        PlayerState(
            money=int(money[(seat - start) % players]),
            res=[grain, 0, 0, 0],
            houses=int(cat.const("residences_per_player")),
            city={(0, 0): "F"},
        )
        for seat in range(players)
    ]
    deck = _deck(cat, rng, normal, options["deck"])
    temples = options["temple_order"] or rng.shuffled(list(cat.temples))
    if options["starting_order"] is not None:
        _check_permutation(options["starting_order"], starting, "starting_order")
        starting = list(options["starting_order"])
    elif players == 1:
        starting = rng.shuffled(starting)  # face down, drawn two at a time
    row = int(cat.const("temple_row_size"))
    state = MinervaState(
        n=players,
        options=dict(options),
        rng=rng.state,
        round=1,
        phase="main",
        current=start,
        first=start,
        start=start,
        players=seats,
        offer=[] if players == 1 else list(starting),
        pairs=[starting[i:i + 2] for i in range(0, len(starting) - 1, 2)] if players == 1 else [],
        deck=deck,
        temples=list(temples[:row]),
        temple_stack=list(temples[row:]),
        culture=_culture(cat, players),
    )
    draw(state)
    return state


def redeal(cat: Catalogue, s: MinervaState, rng: Rng) -> None:
    """Shuffle what nobody has seen (the deck and the temple stack), keeping the pile shape:
    the rest of the current pile has no round tile, each later pile has one."""
    # Sorted before shuffling: the result depends only on what is seen and the seed.
    unseen = rng.shuffled(sorted(t for t in s.deck if t != ROUND_TILE))
    later = s.deck.count(ROUND_TILE)
    size = pile_size(cat, s.n)
    head = len(s.deck) - later * (size + 1)
    deck = unseen[:head]
    for k in range(later):
        deck.extend(rng.shuffled([*unseen[head + k * size:head + (k + 1) * size], ROUND_TILE]))
    s.deck = deck
    s.temple_stack = rng.shuffled(sorted(s.temple_stack))
