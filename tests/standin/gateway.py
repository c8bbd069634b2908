"""The gateway websocket (v10, JSON): HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatch.

Frames are plain text unless the client asks for ``compress=zlib-stream``; then every payload
goes through one zlib context per connection, each ending with a Z_SYNC_FLUSH marker.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .model import JSON
from .state import UnhandledRoute, World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11
MESSAGE_CONTENT_INTENT = 1 << 15
REPLAY_BUFFER = 2000
MAX_FRAMES = 1_000_000  # per connection; far above any test, keeps the read loop bounded


def on_shard(shard: list[int] | None, guild_id: int | None) -> bool:
    """Whether a server's events reach a session of gateway shard ``[id, count]``; DMs
    (no server) reach shard 0."""
    if shard is None:
        return True
    number, count = shard
    return (0 if guild_id is None else (guild_id >> 22) % count) == number


def _reaches(session: Session, event: str, data: JSON) -> bool:
    guild = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
    return on_shard(session.shard, int(guild) if guild is not None else None)


class Connection:
    """One websocket; a writer task keeps frames in dispatch order."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool, path: str) -> None:
        self.ws = ws
        self.path = path
        self._zlib = zlib.compressobj() if compress else None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        self._queue.put_nowait(text)

    def send_op(self, op: int, data: Any) -> None:
        self.send(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    async def _write(self) -> None:
        for _ in range(MAX_FRAMES):
            text = await self._queue.get()
            if text is None or self.ws.closed:
                return
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def stop(self) -> None:
        self._queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self._writer, 2.0)


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    shard: list[int] | None
    sequence: int = 0
    connection: Connection | None = None
    buffer: collections.deque[tuple[int, str]] = field(
        default_factory=lambda: collections.deque(maxlen=REPLAY_BUFFER)
    )
    ready: bool = False
    closed: bool = False
    resumes: int = 0

    def dispatch(self, event: str, data: JSON) -> None:
        self.sequence += 1
        text = json.dumps({"op": DISPATCH, "s": self.sequence, "t": event, "d": data})
        self.buffer.append((self.sequence, text))
        if self.connection is not None:
            self.connection.send(text)


