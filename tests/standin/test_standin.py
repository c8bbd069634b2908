"""The unmodified discord.py client against the local Discord stand-in."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.standin import Channel, Member, Message, StandIn, UsageError
from tests.standin.discord_setup import running

pytestmark = pytest.mark.timeout(60)

GAMES = ["palatinus", "palermo", "hadrians-wall", "minerva"]
WAIT = 10.0


def png_bytes() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (6, 4), (0, 114, 178)).save(out, format="PNG")
    return out.getvalue()


@dataclass
class Probe:
    """What the test bot saw: errors raised by discord.py and gates the tests open."""

    dm_errors: list[discord.HTTPException] = field(default_factory=list)
    reply_errors: list[discord.HTTPException] = field(default_factory=list)
    late_started: asyncio.Event = field(default_factory=asyncio.Event)
    late_gate: asyncio.Event = field(default_factory=asyncio.Event)
    resumed: int = 0


class SeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"seat:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {n}", custom_id=f"seat:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> SeatButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"Seat {self.n} taken by {interaction.user.name}"
        )


class GameView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(SeatButton(1))
        self.add_item(SeatButton(2))

    @discord.ui.button(label="Join", custom_id="game:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)

    @discord.ui.select(
        custom_id="game:colour",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("blue", "orange")],
    )
    async def colour(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} plays {select.values[0]}", ephemeral=True
        )


class RenameModal(discord.ui.Modal, title="Rename the game"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="New name", custom_id="rename:name"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Renamed to {self.name.value}")


def make_bot(probe: Probe) -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = True
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
    bot.add_dynamic_items(SeatButton)

    async def on_resumed() -> None:
        probe.resumed += 1

    bot.add_listener(on_resumed)

    game = app_commands.Group(name="game", description="Play a board game")

    @game.command(name="new", description="Start a new game")
    @app_commands.describe(game="Which game", players="How many players")
    async def new(
        interaction: discord.Interaction, game: str, players: app_commands.Range[int, 2, 5] = 3
    ) -> None:
        await interaction.response.send_message(f"New {game} for {players}", view=GameView())

    @new.autocomplete("game")
    async def game_names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=g.title(), value=g) for g in GAMES if g.startswith(current)
        ]

    bot.tree.add_command(game)

    @bot.tree.command(name="invite", description="Send a member the board by DM")
    async def invite(interaction: discord.Interaction, member: discord.Member) -> None:
        board = discord.File(io.BytesIO(png_bytes()), "board.png", description="An empty board")
        try:
            await member.send(f"{interaction.user.name} invites you", file=board)
        except discord.Forbidden as exc:
            probe.dm_errors.append(exc)
            await interaction.response.send_message("Their DMs are closed.", ephemeral=True)
            return
        await interaction.response.send_message("Invitation sent.", ephemeral=True)

    @bot.tree.command(name="board", description="Draw the board (takes a moment)")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        image = discord.File(io.BytesIO(png_bytes()), "board.png", description="The board")
        await interaction.followup.send("Here is the board", file=image)

    @bot.tree.command(name="late", description="Answers after the test opens the gate")
    async def late(interaction: discord.Interaction) -> None:
        probe.late_started.set()
        await asyncio.wait_for(probe.late_gate.wait(), WAIT)
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            probe.reply_errors.append(exc)

    @bot.tree.command(name="later", description="Defers, then follows up after the gate")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        probe.late_started.set()
        await asyncio.wait_for(probe.late_gate.wait(), WAIT)
        try:
            await interaction.followup.send("done")
        except discord.HTTPException as exc:
            probe.reply_errors.append(exc)

    @bot.tree.command(name="rename", description="Rename the game (opens a form)")
    @app_commands.default_permissions(manage_guild=True)
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @bot.tree.command(name="shout", description="Tries a message that is too long")
    async def shout(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("A" * 2001)
        except discord.HTTPException as exc:
            probe.reply_errors.append(exc)
            await interaction.response.send_message("That was too long.")

    return bot


@dataclass
class Live:
    standin: StandIn
    bot: commands.Bot
    probe: Probe
    channel: Channel
    alice: Member
    bob: Member
    carol: Member


@pytest.fixture
async def live(standin: StandIn) -> AsyncIterator[Live]:
    guild = standin.add_guild("Board Games")
    standin.add_channel(guild, "lobby")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice", manage_guild=True)
    bob = standin.add_member(guild, "bob")
    carol = standin.add_member(guild, "carol", dms_open=False)
    probe = Probe()
    bot = make_bot(probe)
    async with running(bot, standin, timeout=WAIT):
        synced = await asyncio.wait_for(bot.tree.sync(), WAIT)
        assert sorted(c.name for c in synced) == [
            "board",
            "game",
            "invite",
            "late",
            "later",
            "rename",
            "shout",
        ]
        yield Live(standin, bot, probe, channel, alice, bob, carol)


def last_message(standin: StandIn, channel: Channel) -> Message:
    return standin.channel_messages(channel)[-1]


async def test_login_ready_and_guild_cache(live: Live) -> None:
    standin, bot = live.standin, live.bot
    assert bot.user is not None and bot.user.id == standin.bot_user.id
    assert bot.application_id == standin.application_id
    guild = bot.get_guild(live.channel.guild.id if live.channel.guild else 0)
    assert guild is not None and guild.name == "Board Games"
    assert [c.name for c in guild.text_channels] == ["lobby", "games"]
    alice = guild.get_member(live.alice.id)
    assert alice is not None and alice.guild_permissions.manage_guild
    bob = guild.get_member(live.bob.id)
    assert bob is not None and not bob.guild_permissions.manage_guild
    assert guild.default_role.permissions.send_messages
    assert standin.gateway.log[:4] == ["connect /", "IDENTIFY", "READY", "GUILDS_SENT"]
    assert standin.gateway.heartbeats >= 1 and standin.gateway.zlib_connections == 1
    assert standin.violations == [] and standin.unhandled == []


async def test_slash_subcommand_then_buttons(live: Live) -> None:
    standin = live.standin
    r = await standin.slash(
        live.alice, live.channel, "game new", {"game": "palatinus", "players": 4}
    )
    options = r.payload["data"]["options"]
    assert options[0]["name"] == "new" and options[0]["type"] == 1
    assert options[0]["options"] == [
        {"name": "game", "type": 3, "value": "palatinus"},
        {"name": "players", "type": 4, "value": 4},
    ]
    reply = await r.wait_reply(WAIT)
    assert reply.kind == "callback" and reply.callback_type == 4
    assert reply.content == "New palatinus for 4" and not reply.ephemeral
    board = reply.message
    assert board is not None and board.custom_ids() == [
        "game:join",
        "seat:1",
        "seat:2",
        "game:colour",
    ]

    joined = await standin.click(live.bob, board, "game:join")
    answer = await joined.wait_reply(WAIT)
    assert answer.content == "bob joined" and answer.ephemeral
    assert standin.channel_messages(live.channel, visible_to=live.alice) == [board]

    picked = await standin.select(live.alice, board, "game:colour", ["orange"])
    assert picked.payload["data"] == {
        "custom_id": "game:colour",
        "component_type": 3,
        "values": ["orange"],
    }
    assert (await picked.wait_reply(WAIT)).content == "alice plays orange"
    with pytest.raises(UsageError):
        await standin.select(live.alice, board, "game:colour", ["green"])
    with pytest.raises(UsageError):
        await standin.click(live.alice, board, "game:leave")

    seat = await standin.click(live.bob, board, "seat:2")
    update = await seat.wait_reply(WAIT)
    assert update.callback_type == 7 and update.message is board
    assert board.content == "Seat 2 taken by bob" and board.edits == 1
    assert standin.violations == []


async def test_autocomplete_focused_option(live: Live) -> None:
    choices = await live.standin.autocomplete(
        live.alice, live.channel, "game new", {"game": "pal"}, focused="game"
    )
    assert [(c.name, c.value) for c in choices] == [
        ("Palatinus", "palatinus"),
        ("Palermo", "palermo"),
    ]
    record = live.standin.interactions[-1]
    assert record.payload["data"]["options"][0]["options"] == [
        {"name": "game", "type": 3, "value": "pal", "focused": True}
    ]


async def test_dm_with_png_to_open_and_closed_member(live: Live) -> None:
    standin = live.standin
    r = await standin.slash(live.alice, live.channel, "invite", {"member": live.bob})
    assert (await r.wait_reply(WAIT)).content == "Invitation sent."
    assert r.payload["data"]["resolved"]["users"][str(live.bob.id)]["username"] == "bob"
    [dm] = standin.dms(live.bob)
    assert dm.content == "alice invites you"
    [attachment] = dm.attachments
    assert attachment.filename == "board.png" and attachment.description == "An empty board"
    assert attachment.data == png_bytes() and attachment.image_size() == (6, 4)

    r = await standin.slash(live.alice, live.channel, "invite", {"member": live.carol})
    reply = await r.wait_reply(WAIT)
    assert reply.content == "Their DMs are closed." and reply.ephemeral
    [error] = live.probe.dm_errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007 and error.status == 403
    assert standin.dms(live.carol) == []
    assert [(e.status, e.code) for e in standin.error_responses] == [(403, 50007)]
    assert standin.violations == []


async def test_deferred_reply_then_followup_with_file(live: Live) -> None:
    r = await live.standin.slash(live.bob, live.channel, "board")
    reply = await r.wait_reply(WAIT)
    assert [x.kind for x in r.responses] == ["callback", "followup"]
    assert r.responses[0].callback_type == 5 and r.responses[0].message is reply.message
    assert reply.content == "Here is the board"
    [attachment] = reply.attachments
    assert attachment.data == png_bytes() and attachment.description == "The board"
    message = last_message(live.standin, live.channel)
    assert message is reply.message and not message.loading
    assert live.standin.violations == []


async def test_three_second_deadline_is_a_violation(live: Live) -> None:
    standin, probe = live.standin, live.probe
    r = await standin.slash(live.alice, live.channel, "late")
    await asyncio.wait_for(probe.late_started.wait(), WAIT)
    standin.advance_time(3.5)
    probe.late_gate.set()
    error = await r.wait_error(WAIT)
    assert (error.status, error.code) == (404, 10062)
    [violation] = standin.violations
    assert violation.kind == "interaction_deadline" and violation.interaction_id == r.id
    await standin.wait_until(lambda: probe.reply_errors, WAIT, "the bot to see the refusal")
    assert isinstance(probe.reply_errors[0], discord.NotFound)
    assert probe.reply_errors[0].code == 10062
    assert r.responses == []


async def test_expired_token_and_second_answer_are_refused(live: Live) -> None:
    standin, probe = live.standin, live.probe
    r = await standin.slash(live.alice, live.channel, "later")
    await r.wait_callback(WAIT)
    await asyncio.wait_for(probe.late_started.wait(), WAIT)
    standin.advance_time(16 * 60)
    probe.late_gate.set()
    await standin.wait_until(lambda: probe.reply_errors, WAIT, "the bot to see the refusal")
    assert (probe.reply_errors[0].status, probe.reply_errors[0].code) == (401, 50027)

    r2 = await standin.slash(live.alice, live.channel, "game new", {"game": "minerva"})
    await r2.wait_reply(WAIT)
    url = f"{standin.api_base}/interactions/{r2.id}/{r2.token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp,
    ):
        assert resp.status == 400 and (await resp.json())["code"] == 40060
    assert [v.kind for v in standin.violations] == ["token_expired", "already_acknowledged"]


async def test_26th_subcommand_is_refused_at_sync(live: Live) -> None:
    big = app_commands.Group(name="many", description="Lots of subcommands")
    for n in range(25):

        async def noop(interaction: discord.Interaction) -> None:
            return None

        big.add_command(app_commands.Command(name=f"s{n}", description="x", callback=noop))
    payload = big.to_dict(live.bot.tree)
    assert len(payload["options"]) == 25
    app_id = live.standin.application_id
    await live.bot.http.bulk_upsert_global_commands(app_id, [payload])
    assert len(live.standin.commands()[0]["options"]) == 25

    payload["options"].append({**payload["options"][0], "name": "s25"})
    live.standin.expect_spec_violations()  # Discord's description has the same limit
    with pytest.raises(discord.HTTPException) as caught:
        await live.bot.http.bulk_upsert_global_commands(app_id, [payload])
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "25 or fewer" in caught.value.text
    [violation] = live.standin.violations
    assert violation.kind == "openapi" and violation.details == [
        "0.options: Must be 25 or fewer in length."
    ]
    assert live.standin.spec_violations == [violation]
    assert len(live.standin.commands()[0]["options"]) == 25


async def test_message_over_2000_characters_is_refused(live: Live) -> None:
    standin = live.standin
    standin.expect_spec_violations()  # Discord's description has the same limit
    r = await standin.slash(live.alice, live.channel, "shout")
    reply = await r.wait_reply(WAIT)
    assert reply.content == "That was too long."
    [error] = live.probe.reply_errors
    assert (error.status, error.code) == (400, 50035)
    [violation] = standin.violations
    assert violation.kind == "openapi"
    assert violation.details == ["data.content: Must be 2000 or fewer in length."]

    with pytest.raises(discord.HTTPException) as caught:
        await live.bot.get_partial_messageable(live.channel.id).send("B" * 2001)
    assert caught.value.code == 50035
    assert all(len(m.content) <= 2000 for m in standin.channel_messages(live.channel))


async def test_force_reconnect_resumes_and_commands_still_work(live: Live) -> None:
    standin = live.standin
    session = standin.gateway.current
    assert session is not None
    reconnect = asyncio.create_task(standin.force_reconnect(WAIT))
    await asyncio.sleep(0)  # the RECONNECT is sent; the next event is buffered for replay
    during = await standin.slash(live.bob, live.channel, "game new", {"game": "palermo"})
    await reconnect
    assert standin.gateway.current is session and session.resumes == 1
    log = standin.gateway.log
    assert log.index("RECONNECT") < log.index("connect /resume") < log.index("RESUMED")
    assert "IDENTIFY" not in log[log.index("RECONNECT") :]
    assert (await during.wait_reply(WAIT)).content == "New palermo for 3"
    after = await standin.slash(live.bob, live.channel, "game new", {"game": "minerva"})
    assert (await after.wait_reply(WAIT)).content == "New minerva for 3"
    await standin.wait_until(lambda: live.probe.resumed == 1, WAIT, "on_resumed")
    assert standin.violations == []


async def test_clean_close(standin: StandIn) -> None:
    standin.add_guild("Solo")
    bot = make_bot(Probe())
    async with running(bot, standin, timeout=WAIT):
        assert bot.is_ready() and len(standin.gateway.connections) == 1
    assert bot.is_closed()
    await standin.wait_until(lambda: not standin.gateway.connections, WAIT, "the socket to close")
    assert standin.gateway.log[-1].startswith("client close")
    assert standin.violations == [] and standin.unhandled == []


async def test_modal_for_managers_only(live: Live) -> None:
    standin = live.standin
    with pytest.raises(UsageError, match="lacks the permissions"):
        await standin.slash(live.bob, live.channel, "rename")
    shown = await standin.slash(live.alice, live.channel, "rename")
    callback = await shown.wait_callback(WAIT)
    assert callback.callback_type == 9 and callback.modal is not None
    assert callback.modal["title"] == "Rename the game"
    submitted = await standin.submit_modal(live.alice, shown, {"rename:name": "Friday game"})
    assert (await submitted.wait_reply(WAIT)).content == "Renamed to Friday game"
    assert standin.violations == []


async def test_command_used_in_dms(live: Live) -> None:
    standin = live.standin
    dm = standin.dm_channel(live.bob)
    r = await standin.slash(live.bob, dm, "game new", {"game": "minerva", "players": 2})
    assert "member" not in r.payload and r.payload["user"]["username"] == "bob"
    assert r.payload["context"] == 1 and r.payload["channel"]["type"] == 1
    reply = await r.wait_reply(WAIT)
    assert reply.content == "New minerva for 2"
    assert standin.dms(live.bob) == [reply.message]
    assert standin.violations == []
