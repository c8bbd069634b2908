"""Play a player would call odd, each found once in a game and kept out by a scenario."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules import GAMES
from rules.core import derive_seed
from rules.players import choose
from rules.players.registry import heuristic_for
from rules.players.search import search
from rules.players.values import greedy


def _minerva_turns(seed: str, rounds: tuple[int, ...]) -> Iterator[tuple[Any, int]]:
    """Positions in ``rounds`` where the seat to move has nobody passed before it and
    residences left to build for free. Until then both seats play the easy choice among
    everything but residences, so residences are left over as in the game where hard passed."""
    game = GAMES["minerva"]
    heur = heuristic_for("minerva")
    state = game.setup(2, seed)
    step = 0
    while game.active_seats(state) and state.round <= max(rounds):
        seat = min(game.active_seats(state))
        p = state.players[seat]
        if (state.round in rounds and state.phase == "main" and not state.stack
                and state.passes == 0 and p.houses >= 2):
            yield state, seat
        legal = game.legal_actions(state, seat)
        if state.round < min(rounds):
            legal = [a for a in legal if a.get("type") != "residence"] or legal
        state = game.apply(state, seat, greedy(game, heur, state, seat, legal, str(step))).state
        step += 1


def test_minerva_searching_levels_do_not_pass_with_free_residences_to_build() -> None:
    # Hard used to pass first in rounds 3 and 4 with five residences unbuilt: its two-move
    # look-ahead saw the pass income and the rival's fees, not the turns the pass gave up.
    game = GAMES["minerva"]
    checked = 0
    for seed in ("odd-0", "odd-1"):
        for n, (state, seat) in enumerate(_minerva_turns(seed, (3, 4))):
            if n == 4:
                break
            for level in ("normal", "hard"):
                action = choose(game, state, seat, level, derive_seed(seed, checked))
                assert action["type"] != "pass", (seed, state.round, level)
            checked += 1
    assert checked >= 4


def test_a_palermo_pawn_caught_between_police_stones_breaks_out() -> None:
    # In this game seat 0's nearest way to its doors ran over two police stones it could not
    # pass with an allowance of 3: it walked the same three cells for ever.
    game = GAMES["palermo"]
    seed = derive_seed("he-palermo", 22)
    state = game.setup(3, seed)
    for step in range(3000):
        active = game.active_seats(state)
        if not active:
            break
        seat = min(active)
        action = choose(game, state, seat, "easy", derive_seed("arena", seed, step))
        state = game.apply(state, seat, action).state
    assert game.outcome(state) is not None
    assert state.collected == (11, 11, 11)


def test_hadrians_wall_search_stops_at_the_seats_own_pass_whoever_acted_first() -> None:
    # The search used to look past the seat's own pass in the Action phase: a seat acting first
    # saw the other act after its pass and held on, one acting last saw nobody, and the first
    # to act gained 6 points at normal level.
    game = GAMES["hadrians-wall"]
    heur = heuristic_for("hadrians-wall")
    state = game.setup(2, "leaf")
    step = 0
    while state.phase != "actions":
        seat = min(game.active_seats(state))
        state = game.apply(state, seat, choose(game, state, seat, "easy", str(step))).state
        step += 1
    while True:  # on to where passing is among the moves the search weighs
        options = heur.candidates(state, 0, game.legal_actions(state, 0))
        if len(options) > 1 and {"type": "pass"} in options:
            break
        state = game.apply(state, 0, choose(game, state, 0, "easy", str(step))).state
        step += 1  # seat 0 acts first: seat 1 has not acted yet
    seen: list[bool] = []

    class Watching:
        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def apply(self, world: Any, seat: int, action: Any) -> Any:
            seen.append(world.phase == "actions" and bool(world.sheets[0]["passed"]))
            return game.apply(world, seat, action)

    search(Watching(), heur, state, 0, "s", 40, 4, 60.0)  # type: ignore[arg-type]
    assert seen and not any(seen)
