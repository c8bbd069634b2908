"""Command sync, interaction callbacks and interaction webhooks (follow-ups and edits)."""

from __future__ import annotations

from aiohttp import web

from .commands import focused_type
from .errors import (
    ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    FormErrors,
)
from .httpio import INTERACTION, json_response, no_content, read_body, snowflake
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEADLINE_SECONDS,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    TOKEN_SECONDS,
    UPDATE_MESSAGE,
    Choice,
    InteractionRecord,
    ResponseRecord,
)
from .limits import check_choices, check_message, check_modal
from .messages import COMPONENTS_V2, EPHEMERAL, LOADING, Message
from .model import JSON
from .state import SETTABLE_FLAGS, World, clean_payload

UNKNOWN_APPLICATION = 10002
UNKNOWN_GUILD = 10004

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}


class InteractionRoutes:
    def __init__(self, world: World) -> None:
        self.world = world

    def register(self, app: web.Application, api: str) -> None:
        r = app.router
        for path in (
            f"{api}/applications/{{app}}/commands",
            f"{api}/applications/{{app}}/guilds/{{guild}}/commands",
        ):
            r.add_put(path, self.put_commands)
            r.add_get(path, self.get_commands)
        r.add_post(f"{api}/interactions/{{interaction}}/{{token}}/callback", self.callback)
        r.add_post(f"{api}/webhooks/{{app}}/{{token}}", self.followup)
        hook = f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}"
        r.add_get(hook, self.get_hook_message)
        r.add_patch(hook, self.edit_hook_message)
        r.add_delete(hook, self.delete_hook_message)

    # -- command sync ---------------------------------------------------------------------
    def _scope(self, request: web.Request) -> int | None:
        if snowflake(request, "app") != self.world.application_id:
            raise ApiError(
                404, UNKNOWN_APPLICATION, "Unknown Application", kind="unknown_application"
            )
        if "guild" not in request.match_info:
            return None
        guild_id = snowflake(request, "guild")
        if guild_id not in self.world.guilds:
            raise ApiError(404, UNKNOWN_GUILD, "Unknown Guild", kind="unknown_guild")
        return guild_id

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        stored = self.world.commands.overwrite(scope, body)
        self.world.notifier.notify()
        return json_response(stored)

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.world.commands.listing(self._scope(request)))

    # -- the first reply ------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        world = self.world
        record = world.interactions.get(snowflake(request, "interaction"))
        if record is None or record.token != request.match_info["token"]:
            raise ApiError(
                404, UNKNOWN_INTERACTION, "Unknown interaction", kind="unknown_interaction"
            )
        request[INTERACTION] = record
        if record.acknowledged:
            raise ApiError(
                400,
                ALREADY_ACKNOWLEDGED,
                "Interaction has already been acknowledged.",
                kind="already_acknowledged",
            )
        age = world.clock.now() - record.created_at
        if age > DEADLINE_SECONDS:
            raise ApiError(
                404,
                UNKNOWN_INTERACTION,
                "Unknown interaction",
                kind="interaction_deadline",
                details=[f"first reply after {age:.1f} s; Discord allows {DEADLINE_SECONDS:g} s"],
            )
        raw, uploads = await read_body(request)
        body = clean_payload(raw)
        kind = body.get("type")
        data = clean_payload(body.get("data"))
        if kind not in ALLOWED_CALLBACKS[record.type]:
            errors = FormErrors()
            allowed = sorted(ALLOWED_CALLBACKS[record.type])
            errors.add(
                ("type",), "INTERACTION_RESPONSE_TYPE_INVALID", f"Value must be one of {allowed}."
            )
            errors.raise_if_any("callback_type")
        assert isinstance(kind, int)
        message: Message | None = None
        modal: JSON | None = None
        files = [(u.filename, u.data) for u in uploads]
        if kind == AUTOCOMPLETE_RESULT:
            path, focused = _autocomplete_target(record)
            command = world.commands.find(record.payload["data"]["name"], _guild_id(record))
            option_type = focused_type(command, path, focused) if command and focused else 3
            check_choices(data.get("choices"), option_type)
            record.choices = [Choice(c["name"], c["value"]) for c in data["choices"]]
        elif kind == MODAL:
            check_modal(data)
            modal = data
        elif kind == CHANNEL_MESSAGE:
            check_message(data, files, creating=True, prefix=("data",))
            flags = int(data.get("flags") or 0) & (SETTABLE_FLAGS | EPHEMERAL)
            message = world.create_message(
                record.channel,
                world.bot,
                data,
                uploads,
                flags=flags,
                interaction=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
            )
            record.original = message
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = world.create_message(
                record.channel,
                world.bot,
                {},
                [],
                flags=flags,
                interaction=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
            )
            record.original = message
            record.first_followup_edits_original = True
        elif kind == UPDATE_MESSAGE:
            assert record.message is not None
            check_message(data, files, creating=False, prefix=("data",), before=record.message)
            message = world.edit_message(record.message, data, uploads)
        record.callback_type = kind
        record.add(ResponseRecord.of("callback", message, callback_type=kind, modal=modal))
        return json_response(_callback_body(record, kind, message))

    # -- follow-ups and edits -------------------------------------------------------------
    def _hook(self, request: web.Request) -> InteractionRecord:
        record = self.world.by_token.get(request.match_info["token"])
        if record is None or request.match_info["app"] != str(self.world.application_id):
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook", kind="unknown_webhook")
        request[INTERACTION] = record
        age = self.world.clock.now() - record.created_at
        if age > TOKEN_SECONDS:
            raise ApiError(
                401,
                INVALID_WEBHOOK_TOKEN,
                "Invalid Webhook Token",
                kind="token_expired",
                details=[f"interaction token used after {age / 60:.1f} min; it lasts 15 min"],
            )
        if not record.acknowledged or record.type == AUTOCOMPLETE:
            raise ApiError(
                404,
                UNKNOWN_WEBHOOK,
                "Unknown Webhook",
                kind="webhook_before_reply",
                details=["the interaction webhook was used before the interaction was answered"],
            )
        return record

    def _hook_message(self, request: web.Request, record: InteractionRecord) -> Message:
        wanted = request.match_info["message"]
        if wanted == "@original":
            message = record.original
        else:
            found = self.world.messages.get(snowflake(request, "message"))
            ours = found is not None and (found.interaction_meta or {}).get("id") == str(record.id)
            message = found if ours or found is record.original else None
        if message is None or message.deleted:
            raise ApiError(
                404, UNKNOWN_MESSAGE, "Unknown Message", kind="unknown_message", violation=False
            )
        return message

    async def followup(self, request: web.Request) -> web.Response:
        world = self.world
        record = self._hook(request)
        raw, uploads = await read_body(request)
        faults = [await fault(record) for fault in list(world.before_followup)]
        if any(faults):
            return no_content()  # the request died with its sender: nothing is made
        payload = clean_payload(raw)
        check_message(payload, [(u.filename, u.data) for u in uploads], creating=True)
        original = record.original
        if record.first_followup_edits_original and original is not None and original.loading:
            # After a deferral the first follow-up fills the "thinking" message; its
            # ephemerality was fixed by the deferral.
            record.first_followup_edits_original = False
            # A card's flag is the follow-up's to set.
            v2 = int(payload.get("flags") or 0) & COMPONENTS_V2
            message = world.edit_message(original, {**payload, "flags": None}, uploads)
            message.flags |= v2
        else:
            flags = int(payload.get("flags") or 0) & (SETTABLE_FLAGS | EPHEMERAL)
            message = world.create_message(
                record.channel, world.bot, payload, uploads, flags=flags, interaction=record
            )
            for fault in list(world.after_create):
                await fault(message)
        record.add(ResponseRecord.of("followup", message))
        if request.query.get("wait", "0").lower() in ("1", "true"):
            return json_response(message.to_json())
        return no_content()

    async def get_hook_message(self, request: web.Request) -> web.Response:
        record = self._hook(request)
        return json_response(self._hook_message(request, record).to_json())

    async def edit_hook_message(self, request: web.Request) -> web.Response:
        record = self._hook(request)
        message = self._hook_message(request, record)
        raw, uploads = await read_body(request)
        payload = clean_payload(raw)
        check_message(
            payload,
            [(u.filename, u.data) for u in uploads],
            creating=False,
            keeps_attachments=len(message.attachments),
            before=message,
        )
        if message is record.original:
            record.first_followup_edits_original = False
        self.world.edit_message(message, payload, uploads)
        record.add(ResponseRecord.of("edit", message))
        return json_response(message.to_json())

    async def delete_hook_message(self, request: web.Request) -> web.Response:
        record = self._hook(request)
        message = self._hook_message(request, record)
        self.world.delete_message(message)
        record.add(ResponseRecord(kind="delete", message=message))
        return no_content()


def _guild_id(record: InteractionRecord) -> int | None:
    return record.guild.id if record.guild else None


def _autocomplete_target(record: InteractionRecord) -> tuple[list[str], str | None]:
    """The subcommand path and the focused option name of an autocomplete interaction."""
    path: list[str] = []
    options = record.payload["data"].get("options", [])
    for _ in range(3):  # command > group > subcommand at most
        sub = next((o for o in options if o["type"] in (1, 2)), None)
        if sub is None:
            break
        path.append(sub["name"])
        options = sub.get("options", [])
    focused = next((o["name"] for o in options if o.get("focused")), None)
    return path, focused


def _callback_body(record: InteractionRecord, kind: int, message: Message | None) -> JSON:
    interaction: JSON = {"id": str(record.id), "type": record.type}
    if message is not None:
        interaction.update(
            response_message_id=str(message.id),
            response_message_loading=message.loading,
            response_message_ephemeral=message.ephemeral,
        )
    resource: JSON = {"type": kind}
    if message is not None:
        resource["message"] = message.to_json()
    return {"interaction": interaction, "resource": resource}
