"""The printed components of Hadrian's Wall, loaded from ``data/*.json`` and validated on load.

Every box of both sheets, the 48 Fate cards, the 12 Player cards, the Year table and the scoring
column live in the data files; this module checks their shape and turns them into quick lookup
tables (box number -> reward icons, box number -> granary column, ...). A malformed file raises
``ValueError`` at import time, so a bad edit never reaches a table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).with_name("data")

WORKERS = ("soldier", "builder", "servant", "civilian")
GOODS = (*WORKERS, "resource")
ATTRIBUTES = ("renown", "piety", "valour", "discipline")
COHORTS = ("left", "center", "right")
CITIZENS = ("traders", "performers", "priests", "apparitores", "patricians")
CITIZEN_ICONS = ("trader", "performer", "priest", "apparitor", "patrician")
ICON_TO_CITIZEN = dict(zip(CITIZEN_ICONS, CITIZENS, strict=True))
REWARD_ICONS = frozenset(
    {*GOODS, *ATTRIBUTES, *CITIZEN_ICONS, "cohort", "production", "favour_any",
     "favour_cohort", "remove_disdain"}
)
GLADIATORS = ("red", "blue")
TEMPLES = ("small", "medium", "large")
LANDMARK_NAMES = ("archway", "monolith", "column", "statue")
PATTERN_NAMES = ("O", "I", "T", "L", "S")

Icons = tuple[str, ...]


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    return data


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"Hadrian's Wall data: {what}")


def _icons(value: Any, where: str) -> Icons:
    _need(isinstance(value, list), f"{where} must be a list of icons")
    for icon in value:
        _need(icon in REWARD_ICONS, f"{where}: unknown icon {icon!r}")
    return tuple(value)


def _cost(value: Any, where: str) -> dict[str, int]:
    _need(isinstance(value, dict), f"{where} must be a cost object")
    for key, n in value.items():
        _need(key in GOODS and isinstance(n, int) and n > 0, f"{where}: bad cost {key}={n}")
    return {k: int(v) for k, v in value.items()}


def _track_rewards(spec: dict[str, Any], length: int, where: str) -> tuple[Icons, ...]:
    """Rewards indexed by box number (index 0 unused)."""
    out: list[Icons] = [() for _ in range(length + 1)]
    for key, icons in spec.items():
        box = int(key)
        _need(1 <= box <= length, f"{where}: box {box} outside 1..{length}")
        out[box] = _icons(icons, f"{where} box {box}")
    return tuple(out)


def _columns(spans: Any, length: int, where: str) -> tuple[int, ...]:
    """Granary column (1..3) of each box, index 0 unused."""
    _need(isinstance(spans, list) and len(spans) == 3, f"{where}: three granary columns")
    cols = [0] * (length + 1)
    expected = 1
    for col, (lo, hi) in enumerate(spans, start=1):
        _need(lo == expected and hi >= lo, f"{where}: columns must tile the track")
        for box in range(lo, hi + 1):
            cols[box] = col
        expected = hi + 1
    _need(expected == length + 1, f"{where}: columns must cover {length} boxes")
    return tuple(cols)


@dataclass(frozen=True)
class Track:
    """A left-sheet track filled left to right: its length, rewards and granary columns."""

    length: int
    rewards: tuple[Icons, ...]
    columns: tuple[int, ...]


@dataclass(frozen=True)
class Building:
    name: str
    requires: dict[str, int]
    built: str | None
    cost: dict[str, int]
    reward: Icons
    choice: tuple[str, ...]


@dataclass(frozen=True)
class FateCard:
    id: str
    attack: str
    gladiator_damage: int
    trade_good: int
    gains: dict[str, int]


@dataclass(frozen=True)
class PlayerCard:
    id: str
    prospect_gain: dict[str, int]
    pattern: str
    trade_good: int


def _building(name: str, spec: dict[str, Any]) -> Building:
    req = dict(spec.get("requires", {}))
    built = req.pop("built", None)
    for key, n in req.items():
        _need(key in ("infrastructure", *CITIZENS) and isinstance(n, int), f"{name} requires")
    return Building(
        name=name,
        requires={k: int(v) for k, v in req.items()},
        built=built,
        cost=_cost(spec["cost"], f"{name} cost"),
        reward=_icons(spec.get("reward", []), f"{name} reward"),
        choice=tuple(spec.get("choice", [])),
    )


# --------------------------------------------------------------------------------------------
# Left sheet (spec section 3).

LEFT: dict[str, Any] = _load("left_sheet.json")
RIGHT: dict[str, Any] = _load("right_sheet.json")

COHORT_BOXES: int = LEFT["cohorts"]["boxes"]
_need(tuple(LEFT["cohorts"]["tracks"]) == COHORTS, "cohorts are left, center, right")
COHORT_REWARDS = _track_rewards(LEFT["cohorts"]["rewards"], COHORT_BOXES, "cohorts")

MINING = Track(14, _track_rewards(LEFT["mining"]["rewards"], 14, "mining"),
               _columns(LEFT["mining"]["columns"], 14, "mining"))
GUARD = Track(18, _track_rewards(LEFT["wall_guard"]["rewards"], 18, "wall guard"),
              _columns(LEFT["wall_guard"]["columns"], 18, "wall guard"))
FORT = Track(21, _track_rewards(LEFT["fort"]["rewards"], 21, "fort"),
             _columns(LEFT["fort"]["columns"], 21, "fort"))
WALL = Track(21, _track_rewards(LEFT["wall"]["rewards"], 21, "wall"),
             _columns(LEFT["wall"]["columns"], 21, "wall"))
FORT_INFRA: dict[int, int] = {int(k): int(v) for k, v in LEFT["fort"]["infrastructure"].items()}
_need(sorted(FORT_INFRA.values()) == list(range(1, 9)), "fort infrastructure flags 1..8")

_cippi = LEFT["cippi"]["boxes"]
_need(len(_cippi) == 7, "cippi has 7 boxes")
CIPPI = Track(
    7,
    ((), *(_icons(b["reward"], "cippi") for b in _cippi)),
    (0, *(int(b["column"]) for b in _cippi)),
)
CIPPI_LINKS: tuple[int, ...] = (0, *(int(b["requires_fort_box"]) for b in _cippi))
_need(list(CIPPI_LINKS[1:]) == sorted(CIPPI_LINKS[1:]), "cippi links increase")

TRACKS: dict[str, Track] = {"mining": MINING, "guard": GUARD, "fort": FORT, "wall": WALL,
                            "cippi": CIPPI}

PRODUCTION_CIRCLES: int = LEFT["resource_production"]["circles"]
PRODUCTION_PREFILLED: int = LEFT["resource_production"]["prefilled"]
TRAINING_BOXES: int = LEFT["training_grounds"]["boxes"]
TRAINING_PER_YEAR: int = LEFT["training_grounds"]["per_year"]
FORUM_BOXES: int = LEFT["forum"]["boxes"]
FORUM_PER_YEAR: int = LEFT["forum"]["per_year"]
FORUM_WORKERS: tuple[str, ...] = tuple(LEFT["forum"]["workers"])
_need("soldier" not in FORUM_WORKERS, "the Forum never involves soldiers")

LANDMARK_COST = _cost(LEFT["landmarks"]["cost"], "landmark cost")
LANDMARKS: dict[str, tuple[str, int, Icons]] = {}
for _name in LANDMARK_NAMES:
    _spec = LEFT["landmarks"][_name]
    ((_attr, _need_n),) = _spec["requires"].items()
    _need(_attr in ATTRIBUTES, f"landmark {_name} requires an attribute")
    LANDMARKS[_name] = (_attr, int(_need_n), _icons(_spec["reward"], f"landmark {_name}"))

ATTRIBUTE_BOXES: int = LEFT["attribute_tracks"]["boxes"]
ATTRIBUTE_WORKER: dict[str, str] = {}
ATTRIBUTE_WORKER_BOXES: dict[str, frozenset[int]] = {}
ATTRIBUTE_CROSS: dict[str, dict[int, str]] = {}
for _attr in ATTRIBUTES:
    _spec = LEFT["attribute_tracks"][_attr]
    _need(_spec["worker"] in WORKERS, f"{_attr} worker")
    ATTRIBUTE_WORKER[_attr] = _spec["worker"]
    ATTRIBUTE_WORKER_BOXES[_attr] = frozenset(int(b) for b in _spec["worker_boxes"])
    ATTRIBUTE_CROSS[_attr] = {int(k): v for k, v in _spec["cross"].items()}
    _need(all(v in ATTRIBUTES and v != _attr for v in ATTRIBUTE_CROSS[_attr].values()),
          f"{_attr} cross rewards name another attribute")

DISDAIN_BOXES: int = LEFT["disdain"]["boxes"]

BUILDINGS: dict[str, Building] = {}
_granaries = LEFT["granaries"]
_need(_granaries["small"]["prebuilt"] is True, "the small granary is prebuilt")
for _size in ("medium", "large"):
    BUILDINGS[f"granary_{_size}"] = _building(f"granary_{_size}", _granaries[_size])
for _name, _spec in LEFT["common_buildings"].items():
    BUILDINGS[_name] = _building(_name, _spec)

# --------------------------------------------------------------------------------------------
# Right sheet (spec section 4).

CITIZEN_BOXES: int = RIGHT["citizen_tracks"]["boxes"]
CITIZEN_REWARDS: dict[str, tuple[Icons, ...]] = {}
for _track, _icon in zip(CITIZENS, CITIZEN_ICONS, strict=True):
    _spec = RIGHT["citizen_tracks"][_track]
    _need(_spec["icon"] == _icon, f"{_track} icon")
    _need(len(_spec["rewards"]) == CITIZEN_BOXES, f"{_track} has {CITIZEN_BOXES} boxes")
    CITIZEN_REWARDS[_track] = (
        (),
        *(() if r is None else _icons([r], f"{_track} reward") for r in _spec["rewards"]),
    )

for _name, _spec in RIGHT["buildings"].items():
    BUILDINGS[_name] = _building(_name, _spec)
for _b in BUILDINGS.values():
    _need(_b.built is None or _b.built in BUILDINGS, f"{_b.name} needs an existing building")

MARKET_COST = _cost(RIGHT["market"]["purchase_cost"], "market purchase")
MARKET_BOXES: tuple[tuple[int, Icons], ...] = tuple(
    (int(b["requires"]["traders"]), _icons(b["reward"], "market box"))
    for b in RIGHT["market"]["boxes"]
)
UNIQUE_GOODS_RENOWN: tuple[int, ...] = tuple(RIGHT["market"]["unique_goods_renown"])

THEATRE_COST = _cost(RIGHT["theatre"]["performance_cost"], "performance")
THEATRE_PER_YEAR: int = RIGHT["theatre"]["per_year"]
THEATRE_BOXES: tuple[tuple[int, Icons], ...] = tuple(
    (int(b["requires"]["performers"]), _icons(b["reward"], "theatre box"))
    for b in RIGHT["theatre"]["boxes"]
)

_ludus = RIGHT["ludus"]
_need(tuple(_ludus["gladiators"]) == GLADIATORS, "gladiators are red and blue")
GLADIATOR_BOXES: int = _ludus["strength_boxes"]
GLADIATOR_COLUMN_PERFORMERS: tuple[int, ...] = tuple(_ludus["column_requires_performers"])
GLADIATOR_TRAIN_PAY: tuple[str, ...] = tuple(
    next(iter(c)) for c in _ludus["train_cost_options"]
)
BATTLE_BOXES: int = _ludus["battle_boxes"]
BATTLE_MIN_STRENGTH: int = _ludus.get("battle_min_alive", 1)
# Indexed by the gladiator's strength (the reward column); index 0 unused.
DEATH_REWARD: tuple[Icons, ...] = (
    (), *(_icons(r, "death reward") for r in _ludus["death_reward_by_strength"])
)
SURVIVE_REWARD: tuple[Icons, ...] = (
    (), *(_icons(r, "survive reward") for r in _ludus["survive_reward_by_strength"])
)
_need(len(GLADIATOR_COLUMN_PERFORMERS) == GLADIATOR_BOXES, "one requirement per gladiator box")

# Temple boxes are numbered 1..14 across the three temples, in the order they must be filled.
TEMPLE_BOX_TEMPLE: list[str] = [""]
TEMPLE_BOX_REQUIRES: list[int] = [0]
TEMPLE_BOX_REWARD: list[Icons] = [()]
TEMPLE_LAST_BOX: dict[str, int] = {}
for _temple in TEMPLES:
    for _row in RIGHT["temples"][_temple]["rows"]:
        for _icons_spec in _row["boxes"]:
            TEMPLE_BOX_TEMPLE.append(_temple)
            TEMPLE_BOX_REQUIRES.append(int(_row["requires"]["priests"]))
            TEMPLE_BOX_REWARD.append(_icons(_icons_spec, f"{_temple} temple box"))
    TEMPLE_LAST_BOX[_temple] = len(TEMPLE_BOX_TEMPLE) - 1
TEMPLE_FIRST_BOX: dict[str, int] = {
    "small": 1, "medium": TEMPLE_LAST_BOX["small"] + 1, "large": TEMPLE_LAST_BOX["medium"] + 1,
}
TEMPLE_TOTAL_BOXES = len(TEMPLE_BOX_TEMPLE) - 1

BATHS_PER_YEAR: int = RIGHT["baths"]["per_year"]
BATHS_BOXES: tuple[tuple[int, int], ...] = tuple(
    (int(b["requires"]["apparitores"]), int(b["cost"]["resource"])) for b in RIGHT["baths"]["boxes"]
)

COURTHOUSE_COLUMNS: tuple[tuple[dict[str, int], dict[str, int], tuple[int, ...]], ...] = tuple(
    (dict(c["cost"]), dict(c["gain"]), tuple(c["box_requires_apparitores"]))
    for c in RIGHT["courthouse"]["columns"]
)

DIPLOMAT_REQUIRES: tuple[int, ...] = tuple(RIGHT["diplomats"]["requires_patricians"])
DIPLOMAT_COST = _cost(RIGHT["diplomats"]["cost"], "diplomat cost")
DIPLOMAT_REWARD = _icons(RIGHT["diplomats"]["reward"], "diplomat reward")
SCOUT_REQUIRES: tuple[int, ...] = tuple(RIGHT["scouts"]["requires_patricians"])
SCOUT_COST = _cost(RIGHT["scouts"]["cost"], "scout cost")

MAP_ROWS: int = RIGHT["map"]["rows"]
MAP_COLS: int = RIGHT["map"]["cols"]
MAP_CELL_REWARD: dict[int, str] = {}
for _icon, _cells in RIGHT["map"]["cell_rewards"].items():
    _need(_icon in GOODS, f"map reward {_icon}")
    for _r, _c in _cells:
        _need(0 <= _r < MAP_ROWS and 0 <= _c < MAP_COLS, "map reward cell on the map")
        MAP_CELL_REWARD[_r * MAP_COLS + _c] = _icon
MAP_ROW_REWARD = _icons(RIGHT["map"]["row_complete_reward"], "map row reward")
_need(len(SCOUT_REQUIRES) * 4 == MAP_ROWS * MAP_COLS, "five 4-cell scouts fill the map")

# --------------------------------------------------------------------------------------------
# Cards, Years and scoring (spec sections 5 to 8).

_fate = _load("fate_deck.json")["cards"]
FATE_CARDS: dict[str, FateCard] = {}
for _c in _fate:
    _need(_c["attack"] in COHORTS, f"fate card {_c['id']} attack")
    _need(set(_c["gains"]) == set(GOODS), f"fate card {_c['id']} gains")
    _need(_c["id"] not in FATE_CARDS, f"duplicate fate card {_c['id']}")
    FATE_CARDS[_c["id"]] = FateCard(
        _c["id"], _c["attack"], int(_c["gladiator_damage"]), int(_c["trade_good"]),
        {k: int(v) for k, v in _c["gains"].items()},
    )
FATE_IDS: tuple[str, ...] = tuple(FATE_CARDS)

_players = _load("player_cards.json")
PATTERNS: dict[str, tuple[tuple[int, int], ...]] = {
    name: tuple((int(r), int(c)) for r, c in cells) for name, cells in _players["patterns"].items()
}
_need(tuple(sorted(PATTERNS)) == tuple(sorted(PATTERN_NAMES)), "five patterns O I T L S")
_need(all(len(cells) == 4 for cells in PATTERNS.values()), "patterns have 4 cells")
PLAYER_CARDS: dict[str, PlayerCard] = {}
for _c in _players["cards"]:
    _need(_c["pattern"] in PATTERNS, f"player card {_c['id']} pattern")
    _need(1 <= _c["trade_good"] <= 6, f"player card {_c['id']} trade good")
    PLAYER_CARDS[_c["id"]] = PlayerCard(_c["id"], _cost(_c["prospect_gain"], _c["id"]),
                                        _c["pattern"], int(_c["trade_good"]))
PLAYER_CARD_IDS: tuple[str, ...] = tuple(PLAYER_CARDS)
NEUTRAL_REVEAL: dict[int, int] = {int(k): int(v) for k, v in _players["neutral_reveal"].items()}

_years = _load("years.json")
YEARS: int = _years["years"]
GREY_FLAG: tuple[int, ...] = tuple(_years["grey_flag"])
ATTACK_CARDS: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in _years["attack_cards"].items()}
DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard")
_need(len(GREY_FLAG) == YEARS, "one grey flag per Year")
_need(set(ATTACK_CARDS) == set(DIFFICULTIES), "easy, normal and hard rows")
_need(all(len(v) == YEARS for v in ATTACK_CARDS.values()), "one attack count per Year")

_scoring = _load("scoring.json")
DISDAIN_PENALTY: tuple[int, ...] = tuple(_scoring["disdain_penalty"])
PATH_SCORING: dict[str, tuple[str, str, tuple[tuple[int, int], ...]]] = {
    name: (p["measure"], p["compare"], tuple((int(a), int(b)) for a, b in p["tiers"]))
    for name, p in _scoring["paths"].items()
}
_need(set(PATH_SCORING) == set(PLAYER_CARDS), "one path scoring per Player card")
LARGE_BUILDINGS: tuple[str, ...] = tuple(_scoring["large_buildings"])
_need(all(b in BUILDINGS for b in LARGE_BUILDINGS), "large buildings exist")
SOLO_RANKS: tuple[tuple[int, str], ...] = tuple((int(a), str(b)) for a, b in _scoring["solo_ranks"])

_options = _load("options.json")
OPTION_DEFAULTS: dict[str, Any] = dict(_options["defaults"])
OPTION_CHOICES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _options["choices"].items()}
_need(all(OPTION_DEFAULTS[k] in v for k, v in OPTION_CHOICES.items()), "option defaults allowed")
