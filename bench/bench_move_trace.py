"""How far a move travels: a ``/move`` and a deadline firing, traced through the real bot on the
local Discord stand-in (no network), counted in the bot's own code.

For each: the calls into ``bot/`` functions (each call once), the distinct functions and files
they were in, how deep the deepest ``bot/`` stack went, and the store's public methods called
(reads and writes). Run it in two checkouts to compare them.

    python bench/bench_move_trace.py [--by-file]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.pace.clock import FakeClock  # noqa: E402
from tests.e2e.harness import mentioned_ids, table  # noqa: E402
from tests.e2e.test_bot_async import open_timed  # noqa: E402
from tests.e2e.test_bot_game import open_and_start  # noqa: E402

try:
    from tests.standin import StandIn
except ImportError:  # a checkout from before the stand-in had a package of its own
    from tests.e2e.standin import StandIn  # type: ignore[no-redef]

BOT = str(ROOT / "bot") + "/"
STORE = str(ROOT / "bot" / "store") + "/"


class Trace:
    def __init__(self) -> None:
        self.calls = 0
        self.functions: set[tuple[str, str]] = set()
        self.store: Counter[str] = Counter()
        self.depth = 0
        self.frames: dict[int, FrameType] = {}
        self.by_file: Counter[str] = Counter()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        name = frame.f_code.co_filename
        # A coroutine's frame is "called" again at each resumption: count it once.
        if not name.startswith(BOT) or id(frame) in self.frames:
            return
        self.frames[id(frame)] = frame  # kept alive, so that no other frame takes its id
        self.calls += 1
        self.by_file[name[len(BOT):]] += 1
        self.functions.add((name, frame.f_code.co_name))
        depth, up = 0, frame
        while up is not None:
            depth += up.f_code.co_filename.startswith(BOT)
            up = up.f_back
        self.depth = max(self.depth, depth)
        # The store's public methods, whatever backend class holds them.
        if name.startswith(STORE) and not frame.f_code.co_name.startswith("_") \
                and "self" in frame.f_code.co_varnames[:1] \
                and type(frame.f_locals.get("self")).__name__.endswith("Store"):
            self.store[frame.f_code.co_name] += 1

    def report(self, what: str) -> None:
        files = {f for f, _ in self.functions}
        print(f"{what}: {self.calls} calls into bot/, {len(self.functions)} functions in "
              f"{len(files)} files, deepest bot/ stack {self.depth}; store calls "
              f"{sum(self.store.values())}: {dict(sorted(self.store.items()))}")
        if "--by-file" in sys.argv:
            for file, calls in self.by_file.most_common():
                print(f"  {calls:4d}  {file}")


async def traced(what: str, act: Callable[[], Awaitable[None]]) -> None:
    trace = Trace()
    sys.setprofile(trace)
    try:
        await act()
    finally:
        sys.setprofile(None)
    trace.report(what)


async def main() -> None:
    standin = StandIn()
    await standin.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            async with table(standin, Path(tmp) / "a.db") as t:
                board = await open_and_start(t)
                s = t.standin
                by_id = {m.id: m for m in t.members.values()}
                member = by_id[mentioned_ids(board)[0]]
                choices = await s.autocomplete(member, t.channel, "move", {"action": ""},
                                               "action")
                before = len(t.boards())

                async def move() -> None:
                    r = await s.slash(member, t.channel, "move",
                                      {"action": choices[0].value, "confirm": True})
                    await t.reply(r)
                    await t.next_board(before)

                await traced("/move confirm:true, to the next board", move)
        await standin.stop()
        standin = StandIn()  # a second bot gets a stand-in of its own
        await standin.start()
        with tempfile.TemporaryDirectory() as tmp:
            async with table(standin, Path(tmp) / "b.db") as t:
                clock = FakeClock()
                t.bot.scheduler.clock = clock
                await open_timed(t)
                before = len(t.bot_messages())

                # Up to the tick before the deadline (reminders, not traced).
                while True:
                    clock.advance(30)
                    await t.bot.tick()
                    due = await t.bot.tables.store.due_turns(int(clock.now().timestamp()) + 30)
                    if due:
                        break

                async def deadline() -> None:
                    clock.advance(30)
                    await t.bot.tick()  # returns once what it fired is delivered

                await traced("a deadline firing (one tick)", deadline)
                told = [m.content.splitlines()[0] for m in t.bot_messages()[before:]]
                print(f"  what that tick posted: {told}")
    finally:
        await standin.stop()


if __name__ == "__main__":
    asyncio.run(main())
