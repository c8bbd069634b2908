"""The replay CLI: the contract that tests and bug reports use.

    python -m rules replay FILE|-                  JSON in, JSON out
    python -m rules legal FILE --seat N            legal actions after the file's actions
    python -m rules play GAME --players N --seed S a random game, printed as a replay file
    python -m rules arena GAME --players N --games K --seats hard,random,... [--seed S] [--json]
    python -m rules games                          the games the registry found

A replay file: {"game", "players", "seed", "options", "actions": [{"seat", "action"|"text"}]}.
Exit status 2: an action is illegal, unparsable or malformed (the message says which and why);
3: the file (or the play command's setup) is not a valid replay (not JSON, wrong shape, options
or player count refused). Every error is one line on stderr starting with "error:".
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rules import ENTRIES, GAMES
from rules.arena import add_arena_arguments, run_arena_command
from rules.core import Game, RulesError, State, derive_seed, quote
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
    except (OSError, ValueError, RecursionError) as exc:
        # ValueError covers bad JSON, bad UTF-8 and numbers of over 4300 digits.
        raise ReplayFailure(f"cannot read replay file: {_short(exc)}", EXIT_BAD_FILE) from exc
    if not isinstance(data, dict):
        raise ReplayFailure("a replay file is a JSON object", EXIT_BAD_FILE)
    return data


def _short(exc: BaseException) -> str:
    return quote(str(exc), 200)[1:-1]


def _game(game_id: object) -> Game:
    if not isinstance(game_id, str) or game_id not in GAMES:
        known = ", ".join(sorted(GAMES))
        shown = quote(game_id) if isinstance(game_id, str) else "missing"
        raise ReplayFailure(f"unknown game {shown}; games: {known}", EXIT_BAD_FILE)
    return GAMES[game_id]


def _setup(game: Game, players: object, seed: object, options: object) -> State:
    if type(players) is not int or not isinstance(seed, str):
        raise ReplayFailure("a replay file needs integer 'players' and string 'seed'",
                            EXIT_BAD_FILE)
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise ReplayFailure("the seed must be text that UTF-8 can write (no lone surrogates)",
                            EXIT_BAD_FILE) from None
    if not isinstance(options, dict):
        raise ReplayFailure("'options' must be an object of option names and values",
                            EXIT_BAD_FILE)
    try:
        return game.setup(players, seed, options)
    except RulesError as exc:
        raise ReplayFailure(f"setup refused: {exc}", EXIT_BAD_FILE) from exc


def run_replay(data: Mapping[str, Any]) -> tuple[Game, State]:
    """Setup from the file and apply every action in order; ``ReplayFailure`` on a bad one."""
    game = _game(data.get("game"))
    options = data.get("options")
    state = _setup(game, data.get("players"), data.get("seed"), {} if options is None else options)
    entries = data.get("actions")
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        raise ReplayFailure("'actions' must be a list of {seat, action or text}", EXIT_BAD_FILE)
    for index, entry in enumerate(entries):
        seat = entry.get("seat") if isinstance(entry, dict) else None
        if type(seat) is not int:
            raise ReplayFailure(f"action {index}: needs an integer 'seat'", EXIT_BAD_ACTION)
        try:
            if "action" in entry:
                action = entry["action"]
            elif isinstance(entry.get("text"), str):
                action = game.parse_action(state, seat, entry["text"])
            else:
                raise ReplayFailure(
                    f"action {index} (seat {seat}): needs an 'action' object or a 'text' string",
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
    state = _setup(game, players, seed, {} if options is None else options)
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
    sub.add_parser("games", help="list the games the registry found")
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
        elif args.command == "games":
            out = games_listing()
        else:
            out = random_game(args.game, args.players, args.seed, _options(args.options))
    except ReplayFailure as exc:
        return _error(stderr, str(exc), exc.code)
    except RulesError as exc:
        return _error(stderr, str(exc), EXIT_BAD_ACTION)
    json.dump(out, stdout, indent=1)
    stdout.write("\n")
    return 0


def games_listing() -> list[dict[str, Any]]:
    """Each game the registry found: its id, title, seat counts and what hangs off it."""
    return [{"id": e.id, "title": e.game.title,
             "players": [e.game.min_players, e.game.max_players],
             "computer_players": e.heuristic is not None, "renderer": e.renderer}
            for e in sorted(ENTRIES.values(), key=lambda e: e.id)]


def _options(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReplayFailure(f"--options is not JSON: {_short(exc)}", EXIT_BAD_FILE) from exc


def _error(stderr: TextIO, message: str, code: int) -> int:
    # One line, whatever the message holds: scripts and tests read the first line.
    print("error: " + " ".join(message.split()), file=stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
