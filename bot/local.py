"""The terminal table: the same tables and store code as Discord, played at a prompt.

You hold seat 1; computer players take the others. Every board image is written as a PNG into
the folder named at the start (a text board stands in for a game with no renderer yet).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import rendering
from bot.notices import Notice, SeatNotice
from bot.store import SqliteStore
from bot.tables import Tables
from bot.values import Member
from rules import GAMES
from rules.core import RulesError


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
  help    this text                    quit    leave the table"""


class TerminalTable:
    def __init__(self, tables: Tables, folder: Path, out: TextIO) -> None:
        self.tables = tables
        self.folder = folder
        self.out = out
        self.images = 0
        self.table_id = 0
        self.game_id = ""

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def save_image(self, view: dict[str, object], label: str) -> None:
        if not rendering.has_renderer(self.game_id):
            return
        self.images += 1
        path = self.folder / f"{self.images:04d}-{label}.png"
        path.write_bytes(rendering.render_png(self.game_id, view))
        self.say(f"[image] {path}")

    async def show(self, notice: Notice) -> None:
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


async def run_local(
    game_id: str, players: int | None, seed: str | None, auto: bool, folder: Path,
    read: Callable[[str], str] = input, out: TextIO = sys.stdout,
) -> int:
    if game_id not in GAMES:
        print(f"Unknown game {game_id!r}. Games: {', '.join(sorted(GAMES))}.", file=out)
        return 2
    game = GAMES[game_id]
    count = players or game.min_players
    if not game.min_players <= count <= game.max_players:
        print(f"{game.title} takes {game.min_players} to {game.max_players} players.", file=out)
        return 2
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    store = await SqliteStore.open(folder / "table.db")
    try:
        tables = Tables(store)
        view = TerminalTable(tables, folder, out)
        view.game_id = game_id
        view.say(f"Images and the table's database go to {folder}")
        opened = await tables.open(game_id, LOCAL_CHANNEL, YOU, seat_order="join", seed=seed)
        view.table_id = opened.table_id
        for _ in range(count - 1):
            await tables.add_computer((await tables.table_in(LOCAL_CHANNEL)).id, YOU, "random")
        if auto:
            await tables.add_computer((await tables.table_in(LOCAL_CHANNEL)).id, YOU, "random")
            await tables.remove_seat((await tables.table_in(LOCAL_CHANNEL)).id, YOU, 0)
        notice = await tables.start((await tables.table_in(LOCAL_CHANNEL)).id, YOU)
        await view.show(notice)
        if auto:
            return 0 if notice.over else 1
        return await _prompt_loop(tables, view, notice, read)
    finally:
        await store.close()


async def _prompt_loop(
    tables: Tables, view: TerminalTable, notice: Notice, read: Callable[[str], str]
) -> int:
    view.say(COMMANDS)
    while not notice.over:
        try:
            line = (await asyncio.to_thread(read, "> ")).strip()
        except EOFError:
            line = "quit"
        if not line:
            continue
        word = line.lower()
        try:
            if word == "quit":
                view.say("Left the table. The game stays in the database.")
                return 0
            if word == "help":
                view.say(COMMANDS)
            elif word == "legal":
                moves = await tables.legal_moves(view.table_id, YOU)
                view.say("\n".join(moves) if moves else "Nothing to do now: not your turn.")
            elif word == "board":
                text, public = await tables.public_view(view.table_id)
                view.say(text)
                view.save_image(public, "board")
            elif word == "hand":
                view.show_private(await tables.private_view(view.table_id, YOU))
            elif word == "undo":
                notice = await tables.undo((await tables.table_in(LOCAL_CHANNEL)).id, YOU)
                await view.show(notice)
            else:
                notice = await tables.act(view.table_id, YOU, line)
                await view.show(notice)
        except RulesError as exc:
            view.say(f"Not allowed: {exc}")
    return 0


def local_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot local",
                                     description="Play at a terminal table, without Discord.")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, help="seats, yours included")
    parser.add_argument("--seed", help="pin the secret seed (the same seed replays the setup)")
    parser.add_argument("--auto", action="store_true",
                        help="computer players play the whole game; print the outcome")
    parser.add_argument("--out", type=Path, help="folder for images (default ./tabula-local/...)")
    args = parser.parse_args(argv)
    folder = args.out or Path("tabula-local") / f"{args.game}-{args.seed or 'random'}"
    if args.out is None and folder.exists():
        # A fresh folder per run, so images of two runs never mix.
        n = 2
        while folder.with_name(f"{folder.name}-{n}").exists():
            n += 1
        folder = folder.with_name(f"{folder.name}-{n}")
    return asyncio.run(run_local(args.game, args.players, args.seed, args.auto, folder))

