"""Setup options: their defaults (from the data files), validation, and the frozen ``Config``
that a state carries so every rule it needs travels with it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import InvalidAction, merge_options
from rules.palatinus import components as comp


@dataclass(frozen=True)
class Config:
    springs: tuple[tuple[int, ...], ...]
    """Spring directions of tiles A-G (local directions 0-5)."""
    arrows: tuple[int, ...]
    colour_set: tuple[int, ...]
    """Counts of ``components.OWN_KINDS`` in one colour set."""
    laurels: tuple[int, ...]
    palatinus_laurel: int
    two_player_extras: str
    tie_break: str
    start_seat: int | None
    tile_order: str | None
    laurel_order: tuple[int, ...] | None

    def springs_of(self, letter: str) -> tuple[int, ...]:
        return self.springs[comp.LETTERS.index(letter)]

    def arrow_of(self, letter: str) -> int:
        return self.arrows[comp.LETTERS.index(letter)]

    def as_options(self) -> dict[str, Any]:
        return {
            "start_seat": self.start_seat,
            "tile_order": self.tile_order,
            "laurel_order": None if self.laurel_order is None else list(self.laurel_order),
            "tile_springs": {
                letter: list(self.springs[i]) for i, letter in enumerate(comp.LETTERS)
            },
            "tile_arrows": {letter: self.arrows[i] for i, letter in enumerate(comp.LETTERS)},
            "colour_set": dict(zip(comp.OWN_KINDS, self.colour_set, strict=True)),
            "laurels": list(self.laurels),
            "palatinus_laurel": self.palatinus_laurel,
            "two_player_extras": self.two_player_extras,
            "tie_break": self.tie_break,
        }


def default_options() -> dict[str, Any]:
    tiles = comp.tile_data()
    people = comp.inhabitant_data()
    scoring = comp.scoring_data()
    return {
        "start_seat": None,
        "tile_order": None,
        "laurel_order": None,
        "tile_springs": {letter: list(tiles[letter][0]) for letter in comp.LETTERS},
        "tile_arrows": {letter: tiles[letter][1] for letter in comp.LETTERS},
        "colour_set": dict(people["colour_set"]),
        "laurels": list(scoring["laurels"]),
        "palatinus_laurel": scoring["palatinus_laurel"],
        "two_player_extras": people["two_player_extras_mode"],
        "tie_break": scoring["tie_break"],
    }


_PER_KEY = ("tile_springs", "tile_arrows", "colour_set")
"""Options given as objects: a partial override changes only the keys it names."""


def merged_options(overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option in force, validated; raises ``InvalidAction`` naming the bad option."""
    defaults = default_options()
    merged = merge_options(defaults, overrides)
    for key in _PER_KEY:
        value = merged[key]
        if value is not defaults[key]:
            if not isinstance(value, Mapping):
                raise InvalidAction(f"Option {key} must be an object.")
            merged[key] = {**defaults[key], **value}
    return build_config(merged).as_options()


def build_config(options: Mapping[str, Any]) -> Config:
    """The frozen form of a complete option set; raises ``InvalidAction`` on a bad value."""
    try:
        return _build(options)
    except (ValueError, TypeError, KeyError) as exc:
        raise InvalidAction(f"Bad setup option: {exc}") from None


def _build(options: Mapping[str, Any]) -> Config:
    springs_raw = options["tile_springs"]
    arrows_raw = options["tile_arrows"]
    if not isinstance(springs_raw, Mapping) or sorted(springs_raw) != list(comp.LETTERS):
        raise ValueError("tile_springs needs tiles A-G")
    if not isinstance(arrows_raw, Mapping) or sorted(arrows_raw) != list(comp.LETTERS):
        raise ValueError("tile_arrows needs tiles A-G")
    springs = tuple(
        comp.check_springs(springs_raw[letter], f"tile_springs.{letter}") for letter in comp.LETTERS
    )
    arrows = tuple(
        comp.check_direction(arrows_raw[letter], f"tile_arrows.{letter}") for letter in comp.LETTERS
    )
    colour = comp.check_kind_counts(options["colour_set"], "colour_set")
    for players in (2, 3, 4, 5):
        comp.allocation(players, colour)
    laurels = comp.check_laurels(options["laurels"], "laurels")
    palatinus = options["palatinus_laurel"]
    if not isinstance(palatinus, int) or isinstance(palatinus, bool) or palatinus < 1:
        raise ValueError("palatinus_laurel must be a whole number >= 1")
    extras = options["two_player_extras"]
    if extras not in comp.EXTRAS_MODES:
        raise ValueError(f"two_player_extras must be one of {', '.join(comp.EXTRAS_MODES)}")
    tie_break = options["tie_break"]
    if tie_break not in comp.TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(comp.TIE_BREAKS)}")
    start = options["start_seat"]
    if start is not None and (not isinstance(start, int) or isinstance(start, bool) or start < 0):
        raise ValueError("start_seat must be a seat number or null")
    return Config(
        springs=springs,
        arrows=arrows,
        colour_set=tuple(colour[k] for k in comp.OWN_KINDS),
        laurels=laurels,
        palatinus_laurel=palatinus,
        two_player_extras=extras,
        tie_break=tie_break,
        start_seat=start,
        tile_order=_tile_order(options["tile_order"]),
        laurel_order=_laurel_order(options["laurel_order"], laurels),
    )


def _tile_order(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "".join(value)
    if not isinstance(value, str):
        raise ValueError("tile_order must be the letters A-G in order, e.g. 'DABCEFG'")
    order = value.replace(" ", "").replace(",", "").upper()
    if sorted(order) != list(comp.LETTERS):
        raise ValueError("tile_order must name each of A-G once (the first goes in the centre)")
    return order


def _laurel_order(value: Any, laurels: tuple[int, ...]) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ValueError("laurel_order must be a list of laurel values")
    if sorted(value) != sorted(laurels):
        raise ValueError(f"laurel_order must use the laurels {sorted(laurels)} once each")
    return tuple(value)


def allocation_for(config: Config, players: int) -> dict[str, int]:
    """Each player's starting screen as counts of ``components.KINDS``."""
    colour = dict(zip(comp.OWN_KINDS, config.colour_set, strict=True))
    pieces = comp.allocation(players, colour)
    full = dict.fromkeys(comp.KINDS, 0)
    full.update(pieces)
    if players == 2 and config.two_player_extras == "neutral":
        # Neutral extras are kept apart on the screen: they earn influence for nobody.
        for kind, n in comp.inhabitant_data()["two_player_extras"].items():
            full[kind] -= n
            full["x" + kind] += n
    return full