class Gateway:
    """Accepts gateway connections and fans dispatches out to the live sessions."""

    def __init__(self, world: World, heartbeat_interval_ms: int = 41_250) -> None:
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.log: list[str] = []  # e.g. "connect /", "IDENTIFY", "READY", "RESUME", "close 1000"
        self.heartbeats = 0
        self.zlib_connections = 0
        self.resume_url = ""
        world.dispatcher = self.dispatch

    @property
    def current(self) -> Session | None:
        live = [s for s in self.sessions.values() if not s.closed]
        return live[-1] if live else None

    def _note(self, entry: str) -> None:
        self.log.append(entry)
        self.world.notifier.notify()

    def live_shards(self) -> list[Session]:
        return [s for s in self.sessions.values()
                if not s.closed and s.ready and s.connection is not None]

    def dispatch(self, event: str, data: JSON, intent: int | None) -> None:
        for session in list(self.sessions.values()):
            if session.closed or not session.ready:
                continue
            if intent is not None and not session.intents & intent:
                continue
            if not _reaches(session, event, data):
                continue
            session.dispatch(event, self._visible(session, event, data))

    def _visible(self, session: Session, event: str, data: JSON) -> JSON:
        """Without the message content intent, other people's guild messages arrive blank."""
        if (
            event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
            or session.intents & MESSAGE_CONTENT_INTENT
        ):
            return data
        bot_id = str(self.world.bot.id)
        author = data.get("author", {}).get("id")
        mentioned = any(u.get("id") == bot_id for u in data.get("mentions", []))
        if author == bot_id or "guild_id" not in data or mentioned:
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        query = request.query
        if query.get("v") != "10" or query.get("encoding", "json") != "json":
            self.world.unhandled.append(
                UnhandledRoute("GATEWAY", request.path, request.query_string)
            )
            await ws.close(code=4012 if query.get("v") != "10" else 4002)
            return ws
        compress = query.get("compress") == "zlib-stream"
        self.zlib_connections += compress
        conn = Connection(ws, compress, request.path)
        self.connections.append(conn)
        self._note(f"connect {request.path}")
        conn.send_op(
            HELLO, {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["standin"]}
        )
        session: Session | None = None
        by_client = False
        try:
            for _ in range(MAX_FRAMES):
                msg = await ws.receive()
                if msg.type != WSMsgType.TEXT:
                    by_client = msg.type == WSMsgType.CLOSE
                    break
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    frame = None
                if not isinstance(frame, dict):
                    self.world.unhandled.append(UnhandledRoute("GATEWAY", "undecodable frame"))
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                session = await self._on_frame(conn, frame, session)
        finally:
            await conn.stop()
            self.connections.remove(conn)
            if session is not None and session.connection is conn:
                session.connection = None
                if by_client and ws.close_code in (1000, 1001):
                    session.closed = True  # Discord ends the session on a 1000/1001 close
            self._note(f"{'client' if by_client else 'server'} close {ws.close_code}")
        return ws

    async def _on_frame(
        self, conn: Connection, frame: JSON, session: Session | None
    ) -> Session | None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            conn.send_op(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            return await self._identify(conn, data or {})
        elif op == RESUME:
            return await self._resume(conn, data or {})
        elif op == PRESENCE:
            self._note("PRESENCE_UPDATE")
        elif op == REQUEST_MEMBERS and session is not None:
            self._chunk(session, data or {})
        else:
            self.world.unhandled.append(UnhandledRoute("GATEWAY", f"op {op}"))
            self._note(f"unknown op {op}")
        return session

    async def _identify(self, conn: Connection, data: JSON) -> Session | None:
        self._note("IDENTIFY")
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        for old in self.sessions.values():
            # A new session replaces the old one of its shard (every one, unsharded).
            if shard is None or old.shard is None or old.shard[0] == shard[0]:
                old.closed = True
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), shard)
        session.connection = conn
        self.sessions[session.id] = session
        world = self.world
        ready: JSON = {
            "v": 10,
            "user": {**world.bot.to_json(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds
                       if on_shard(session.shard, g)],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "application": {
                "id": str(world.application_id),
                "flags": (1 << 12) | (1 << 14) | (1 << 18),
            },
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": ["local"],
            "_trace": ["standin"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        self._note("READY")
        for guild in world.guilds.values():
            if on_shard(session.shard, guild.id):
                session.dispatch("GUILD_CREATE", guild.to_json())
        session.ready = True
        self._note("GUILDS_SENT")
        return session

    async def _resume(self, conn: Connection, data: JSON) -> Session | None:
        self._note("RESUME")
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        oldest = session.buffer[0][0] if session and session.buffer else 1
        if session is None or session.closed or seq + 1 < oldest:
            conn.send_op(INVALID_SESSION, False)
            self._note("INVALID_SESSION")
            return None
        if session.connection is not None and session.connection is not conn:
            await session.connection.ws.close(code=4000)
        session.connection = conn
        for number, text in list(session.buffer):
            if number > seq:
                conn.send(text)
        session.resumes += 1
        session.dispatch("RESUMED", {"_trace": ["standin"]})
        self._note("RESUMED")
        return session

    def _chunk(self, session: Session, data: JSON) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        prefix = str(data.get("query") or "").lower()
        members = [
            m.to_json()
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.name.lower().startswith(prefix)
        ]
        limit = int(data.get("limit") or 0)
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": members[:limit] if limit else members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def send_reconnect(self) -> Session:
        """Sends op 7 on the live session; events until the RESUME are buffered for replay."""
        session = self.current
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the gateway")
        session.connection.send_op(RECONNECT, None)
        session.connection = None
        self._note("RECONNECT")
        return session

    async def close_all(self, code: int = 1001) -> None:
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=code), 2.0)
