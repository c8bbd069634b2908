"""Where computer seats get their moves: one function for every front end and for autopilot.

A decision depends only on what the seat sees, its level and a seed derived from the table's
seed and version, so a replay or a restart after a crash repeats it. Searching levels run in
the process pool the front end gives (``Live.thinker``), never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor

from bot.metrics import SEARCHES_CAPPED
from bot.store import SeatRecord
from bot.tables import offload
from bot.values import TableError
from rules import players
from rules.core import Action, Game, RulesError, State, derive_seed

# What each level does and how it fares on the ladder (bench/bench_ladder.py, figures in the
# README); not how long it takes, which depends on the game and the machine.
LEVELS = {
    "random": "any legal move, at random",
    "easy": "the move that scores best right away; beats random in 98-100% of games",
    "normal": "looks a few moves ahead in sampled deals; beats easy in 52-82% of games",
    "hard": "like normal, over three to five times as many deals; beats easy in 65-90% of games",
}
DEFAULT_LEVEL = players.DEFAULT_LEVEL
SEARCHING = ("normal", "hard")

log = logging.getLogger(__name__)


def standing_move(game: Game, state: State, seat: SeatRecord) -> Action | None:
    """The member's standing answer, when it is among their legal moves now."""
    if seat.is_computer or not seat.standing:
        return None
    for action in game.legal_actions(state, seat.position):
        if game.format_action(state, action) == seat.standing:
            return action
    return None


def check_level(level: str) -> str:
    try:
        return players.parse_level(level)
    except RulesError:
        raise TableError(
            "Computer levels: " + ", ".join(f"`{name}`" for name in LEVELS) + "."
        ) from None


def level_for(game: Game, level: str | None) -> str:
    """The level a seat plays at: a game without a computer player plays random moves."""
    if not level or game.id not in players.games_with_players():
        return "random"
    return level


async def decide(game: Game, state: State, seat: int, level: str | None, table_seed: str,
                 version: int, thinker: Executor | None = None,
                 table_id: int | None = None) -> Action:
    """The computer seat's move at its level. A search the safety net cut short is counted and
    logged: its move depended on the machine's load, so a replay may not repeat it."""
    seed = derive_seed(table_seed, version, seat)
    level = level_for(game, level)
    if level in SEARCHING and thinker is not None:
        loop = asyncio.get_running_loop()
        decision = await loop.run_in_executor(thinker, players.decide_from_snapshot, game.id,
                                              game.dump(state), seat, level, seed)
    else:
        decision = await offload.run(f"{game.id}:{level}", players.decide, game, state, seat,
                                     level, seed)
    if decision.capped:
        SEARCHES_CAPPED.labels(game=game.id, level=level).inc()
        log.warning("The safety net cut a %s search short: game %s, table %s, version %s, "
                    "seat %s (the move depends on the machine)", level, game.id, table_id,
                    version, seat)
    return decision.action
