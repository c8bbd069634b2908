"""The claim to announce, as a hypothesis state machine: several processes (each its own
delivery, cache and name) share one store and one Discord channel; they commit moves, post
them (alone or two at once), crash before or after Discord accepted a post, restart and catch
up, while time runs on. Invariant: the channel tells each committed version once, in version
order; once everyone has caught up, it tells all of them. Run on both stores."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule, run_state_machine_as_test

from bot.notices import Notice
from bot.render_pool import Drawn
from bot.tables import Tables
from bot.tables import outbox as outbox_module
from bot.tables.narration import text_names
from bot.tables.outbox import Outbox
from bot.text import fill
from bot.ui.delivery import Delivery
from bot.values import Member, TableError
from tests.bot.store.stateful_stores import StoreMachine, give_stores
from tests.bot.ui.test_delivery_order import card_words
from tests.examples import examples

MEMBERS = [Member(1, "Ann"), Member(2, "Ben")]
PROCESSES = 3
LEASE = 5  # seconds; the machine's clock ticks one second each time a process reads it


class Crash(Exception):
    """The process died (right after Discord accepted its post)."""


class Channel:
    """Discord's side of one channel: messages, and the nonces it enforces."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str | None]] = []
        self.nonces: dict[str, int] = {}


class Sent:
    def __init__(self, message_id: int) -> None:
        self.id = message_id


class ProcessChannel:
    def __init__(self, channel: Channel, process: Process) -> None:
        self.channel, self.process = channel, process

    async def send(self, content: str = "", *, nonce: str | None = None, view: Any = None,
                   **_: Any) -> Sent:
        await asyncio.sleep(0)
        if nonce is not None and nonce in self.channel.nonces:
            return Sent(self.channel.nonces[nonce])
        self.channel.messages.append((content or card_words(view), nonce))
        message_id = len(self.channel.messages)
        if nonce is not None:
            self.channel.nonces[nonce] = message_id
        if self.process.die_after_accept:
            raise Crash
        return Sent(message_id)


class ProcessClient:
    def __init__(self, channel: Channel, process: Process) -> None:
        self.channel, self.process = channel, process

    def get_partial_messageable(self, channel_id: int) -> ProcessChannel:
        return ProcessChannel(self.channel, self.process)

    def get_user(self, user_id: int) -> None:
        return None

    async def create_dm(self, user: Any) -> Any:
        return type("Dm", (), {"send": staticmethod(_ignore)})()


async def _ignore(*_: Any, **__: Any) -> None:
    return None


class Renderer:
    async def card(self, game_id: str, view: Any, update: bool = False,
                   previous: Any = None) -> Drawn:
        return Drawn(None, "")


class Process:
    """One bot process: its own table cache and delivery, and the notices it has yet to post
    (lost when it crashes)."""

    def __init__(self, number: int, store: Any, channel: Channel, now: Callable[[], int]
                 ) -> None:
        self.number, self.store, self.channel, self.now = number, store, channel, now
        self.die_after_accept = False
        self.restart()

    def restart(self) -> None:
        self.tables = Tables(self.store)
        self.renderer = Renderer()
        self.outbox: list[Notice] = []
        self.die_after_accept = False
        delivery = Delivery(ProcessClient(self.channel, self), self)  # type: ignore[arg-type]
        self.posting = Outbox(self.tables, delivery, f"p{self.number}", self.now)


