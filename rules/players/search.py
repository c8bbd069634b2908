"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Every iteration samples a world the deciding seat cannot tell from the real one
(``game.determinize(state, seat, ...)``), walks one tree shared by all samples (a child is
available in a sample when its action is legal there; UCB counts availabilities, not parent
visits), adds one node, plays a short rollout with the heuristic's first candidate (its best
guess) and scores the result with the heuristic's projection: the margin over the best other
seat mid-game, the win itself only when the game is over. The heuristic's ranking is a
progressive bias that fades with visits, and the easy level's choice is ranked first at the
root, so with a small budget the search departs from the easy move only when the samples
agree on a better one. Where the heuristic marks a position a ``leaf`` for the deciding seat, the
walk stops and scores it. Only the sampled worlds are ever read: the real state gives nothing but
its determinization and the seat's own legal actions, which the seat sees.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, Game, Rng, derive_seed
from rules.players.registry import Heuristic
from rules.players.values import greedy, projected, rewards

EXPLORATION = 0.7
MAX_CHILDREN = 12  # widest node: the heuristic's best guesses first
ROLLOUT_RANDOM = 0.0  # share of rollout moves picked at random among the candidates
PRIOR = 0.3  # progressive bias toward the heuristic's ranking, fading with visits


@dataclass
class Node:
    action: Action | None = None
    mover: int = -1
    visits: int = 0
    total: float = 0.0
    avail: int = 0
    children: dict[str, Node] = field(default_factory=dict)
    ranked: list[tuple[str, Action]] | None = None  # kept when the heuristic says it is stable


_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def _key(action: Action) -> str:
    # One encoder for every key: ``json.dumps`` with options builds a new one per call.
    return _ENCODE(action)


def _mover(game: Game, world: Any, seat: int) -> int | None:
    """Who acts next in a sampled world: the deciding seat first while play is simultaneous."""
    active = game.active_seats(world)
    if not active:
        return None
    return seat if seat in active else min(active)


def _options(game: Game, heur: Heuristic, world: Any, mover: int) -> list[Action]:
    return heur.candidates(world, mover, game.legal_actions(world, mover))[:MAX_CHILDREN]


def _all_legal(ranked: list[tuple[str, Action]], legal: list[Action]
               ) -> list[tuple[str, Action]] | None:
    """``ranked`` when every one of its actions is among ``legal`` (the usual case), else None.
    Keying a dozen matches found by ``==`` is much cheaper than keying every legal action;
    the key decides (``==`` takes ``1`` for ``True``), so the answer is the keys' answer."""
    for key, action in ranked:
        try:
            match = legal[legal.index(action)]
        except ValueError:
            return None
        if _key(match) != key:
            return None
    return ranked


def _node_options(game: Game, heur: Heuristic, node: Node, world: Any,
                  mover: int) -> list[tuple[str, Action]]:
    """The candidates at a node in this sampled world. Where the heuristic's ranking hardly
    depends on the hidden part (``stable``), the first ranking is kept and only filtered by
    what is legal in each later sample, which saves most of the cost of a visit."""
    if node.ranked is not None:
        legal = game.legal_actions(world, mover)
        kept = _all_legal(node.ranked, legal)
        if kept is None:
            keys = {_key(a) for a in legal}
            kept = [(k, a) for k, a in node.ranked if k in keys]
        if kept:
            return kept
    fresh = [(_key(a), a) for a in _options(game, heur, world, mover)]
    if heur.stable and node.ranked is None:
        node.ranked = fresh
    return fresh


def _select(node: Node, keys: list[str]) -> str:
    for k in keys:
        if node.children[k].visits == 0:
            return k

    def ucb(rank: int) -> float:
        c = node.children[keys[rank]]
        return (c.total / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
                + PRIOR / ((rank + 1) * (c.visits + 1)))

    return keys[max(range(len(keys)), key=ucb)]


def _rollout(game: Game, heur: Heuristic, world: Any, seat: int, depth: int,
             rng: Rng) -> Any:
    for _ in range(depth):
        if heur.leaf(world, seat):
            break
        mover = _mover(game, world, seat)
        if mover is None:
            break
        cands = heur.candidates(world, mover, game.legal_actions(world, mover))
        if len(cands) > 1 and rng.randbelow(1000) < ROLLOUT_RANDOM * 1000:
            action = rng.choice(cands[:MAX_CHILDREN])
        else:
            action = cands[0]  # the heuristic's best guess: candidates come best first
        world = game.apply(world, mover, action).state
    return world


@dataclass(frozen=True)
class Searched:
    action: Action
    iterations: int  # iterations run
    capped: bool  # the safety net stopped the search before its budget


def search(game: Game, heur: Heuristic, state: Any, seat: int, seed: str, iterations: int,
           depth: int, net_seconds: float,
           clock: Callable[[], float] = time.thread_time) -> Action:
    """The most visited root action after ``iterations`` iterations."""
    return run_search(game, heur, state, seat, seed, iterations, depth, net_seconds,
                      clock).action


def run_search(game: Game, heur: Heuristic, state: Any, seat: int, seed: str, iterations: int,
               depth: int, net_seconds: float,
               clock: Callable[[], float] = time.thread_time) -> Searched:
    """``search``, saying how many iterations ran and whether the safety net (``net_seconds``
    of ``clock``, checked between iterations) cut the search short."""
    legal = game.legal_actions(state, seat)
    root_world = heur.horizon(game.determinize(state, seat, derive_seed("root", seed)), seat)
    root_cands = heur.candidates(root_world, seat, legal)[:MAX_CHILDREN] or legal[:1]
    if len(root_cands) == 1:
        return Searched(root_cands[0], 0, False)
    # The easy level's choice leads: the progressive bias favours it until the search disagrees.
    first = greedy(game, heur, root_world, seat, root_cands, seed)
    root_cands = [first] + [a for a in root_cands if a != first]
    base = projected(game, heur, root_world)[seat]
    root_keyed = [(_key(a), a) for a in root_cands]
    order = {k: i for i, (k, _) in enumerate(root_keyed)}
    root = Node()
    for k, a in zip(order, root_cands, strict=True):
        root.children[k] = Node(action=a, mover=seat)
    rng = Rng(derive_seed("rollouts", seed))
    deadline = clock() + net_seconds
    done = 0
    for i in range(iterations):
        if i and clock() > deadline:
            break
        done += 1
        world = heur.horizon(game.determinize(state, seat, derive_seed("world", seed, i)), seat)
        node, path = root, [root]
        while True:
            mover = _mover(game, world, seat)
            if mover is None:
                break
            acts = root_keyed if node is root else _node_options(game, heur, node, world, mover)
            keys = []
            for k, a in acts:
                child = node.children.get(k)
                if child is None:
                    child = node.children[k] = Node(action=a, mover=mover)
                child.avail += 1
                keys.append(k)
            k = _select(node, keys)
            child = node.children[k]
            assert child.action is not None
            world = game.apply(world, mover, child.action).state
            path.append(child)
            node = child
            if child.visits == 0 or heur.leaf(world, seat):
                break
        world = _rollout(game, heur, world, seat, depth, rng)
        over = game.outcome(world) is not None
        values = rewards(projected(game, heur, world), heur.scale, base, final=over)
        for n in path[1:]:
            n.visits += 1
            n.total += values[n.mover]
        root.visits += 1
    best = max(order, key=lambda k: (root.children[k].visits,
                                     root.children[k].total, -order[k]))
    action = root.children[best].action
    assert action is not None
    return Searched(action, done, done < iterations)
