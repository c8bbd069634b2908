"""Static data of Minerva, loaded from ``data/*.json`` and validated on load.

The tile catalogue, manifests, temples and the culture/glory/order values are design choices of
the specification: replacing the JSON files changes them without touching code. A file that breaks
a rule of the specification's structure raises ``ValueError`` with the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).with_name("data")

RESOURCES: tuple[str, ...] = ("grain", "wood", "stone", "ore")
CULTURE: tuple[str, ...] = ("theatre", "art", "academic")
CATEGORIES: tuple[str, ...] = (
    "production", "trade", "culture", "military", "special", "temple", "residential",
)
GAIN_KEYS: frozenset[str] = frozenset((*RESOURCES, "denarii", "glory", *CULTURE))
TIMINGS = frozenset(("activated", "when_built", "endgame", "none"))
AREAS = frozenset(("surround8", "cross", "none"))
# Clauses that need a decision of the player; the others resolve on their own.
CHOICE_CLAUSES = frozenset(
    ("gain_choice", "gain_any", "exchange", "exchange_pairs", "buy_any", "take_culture_tile",
     "bathhouse", "aqueduct", "circus")
)

Cost = tuple[int, int, int, int]
"""Resources in the order of ``RESOURCES``."""


@dataclass(frozen=True)
class TileType:
    key: str
    name: str
    category: str
    cost: Cost | None  # None: cannot be bought (the fountain)
    timing: str
    effect: tuple[Mapping[str, Any], ...]
    source: str = ""


@dataclass(frozen=True)
class Temple:
    id: str
    key: str
    name: str
    area: str
    count: str
    vp_each: int
    cost: Cost


@dataclass(frozen=True)
class Location:
    id: str
    type: str
    mark: int | None


@dataclass(frozen=True)
class Catalogue:
    constants: Mapping[str, Any]
    types: Mapping[str, TileType]
    temples: Mapping[str, Temple]  # by id
    temple_keys: Mapping[str, str]  # key -> id
    fountains: tuple[str, ...]
    starting: tuple[Location, ...]
    normal: tuple[Location, ...]
    round_tiles: int
    assistant_prices: tuple[tuple[int, int], ...]  # by owned: (denarii, glory)
    solo_titles: tuple[tuple[int, str], ...]  # (minimum score, title), best first
    culture_tiles: Mapping[str, tuple[tuple[int, int], ...]]  # (req, vp), bottom order irrelevant
    culture_removal: Mapping[int, tuple[int, ...]]
    glory_tiles: Mapping[int, tuple[tuple[int, int], ...]]  # round -> (rank, vp) by rank
    order_vp: Mapping[int, int]
    order_in_play: Mapping[int, tuple[int, ...]]
    instances: Mapping[str, TileType]  # physical tile id (and F, R, A) -> type

    def const(self, name: str) -> Any:
        return self.constants[name]

    def code_type(self, code: str) -> TileType | None:
        """The tile type of a physical tile id (None for temples and residences)."""
        return self.instances.get(code)


def slug(text: str) -> str:
    """Lower case with runs of other characters turned into one underscore."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# --------------------------------------------------------------------------------------------
# Validation helpers: each raises ValueError naming the file part at fault.


def _fail(where: str, why: str) -> ValueError:
    return ValueError(f"minerva data, {where}: {why}")


def _cost(raw: Any, where: str) -> Cost:
    if not isinstance(raw, dict):
        raise _fail(where, "a cost must be an object of resources")
    for key, value in raw.items():
        if key not in RESOURCES or not isinstance(value, int) or value < 0:
            raise _fail(where, f"bad cost entry {key!r}: {value!r}")
    return (raw.get("grain", 0), raw.get("wood", 0), raw.get("stone", 0), raw.get("ore", 0))


def _amounts(raw: Any, where: str, keys: frozenset[str] = GAIN_KEYS) -> None:
    if not isinstance(raw, dict) or not raw:
        raise _fail(where, "amounts must be a non-empty object")
    for key, value in raw.items():
        if key not in keys or not isinstance(value, int) or value <= 0:
            raise _fail(where, f"bad amount {key!r}: {value!r}")


