"""Computer players never peek, checked where a peek would show.

Each case is a position and a twin that differs from it only in what the deciding seat cannot
see: the order of Minerva's location stack or of its temple stack, Hadrian's Wall's Fate deck,
the wolf-backed pieces on the board and behind other seats' screens in Palatinus, or the whole
hidden part re-dealt (``dealt``: the twin is a determinization, the position itself the true
state). The cases were picked because a peek at that hidden part changes the decision at the
level's real budget, and the test proves it: with the peek planted (``determinize`` keeping
that part as it really is, or returning the true state) the player must decide differently on
the twins, while the real players, at every level and real budget, decide alike. Budgets are
iterations, so the cases hold on any machine under any load. Should a change to a heuristic
take a case's power away, ``python -m tests.rules.test_players_no_peek_power GAME LEVEL
PLAYERS [KINDS]`` lists new ones.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from rules import ENTRIES, GAMES
from rules.core import Game, derive_seed
from rules.hadrians_wall.state import State as WallState
from rules.minerva.state import MinervaState
from rules.palatinus.state import PalatinusState
from rules.players import LEVELS, choose
from tests.rules.twins.palatinus import wolves_dealt_again

STEPS_LIMIT = 400  # of a walk to a position


# ------------------------------------------------------------------------------ twins


def _shuffled(items: list[Any], seed: str) -> list[Any]:
    """``items`` in another order (reversed when a few shuffles leave them as they were)."""
    rng = random.Random(seed)
    for _ in range(5):
        out = list(items)
        rng.shuffle(out)
        if out != items:
            return out
    return items[::-1]


def _minerva_locations(game: Game, state: MinervaState, seat: int, seed: str) -> MinervaState:
    """The location stack's tiles in another order (round tiles where they were)."""
    twin = state.clone()
    slots = [i for i, t in enumerate(twin.deck) if t != "R"]
    for i, tile in zip(slots, _shuffled([twin.deck[i] for i in slots], seed), strict=True):
        twin.deck[i] = tile
    return twin


def _minerva_temples(game: Game, state: MinervaState, seat: int, seed: str) -> MinervaState:
    twin = state.clone()
    twin.temple_stack = _shuffled(list(twin.temple_stack), seed)
    return twin


def _wall_fate(game: Game, state: WallState, seat: int, seed: str) -> WallState:
    return replace(state, fate_draw=tuple(_shuffled(list(state.fate_draw), seed)))


def _palatinus_wolves(game: Game, state: PalatinusState, seat: int,
                      seed: str) -> PalatinusState:
    """Other seats' wolf-backed kinds moved between the board and their screens."""
    return wolves_dealt_again(state, seat, lambda pool, key: _shuffled(pool, f"{seed}-{key}"))


# Taken on import, so a peek planted in ``determinize`` does not also unmake the twin.
_DEALERS = {game_id: type(GAMES[game_id]).determinize
            for game_id in ("minerva", "hadrians-wall", "palatinus")}


def _dealt(game: Game, state: Any, seat: int, seed: str) -> Any:
    return _DEALERS[game.id](game, state, seat, seed)


TWINS: dict[str, Callable[[Game, Any, int, str], Any]] = {
    "locations": _minerva_locations, "temples": _minerva_temples, "fate": _wall_fate,
    "wolves": _palatinus_wolves, "dealt": _dealt}
KINDS = {"minerva": ("locations", "temples", "dealt"), "hadrians-wall": ("fate", "dealt"),
         "palatinus": ("wolves", "dealt")}


# ------------------------------------------------------------------------------ peeks


def _keep_locations(world: MinervaState, state: MinervaState) -> MinervaState:
    world.deck = list(state.deck)
    return world


def _keep_temples(world: MinervaState, state: MinervaState) -> MinervaState:
    world.temple_stack = list(state.temple_stack)
    return world


def _keep_fate(world: WallState, state: WallState) -> WallState:
    return replace(world, fate_draw=state.fate_draw)


def _keep_wolves(world: PalatinusState, state: PalatinusState) -> PalatinusState:
    return replace(world, screens=state.screens, pieces=state.pieces)


KEEPS: dict[str, Callable[[Any, Any], Any]] = {
    "locations": _keep_locations, "temples": _keep_temples, "fate": _keep_fate,
    "wolves": _keep_wolves}


def _plant_peek(monkeypatch: pytest.MonkeyPatch, game: Game, kind: str) -> None:
    """``determinize`` keeping the twin's hidden part as it is (``dealt``: the true state)."""
    real = type(game).determinize

    def leaky(self: Any, state: Any, seat: int | None, seed: str) -> Any:
        if kind == "dealt":
            return state
        return KEEPS[kind](real(self, state, seat, seed), state)

    monkeypatch.setattr(type(game), "determinize", leaky)


# ------------------------------------------------------------------------------ cases


