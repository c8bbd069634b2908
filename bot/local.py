"""The terminal table: the same tables and store code as Discord, played at a prompt.

You hold seat 1; computer players take the others. Every board image is written as a PNG into
the folder named at the start (a text board stands in for a game with no renderer yet).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import rendering
from bot.notices import Notice, SeatNotice
from bot.store import SqliteStore
from bot.tables import Tables
from bot.tables.computers import DEFAULT_LEVEL, LEVELS
from bot.terminal_input import TerminalInput
from bot.values import Member
from rules import GAMES
from rules.core import Game, RulesError


def _your_name() -> str:
    try:
        return getpass.getuser().capitalize() or "Player"
    except (KeyError, OSError):
        return "Player"


YOU = Member(1, _your_name())
LOCAL_CHANNEL = 1
COMMANDS = """\
Commands: a move in the game's notation, or
  legal   list your legal moves        board   the board again
  hand    your private view            undo    take back your last move
  help    the rules, how to write a move, and this list
  quit    leave the table (Ctrl-D and Ctrl-C leave too)"""
LEFT = "Left the table. The game stays in the database."
INTERRUPTED = 130  # the shell's code for a program stopped by Ctrl-C


def players_problem(game: Game, players: int | None) -> str | None:
    """Why ``players`` cannot sit at ``game``, or None when it can (None: the fewest)."""
    if players is None or game.min_players <= players <= game.max_players:
        return None
    return f"{game.title} takes {game.min_players} to {game.max_players} players, yours included"


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

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

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

        Computers play at ``level``: by default ``normal`` against you, and random moves in an
        ``auto`` game, so a whole game takes seconds."""
        self.say(f"Images and the table's database go to {self.folder}")
        opened = await self.tables.open(self.game_id, LOCAL_CHANNEL, YOU, seat_order="join",
                                        seed=seed)
        self.table_id = opened.table_id
        level = level or ("random" if auto else DEFAULT_LEVEL)
        if auto:
            # Your seat goes first, so a full table of computers fits at the maximum count.
            await self.tables.remove_seat(self.table_id, YOU, 0)
        for _ in range(players if auto else players - 1):
            await self.tables.add_computer(self.table_id, YOU, level)
        await self.show(await self.tables.start(self.table_id, YOU))

    async def show(self, notice: Notice) -> None:
        self.over = notice.over
        if notice.public_text:
            self.say(notice.public_text)
        if notice.public_view is not None:
            text, _ = await self.tables.public_view(notice.table_id)
            if not rendering.has_renderer(self.game_id):
                self.say(text)
            self.save_image(notice.public_view, "board")
        for private in notice.private:
            self.show_private(private)
        if notice.next_names and not notice.over:
            self.say("To act: " + ", ".join(notice.next_names))

    def show_private(self, private: SeatNotice) -> None:
        if private.member_id != YOU.id:
            return
        self.say("-- your view --\n" + private.text)
        self.save_image(private.view, "hand")

    async def handle(self, line: str) -> bool:
        """Carry out one typed line; False when the player leaves."""
        line = line.strip()
        word = line.lower()
        try:
            if not line:
                pass
            elif word == "quit":
                self.say(LEFT)
                return False
            elif word == "help":
                self.say(self.help_text())
            elif word == "legal":
                moves = await self.tables.legal_moves(self.table_id, YOU)
                self.say("\n".join(moves) if moves else "Nothing to do now: not your turn.")
            elif word == "board":
                text, public = await self.tables.public_view(self.table_id)
                self.say(text)
                self.save_image(public, "board")
            elif word == "hand":
                self.show_private(await self.tables.private_view(self.table_id, YOU))
            elif word == "undo":
                await self.show(await self.tables.undo(self.table_id, YOU))
            else:
                await self.show(await self.tables.act(self.table_id, YOU, line))
        except RulesError as exc:
            self.say(f"Not allowed: {exc}")
        return True


def _players_or_fewest(game_id: str, players: int | None, out: TextIO) -> int | None:
    if game_id not in GAMES:
        print(f"Unknown game {game_id!r}. Games: {', '.join(sorted(GAMES))}.", file=out)
        return None
    game = GAMES[game_id]
    problem = players_problem(game, players)
    if problem is not None:
        print(f"{problem}.", file=out)
        return None
    return game.min_players if players is None else players


async def run_local(
    game_id: str, players: int | None, seed: str | None, auto: bool, folder: Path,
    read: Callable[[str], str] = input, out: TextIO | None = None, level: str | None = None,
) -> int:
    """The terminal table on a running event loop, ``read`` called in a worker thread (for
    programs and tests; the command line uses ``play_at_terminal``)."""
    out = out or sys.stdout
    count = _players_or_fewest(game_id, players, out)
    if count is None:
        return 2
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    store = await SqliteStore.open(folder / "table.db")
    try:
        table = TerminalTable(Tables(store), GAMES[game_id], folder, out)
        await table.begin(count, seed, auto, level)
        if auto:
            return 0 if table.over else 1
        table.say(COMMANDS)
        while not table.over:
            try:
                line = await asyncio.to_thread(read, "> ")
            except EOFError:
                line = "quit"
            if not await table.handle(line):
                break
        return 0
    finally:
        await store.close()


def play_at_terminal(
    game_id: str, players: int | None, seed: str | None, auto: bool, folder: Path,
    read: Callable[[str], str] | None = None, out: TextIO | None = None,
    level: str | None = None,
) -> int:
    """The terminal table with its prompt on the main thread, outside the event loop, so
    Ctrl-C interrupts the prompt at once; each command runs on one loop kept between them."""
    out = out or sys.stdout
    count = _players_or_fewest(game_id, players, out)
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
        print(f"\n{LEFT}", file=out, flush=True)
        return INTERRUPTED
    finally:
        if typed is not None:
            typed.close()


def _play(runner: asyncio.Runner, table: TerminalTable, count: int, seed: str | None,
          auto: bool, read: Callable[[str], str], level: str | None = None) -> int:
    runner.run(table.begin(count, seed, auto, level))
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
    parser.add_argument("--players", type=int, help="seats, yours included")
    parser.add_argument("--seed", help="pin the secret seed (the same seed replays the setup)")
    parser.add_argument("--auto", action="store_true",
                        help="computer players play the whole game; print the outcome")
    parser.add_argument("--level", choices=LEVELS,
                        help="how the computers play (default normal; random with --auto)")
    parser.add_argument("--out", type=Path, help="folder for images (default ./tabula-local/...)")
    args = parser.parse_args(argv)
    problem = players_problem(GAMES[args.game], args.players)
    if problem is not None:
        parser.error(f"argument --players: {problem}")
    folder = args.out or Path("tabula-local") / f"{args.game}-{args.seed or 'random'}"
    if args.out is None and folder.exists():
        # A fresh folder per run, so images of two runs never mix.
        n = 2
        while folder.with_name(f"{folder.name}-{n}").exists():
            n += 1
        folder = folder.with_name(f"{folder.name}-{n}")
    return play_at_terminal(args.game, args.players, args.seed, args.auto, folder,
                            level=args.level)