class AnnounceMachine(StoreMachine):
    def __init__(self) -> None:
        super().__init__()
        self.clock = 1_000
        self.channel = Channel()
        self.processes = [Process(n, self.store, self.channel, self.tick)
                          for n in range(PROCESSES)]
        first = self.processes[0].tables
        opened = self.run(first.open("pebbles", 10, MEMBERS[0], seat_order="join",
                                     options={"turns": 1_000, "first": 0}))
        self.table_id = opened.table_id
        # Each member's move is answered by a computer's, told with it: every notice tells
        # a range of several versions.
        self.run(first.add_computer(self.table_id, MEMBERS[0]))
        self.run(first.join(self.table_id, MEMBERS[1]))
        self.run(first.add_computer(self.table_id, MEMBERS[0]))
        self.processes[0].outbox.append(self.run(first.start(self.table_id, MEMBERS[0])))

    def tick(self) -> int:
        self.clock += 1
        return self.clock

    async def deliver(self, process: Process, notice: Notice) -> None:
        try:
            await process.posting.publish(notice)
        except Crash:
            process.restart()

    @rule(p=st.integers(0, PROCESSES - 1))
    def commit(self, p: int) -> None:
        process = self.processes[p]
        # A cache another process made stale is refused (out of date, or, judged again on the
        # table as it is now, no longer the mover's turn), then read again.
        for _ in range(2):
            notice = self.run(process.tables.status(self.table_id))
            mover = next(m for m in MEMBERS if m.id in notice.next_members)
            try:
                process.outbox.append(self.run(process.tables.act(self.table_id, mover,
                                                                  "hold")))
                return
            except TableError:  # OutOfDate among them
                continue

    @rule(p=st.integers(0, PROCESSES - 1), pick=st.integers(0, 3), dies=st.booleans())
    def post(self, p: int, pick: int, dies: bool) -> None:
        process = self.processes[p]
        if not process.outbox:
            return
        process.die_after_accept = dies
        self.run(self.deliver(process, process.outbox.pop(pick % len(process.outbox))))

    @rule(p=st.integers(0, PROCESSES - 1), q=st.integers(0, PROCESSES - 1))
    def two_post_at_once(self, p: int, q: int) -> None:
        first, second = self.processes[p], self.processes[q]
        if not first.outbox or not second.outbox or first is second:
            return
        self.run(self.together(self.deliver(first, first.outbox.pop()),
                               self.deliver(second, second.outbox.pop(0))))

    @staticmethod
    async def together(*work: Any) -> None:
        await asyncio.gather(*work)

    @rule(p=st.integers(0, PROCESSES - 1))
    def crash(self, p: int) -> None:
        self.processes[p].restart()

    @rule(p=st.integers(0, PROCESSES - 1))
    def restart_and_catch_up(self, p: int) -> None:
        process = self.processes[p]
        process.restart()
        self.run(self.catch_up(process))

    @rule()
    def time_passes(self) -> None:
        self.clock += LEASE + 1

    async def catch_up(self, process: Process) -> None:
        notice = await process.tables.catch_up(self.table_id)
        if notice is not None:
            await self.deliver(process, notice)

    def told_and_committed(self) -> tuple[list[str], list[str]]:
        """The move lines the channel shows, in order, and the log's."""
        seats = self.run(self.store.seats(self.table_id))
        names = text_names(seats)
        logged = [fill(r.text or "", names) for r in self.run(self.store.actions(self.table_id))]
        known = set(logged)
        shown = [line for content, _ in self.channel.messages
                 for line in content.splitlines() if line in known]
        return shown, logged

    @invariant()
    def each_version_told_once_in_order(self) -> None:
        shown, logged = self.told_and_committed()
        assert shown == logged[:len(shown)]
        marks = [n for _, n in self.channel.messages if n is not None]
        versions = [int(n.split(".")[1], 16) for n in marks]
        assert versions == sorted(set(versions))  # one message per range, ranges in order

    def teardown(self) -> None:
        try:
            # Everyone restarts once the leases have run out: every version gets told.
            self.clock += LEASE + 1
            for process in self.processes:
                process.restart()
                self.run(self.catch_up(process))
            shown, logged = self.told_and_committed()
            assert shown == logged
            table = self.run(self.store.get_table(self.table_id))
            assert table is not None and table.announced == table.version
        finally:
            super().teardown()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_each_version_is_announced_once_in_order_by_whichever_process(
    backend: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_module, "LEASE_SECONDS", LEASE)
    monkeypatch.setattr(outbox_module, "BUSY_PAUSE", 0)

    class Machine(AnnounceMachine):
        pass

    give_stores(Machine, backend, request)
    run_state_machine_as_test(Machine, settings=settings(
        max_examples=examples(30 if backend == "sqlite" else 6), stateful_step_count=25,
        deadline=None, suppress_health_check=[HealthCheck.too_slow],
    ))
