"""How decisions change the state and who acts next (spec 5 to 7).

Each function takes a validated decision and returns the new state with the events that narrate
it. Seats are written ``{p0}``, ``{p1}``, ... in event texts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core import Event, Rng
from rules.palermo.building import Placement
from rules.palermo.collecting import BUSINESS, HOME, Move, city_graph, police_targets
from rules.palermo.components import Config, house_name, movement
from rules.palermo.state import (
    BUILD,
    COLLECT,
    HOUSE,
    MOVE,
    OFF,
    OVER,
    POLICE,
    START_KIND,
    START_TILE,
    STREET_KIND,
    WALK,
    PalermoState,
    Tile,
    evolve,
)
from rules.words import counted, with_article

Events = list[Event]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def new_state(players: int, seed: str, options: str, cfg: Config) -> PalermoState:
    rng = Rng(seed)
    first = cfg.first_player if cfg.first_player is not None else rng.randbelow(players)
    spaces = cfg.grid_tiles * cfg.grid_tiles
    zeros = (0,) * players
    return PalermoState(
        players=players,
        options=options,
        rng=rng.state,
        first=first,
        phase=BUILD,
        turn=first,
        step=START_TILE,
        tiles=(None,) * spaces,
        supply=tuple((k.name, k.count) for k in cfg.houses),
        streets_left=cfg.street_tiles,
        last_house=-1,
        to_place=(cfg.chips(players),) * players,
        pawns=(OFF,) * players,
        police=(OFF,) * players,
        frozen=(False,) * players,
        penalty=zeros,
        collected=zeros,
        lost=zeros,
        income=zeros,
        leftover=zeros,
        bonus=zeros,
        home_order=(),
        turns=0,
    )


# -------------------------------------------------------------------------------- phase 1


def lay_start(state: PalermoState, seat: int, space: int) -> tuple[PalermoState, Events]:
    tiles = _set(state.tiles, space, Tile(START_KIND))
    name = state.geo.space_name(space)
    event = Event(
        "start_tile",
        {"seat": seat, "space": name},
        text=f"{{p{seat}}} laid the Start/Finish tile on {name}.",
    )
    return evolve(state, tiles=tiles, step=HOUSE), [event]


def build(state: PalermoState, seat: int, placement: Placement) -> tuple[PalermoState, Events]:
    tiles = _set(state.tiles, placement.space, Tile(placement.kind, placement.rotation, seat, True))
    supply = tuple((k, n - 1 if k == placement.kind else n) for k, n in state.supply)
    to_place = _set(state.to_place, seat, state.to_place[seat] - 1)
    name = state.geo.space_name(placement.space)
    events: Events = [
        Event(
            "build",
            {"seat": seat, "kind": placement.kind, "space": name, "rotation": placement.rotation},
            text=f"{{p{seat}}} built "
            f"{with_article(house_name(state.config, placement.kind))} on {name}.",
        )
    ]
    state = evolve(
        state, tiles=tiles, supply=supply, to_place=to_place, last_house=placement.space
    )
    if any(to_place):
        return evolve(state, turn=(seat + 1) % state.players, step=HOUSE), events
    return _finish_city(state, events)


def _finish_city(state: PalermoState, events: Events) -> tuple[PalermoState, Events]:
    """Fill the empty spaces with street tiles (spec 6.3) and start phase 2."""
    empty = [i for i, t in enumerate(state.tiles) if t is None]
    tiles = tuple(Tile(STREET_KIND) if t is None else t for t in state.tiles)
    names = [state.geo.space_name(i) for i in empty]
    events.append(
        Event(
            "city_complete",
            {"streets": names},
            text="The city is built"
            + (f"; street tiles fill {', '.join(names)}." if names else ".")
            + " Phase 2: collecting income.",
        )
    )
    state = evolve(
        state, tiles=tiles, streets_left=state.streets_left - len(empty), phase=COLLECT
    )
    state = _drop_sealed_chips(state, events)
    return _begin_turn(state, state.first, events)


def _drop_sealed_chips(state: PalermoState, events: Events) -> PalermoState:
    """A door that no street leads to (possible only after Rule 3 was waived) cannot be
    visited: its chip leaves the game and its owner needs one chip fewer to go home.

    Reachable means from Start/Finish, where every pawn sets out and comes home: a waiver
    can also wall Start/Finish in, and then the doors outside can no more be visited than a
    door walled in itself (with them kept, no pawn could ever go home: the game would not
    end). While Start/Finish reaches the ring, this is the same as reaching the ring."""
    g = city_graph(state)
    reached = set(g.start)
    frontier = list(reached)
    while frontier:
        node = frontier.pop()
        for other, _ in g.edges[node]:  # a pawn's moves: every step, and the jumps
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    tiles = list(state.tiles)
    lost = list(state.lost)
    for space, tile in enumerate(tiles):
        if tile is None or not tile.chip:
            continue
        door = state.geo.space_cells(space)[state.config.house(tile.kind).door_at(tile.rotation)]
        if door not in reached:
            tiles[space] = replace(tile, chip=False)
            lost[tile.owner] += 1
            name = state.geo.space_name(space)
            events.append(
                Event(
                    "sealed_business",
                    {"seat": tile.owner, "space": name},
                    text=f"No street leads to {{p{tile.owner}}}'s business on {name}: "
                    "its chip leaves the game.",
                )
            )
    return evolve(state, tiles=tuple(tiles), lost=tuple(lost))


# -------------------------------------------------------------------------------- phase 2


def _begin_turn(state: PalermoState, seat: int, events: Events) -> tuple[PalermoState, Events]:
    """Start ``seat``'s turn, skipping turns that hold no decision (a home player whose stone
    cannot move only collects the waiting bonus)."""
    for _ in range(2 * state.players):  # every player home ends the game first; this is a bound
        state = evolve(state, turn=seat, turns=state.turns + 1)
        if state.is_home(seat):
            gain = state.config.bonus(state.players)
            state = evolve(state, bonus=_set(state.bonus, seat, state.bonus[seat] + gain))
            events.append(
                Event(
                    "waiting_bonus",
                    {"seat": seat, "points": gain},
                    text=f"{{p{seat}}} waits at home and scores {counted(gain, 'point')}.",
                )
            )
        if police_targets(state, seat):
            return evolve(state, step=POLICE), events
        if not state.is_home(seat):
            return evolve(state, step=MOVE), events
        state = evolve(state, frozen=_set(state.frozen, seat, False))
        seat = (seat + 1) % state.players
    raise AssertionError("no player has a decision left")


def _end_turn(state: PalermoState, seat: int, events: Events) -> tuple[PalermoState, Events]:
    state = evolve(state, frozen=_set(state.frozen, seat, False))
    return _begin_turn(state, (seat + 1) % state.players, events)


def place_police(
    state: PalermoState, seat: int, target: int | None
) -> tuple[PalermoState, Events]:
    events: Events = []
    if target is not None:
        state = evolve(state, police=_set(state.police, seat, target))
        name = state.geo.cell_name(target)
        events.append(
            Event(
                "police",
                {"seat": seat, "to": name},
                text=f"{{p{seat}}} placed their police stone on {name}.",
            )
        )
    else:
        events.append(
            Event(
                "police_kept",
                {"seat": seat},
                text=f"{{p{seat}}} keeps their police stone where it is.",
            )
        )
    if state.is_home(seat):
        return _end_turn(state, seat, events)
    return evolve(state, step=MOVE), events


def walk_on(state: PalermoState, seat: int) -> tuple[PalermoState, Events]:
    """The pawn passes its stops by and will use every point (spec 7.4, ending 1)."""
    told = Event("walk_on", {"seat": seat}, text=f"{{p{seat}}} walks on: the pawn passes its "
                 "stops by and uses every movement point.")
    return evolve(state, step=WALK), [told]


def move_pawn(state: PalermoState, seat: int, move: Move) -> tuple[PalermoState, Events]:
    total = state.allowance(seat) - state.penalty[seat]
    spare = total - move.cost
    name = state.geo.cell_name(move.to)
    events: Events = []
    state = evolve(state, pawns=_set(state.pawns, seat, move.to))
    data: dict[str, Any] = {"seat": seat, "to": name, "cost": move.cost, "end": move.end}
    if move.end == BUSINESS:
        state = _collect(state, seat, move.to, spare)
        data["income"] = spare
        text = (f"{{p{seat}}} stopped at their business on {name} and earned "
                f"{counted(spare, 'point')}." if spare else
                f"{{p{seat}}} stopped at their business on {name} with no movement points "
                "left over, so they earned nothing.")
    elif move.end == HOME:
        state = evolve(
            state,
            leftover=_set(state.leftover, seat, state.leftover[seat] + spare),
            home_order=(*state.home_order, seat),
        )
        data["leftover"] = spare
        text = f"{{p{seat}}} is home on {name} with {movement(spare)} to spare."
    elif move.cost < total:
        text = f"{{p{seat}}} was blocked and stopped on {name} after {movement(move.cost)}."
    else:
        text = f"{{p{seat}}} moved to {name}, using {movement(move.cost)}."
    events.append(Event("move", data, text=text))
    owner = next(
        (s for s, p in enumerate(state.police) if p == move.to and s != seat), None
    )
    state = evolve(state, penalty=_set(state.penalty, seat, 1 if owner is not None else 0))
    if owner is not None:
        state = evolve(state, frozen=_set(state.frozen, owner, True))
        events.append(
            Event(
                "stone_blocked",
                {"seat": seat, "owner": owner, "cell": name},
                text=f"{{p{seat}}} ended on {{p{owner}}}'s police stone: it cannot move on "
                f"{{p{owner}}}'s next turn, and {{p{seat}}} has 1 movement point less next turn.",
            )
        )
    if len(state.home_order) == state.players:
        events.append(Event("game_over", {}, text="Every pawn is home: the game is over."))
        return evolve(state, phase=OVER, step="", turn=-1), events
    return _end_turn(state, seat, events)


def _collect(state: PalermoState, seat: int, door: int, income: int) -> PalermoState:
    geo, cfg = state.geo, state.config
    tiles = list(state.tiles)
    for space, tile in enumerate(tiles):
        if tile is None or tile.owner != seat or not tile.chip:
            continue
        if geo.space_cells(space)[cfg.house(tile.kind).door_at(tile.rotation)] == door:
            tiles[space] = replace(tile, chip=False)
            break
    return evolve(
        state,
        tiles=tuple(tiles),
        collected=_set(state.collected, seat, state.collected[seat] + 1),
        income=_set(state.income, seat, state.income[seat] + income),
    )
