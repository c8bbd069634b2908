"""The replay CLI: the contract that tests and bug reports use.

    python -m rules replay FILE|-                  JSON in, JSON out
    python -m rules legal FILE --seat N            legal actions after the file's actions
    python -m rules play GAME --players N --seed S a random game, printed as a replay file
    python -m rules arena GAME --players N --games K --seats hard,random,... [--seed S] [--json]

A replay file: {"game", "players", "seed", "options", "actions": [{"seat", "action"|"text"}]}.
An illegal or unparsable action exits with status 2 and says which action and why.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rules import GAMES
from rules.arena import add_arena_arguments, run_arena_command
from rules.core import Game, RulesError, State, derive_seed
from rules.random_player import UniformRandomPlayer

EXIT_BAD_ACTION = 2
EXIT_BAD_FILE = 3
MAX_RANDOM_STEPS = 100_000


class ReplayFailure(Exception):
    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _read(path: str, stdin: TextIO) -> dict[str, Any]:
    try:
        text = stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, json.JSONDecodeError) as exc:
        raise ReplayFailure(f"cannot read replay file: {exc}", EXIT_BAD_FILE) from exc
    if not isinstance(data, dict):
        raise ReplayFailure("a replay file is a JSON object", EXIT_BAD_FILE)
    return data


def _game(game_id: object) -> Game:
    if not isinstance(game_id, str) or game_id not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise ReplayFailure(f"unknown game {game_id!r}; games: {known}", EXIT_BAD_FILE)
    return GAMES[game_id]


def run_replay(data: Mapping[str, Any]) -> tuple[Game, State]:
    """Setup from the file and apply every action in order; ``ReplayFailure`` on a bad one."""
    game = _game(data.get("game"))
    players, seed = data.get("players"), data.get("seed")
    if not isinstance(players, int) or not isinstance(seed, str):
        raise ReplayFailure("a replay file needs integer 'players' and string 'seed'",
                            EXIT_BAD_FILE)
    try:
        state = game.setup(players, seed, data.get("options") or {})
    except RulesError as exc:
        raise ReplayFailure(f"setup refused: {exc}", EXIT_BAD_FILE) from exc
    for index, entry in enumerate(data.get("actions") or []):
        seat = entry.get("seat") if isinstance(entry, dict) else None
        if not isinstance(seat, int):
            raise ReplayFailure(f"action {index}: needs an integer 'seat'", EXIT_BAD_ACTION)
        try:
            if "action" in entry:
                action = entry["action"]
            elif "text" in entry:
                action = game.parse_action(state, seat, str(entry["text"]))
            else:
                raise ReplayFailure(f"action {index} (seat {seat}): needs 'action' or 'text'",
                                    EXIT_BAD_ACTION)
            state = game.apply(state, seat, action).state
        except RulesError as exc:
            raise ReplayFailure(f"action {index} (seat {seat}): {exc}", EXIT_BAD_ACTION) from exc
    return game, state


def replay_result(game: Game, state: State) -> dict[str, Any]:
    outcome = game.outcome(state)
    return {
        "over": outcome is not None,
        "active": sorted(game.active_seats(state)),
        "outcome": None if outcome is None else {
            "scores": list(outcome.scores),
            "ranking": [list(g) for g in outcome.ranking],
            "breakdown": [dict(b) for b in outcome.breakdown],
        },
        "view": game.view(state, None),
    }


def random_game(game_id: str, players: int, seed: str,
                options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A whole game of uniformly random moves, as a replay file."""
    game = _game(game_id)
    state = game.setup(players, seed, options or {})
    chooser = UniformRandomPlayer(derive_seed("play", game_id, seed))
    actions = []
    for _ in range(MAX_RANDOM_STEPS):
        active = sorted(game.active_seats(state))
        if not active:
            break
        seat = active[0]
        action = chooser.choose(game, state, seat)
        actions.append({"seat": seat, "action": action})
        state = game.apply(state, seat, action).state
    return {"game": game_id, "players": players, "seed": seed, "options": dict(options or {}),
            "actions": actions}


def main(argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin,
         stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="apply a replay file and print the result")
    p_replay.add_argument("file", help="a replay file, or - for standard input")
    p_legal = sub.add_parser("legal", help="list a seat's legal actions after a replay file")
    p_legal.add_argument("file")
    p_legal.add_argument("--seat", type=int, required=True)
    p_play = sub.add_parser("play", help="print a random game as a replay file")
    p_play.add_argument("game", choices=sorted(GAMES))
    p_play.add_argument("--players", type=int, required=True)
    p_play.add_argument("--seed", required=True)
    p_play.add_argument("--options", default="{}", help="setup options as JSON")
    p_arena = sub.add_parser("arena", help="computer players against each other (rules/arena.py)")
    add_arena_arguments(p_arena)
    args = parser.parse_args(argv)
    if args.command == "arena":
        return run_arena_command(args, stdout, stderr)
    try:
        if args.command == "replay":
            game, state = run_replay(_read(args.file, stdin))
            out: Any = replay_result(game, state)
        elif args.command == "legal":
            game, state = run_replay(_read(args.file, stdin))
            out = [
                {"action": a, "text": game.format_action(state, a)}
                for a in game.legal_actions(state, args.seat)
            ]
        else:
            out = random_game(args.game, args.players, args.seed, json.loads(args.options))
    except ReplayFailure as exc:
        print(f"error: {exc}", file=stderr)
        return exc.code
    except RulesError as exc:
        print(f"error: {exc}", file=stderr)
        return EXIT_BAD_ACTION
    json.dump(out, stdout, indent=1)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