def _clause(raw: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, dict):
        raise _fail(where, "a clause must be an object")
    keys = set(raw)
    if "per_held" in keys:
        if keys != {"per_held", "gain"} or raw["per_held"] not in RESOURCES:
            raise _fail(where, "per_held needs a resource and a gain")
        _amounts(raw["gain"], where)
    elif "per_city" in keys:
        if keys != {"per_city", "gain"} or raw["per_city"] not in CATEGORIES:
            raise _fail(where, "per_city needs a building type and a gain")
        _amounts(raw["gain"], where)
    elif len(keys) != 1:
        raise _fail(where, f"unknown clause {sorted(keys)}")
    elif "gain" in keys:
        _amounts(raw["gain"], where)
    elif "gain_choice" in keys:
        options = raw["gain_choice"]
        if not isinstance(options, list) or len(options) < 2:
            raise _fail(where, "gain_choice needs at least two options")
        for option in options:
            _amounts(option, where)
    elif "gain_any" in keys:
        if not isinstance(raw["gain_any"], int) or not 1 <= raw["gain_any"] <= 3:
            raise _fail(where, "gain_any needs a count from 1 to 3")
    elif "exchange" in keys:
        body = raw["exchange"]
        if not isinstance(body, dict) or set(body) != {"pay", "gain"}:
            raise _fail(where, "exchange needs pay and gain")
        _amounts(body["pay"], where, frozenset((*RESOURCES, "denarii", "glory")))
        _amounts(body["gain"], where)
    elif "exchange_pairs" in keys:
        body = raw["exchange_pairs"]
        if not isinstance(body, dict) or not isinstance(body.get("size"), int) or body["size"] < 1:
            raise _fail(where, "exchange_pairs needs a size")
        _amounts(body.get("gain"), where)
    elif "buy_any" in keys:
        body = raw["buy_any"]
        if not isinstance(body, dict):
            raise _fail(where, "buy_any needs a price")
        _amounts(body.get("pay"), where, frozenset(("denarii",)))
    elif "take_culture_tile" in keys:
        if raw["take_culture_tile"] != "any_stack":
            raise _fail(where, "take_culture_tile must be any_stack")
    elif "bathhouse" in keys:
        body = raw["bathhouse"]
        if not isinstance(body, dict) or not isinstance(body.get("picks"), int):
            raise _fail(where, "bathhouse needs picks")
    elif "aqueduct" in keys or "circus" in keys:
        pass
    else:
        raise _fail(where, f"unknown clause {sorted(keys)}")
    return raw


def _tile_type(key: str, raw: Any) -> TileType:
    where = f"tile type {key}"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    category = raw.get("category")
    if category not in CATEGORIES or category == "temple":
        raise _fail(where, f"bad category {category!r}")
    timing = raw.get("timing")
    if timing not in TIMINGS:
        raise _fail(where, f"bad timing {timing!r}")
    effect = raw.get("effect")
    if not isinstance(effect, list):
        raise _fail(where, "effect must be a list of clauses")
    cost = None if raw.get("cost") is None else _cost(raw["cost"], where)
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(where, "a name is needed")
    return TileType(
        key=key,
        name=name,
        category=category,
        cost=cost,
        timing=timing,
        effect=tuple(_clause(c, where) for c in effect),
        source=str(raw.get("source", "")),
    )


def _temple(raw: Any) -> Temple:
    if not isinstance(raw, dict):
        raise _fail("temples", "each temple must be an object")
    tid = raw.get("id")
    where = f"temple {tid}"
    area, count = raw.get("area"), raw.get("count")
    if area not in AREAS:
        raise _fail(where, f"bad area {area!r}")
    if area == "none":
        if not isinstance(count, str) or count.removeprefix("resource:") not in RESOURCES:
            raise _fail(where, "a temple without an area counts resource:<type>")
    elif count not in (*CATEGORIES, "distinct_types"):
        raise _fail(where, f"bad count {count!r}")
    vp = raw.get("vp_each")
    if not isinstance(vp, int) or vp < 0:
        raise _fail(where, "vp_each must be a whole number")
    name = str(raw.get("name", ""))
    cost = _cost(raw.get("cost"), where)
    return Temple(str(tid), slug(name), name, str(area), str(count), vp, cost)


def _locations(raw: Any, where: str, types: Mapping[str, TileType]) -> tuple[Location, ...]:
    if not isinstance(raw, list):
        raise _fail(where, "must be a list")
    out = []
    for item in raw:
        tid, ttype, mark = item.get("id"), item.get("type"), item.get("mark")
        if ttype not in types:
            raise _fail(where, f"{tid}: unknown type {ttype!r}")
        if mark not in (None, 3, 4):
            raise _fail(where, f"{tid}: mark must be null, 3 or 4")
        if types[ttype].cost is None:
            raise _fail(where, f"{tid}: type {ttype} cannot be bought")
        out.append(Location(str(tid), str(ttype), mark))
    return tuple(out)