@dataclass(frozen=True)
class Case:
    game_id: str
    players: int
    walk: int
    step: int  # easy play of ``step`` moves from the walk's setup
    kind: str
    twin: str  # the twin's seed
    level: str  # where the peek shows

    def __str__(self) -> str:
        return f"{self.game_id} walk {self.walk} step {self.step} {self.kind} {self.level}"


def _walk(game: Game, players: int, walk: int) -> Iterator[tuple[int, Any, int]]:
    """Positions of easy play (step, state, the last active seat, who is examined)."""
    state = game.setup(players, f"peek-{walk}")
    for step in range(STEPS_LIMIT):
        active = sorted(game.active_seats(state))
        if not active:
            return
        yield step, state, active[-1]
        action = choose(game, state, active[0], "easy", derive_seed("walk", walk, step))
        state = game.apply(state, active[0], action).state


@cache
def _position(game_id: str, players: int, walk: int, step: int) -> tuple[Any, int]:
    for at, state, seat in _walk(GAMES[game_id], players, walk):
        if at == step:
            return state, seat
    raise AssertionError(f"{game_id} walk {walk} ends before step {step}")


CASES = [
    Case("minerva", 2, 3, 82, "locations", "twin-0", "normal"),
    Case("minerva", 2, 0, 70, "locations", "twin-0", "hard"),
    Case("minerva", 2, 4, 76, "temples", "twin-0", "normal"),
    Case("minerva", 2, 4, 76, "dealt", "twin-0", "normal"),
    Case("minerva", 2, 0, 79, "dealt", "twin-0", "normal"),
    Case("hadrians-wall", 2, 1, 154, "fate", "twin-0", "normal"),
    Case("hadrians-wall", 2, 1, 148, "dealt", "twin-0", "normal"),
    Case("palatinus", 3, 0, 10, "wolves", "twin-0", "normal"),
    Case("palatinus", 3, 0, 19, "dealt", "twin-0", "normal"),
]


def _twins(case: Case) -> tuple[Game, Any, Any, int]:
    game = GAMES[case.game_id]
    state, seat = _position(case.game_id, case.players, case.walk, case.step)
    twin = TWINS[case.kind](game, state, seat, case.twin)
    assert game.view(twin, seat) == game.view(state, seat), "the twin shows the seat more"
    assert game.dump(twin) != game.dump(state), "nothing hidden moved"
    return game, state, twin, seat


def _seed(case: Case) -> str:
    return derive_seed("peek", case.walk, case.step)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_peek_at_the_hidden_part_would_change_the_decision(
        monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    game, state, twin, seat = _twins(case)
    _plant_peek(monkeypatch, game, case.kind)
    assert (choose(game, state, seat, case.level, _seed(case))
            != choose(game, twin, seat, case.level, _seed(case))), (
        f"{case}: a peek no longer shows here; find another case (see the module's doc)")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_level_decides_alike_on_the_twins(case: Case) -> None:
    game, state, twin, seat = _twins(case)
    differ = [level for level in LEVELS
              if choose(game, state, seat, level, _seed(case))
              != choose(game, twin, seat, level, _seed(case))]
    assert differ == []


def _find(game_id: str, level: str, players: int, kinds: tuple[str, ...],
          walks: int = 6) -> Iterator[Case]:
    """Cases where the planted peek changes the decision at ``level`` (slow: minutes)."""
    game = GAMES[game_id]
    with pytest.MonkeyPatch.context() as monkeypatch:
        for walk in range(walks):
            for step, state, seat in _walk(game, players, walk):
                if step % 3 != 1 or len(game.legal_actions(state, seat)) < 2:
                    continue
                for kind in kinds:
                    case = Case(game_id, players, walk, step, kind, "twin-0", level)
                    twin = TWINS[kind](game, state, seat, case.twin)
                    if game.dump(twin) == game.dump(state):
                        continue
                    _plant_peek(monkeypatch, game, kind)
                    if (choose(game, state, seat, level, _seed(case))
                            != choose(game, twin, seat, level, _seed(case))):
                        yield case
                    monkeypatch.undo()


if __name__ == "__main__":
    kinds = tuple(sys.argv[4].split(",")) if len(sys.argv) > 4 else KINDS[sys.argv[1]]
    for found in _find(sys.argv[1], sys.argv[2], int(sys.argv[3]), kinds):
        print(repr(found), flush=True)


def test_every_hidden_part_of_every_game_has_a_case() -> None:
    # A hidden part without a case is a peek nothing would catch at a real budget.
    hidden = {game_id for game_id, entry in ENTRIES.items() if entry.facts.hidden}
    assert hidden == set(KINDS)
    for game_id, kinds in KINDS.items():
        for kind in kinds:
            assert any(c.game_id == game_id and c.kind == kind for c in CASES), (game_id, kind)
    assert {c.level for c in CASES} >= {"normal", "hard"}
