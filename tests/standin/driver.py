"""The test-facing driver: set up a world, play users, observe what the bot did."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from .clock import Clock, Notifier
from .commands import build_data, check_available
from .errors import RefusedAnswer, UsageError
from .gateway import Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Choice,
    InteractionRecord,
)
from .messages import Message
from .model import BOT_PERMISSIONS, DM, JSON, Channel, Guild, Member, Role, User
from .openapi import load_spec
from .server import API, RateLimiter, build_app
from .state import GUILDS_INTENT, ErrorResponse, UnhandledRoute, Violation, World

GUILD_MEMBERS_INTENT = 1 << 1
Person = User | Member
# Every stand-in started in this process, so the tests' teardown can check each one for
# requests Discord's description refuses, however the test made it.
STARTED: list[StandIn] = []


def _user(who: Person) -> User:
    return who.user if isinstance(who, Member) else who


class StandIn:
    """A local Discord: REST on ``api_base``, the gateway on ``gateway_url``."""

    def __init__(
        self,
        *,
        token: str = "standin-bot-token",
        rest_rate_limit: int = 50,
        rest_rate_window: float = 1.0,
        heartbeat_interval_ms: int = 41_250,
    ) -> None:
        self.clock = Clock()
        self.notifier = Notifier()
        self.world = World(token, self.clock, self.notifier)
        self.gateway = Gateway(self.world, heartbeat_interval_ms)
        self.limiter = RateLimiter(self.clock, rest_rate_limit, rest_rate_window)
        # Loaded here so a missing description fails the test at once.
        self.spec = load_spec()
        self.spec_violations_expected = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> StandIn:
        app = build_app(self.world, self.gateway, self.limiter, self.spec)
        STARTED.append(self)
        runner = web.AppRunner(app, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        server = site._server
        assert server is not None and getattr(server, "sockets", None)
        self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]
        self.world.http_base = f"http://127.0.0.1:{self.port}"
        self.world.gateway_url = f"ws://127.0.0.1:{self.port}/"
        self.gateway.resume_url = f"ws://127.0.0.1:{self.port}/resume"
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> StandIn:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"{self.world.http_base}{API}"

    @property
    def gateway_url(self) -> str:
        return self.world.gateway_url

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def env(self) -> dict[str, str]:
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
        }

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def bot_user(self) -> User:
        return self.world.bot

    # -- setting up the world -------------------------------------------------------------
    def _connected(self) -> bool:
        session = self.gateway.current
        return session is not None and session.ready

    def add_guild(
        self, name: str = "Test Server", *, bot_permissions: int = BOT_PERMISSIONS,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        guild = self.world.add_guild(name, bot_permissions, shard)
        if self._connected():
            self.world.dispatch("GUILD_CREATE", guild.to_json(), GUILDS_INTENT)
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = self.world.add_channel(guild, name)
        if self._connected():
            self.world.dispatch("CHANNEL_CREATE", channel.to_json(), GUILDS_INTENT)
        return channel

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = self.world.add_role(guild, name, permissions)
        if self._connected():
            data = {"guild_id": str(guild.id), "role": role.to_json()}
            self.world.dispatch("GUILD_ROLE_CREATE", data, GUILDS_INTENT)
        return role

    def add_member(
        self,
        guild: Guild,
        who: str | User,
        *,
        dms_open: bool = True,
        manage_guild: bool = False,
        roles: Sequence[Role] = (),
    ) -> Member:
        member = self.world.add_member(
            guild, who, dms_open=dms_open, manage_guild=manage_guild, roles=list(roles)
        )
        if self._connected():
            data = {**member.to_json(), "guild_id": str(guild.id)}
            self.world.dispatch("GUILD_MEMBER_ADD", data, GUILD_MEMBERS_INTENT)
        return member

    def dm_channel(self, who: Person) -> Channel:
        """The DM channel between the bot and ``who`` (for slash commands used in DMs)."""
        return self.world.dm_channel(_user(who))

    def advance_time(self, seconds: float) -> None:
        """Moves the stand-in's clock (deadlines, token life, rate windows) without sleeping."""
        self.clock.advance(seconds)
        self.notifier.notify()

    # -- waiting --------------------------------------------------------------------------
    async def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        return await self.notifier.wait_until(predicate, timeout, what)

    async def wait_ready(self, timeout: float = 10.0) -> None:
        """Returns once a bot identified and received READY and every GUILD_CREATE."""

        def ready() -> bool:
            session = self.gateway.current
            return session is not None and session.ready and session.connection is not None

        await self.wait_until(ready, timeout, "the bot to identify")

    async def wait_shards(self, count: int, timeout: float = 10.0) -> None:
        """Returns once ``count`` gateway shards are identified and ready."""

        def ready() -> bool:
            return len(self.gateway.live_shards()) >= count

        await self.wait_until(ready, timeout, f"{count} shards to identify")

    async def wait_synced(self, timeout: float = 10.0, names: Sequence[str] = ()) -> None:
        """Returns once the bot synced a command tree (holding ``names``, if given)."""

        def synced() -> bool:
            if self.world.commands.syncs == 0:
                return False
            known = {c["name"] for cmds in self.world.commands.scopes.values() for c in cmds}
            return set(names) <= known

        await self.wait_until(synced, timeout, f"a command sync with {list(names)}")

    async def wait_for_message(
        self, predicate: Callable[[Message], bool], timeout: float = 5.0
    ) -> Message:
        """The first stored message (already there or still to come) matching ``predicate``."""

        def find() -> Message | None:
            return next((m for m in self.messages if predicate(m)), None)

        result: Message = await self.wait_until(find, timeout, "a matching message")
        return result

    async def force_reconnect(self, timeout: float = 10.0) -> None:
        """Sends RECONNECT (op 7) and waits until the bot has RESUMEd its session."""
        session = self.gateway.send_reconnect()
        before = session.resumes
        await self.wait_until(
            lambda: session.resumes > before and session.connection is not None,
            timeout,
            "the bot to RESUME",
        )

    # -- playing users --------------------------------------------------------------------
    def _send(self, record: InteractionRecord) -> InteractionRecord:
        if self.gateway.current is None:
            raise RuntimeError("no bot is connected to the stand-in")
        self.world.dispatch("INTERACTION_CREATE", record.payload)
        return record

    def _command_data(
        self,
        who: Person,
        channel: Channel,
        command: str,
        options: Mapping[str, Any],
        focused: str | None,
    ) -> tuple[User, JSON]:
        user = _user(who)
        path = command.strip().lstrip("/").split()
        if not path:
            raise UsageError("empty command")
        guild = channel.guild
        found = self.world.commands.find(path[0], guild.id if guild else None)
        if found is None:
            raise UsageError(f"/{path[0]} is not synced (known: {self.command_names(guild)})")
        member = guild.members.get(user.id) if guild else None
        if guild is not None and member is None:
            raise UsageError(f"{user.name} is not a member of {guild.name}")
        check_available(found, member, in_dm=channel.type == DM)
        data = build_data(
            found,
            path[1:],
            options,
            guild=guild,
            channel_permissions=self.world.permissions_in(channel, user),
            focused=focused,
        )
        return user, data

    async def slash(
        self, who: Person, channel: Channel, command: str, options: Mapping[str, Any] | None = None
    ) -> InteractionRecord:
        """Runs ``/command`` (e.g. ``"game new"``) with option values; returns at once."""
        user, data = self._command_data(who, channel, command, options or {}, None)
        return self._send(self.world.new_interaction(APPLICATION_COMMAND, user, channel, data))

    async def autocomplete(
        self,
        who: Person,
        channel: Channel,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        timeout: float = 5.0,
    ) -> list[Choice]:
        """Types into option ``focused`` and returns the bot's suggestions."""
        user, data = self._command_data(who, channel, command, options, focused)
        record = self._send(self.world.new_interaction(AUTOCOMPLETE, user, channel, data))
        await self.wait_until(
            lambda: record.choices is not None or record.errors, timeout, "autocomplete choices"
        )
        if record.choices is None:
            raise RefusedAnswer(f"the bot's autocomplete answer was refused: {record.errors[0]}")
        return record.choices

    def _component(self, who: Person, message: Message, custom_id: str, kinds: set[int]) -> JSON:
        user = _user(who)
        if message.deleted:
            raise UsageError("the message was deleted")
        if message.ephemeral and message.visible_to is not user:
            raise UsageError(f"{user.name} cannot see that ephemeral message")
        component = message.find_component(custom_id)
        if component is None:
            raise UsageError(
                f"no component {custom_id!r} on the message; it has {message.custom_ids()}"
            )
        if component.get("type") not in kinds:
            raise UsageError(f"component {custom_id!r} has type {component.get('type')}")
        if component.get("disabled"):
            raise UsageError(f"component {custom_id!r} is disabled")
        return component

    async def click(self, who: Person, message: Message, custom_id: str) -> InteractionRecord:
        """Clicks the button ``custom_id`` on ``message``; returns at once."""
        component = self._component(who, message, custom_id, {2})
        data: JSON = {"custom_id": custom_id, "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        record = self.world.new_interaction(
            MESSAGE_COMPONENT, _user(who), message.channel, data, message=message
        )
        return self._send(record)

    async def select(
        self, who: Person, message: Message, custom_id: str, values: Sequence[str]
    ) -> InteractionRecord:
        """Picks ``values`` in the string select ``custom_id``; returns at once."""
        component = self._component(who, message, custom_id, {3})
        offered = [o["value"] for o in component.get("options", [])]
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if any(v not in offered for v in values) or not low <= len(values) <= high:
            raise UsageError(f"pick {low}-{high} of {offered}, not {list(values)}")
        data: JSON = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        if "id" in component:
            data["id"] = component["id"]
        record = self.world.new_interaction(
            MESSAGE_COMPONENT, _user(who), message.channel, data, message=message
        )
        return self._send(record)

    async def submit_modal(
        self, who: Person, shown_by: InteractionRecord, values: Mapping[str, str]
    ) -> InteractionRecord:
        """Fills the text inputs of the modal the bot showed in answer to ``shown_by``."""
        callback = shown_by.callback
        if callback is None or callback.modal is None:
            raise UsageError("the bot showed no modal for that interaction")
        modal = callback.modal
        rows: list[JSON] = []
        for top in modal.get("components", []):
            inner = top.get("components") or [top.get("component")]
            inputs = [c for c in inner if isinstance(c, dict) and c.get("type") == 4]
            if len(inputs) != 1:
                raise UsageError("only modals made of text inputs can be submitted")
            field = inputs[0]
            value = values.get(field["custom_id"], "")
            if field.get("required", True) and not value:
                raise UsageError(f"text input {field['custom_id']!r} is required")
            entry = {"type": 4, "custom_id": field["custom_id"], "value": value}
            if top.get("type") == 18:
                rows.append({"type": 18, "id": top.get("id", 0), "component": entry})
            else:
                rows.append({"type": 1, "components": [entry]})
        data = {"custom_id": modal["custom_id"], "components": rows}
        record = self.world.new_interaction(
            MODAL_SUBMIT, _user(who), shown_by.channel, data, message=shown_by.message
        )
        return self._send(record)

    async def say(self, who: Person, channel: Channel, content: str) -> Message:
        """Posts a plain message as ``who`` (delivered to the bot as MESSAGE_CREATE)."""
        if not 1 <= len(content) <= 2000:
            raise UsageError("a message holds 1 to 2000 characters")
        return self.world.create_message(channel, _user(who), {"content": content}, [])

    # -- observing ------------------------------------------------------------------------
    @property
    def messages(self) -> list[Message]:
        return sorted(
            (m for m in self.world.messages.values() if not m.deleted), key=lambda m: m.id
        )

    def channel_messages(
        self, channel: Channel, *, visible_to: Person | None = None
    ) -> list[Message]:
        """Messages in ``channel``; with ``visible_to``, only those that person can see."""
        viewer = _user(visible_to) if visible_to is not None else None
        return [
            m
            for m in channel.messages
            if not m.deleted and (viewer is None or not m.ephemeral or m.visible_to is viewer)
        ]

    def dms(self, who: Person) -> list[Message]:
        channel = self.world.dm_channels.get(_user(who).id)
        return self.channel_messages(channel) if channel else []

    def commands(self, guild: Guild | None = None) -> list[JSON]:
        return self.world.commands.listing(guild.id if guild else None)

    def command_names(self, guild: Guild | None = None) -> list[str]:
        names = [c["name"] for c in self.world.commands.listing(None)]
        if guild is not None:
            names += [c["name"] for c in self.world.commands.listing(guild.id)]
        return names

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.world.interactions.values())

    @property
    def violations(self) -> list[Violation]:
        """Limits the bot broke, including interactions left unanswered past 3 s (by the
        stand-in's clock) at the time of reading."""
        self.world.sweep_deadlines()
        return self.world.violations

    @property
    def error_responses(self) -> list[ErrorResponse]:
        return self.world.error_responses

    @property
    def unhandled(self) -> list[UnhandledRoute]:
        return self.world.unhandled

    @property
    def spec_violations(self) -> list[Violation]:
        """Requests Discord's OpenAPI description refuses (answered 400/50035, 404 or 405);
        a test fails on any unless it called :meth:`expect_spec_violations`."""
        return self.world.spec_violations

    def expect_spec_violations(self) -> None:
        """For tests that send refused requests on purpose: they check ``spec_violations``
        themselves instead of failing at teardown."""
        self.spec_violations_expected = True

    def unexpected_spec_violations(self) -> list[Violation]:
        return [] if self.spec_violations_expected else list(self.world.spec_violations)

    @property
    def internal_errors(self) -> list[str]:
        """Tracebacks of faults inside the stand-in (answered 503); should stay empty."""
        return self.world.internal_errors
