"""Delivery keeps order: each seat's DMs never go back in time, and a channel hears each
committed move once, in order, even when notices arrive out of order."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.notices import Notice, SeatNotice
from bot.render_pool import Drawn
from bot.store.announcing import Claim, Turn, decide
from bot.tables.outbox import Outbox
from bot.ui.delivery import Delivery, nonce_of


def card_words(view: Any) -> str:
    """A card's text less its heading: what the tests here compare."""
    if not isinstance(view, discord.ui.LayoutView):
        return ""
    return "\n".join(item.content for item in view.walk_children()
                     if isinstance(item, discord.ui.TextDisplay)
                     and not item.content.startswith("### "))


class FakeChannel:
    def __init__(self, log: list[tuple[int, str]], channel_id: int,
                 nonces: list[str] | None = None) -> None:
        self.log, self.id = log, channel_id
        self.nonces = nonces if nonces is not None else []

    async def send(self, content: str = "", *, nonce: str | None = None,
                   view: Any = None, **_: Any) -> Any:
        await asyncio.sleep(0)
        self.log.append((self.id, content or card_words(view)))
        if nonce is not None:
            self.nonces.append(nonce)
        return type("Message", (), {"id": len(self.log)})()


class FakeClient:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []
        self.nonces: list[str] = []

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        return FakeChannel(self.sent, channel_id, self.nonces)

    def get_user(self, user_id: int) -> None:
        return None

    async def create_dm(self, user: Any) -> FakeChannel:
        return FakeChannel(self.sent, 10_000 + int(user.id))


class FakeRenderer:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, bool, Any]] = []

    async def card(self, game_id: str, view: Any, update: bool = False,
                   previous: Any = None) -> Drawn:
        self.calls.append((view, update, previous))
        return Drawn(None, "")


class FakeTables:
    """The table's claim to announce kept in memory, decided as the stores decide it."""

    def __init__(self) -> None:
        self.announced: list[int] = []
        self.mark: tuple[int, int, int, str | None] = (1, 1, 0, None)

    async def claim_announcement(self, table_id: int, since: int, version: int, by: str,
                                 now: int, lease: int) -> Claim:
        told, claimed, until, holder = self.mark
        claim = decide(told, claimed, until, holder, since, version, by, now)
        if claim.turn is Turn.POST:
            self.mark = (told, claim.upto, now + lease, by)
        return claim

    async def told_lines(self, table_id: int, after: int, upto: int) -> list[str]:
        return [f"(missed v{v})" for v in range(after + 1, upto + 1)]

    async def mark_announced(self, table_id: int, version: int,
                             message_id: int | None = None) -> None:
        told, claimed, until, holder = self.mark
        self.mark = (max(told, version), claimed, until, holder)
        self.announced.append(version)

    async def mark_dm_closed(self, table_id: int, member_id: int) -> None:
        raise AssertionError("no DM is closed here")


class FakeServices:
    def __init__(self) -> None:
        self.tables = FakeTables()
        self.renderer = FakeRenderer()


def posted_by(client: FakeClient, services: FakeServices) -> Outbox:
    """The outbox's claims over Discord's delivery, as the bot builds them."""
    return Outbox(services.tables, Delivery(client, services))  # type: ignore[arg-type]


def notice(version: int, since: int) -> Notice:
    seat = SeatNotice(0, 42, "Ann", f"view v{version}", {"v": version}, version=version,
                      fingerprint="ab")
    return Notice(1, "pebbles", version, "playing", f"move v{version}", private=(seat,),
                  channel_id=7, since=since)


async def test_a_seat_never_gets_an_older_view_after_a_newer_one() -> None:
    client, services = FakeClient(), FakeServices()
    outbox = posted_by(client, services)
    await outbox.publish(notice(13, 12))
    await outbox.publish(notice(7, 6))
    dms = [text for channel, text in client.sent if channel == 10_042]
    assert dms == ["view v13"]


async def test_moves_are_told_once_and_in_order_after_a_gap() -> None:
    client, services = FakeClient(), FakeServices()
    outbox = posted_by(client, services)
    await asyncio.gather(outbox.publish(notice(3, 2)), outbox.publish(notice(2, 1)))
    said = [text for channel, text in client.sent if channel == 7]
    told = "\n".join(said)
    # Whatever the order of arrival, version 2 is told before version 3, and each once.
    assert told.count("v2") == 1 and told.count("v3") == 1
    assert told.index("v2") < told.index("v3")
    assert services.tables.announced[-1] == 3


