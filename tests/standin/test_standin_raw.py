"""The stand-in's gateway and REST surfaces, driven by raw websocket and HTTP requests."""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from tests.standin import Channel, Member, RefusedAnswer, StandIn

pytestmark = pytest.mark.timeout(60)

WAIT = 5.0
JSON = dict[str, Any]
GAME_TREE: list[JSON] = [
    {
        "name": "game",
        "description": "Play",
        "options": [
            {
                "type": 1,
                "name": "move",
                "description": "Move",
                "options": [
                    {
                        "type": 3,
                        "name": "action",
                        "description": "What",
                        "required": True,
                        "autocomplete": True,
                    },
                    {"type": 6, "name": "target", "description": "Whom"},
                ],
            }
        ],
    }
]


class RawGateway:
    """A bare gateway client: decodes plain or zlib-stream frames."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._inflate = zlib.decompressobj()
        self._buffer = b""
        self.binary_frames = 0

    async def recv(self) -> JSON:
        for _ in range(1000):
            msg = await self.ws.receive(timeout=WAIT)
            if msg.type == aiohttp.WSMsgType.TEXT:
                return dict(json.loads(msg.data))
            if msg.type != aiohttp.WSMsgType.BINARY:
                raise ConnectionError(f"socket closed: {msg.type} {msg.data}")
            self.binary_frames += 1
            self._buffer += msg.data
            if self._buffer.endswith(b"\x00\x00\xff\xff"):
                text = self._inflate.decompress(self._buffer)
                self._buffer = b""
                return dict(json.loads(text))
        raise AssertionError("no complete frame")

    async def recv_event(self, name: str) -> JSON:
        for _ in range(100):
            frame = await self.recv()
            if frame.get("t") == name:
                return frame
        raise AssertionError(f"no {name} event")

    async def send(self, op: int, data: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": data}))

    async def identify(self, token: str, intents: int = (1 << 0) | (1 << 9) | (1 << 12)) -> JSON:
        assert (await self.recv())["op"] == 10
        await self.send(2, {"token": token, "intents": intents, "properties": {}})
        return await self.recv_event("READY")


@dataclass
class World:
    standin: StandIn
    http: aiohttp.ClientSession
    channel: Channel
    alice: Member
    carol: Member

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bot {self.standin.token}"}

    def url(self, path: str) -> str:
        return f"{self.standin.api_base}{path}"

    async def call(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any, Any]:
        kwargs.setdefault("headers", self.headers)
        async with self.http.request(method, self.url(path), **kwargs) as resp:
            body = await resp.json() if resp.status != 204 else None
            return resp.status, body, resp.headers

    async def gateway(self, compress: bool = True) -> RawGateway:
        query = "?v=10&encoding=json" + ("&compress=zlib-stream" if compress else "")
        ws = await self.http.ws_connect(self.standin.gateway_url + query)
        return RawGateway(ws)


@pytest.fixture
async def world(standin: StandIn) -> AsyncIterator[World]:
    guild = standin.add_guild("Raw")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice")
    carol = standin.add_member(guild, "carol", dms_open=False)
    async with aiohttp.ClientSession() as http:
        yield World(standin, http, channel, alice, carol)


async def test_gateway_zlib_stream_identify_ready_guilds(world: World) -> None:
    gw = await world.gateway(compress=True)
    assert (await gw.recv())["d"]["heartbeat_interval"] > 0
    await gw.send(1, None)
    assert (await gw.recv())["op"] == 11
    await gw.send(2, {"token": world.standin.token, "intents": 1, "properties": {}})
    ready = await gw.recv()
    assert ready["t"] == "READY" and ready["s"] == 1
    assert ready["d"]["resume_gateway_url"].endswith("/resume")
    assert ready["d"]["user"]["id"] == str(world.standin.bot_user.id)
    created = await gw.recv()
    assert created["t"] == "GUILD_CREATE" and created["s"] == 2
    guild = created["d"]
    assert [(c["name"], c["position"], c["type"]) for c in guild["channels"]] == [("games", 0, 0)]
    assert guild["roles"][0]["name"] == "@everyone" and guild["roles"][0]["id"] == guild["id"]
    names = {m["user"]["username"] for m in guild["members"]}
    assert {"alice", "carol"} <= names and guild["member_count"] == len(guild["members"])
    assert all({"roles", "flags", "user"} <= set(m) for m in guild["members"])
    assert gw.binary_frames >= 4
    await world.standin.wait_ready(WAIT)


async def test_gateway_plain_frames_bad_token_and_stale_resume(world: World) -> None:
    gw = await world.gateway(compress=False)
    ready = await gw.identify(world.standin.token)
    assert gw.binary_frames == 0 and ready["d"]["session_id"]
    bad = await world.gateway(compress=False)
    await bad.recv()
    await bad.send(2, {"token": "wrong", "intents": 1, "properties": {}})
    msg = await bad.ws.receive(timeout=WAIT)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4004
    stale = await world.gateway(compress=False)
    await stale.recv()
    await stale.send(6, {"token": world.standin.token, "session_id": "nope", "seq": 3})
    assert (await stale.recv()) == {"op": 9, "d": False, "s": None, "t": None}
    garbled = await world.gateway(compress=False)
    await garbled.recv()
    await garbled.ws.send_str("not json")
    msg = await garbled.ws.receive(timeout=WAIT)
    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4002


async def test_json_content_type_auth_and_unhandled_routes(world: World) -> None:
    async with world.http.get(world.url("/users/@me"), headers=world.headers) as resp:
        assert resp.status == 200 and resp.headers["Content-Type"] == "application/json"
    status, body, _ = await world.call("GET", "/users/@me", headers={})
    assert status == 401 and body == {"message": "401: Unauthorized", "code": 0}
    async with world.http.get(world.url("/guilds/1/audit-logs"), headers=world.headers) as resp:
        assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["code"] == 0
    assert [str(u) for u in world.standin.unhandled] == ["GET /api/v10/guilds/1/audit-logs"]


async def test_rate_limit_answers_429_with_via_and_spares_callbacks() -> None:
    standin = StandIn(rest_rate_limit=3, rest_rate_window=60.0)
    await standin.start()
    try:
        async with aiohttp.ClientSession() as http:
            headers = {"Authorization": f"Bot {standin.token}"}
            statuses = []
            for _ in range(4):
                async with http.get(f"{standin.api_base}/users/@me", headers=headers) as resp:
                    statuses.append(resp.status)
                    if resp.status == 429:
                        limited = (await resp.json(), resp.headers)
            assert statuses == [200, 200, 200, 429]
            body, answer_headers = limited
            assert body["global"] is True and 0 < body["retry_after"] <= 60
            assert answer_headers["Via"] and answer_headers["Content-Type"] == "application/json"
            callback = f"{standin.api_base}/interactions/1/x/callback"
            async with http.post(callback, json={"type": 4, "data": {"content": "x"}}) as resp:
                assert resp.status == 404 and (await resp.json())["code"] == 10062
            standin.advance_time(61)
            async with http.get(f"{standin.api_base}/users/@me", headers=headers) as resp:
                assert resp.status == 200
        assert [v.kind for v in standin.violations] == ["rate_limit", "unknown_interaction"]
    finally:
        await standin.stop()


ROW = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}


def buttons(n: int, label: str = "B", custom: str = "b") -> JSON:
    items = [{"type": 2, "style": 1, "label": label, "custom_id": f"{custom}{i}"} for i in range(n)]
    return {"type": 1, "components": items}


@pytest.mark.parametrize(
    ("payload", "detail"),
    [
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer in length."),
        ({"embeds": [{"title": "t"}] * 11}, "embeds: Must be 10 or fewer in length."),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
            "embeds.0.fields: Must be 25 or fewer in length.",
        ),
        (
            {"embeds": [{"description": "d" * 3500}, {"description": "d" * 3500}]},
            "embeds: Embed size exceeds maximum size of 6000",
        ),
        (
            {"components": [buttons(1, custom=f"r{i}") for i in range(6)]},
            "components: Must be 5 or fewer in length.",
        ),
        (
            {"components": [buttons(6)]},
            "components.0.components: Must be between 1 and 5 in length.",
        ),
        (
            {"components": [buttons(1, custom="c" * 101)]},
            "components.0.components.0.custom_id: Must be between 1 and 100 in length.",
        ),
        (
            {"components": [buttons(1, label="L" * 81)]},
            "components.0.components.0.label: Must be 80 or fewer in length.",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "pick",
                                "options": [
                                    {"label": f"o{i}", "value": f"v{i}"} for i in range(26)
                                ],
                            }
                        ],
                    }
                ]
            },
            "components.0.components.0.options: Must be between 1 and 25 in length.",
        ),
        (
            {"content": "x", "components": [ROW, ROW]},
            "components.#.3.custom_id: Component custom id cannot be duplicated",
        ),
        (
            {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
            'allowed_mentions: parse:["users"] and users: [ids] are mutually exclusive.',
        ),
    ],
)
async def test_message_limits(world: World, payload: JSON, detail: str) -> None:
    world.standin.expect_spec_violations()  # some limits are in Discord's description too
    status, body, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/messages", json=payload
    )
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    [violation] = world.standin.violations
    assert violation.details == [detail]
    assert world.standin.channel_messages(world.channel) == []


async def test_empty_message_and_oversized_attachment(world: World) -> None:
    path = f"/channels/{world.channel.id}/messages"
    status, body, _ = await world.call("POST", path, json={"content": ""})
    assert (status, body["code"]) == (400, 50006)
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"attachments": [{"id": 0, "filename": "big.png"}]}))
    form.add_field("files[0]", b"\0" * (10 * 1024 * 1024 + 1), filename="big.png")
    status, body, _ = await world.call("POST", path, data=form)
    assert (status, body["code"]) == (413, 40005)
    assert [v.kind for v in world.standin.violations] == ["empty_message", "attachment_too_large"]


async def test_attachments_alt_text_and_allowed_mentions(world: World) -> None:
    referee = world.standin.add_role(world.channel.guild, "Referee")  # type: ignore[arg-type]
    content = f"{world.alice.mention} {world.carol.mention} {referee.mention} @everyone"
    form = aiohttp.FormData(quote_fields=False)
    payload = {
        "content": content,
        "allowed_mentions": {"parse": [], "users": [str(world.alice.id)]},
        "attachments": [{"id": 0, "filename": "board.png", "description": "The board"}],
    }
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"\x89PNG fake", filename="upload.bin")
    status, body, _ = await world.call("POST", f"/channels/{world.channel.id}/messages", data=form)
    assert status == 200 and body["attachments"][0]["filename"] == "board.png"
    [message] = world.standin.channel_messages(world.channel)
    assert [u.name for u in message.mentions] == ["alice"]
    assert message.mention_roles == [] and not message.mention_everyone
    [attachment] = message.attachments
    assert (attachment.filename, attachment.description, attachment.data) == (
        "board.png",
        "The board",
        b"\x89PNG fake",
    )
    async with world.http.get(attachment.url) as resp:
        assert await resp.read() == b"\x89PNG fake"
    status, body, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/messages", json={"content": content}
    )
    latest = world.standin.channel_messages(world.channel)[-1]
    assert {u.name for u in latest.mentions} == {"alice", "carol"}
    assert latest.mention_roles == [referee.id] and latest.mention_everyone
    assert world.standin.violations == []


@pytest.mark.parametrize(
    ("commands", "detail"),
    [
        (
            [{"name": f"c{i}", "description": "d"} for i in range(101)],
            "<body>: Maximum number of application commands reached (100).",
        ),
        (
            [{"name": "Game", "description": "d"}],
            "0.name: Command name is invalid: use 1-32 lowercase letters, digits, - or _.",
        ),
        ([{"name": "g" * 33, "description": "d"}], "0.name: Must be between 1 and 32 in length."),
        (
            [{"name": "g", "description": "d" * 101}],
            "0.description: Must be 100 or fewer in length.",
        ),
        ([{"name": "g", "description": ""}], "0.description: Must be between 1 and 100 in length."),
        (
            [
                {
                    "name": "g",
                    "description": "d",
                    "options": [
                        {"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)
                    ],
                }
            ],
            "0.options: Must be 25 or fewer in length.",
        ),
    ],
)
async def test_command_tree_limits(world: World, commands: list[JSON], detail: str) -> None:
    world.standin.expect_spec_violations()  # some limits are in Discord's description too
    path = f"/applications/{world.standin.application_id}/commands"
    status, body, _ = await world.call("PUT", path, json=commands)
    assert (status, body["code"]) == (400, 50035)
    assert world.standin.violations[0].details == [detail]
    assert world.standin.commands() == []


async def test_guild_command_sync_and_get(world: World) -> None:
    guild = world.channel.guild
    assert guild is not None
    path = f"/applications/{world.standin.application_id}/guilds/{guild.id}/commands"
    status, body, _ = await world.call("PUT", path, json=GAME_TREE)
    assert status == 200 and body[0]["guild_id"] == str(guild.id) and body[0]["id"]
    again = (await world.call("PUT", path, json=GAME_TREE))[1]
    assert again[0]["id"] == body[0]["id"]  # ids survive a re-sync
    assert (await world.call("GET", path))[1] == again


async def test_dm_to_closed_member_is_403_50007(world: World) -> None:
    status, dm, _ = await world.call(
        "POST", "/users/@me/channels", json={"recipient_id": str(world.carol.id)}
    )
    assert status == 200 and dm["type"] == 1
    status, body, _ = await world.call(
        "POST", f"/channels/{dm['id']}/messages", json={"content": "hi"}
    )
    assert (status, body["code"]) == (403, 50007)
    assert world.standin.violations == [] and world.standin.dms(world.carol) == []


async def test_threads_dispatch_thread_create(world: World) -> None:
    gw = await world.gateway()
    await gw.identify(world.standin.token)
    status, thread, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/threads", json={"name": "Game 1", "type": 11}
    )
    assert status == 200 and thread["parent_id"] == str(world.channel.id)
    event = await gw.recv_event("THREAD_CREATE")
    assert event["d"]["id"] == thread["id"] and event["d"]["newly_created"] is True
    status, posted, _ = await world.call(
        "POST", f"/channels/{thread['id']}/messages", json={"content": "turn 1"}
    )
    assert status == 200 and posted["channel_id"] == thread["id"]
    status, from_message, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/messages", json={"content": "root"}
    )
    root = from_message["id"]
    status, started, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/messages/{root}/threads", json={"name": "Talk"}
    )
    assert status == 200 and started["id"] == root
    assert (await world.call("GET", f"/channels/{thread['id']}"))[1]["name"] == "Game 1"
    assert world.standin.violations == []


async def test_interaction_callbacks_webhooks_and_autocomplete(world: World) -> None:
    standin = world.standin
    gw = await world.gateway()
    await gw.identify(standin.token)
    await world.call("PUT", f"/applications/{standin.application_id}/commands", json=GAME_TREE)
    r = await standin.slash(
        world.alice, world.channel, "game move", {"action": "C", "target": world.carol}
    )
    event = (await gw.recv_event("INTERACTION_CREATE"))["d"]
    for key in (
        "id",
        "application_id",
        "type",
        "token",
        "version",
        "attachment_size_limit",
        "guild_id",
        "channel",
        "channel_id",
        "member",
        "app_permissions",
        "locale",
        "entitlements",
        "authorizing_integration_owners",
        "context",
    ):
        assert key in event
    assert event["member"]["user"]["username"] == "alice" and event["member"]["permissions"]
    assert event["data"]["resolved"]["users"][str(world.carol.id)]["username"] == "carol"
    callback = f"/interactions/{r.id}/{r.token}/callback?with_response=1"
    answer = {"type": 4, "data": {"content": "moved", "flags": 64}}
    status, body, _ = await world.call("POST", callback, json=answer, headers={})
    assert status == 200 and body["resource"]["message"]["content"] == "moved"
    assert body["interaction"]["response_message_ephemeral"] is True
    hook = f"/webhooks/{standin.application_id}/{r.token}"
    status, follow, _ = await world.call(
        "POST", f"{hook}?wait=1", json={"content": "more"}, headers={}
    )
    assert status == 200
    status, edited, _ = await world.call(
        "PATCH", f"{hook}/messages/@original", json={"content": "moved!"}, headers={}
    )
    assert edited["content"] == "moved!" and edited["flags"] & 64
    status, _, _ = await world.call("DELETE", f"{hook}/messages/{follow['id']}", headers={})
    assert status == 204
    assert [x.kind for x in r.responses] == ["callback", "followup", "edit", "delete"]
    assert r.responses[0].ephemeral and r.responses[2].content == "moved!"

    pending = asyncio.create_task(
        standin.autocomplete(world.alice, world.channel, "game move", {"action": "C"}, "action")
    )
    ac = (await gw.recv_event("INTERACTION_CREATE"))["d"]
    too_many_id = ac["id"]
    too_many = [{"name": f"n{i}", "value": f"v{i}"} for i in range(26)]
    url = f"/interactions/{ac['id']}/{ac['token']}/callback"
    standin.expect_spec_violations()  # Discord's description has the 25-choice limit too
    status, body, _ = await world.call("POST", url, json={"type": 8, "data": {"choices": too_many}})
    assert (status, body["code"]) == (400, 50035)
    with pytest.raises(RefusedAnswer):
        await pending
    assert [v.kind for v in standin.violations] == ["openapi"]
    assert standin.violations[0].details == ["data.choices: Must be 25 or fewer in length."]

    late = asyncio.create_task(
        standin.autocomplete(world.alice, world.channel, "game move", {}, "action")
    )
    ac = (await gw.recv_event("INTERACTION_CREATE"))["d"]
    standin.advance_time(3.5)
    url = f"/interactions/{ac['id']}/{ac['token']}/callback"
    choices = {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}]}}
    status, body, _ = await world.call("POST", url, json=choices)
    assert (status, body["code"]) == (404, 10062)
    with pytest.raises(RefusedAnswer):
        await late
    assert [(v.kind, v.interaction_id) for v in standin.violations] == [
        ("openapi", int(too_many_id)),
        ("interaction_deadline", int(ac["id"])),
        ("unanswered_interaction", int(too_many_id)),  # its only answer was refused
    ]


async def test_lookups_edits_replies_and_unanswered(world: World) -> None:
    standin = world.standin
    guild = world.channel.guild
    assert guild is not None
    status, member, _ = await world.call("GET", f"/guilds/{guild.id}/members/{world.alice.id}")
    assert status == 200 and member["user"]["username"] == "alice"
    status, body, _ = await world.call("GET", f"/guilds/{guild.id}/members/1")
    assert (status, body["code"]) == (404, 10007)
    assert (await world.call("GET", f"/users/{world.carol.id}"))[1]["username"] == "carol"

    said = await standin.say(world.alice, world.channel, "my turn?")
    path = f"/channels/{world.channel.id}/messages"
    status, body, _ = await world.call("PATCH", f"{path}/{said.id}", json={"content": "x"})
    assert (status, body["code"]) == (403, 50005)
    reply = {"content": "yes", "message_reference": {"message_id": str(said.id)}}
    status, quiet, _ = await world.call(
        "POST", path, json={**reply, "allowed_mentions": {"parse": [], "replied_user": False}}
    )
    assert status == 200 and quiet["type"] == 19 and quiet["mentions"] == []
    status, loud, _ = await world.call("POST", path, json=reply)
    assert [u["username"] for u in loud["mentions"]] == ["alice"]
    status, edited, _ = await world.call("PATCH", f"{path}/{loud['id']}", json={"content": "y"})
    assert status == 200 and edited["edited_timestamp"]
    assert (await world.call("DELETE", f"{path}/{loud['id']}"))[0] == 204
    assert (await world.call("GET", f"{path}/{loud['id']}"))[0] == 404

    gw = await world.gateway()
    await gw.identify(standin.token)
    await world.call("PUT", f"/applications/{standin.application_id}/commands", json=GAME_TREE)
    ignored = await standin.slash(world.alice, world.channel, "game move", {"action": "C"})
    assert (await gw.recv_event("INTERACTION_CREATE"))["d"]["id"] == str(ignored.id)
    assert [v.kind for v in standin.violations] == ["edit_others"]
    standin.advance_time(3.1)
    assert [(v.kind, v.interaction_id) for v in standin.violations][1:] == [
        ("unanswered_interaction", ignored.id)
    ]


async def test_a_repeated_nonce_with_enforce_nonce_returns_the_first_message(
    world: World,
) -> None:
    path = f"/channels/{world.channel.id}/messages"
    first = {"content": "board v5", "nonce": "t1v5", "enforce_nonce": True}
    status, made, _ = await world.call("POST", path, json=first)
    assert status == 200 and made["nonce"] == "t1v5"
    status, again, _ = await world.call("POST", path, json={**first, "content": "other"})
    assert status == 200 and again["id"] == made["id"] and again["content"] == "board v5"
    # Without enforce_nonce, or after a few minutes, a nonce makes a new message.
    status, loose, _ = await world.call("POST", path, json={"content": "x", "nonce": "t1v5"})
    assert status == 200 and loose["id"] != made["id"]
    world.standin.clock.advance(301)
    status, later, _ = await world.call("POST", path, json=first)
    assert status == 200 and later["id"] not in (made["id"], loose["id"])
    assert [m.content for m in world.standin.channel_messages(world.channel)] == [
        "board v5", "x", "board v5"]


async def test_channel_messages_are_read_newest_first_without_their_nonce(
    world: World,
) -> None:
    path = f"/channels/{world.channel.id}/messages"
    made = []
    for n in range(4):
        body = {"content": f"m{n}", "nonce": f"t1v{n}", "enforce_nonce": True}
        status, message, _ = await world.call("POST", path, json=body)
        assert status == 200 and message["nonce"] == f"t1v{n}"  # echoed when made
        made.append(message["id"])
    status, latest, _ = await world.call("GET", f"{path}?limit=3")
    assert status == 200 and [m["id"] for m in latest] == made[:0:-1]
    # Discord does not keep a nonce with the message: it is not read back.
    assert all("nonce" not in m for m in latest)
    status, older, _ = await world.call("GET", f"{path}?before={made[2]}&limit=50")
    assert [m["content"] for m in older] == ["m1", "m0"]
    status, one, _ = await world.call("GET", f"{path}/{made[0]}")
    assert status == 200 and "nonce" not in one


@pytest.mark.parametrize("nonce", ["n" * 26, "", 2**64, [1], True])
async def test_a_malformed_nonce_is_refused(world: World, nonce: Any) -> None:
    world.standin.expect_spec_violations()  # Discord's description bounds the nonce too
    status, body, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/messages",
        json={"content": "x", "nonce": nonce, "enforce_nonce": True})
    assert (status, body["code"]) == (400, 50035)
    assert world.standin.channel_messages(world.channel) == []


V2 = 1 << 15


def card(*children: JSON, accent: int = 0x0072B2) -> JSON:
    return {"type": 17, "accent_color": accent, "components": list(children)}


def text(content: str) -> JSON:
    return {"type": 10, "content": content}


def gallery(*names: str) -> JSON:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{n}"}, "description": f"alt {n}"}
                                  for n in names]}


@pytest.mark.parametrize(
    ("payload", "detail"),
    [
        (
            {"flags": V2, "content": "hello", "components": [card(text("x"))]},
            "content: Content cannot be used with components v2.",
        ),
        (
            {"flags": V2, "embeds": [{"title": "t"}], "components": [card(text("x"))]},
            "embeds: Embeds cannot be used with components v2.",
        ),
        (
            {"flags": V2, "components": [card(*(text(f"line {i}") for i in range(40)))]},
            "components: Must be 40 or fewer in length.",
        ),
        (
            {"flags": V2, "components": [card(text("a" * 2500)), card(text("b" * 1501))]},
            "components: Text displays hold 4000 characters in all (4001 sent).",
        ),
        (
            {"flags": V2, "components": [{"type": 2, "style": 1, "label": "Go",
                                          "custom_id": "go"}]},
            "components.0.type: Value must be one of [1, 17, 13, 12, 9, 14, 10].",  # the spec's
        ),
        (
            {"flags": V2, "components": [card(text("x"), gallery("board.png"))]},
            "components: attachment://board.png names no file of this message.",
        ),
    ],
)
async def test_components_v2_limits(world: World, payload: JSON, detail: str) -> None:
    world.standin.expect_spec_violations()  # some are in Discord's description too
    status, body, _ = await world.call(
        "POST", f"/channels/{world.channel.id}/messages", json=payload
    )
    assert (status, body["code"]) == (400, 50035)
    assert [v.details for v in world.standin.violations] == [[detail]]
    assert world.standin.channel_messages(world.channel) == []


async def test_a_gallery_holds_one_to_ten_items(world: World) -> None:
    world.standin.expect_spec_violations()
    path = f"/channels/{world.channel.id}/messages"
    empty = {"flags": V2, "components": [card(text("x"), {"type": 12, "items": []})]}
    status, body, _ = await world.call("POST", path, json=empty)
    assert (status, body["code"]) == (400, 50035)
    assert world.standin.violations[-1].details == [
        "components.0.components.1.items: Must be between 1 and 10 in length."]


async def upload_card(world: World, components: list[JSON], files: list[str]) -> tuple[int, Any]:
    form = aiohttp.FormData(quote_fields=False)
    payload = {"flags": V2, "components": components,
               "attachments": [{"id": i, "filename": n} for i, n in enumerate(files)]}
    form.add_field("payload_json", json.dumps(payload))
    for i, name in enumerate(files):
        form.add_field(f"files[{i}]", b"\x89PNG fake " + name.encode(), filename=name)
    status, body, _ = await world.call("POST", f"/channels/{world.channel.id}/messages",
                                       data=form)
    return status, body


async def test_a_card_shows_only_the_files_its_components_name(world: World) -> None:
    status, body = await upload_card(
        world, [card(text("## Palermo, round 2"), gallery("board.png"), text("alice moved."))],
        ["board.png", "extra.png"])
    assert status == 200 and body["flags"] & V2 and body["content"] == ""
    [message] = world.standin.channel_messages(world.channel)
    assert message.card and message.text == "## Palermo, round 2\nalice moved."
    assert [a.filename for a in message.attachments] == ["board.png", "extra.png"]
    assert [a.filename for a in message.shown_attachments()] == ["board.png"]
    assert world.standin.violations == []


async def test_the_components_v2_flag_stays_once_set(world: World) -> None:
    status, body = await upload_card(world, [card(text("first"), gallery("board.png"))],
                                     ["board.png"])
    assert status == 200
    path = f"/channels/{world.channel.id}/messages/{body['id']}"
    # An edit may keep the card's file by name and change its text.
    status, edited, _ = await world.call(
        "PATCH", path, json={"components": [card(text("second"), gallery("board.png"))]})
    assert status == 200 and edited["flags"] & V2
    [message] = world.standin.channel_messages(world.channel)
    assert message.text == "second" and len(message.shown_attachments()) == 1
    # Neither content nor dropping the flag is allowed on a card.
    status, refused, _ = await world.call("PATCH", path, json={"content": "plain"})
    assert (status, refused["code"]) == (400, 50035)
    status, refused, _ = await world.call("PATCH", path, json={"flags": 0})
    assert (status, refused["code"]) == (400, 50035)
    assert [v.details for v in world.standin.violations] == [
        ["content: Content cannot be used with components v2."],
        ["flags: The components v2 flag cannot be removed from a message."],
    ]
    assert message.text == "second" and message.flags & V2
