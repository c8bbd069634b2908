"""REST routes authenticated with the bot token: login, channels, messages, threads, DMs."""

from __future__ import annotations

from aiohttp import web

from .errors import (
    CANNOT_DM_USER,
    CANNOT_EDIT_OTHERS,
    UNKNOWN_CHANNEL,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    ApiError,
    FormErrors,
    bad_length,
)
from .httpio import json_response, no_content, read_body, snowflake
from .limits import check_message, check_nonce
from .messages import Message
from .model import DM, PRIVATE_THREAD, PUBLIC_THREAD, Channel
from .state import SETTABLE_FLAGS, World, clean_payload

UNKNOWN_GUILD = 10004
INVALID_RECIPIENT = 50033
THREAD_EXISTS = 160004


class RestRoutes:
    def __init__(self, world: World) -> None:
        self.world = world

    def register(self, app: web.Application, api: str) -> None:
        r = app.router
        r.add_get(f"{api}/users/@me", self.me)
        r.add_post(f"{api}/users/@me/channels", self.create_dm)
        r.add_get(f"{api}/users/{{user}}", self.get_user)
        r.add_get(f"{api}/oauth2/applications/@me", self.application)
        r.add_get(f"{api}/applications/@me", self.application)
        r.add_get(f"{api}/gateway", self.gateway)
        r.add_get(f"{api}/gateway/bot", self.gateway)
        r.add_get(f"{api}/channels/{{channel}}", self.get_channel)
        r.add_post(f"{api}/channels/{{channel}}/messages", self.post_message)
        r.add_get(f"{api}/channels/{{channel}}/messages", self.list_messages)
        r.add_get(f"{api}/channels/{{channel}}/messages/{{message}}", self.get_message)
        r.add_patch(f"{api}/channels/{{channel}}/messages/{{message}}", self.edit_message)
        r.add_delete(f"{api}/channels/{{channel}}/messages/{{message}}", self.delete_message)
        r.add_post(f"{api}/channels/{{channel}}/threads", self.create_thread)
        r.add_post(
            f"{api}/channels/{{channel}}/messages/{{message}}/threads", self.thread_from_message
        )
        r.add_get(f"{api}/guilds/{{guild}}/members/{{user}}", self.get_member)
        r.add_get("/attachments/{channel}/{attachment}/{filename}", self.attachment)

    # -- lookups --------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        channel = self.world.channels.get(snowflake(request, "channel"))
        if channel is None:
            raise ApiError(
                404, UNKNOWN_CHANNEL, "Unknown Channel", kind="unknown_channel", violation=False
            )
        return channel

    def _message(self, request: web.Request, channel: Channel) -> Message:
        message = self.world.messages.get(snowflake(request, "message"))
        if (
            message is None
            or message.channel is not channel
            or message.deleted
            or message.ephemeral
        ):
            raise ApiError(
                404, UNKNOWN_MESSAGE, "Unknown Message", kind="unknown_message", violation=False
            )
        return message

    # -- login and identity -----------------------------------------------------------------
    async def me(self, request: web.Request) -> web.Response:
        return json_response({**self.world.bot.to_json(), "verified": True, "mfa_enabled": False})

    async def application(self, request: web.Request) -> web.Response:
        world = self.world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot.name,
                "description": "A local stand-in application.",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": world.owner.to_json(),
                "team": None,
                "summary": "",
                "verify_key": "0" * 64,
                "flags": (1 << 12) | (1 << 14) | (1 << 18),
                "bot": world.bot.to_json(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
            }
        )

    async def gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {"url": self.world.gateway_url, "shards": 1, "session_start_limit": limit}
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(snowflake(request, "user"))
        if user is None:
            raise ApiError(404, UNKNOWN_USER, "Unknown User", kind="unknown_user", violation=False)
        return json_response(user.to_json())

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.world.guilds.get(snowflake(request, "guild"))
        if guild is None:
            raise ApiError(
                404, UNKNOWN_GUILD, "Unknown Guild", kind="unknown_guild", violation=False
            )
        member = guild.members.get(snowflake(request, "user"))
        if member is None:
            raise ApiError(
                404, UNKNOWN_MEMBER, "Unknown Member", kind="unknown_member", violation=False
            )
        return json_response(member.to_json())

    async def create_dm(self, request: web.Request) -> web.Response:
        body = clean_payload((await read_body(request))[0])
        user = self.world.users.get(int(str(body.get("recipient_id") or 0)))
        if user is None or user.bot:
            raise ApiError(
                400,
                INVALID_RECIPIENT,
                "Invalid Recipient(s)",
                kind="invalid_recipient",
                violation=False,
            )
        return json_response(self.world.dm_channel(user).to_json())

    # -- channels and messages --------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_json())

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type == DM and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(
                403,
                CANNOT_DM_USER,
                "Cannot send messages to this user",
                kind="dm_closed",
                violation=False,
            )
        raw, uploads = await read_body(request)
        payload = clean_payload(raw)
        nonce = check_nonce(payload)
        if nonce is not None and payload.get("enforce_nonce") is True:
            # A repeat within a few minutes gets the first message back; nothing new is made.
            existing = self.world.message_with_nonce(self.world.bot, nonce)
            if existing is not None and existing.deleted:
                raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message", kind="unknown_message",
                               violation=False)
            if existing is not None:
                return json_response(existing.to_json())
        check_message(payload, [(u.filename, u.data) for u in uploads], creating=True)
        reference = payload.get("message_reference") or {}
        replied = self.world.messages.get(int(str(reference.get("message_id") or 0)))
        message = self.world.create_message(
            channel,
            self.world.bot,
            payload,
            uploads,
            flags=int(payload.get("flags") or 0) & SETTABLE_FLAGS,
            message_type=19 if replied else 0,
            reply_to=replied if replied and not replied.deleted else None,
        )
        if nonce is not None and payload.get("enforce_nonce") is True:
            self.world.remember_nonce(message, nonce)
        for fault in list(self.world.after_create):
            await fault(message)
        return json_response(message.to_json())

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(self._message(request, channel).to_json(with_nonce=False))

    async def list_messages(self, request: web.Request) -> web.Response:
        """Get Channel Messages: newest first, at most ``limit`` (1-100, default 50), before,
        after or around a message id (the request was checked against the description)."""
        channel = self._channel(request)
        query = request.query
        limit = int(query.get("limit", "50"))
        shown = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if "before" in query:
            shown = [m for m in shown if m.id < int(query["before"])][-limit:]
        elif "after" in query:
            shown = [m for m in shown if m.id > int(query["after"])][:limit]
        elif "around" in query:
            pivot = int(query["around"])
            older = [m for m in shown if m.id <= pivot]
            newer = [m for m in shown if m.id > pivot]
            # Discord centres the page on the id: half before it (the id included), half after.
            shown = older[-(limit - limit // 2):] + newer[:limit // 2]
        else:
            shown = shown[-limit:]
        return json_response([m.to_json(with_nonce=False) for m in reversed(shown)])

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author is not self.world.bot:
            raise ApiError(
                403,
                CANNOT_EDIT_OTHERS,
                "Cannot edit a message authored by another user",
                kind="edit_others",
            )
        raw, uploads = await read_body(request)
        payload = clean_payload(raw)
        check_message(payload, [(u.filename, u.data) for u in uploads], creating=False,
                      before=message)
        return json_response(self.world.edit_message(message, payload, uploads).to_json())

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self.world.delete_message(self._message(request, channel))
        return no_content()

    # -- threads --------------------------------------------------------------------------
    def _thread_name(self, payload: dict[str, object]) -> str:
        errors = FormErrors()
        name = str(payload.get("name") or "")
        bad_length(errors, ("name",), name, 1, 100)
        errors.raise_if_any("thread")
        return name

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        payload = clean_payload((await read_body(request))[0])
        name = self._thread_name(payload)
        kind = int(str(payload.get("type") or PRIVATE_THREAD))
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD) or parent.guild is None or parent.is_thread:
            errors = FormErrors()
            errors.add(
                ("type",), "THREAD_TYPE_INVALID", "Threads need a text channel and type 11 or 12."
            )
            errors.raise_if_any("thread")
        thread = self.world.add_thread(parent, name, kind, self.world.bot, self.world.ids.next())
        return json_response(thread.to_json())

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        message = self._message(request, parent)
        payload = clean_payload((await read_body(request))[0])
        name = self._thread_name(payload)
        if message.thread is not None:
            raise ApiError(
                400,
                THREAD_EXISTS,
                "A thread has already been created for this message",
                kind="thread",
            )
        thread = self.world.add_thread(parent, name, PUBLIC_THREAD, self.world.bot, message.id)
        message.thread = thread
        return json_response(thread.to_json())

    async def attachment(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        wanted = snowflake(request, "attachment")
        for message in channel.messages:
            for att in message.attachments:
                if att.id == wanted:
                    return web.Response(body=att.data, content_type=att.content_type)
        raise ApiError(404, 0, "404: Not Found", kind="unknown_attachment", violation=False)