async def test_a_dm_is_drawn_as_an_update_on_the_view_sent_before() -> None:
    client, services = FakeClient(), FakeServices()
    outbox = posted_by(client, services)
    await outbox.publish(notice(2, 1))
    await outbox.publish(notice(3, 2))
    dms = [(view, previous) for view, update, previous in services.renderer.calls if update]
    # The first DM knows no earlier view; the next one is drawn against the first.
    assert dms == [({"v": 2}, None), ({"v": 3}, {"v": 2})]


async def test_each_channel_post_carries_the_nonce_of_its_table_and_last_version() -> None:
    client, services = FakeClient(), FakeServices()
    outbox = posted_by(client, services)
    await outbox.publish(notice(3, 2))  # version 2 never told: on its own, first
    assert client.nonces == [nonce_of(1, 2), nonce_of(1, 3)] == ["1.2", "1.3"]
    # Within Discord's 25 characters for any table id and version the stores can hold.
    assert len(nonce_of(2**63 - 1, 2**31 - 1)) <= 25


async def test_a_channel_the_bot_may_not_post_in_does_not_hold_the_table_up() -> None:
    client, services = FakeClient(), FakeServices()
    outbox = posted_by(client, services)

    async def refused(*_: Any, **__: Any) -> Any:
        raise discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(),
                                {"code": 50001, "message": "Missing Access"})

    channel = FakeChannel(client.sent, 7)
    channel.send = refused  # type: ignore[method-assign]
    client.get_partial_messageable = lambda channel_id: channel  # type: ignore[method-assign]
    await outbox.publish(notice(2, 1))
    assert services.tables.announced == [2]  # marked: no claim is left held
    assert [text for c, text in client.sent if c == 10_042] == ["view v2"]  # DMs still go


class Said:
    """A message read back from the channel's history (newest first)."""

    def __init__(self, message_id: int, content: str, author: int = 99,
                 custom_ids: tuple[str, ...] = ()) -> None:
        self.id, self.content, self.nonce = message_id, content, None
        self.author = discord.Object(author)
        buttons = [type("Button", (), {"custom_id": c})() for c in custom_ids]
        self.components = [type("Row", (), {"children": buttons})()] if buttons else []


class ReadingChannel(FakeChannel):
    def __init__(self, log: list[tuple[int, str]], channel_id: int, nonces: list[str],
                 latest: list[Said], reads: list[int]) -> None:
        super().__init__(log, channel_id, nonces)
        self.latest, self.reads = latest, reads

    async def history(self, *, limit: int) -> Any:
        self.reads.append(limit)
        for message in self.latest[:limit]:
            yield message


class ReadingClient(FakeClient):
    def __init__(self, latest: list[Said]) -> None:
        super().__init__()
        self.user = discord.Object(99)
        self.latest = latest
        self.reads: list[int] = []  # the limit of each history read

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        return ReadingChannel(self.sent, channel_id, self.nonces, self.latest, self.reads)


def taken_over(services: FakeServices) -> None:
    """Versions 2-3 claimed by a holder that died, long ago (Discord forgot its nonce)."""
    services.tables.mark = (1, 3, 0, "dead")


async def test_a_takeover_finds_the_crashed_holders_post_among_the_latest_messages() -> None:
    client = ReadingClient([Said(8, "hello", author=5),
                            Said(7, "(missed v2)\n(missed v3)\nNext: <@42>")])
    services = FakeServices()
    taken_over(services)
    outbox = posted_by(client, services)
    await outbox.publish(notice(3, 2))
    assert [text for channel, text in client.sent if channel == 7] == []
    assert client.reads == [50] and services.tables.announced == [3]


async def test_a_takeover_posts_what_came_after_the_tables_last_board() -> None:
    # The same lines before the table's board of version 1 were not this range's post.
    client = ReadingClient([Said(8, "v1", custom_ids=("tabula:board:moves:1:v1",)),
                            Said(7, "(missed v2)\n(missed v3)")])
    services = FakeServices()
    taken_over(services)
    outbox = posted_by(client, services)
    await outbox.publish(notice(3, 2))
    assert [text for channel, text in client.sent if channel == 7] == [
        "(missed v2)\n(missed v3)"]
    assert client.nonces[0] == nonce_of(1, 3)


async def test_a_takeover_finds_the_board_by_its_buttons() -> None:
    client = ReadingClient([Said(8, "other words", custom_ids=("tabula:board:moves:1:v3",
                                                               "tabula:board:hand:1:v3"))])
    services = FakeServices()
    taken_over(services)
    outbox = posted_by(client, services)
    await outbox.publish(notice(3, 2))
    assert [text for channel, text in client.sent if channel == 7] == []


async def test_the_normal_path_reads_no_history() -> None:
    client = ReadingClient([])
    services = FakeServices()
    outbox = posted_by(client, services)
    await outbox.publish(notice(2, 1))
    await outbox.publish(notice(3, 2))
    assert client.reads == [] and services.tables.announced == [2, 3]
