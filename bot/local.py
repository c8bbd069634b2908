"""The terminal table: the same tables and store code as Discord, played at a prompt.

You hold seat 1; computer players take the others. Every board image is written as a PNG into
the folder named at the start (a text board stands in for a game with no renderer yet).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import rendering
from bot.notices import Notice, SeatNotice
from bot.store import SqliteStore
from bot.store.announcing import PendingReply
from bot.tables import Tables
from bot.tables.computers import DEFAULT_LEVEL, LEVELS
from bot.tables.outbox import Outbox, Versions
from bot.terminal_input import TerminalInput
from bot.text import plain
from bot.values import Member, TableError
from rules import GAMES
from rules.core import Game, RulesError
from rules.words import counted


def _your_name() -> str:
    try:
        return getpass.getuser().capitalize() or "Player"
    except (KeyError, OSError):
        return "Player"


YOU = Member(1, _your_name())
LOCAL_CHANNEL = 1
COMMANDS = """\
Commands: a move in the game's notation, or
  legal   your legal moves (by kind when there are many; legal WORD lists those with WORD)
  board   the board again              hand    your private view
  undo    take back your last move     help    the rules, how to write a move, this list
  quit    leave the table (Ctrl-D and Ctrl-C leave too)"""
# An --auto game plays at a real level, yet fast enough to watch: a whole game takes seconds at
# easy, but up to most of a minute at normal (Palermo with five players).
AUTO_LEVEL = "easy"
INTERRUPTED = 130  # the shell's code for a program stopped by Ctrl-C
LISTED = 20  # up to this many moves, `legal` lists them one a line
WIDTH = 100


def left_text(game_id: str, folder: Path) -> str:
    """Leaving an unfinished game: where it is kept and how to pick it up again."""
    return (f"Left the table. The game is kept in {folder}; "
            f"python -m bot local {game_id} --out {folder} picks it up where you left it.")


def players_problem(game: Game, players: int | None, auto: bool = False) -> str | None:
    """Why ``players`` cannot sit at ``game``, or None when it can (None: the fewest)."""
    if players is None or game.min_players <= players <= game.max_players:
        return None
    whose = "computer players" if auto else "players, yours included"
    return f"{game.title} takes {game.min_players} to {game.max_players} {whose}"


def legal_text(moves: list[str], typed: str = "") -> str:
    """The answer to ``legal``: every move one a line when they are few (or when ``typed``
    words pick some out), else one line per kind (the moves' first word) with a sample."""
    words = typed.lower().split()
    if words:
        picked = [m for m in moves if all(w in m.lower() for w in words)]
        return "\n".join(picked) if picked else f"No legal move has {' '.join(words)!r}."
    if not moves:
        return "Nothing to do now: it is not your turn."
    if len(moves) <= LISTED:
        return "\n".join(moves)
    kinds: dict[str, list[str]] = {}
    for move in moves:
        first, _, rest = move.partition(" ")
        kinds.setdefault(first, []).append(rest)
    lines = [f"{counted(len(moves), 'legal move')}, by kind; legal WORD lists the moves "
             f"with WORD (e.g. legal {next(iter(kinds))}):"]
    for first, rests in kinds.items():
        sample = ", ".join(r for r in rests if r)
        head = f"  {first} ({len(rests)})" if sample else f"  {first}"
        line = f"{head}: {sample}" if sample else head
        lines.append(line if len(line) <= WIDTH else line[: WIDTH - 1] + "…")
    return "\n".join(lines)


def last_image_number(folder: Path) -> int:
    """The highest number among the images in ``folder`` (named ``0007-board.png``), or 0."""
    numbers = [int(p.name[:4]) for p in folder.glob("[0-9][0-9][0-9][0-9]-*.png")]
    return max(numbers, default=0)


class TerminalTable:
    def __init__(self, tables: Tables, game: Game, folder: Path, out: TextIO) -> None:
        self.tables = tables
        self.game = game
        self.game_id = game.id
        self.folder = folder
        self.out = out
        self.images = 0
        self.table_id = 0
        self.over = False
        self.outbox = Outbox(tables, self)

    def say(self, text: str) -> None:
        print(plain(text), file=self.out, flush=True)

    def help_text(self) -> str:
        return f"{self.game.rules_summary()}\n\n{COMMANDS}"

    def save_image(self, view: dict[str, object], label: str) -> None:
        if not rendering.has_renderer(self.game_id):
            return
        self.images += 1
        for n, png in enumerate(rendering.render_pngs(self.game_id, view)):
            part = "" if n == 0 else f"-{n + 1}"
            path = self.folder / f"{self.images:04d}-{label}{part}.png"
            path.write_bytes(png)
            self.say(f"[image] {path}")

    async def begin(self, players: int, seed: str | None, auto: bool,
                    level: str | None = None) -> None:
        """Open the table, seat you and the computers (only computers with ``auto``), start.

        Computers play at ``level``: by default ``normal`` against you, and ``AUTO_LEVEL`` in an
        ``auto`` game, so a whole game takes seconds."""
        self.say(f"Images and the table's database go to {self.folder}")
        # A picked-up game (or any earlier run here) keeps its images: number after them.
        self.images = await asyncio.to_thread(last_image_number, self.folder)
        if await self.resume(auto):
            return
        opened = await self.tables.open(self.game_id, LOCAL_CHANNEL, YOU, seat_order="join",
                                        seed=seed)
        self.table_id = opened.table_id
        level = level or (AUTO_LEVEL if auto else DEFAULT_LEVEL)
        if auto:
            self.say(f"Computer players take every seat, at level {level} "
                     "(--level chooses another).")
            # Your seat goes first, so a full table of computers fits at the maximum count.
            await self.tables.remove_seat(self.table_id, YOU, 0)
        for _ in range(players if auto else players - 1):
            await self.tables.add_computer(self.table_id, YOU, level)
        await self.show(await self.tables.start(self.table_id, YOU))

    async def resume(self, auto: bool) -> bool:
        """Pick up the folder's unfinished game, if it holds one; ``TableError`` when that
        game cannot be picked up here (another game, or a game of computers only)."""
        table = await self.tables.store.live_table(LOCAL_CHANNEL)
        if table is None:
            return False
        yours = any(s.member_id == YOU.id for s in await self.tables.seats(table.id))
        if not yours:
            raise TableError(f"{self.folder} holds an unfinished game of computer players "
                             "only; choose another folder with --out.")
        if table.game_id != self.game_id or auto:
            raise TableError(
                f"{self.folder} holds an unfinished game of {GAMES[table.game_id].title}: "
                f"python -m bot local {table.game_id} --out {self.folder} picks it up; "
                "or choose another folder with --out.")
        self.table_id = table.id
        self.say("Picking up the unfinished game kept here.")
        # The board shown now tells all before it (a folder from a release that claimed
        # nothing, or a run that stopped between a commit and its print).
        await self.tables.mark_announced(table.id, table.version)
        status = await self.tables.status(table.id)
        await self.post_plain(status)
        await self.send_private(status)
        self.show_private(await self.tables.private_view(table.id, YOU))
        return True

    async def show(self, notice: Notice) -> None:
        """A committed change, told through the outbox as Discord's are (this table is its
        poster)."""
        self.over = notice.over
        await self.outbox.publish(notice)

    # -- the outbox's poster ----------------------------------------------------------------

    async def post_versions(self, notice: Notice, versions: Versions) -> int | None:
        await self._public(notice, versions.text, versions.board)
        return None  # no message to point at

    async def post_plain(self, notice: Notice) -> None:
        await self._public(notice, notice.public_text, True)

    async def send_private(self, notice: Notice) -> None:
        for private in notice.private:
            self.show_private(private)
        if notice.next_names and not notice.over:
            self.say("To act: " + ", ".join(notice.next_names))
        if notice.over:
            await self.save_replay()

    async def answer_owed(self, reply: PendingReply, text: str) -> None:
        """Nothing is owed at a terminal: every answer is printed as the move commits."""

    async def _public(self, notice: Notice, text: str, board: bool) -> None:
        if text:
            self.say(text)
        if board and notice.public_view is not None:
            shown, _ = await self.tables.public_view(notice.table_id)
            if not rendering.has_renderer(self.game_id):
                self.say(shown)
            self.save_image(notice.public_view, "board")

    async def save_replay(self) -> None:
        path = self.folder / "replay.json"
        data = await self.tables.export(LOCAL_CHANNEL)
        await asyncio.to_thread(path.write_text, json.dumps(data, indent=1))
        self.say(f"The replay file is {path}; python -m rules replay {path} replays the game.")

    def show_private(self, private: SeatNotice) -> None:
        if private.member_id != YOU.id:
            return
        self.say("-- your view --\n" + "\n".join(
            t for t in (private.text, private.recap, private.state) if t))
        self.save_image(private.view, "hand")

    async def handle(self, line: str) -> bool:
        """Carry out one typed line; False when the player leaves."""
        line = line.strip()
        word = line.lower()
        try:
            if not line:
                pass
            elif word == "quit":
                self.say(left_text(self.game_id, self.folder))
                return False
            elif word == "help":
                self.say(self.help_text())
            elif word == "legal" or word.startswith("legal "):
                moves = await self.tables.legal_moves(self.table_id, YOU)
                self.say(legal_text(moves, line[len("legal"):]))
            elif word == "board":
                text, public = await self.tables.public_view(self.table_id)
                self.say(text)
                self.save_image(public, "board")
            elif word == "hand":
                self.show_private(await self.tables.private_view(self.table_id, YOU))
            elif word == "undo":
                await self.show(await self.tables.undo(self.table_id, YOU, with_replies=True))
            else:
                await self.show(await self.tables.act(self.table_id, YOU, line))
        except RulesError as exc:
            self.say(f"Not allowed: {exc}")
        return True


def _players_or_fewest(game_id: str, players: int | None, out: TextIO, auto: bool = False
                       ) -> int | None:
    if game_id not in GAMES:
        print(f"Unknown game {game_id!r}. Games: {', '.join(sorted(GAMES))}.", file=out)
        return None
    game = GAMES[game_id]
    problem = players_problem(game, players, auto)
    if problem is not None:
        print(f"{problem}.", file=out)
        return None
    return game.min_players if players is None else players


def play_at_terminal(
    game_id: str, players: int | None, seed: str | None, auto: bool, folder: Path,
    read: Callable[[str], str] | None = None, out: TextIO | None = None,
    level: str | None = None,
) -> int:
    """The terminal table with its prompt on the main thread, outside the event loop, so
    Ctrl-C interrupts the prompt at once; each command runs on one loop kept between them."""
    out = out or sys.stdout
    count = _players_or_fewest(game_id, players, out, auto)
    if count is None:
        return 2
    typed = TerminalInput(out) if read is None and not auto and os.name == "posix" else None
    try:
        with asyncio.Runner() as runner:
            folder.mkdir(parents=True, exist_ok=True)
            store = runner.run(SqliteStore.open(folder / "table.db"))
            try:
                return _play(runner, TerminalTable(Tables(store), GAMES[game_id], folder, out),
                             count, seed, auto, typed or read or input, level)
            finally:
                runner.run(store.close())
    except KeyboardInterrupt:
        print(f"\n{left_text(game_id, folder)}", file=out, flush=True)
        return INTERRUPTED
    finally:
        if typed is not None:
            typed.close()


def _play(runner: asyncio.Runner, table: TerminalTable, count: int, seed: str | None,
          auto: bool, read: Callable[[str], str], level: str | None = None) -> int:
    try:
        runner.run(table.begin(count, seed, auto, level))
    except RulesError as exc:
        table.say(str(exc))
        return 2
    if auto:
        return 0 if table.over else 1
    table.say(COMMANDS)
    while not table.over:
        try:
            line = read("> ")
        except EOFError:
            table.say("")  # the shell's prompt on a line of its own
            line = "quit"
        if not runner.run(table.handle(line)):
            break
    return 0


def local_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot local",
                                     description="Play at a terminal table, without Discord.")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int,
                        help="seats, yours included (with --auto, computer players only)")
    parser.add_argument("--seed", help="pin the secret seed (the same seed replays the setup)")
    parser.add_argument("--auto", action="store_true",
                        help="computer players play the whole game; print the outcome")
    parser.add_argument("--level", choices=LEVELS,
                        help=f"how the computers play (default {DEFAULT_LEVEL}; "
                        f"{AUTO_LEVEL} with --auto)")
    parser.add_argument("--out", type=Path,
                        help="folder for images, the table's database and the replay file "
                        "(default a new ./tabula-local/... folder); a folder holding an "
                        "unfinished game picks it up")
    args = parser.parse_args(argv)
    problem = players_problem(GAMES[args.game], args.players, args.auto)
    if problem is not None:
        parser.error(f"argument --players: {problem}")
    name = f"{args.game}-{args.seed}" if args.seed else args.game
    folder = args.out or Path("tabula-local") / name
    if args.out is None and folder.exists():
        # A fresh folder per run, so images of two runs never mix.
        n = 2
        while folder.with_name(f"{folder.name}-{n}").exists():
            n += 1
        folder = folder.with_name(f"{folder.name}-{n}")
    return play_at_terminal(args.game, args.players, args.seed, args.auto, folder,
                            level=args.level)
