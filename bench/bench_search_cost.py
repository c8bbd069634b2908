"""What a searched game costs, and whether another revision plays it alike.

    python bench/bench_search_cost.py [--games 3] [--against REV] [--only GAME]

Plays ``--games`` games of hard against easy per game (Palermo: hard against two easy), each in
a fresh process, and prints the process's CPU seconds per game. With ``--against REV`` the same
games are also played by the code of git revision REV (unpacked into a scratch folder), each
game right after the other (so both see the same load): it prints both costs, their ratio, and
whether every game made the same moves (budgets are iterations, so a change that only makes the
search cheaper must play every game alike). Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.players.registry import games_with_players

ROOT = Path(__file__).resolve().parents[1]

# Run in the tree under test: only APIs every revision with computer players has.
CHILD = """
import json, sys, time
from rules.arena import play_game
game, players, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
levels = ["hard"] + ["easy"] * (players - 1)
began = time.process_time()
played = play_game(game, players, levels, seed)
print(json.dumps({"cpu": time.process_time() - began, "moves": played["moves"]}))
"""


def unpack(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def play(tree: Path, game: str, players: int, seed: str) -> dict[str, float | str]:
    out = subprocess.run([sys.executable, "-c", CHILD, game, str(players), seed], cwd=tree,
                         check=True, capture_output=True, text=True).stdout
    result: dict[str, float | str] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--against", metavar="REV")
    parser.add_argument("--only", choices=games_with_players(), action="append")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        other = unpack(args.against, Path(scratch)) if args.against else None
        for game in args.only or games_with_players():
            players = 3 if game == "palermo" else 2
            here = there = 0.0
            same = 0
            for n in range(args.games):
                seed = f"search cost {game} {n}"
                if other is not None and n % 2:  # alternate who goes first: load drifts
                    theirs = play(other, game, players, seed)
                mine = play(ROOT, game, players, seed)
                here += float(mine["cpu"])
                if other is not None:
                    if not n % 2:
                        theirs = play(other, game, players, seed)
                    there += float(theirs["cpu"])
                    same += mine["moves"] == theirs["moves"]
            row: dict[str, object] = {"game": game, "games": args.games,
                                      "cpu_per_game": round(here / args.games, 2)}
            if other is not None:
                row.update({"against": args.against,
                            "their_cpu_per_game": round(there / args.games, 2),
                            "speedup": round(there / here, 2) if here else None,
                            "same_moves": f"{same} of {args.games}"})
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