def load_catalogue(directory: Path = DATA_DIR) -> Catalogue:
    """Read and validate the four data files of a directory."""

    def read(name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((directory / name).read_text(encoding="utf-8"))
        return data

    tiles, manifest = read("tiles.json"), read("manifest.json")
    temples_raw, tables = read("temples.json"), read("tables.json")
    types = {key: _tile_type(key, raw) for key, raw in tiles["tile_types"].items()}
    for needed in ("fountain", "residence"):
        if needed not in types:
            raise _fail("tile types", f"{needed} is missing")
    temples = tuple(_temple(t) for t in temples_raw["temples"])
    starting = _locations(manifest["starting_locations"], "starting locations", types)
    normal = _locations(manifest["normal_locations"], "normal locations", types)
    fountains = tuple(str(f["id"]) for f in manifest["fountains"])
    ids = [*fountains, *(t.id for t in starting), *(t.id for t in normal), *(t.id for t in temples)]
    if len(set(ids)) != len(ids):
        raise _fail("manifest", "tile ids must be unique")
    keys = [t.key for t in temples]
    if len(set(keys)) != len(keys) or set(keys) & set(types):
        raise _fail("temples", "temple names must be distinct from each other and tile types")
    rounds = int(tables["constants"]["rounds"])
    if int(manifest["round_tiles"]) != rounds:
        raise _fail("manifest", "one round tile per round is needed")
    for count in (2, 3, 4):
        kept = sum(1 for t in normal if t.mark is None or t.mark <= count)
        if kept % rounds:
            raise _fail(
                "manifest", f"{kept} normal locations for {count} players do not split evenly"
            )
    culture = _culture(tables)
    removal = {int(k): tuple(int(v) for v in vs) for k, vs in tables["culture_removal"].items()}
    for players, vps in removal.items():
        for cat, tiles_ in culture.items():
            left = [vp for _, vp in tiles_]
            for vp in vps:
                if vp not in left:
                    raise _fail("culture removal", f"{players} players: no {vp} VP {cat} tile")
                left.remove(vp)
    return Catalogue(
        constants=dict(tables["constants"]),
        types=types,
        temples={t.id: t for t in temples},
        temple_keys={t.key: t.id for t in temples},
        fountains=fountains,
        starting=starting,
        normal=normal,
        round_tiles=int(manifest["round_tiles"]),
        assistant_prices=_prices(tables),
        solo_titles=tuple(
            (int(t["min"]), str(t["title"]))
            for t in sorted(tables["solo_titles"], key=lambda t: -int(t["min"]))
        ),
        culture_tiles=culture,
        culture_removal=removal,
        glory_tiles=_glory(tables, rounds),
        order_vp={int(o["number"]): int(o["vp_back"]) for o in tables["order_tiles"]},
        order_in_play={
            int(k): tuple(int(v) for v in vs) for k, vs in tables["order_tiles_in_play"].items()
        },
        instances={
            **{loc.id: types[loc.type] for loc in (*starting, *normal)},
            "F": types["fountain"],
            "R": types["residence"],
            "A": types["residence"],
        },
    )


def _culture(tables: Mapping[str, Any]) -> dict[str, tuple[tuple[int, int], ...]]:
    raw = tables["culture_tiles"]
    if set(raw) != set(CULTURE):
        raise _fail("culture tiles", f"categories must be {', '.join(CULTURE)}")
    out = {}
    for cat in CULTURE:
        tiles = tuple((int(t["req"]), int(t["vp"])) for t in raw[cat])
        if any(req < 1 or vp < 0 for req, vp in tiles):
            raise _fail("culture tiles", f"{cat}: requirements start at 1")
        out[cat] = tiles
    return out


def _prices(tables: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    raw = tables["assistant_price_by_owned"]
    cap = int(tables["constants"]["max_assistants_per_player"])
    if sorted(int(k) for k in raw) != list(range(cap)):
        raise _fail("assistant prices", f"one price per owned count 0..{cap - 1}")
    return tuple((int(raw[str(i)]["denarii"]), int(raw[str(i)]["glory"])) for i in range(cap))


def _glory(tables: Mapping[str, Any], rounds: int) -> dict[int, tuple[tuple[int, int], ...]]:
    out: dict[int, list[tuple[int, int]]] = {r: [] for r in range(1, rounds + 1)}
    for tile in tables["glory_tiles"]:
        rnd, rank, vp = int(tile["round"]), int(tile["rank"]), int(tile["vp"])
        if rnd not in out:
            raise _fail("glory tiles", f"round {rnd} out of range")
        out[rnd].append((rank, vp))
    for rnd, tiles in out.items():
        if sorted(rank for rank, _ in tiles) != list(range(1, len(tiles) + 1)):
            raise _fail("glory tiles", f"round {rnd}: ranks must be 1, 2, ...")
    return {rnd: tuple(sorted(tiles)) for rnd, tiles in out.items()}


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The catalogue of the shipped data files (loaded once)."""
    return load_catalogue()
