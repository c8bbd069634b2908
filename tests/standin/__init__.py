"""A local Discord stand-in for end-to-end tests.

It serves Discord's gateway (websocket v10, JSON, plain or zlib-stream frames) and the REST
routes a slash-command bot uses, on 127.0.0.1 with an ephemeral port. The unmodified discord.py
client connects to it once ``discord.http.Route.BASE`` is ``standin.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` is ``yarl.URL(standin.gateway_url)``
(``standin.env`` gives both as ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` plus
``DISCORD_TOKEN``). Nothing is ever sent to discord.com.

Driver API (every wait takes a timeout in seconds and raises :class:`StandInTimeout`)::

    standin = StandIn(token="...", rest_rate_limit=50, rest_rate_window=1.0)
    await standin.start()            # or: async with StandIn() as standin
    standin.api_base, standin.gateway_url, standin.token, standin.env, standin.bot_user

    guild = standin.add_guild("Board Games")
    channel = standin.add_channel(guild, "games")
    role = standin.add_role(guild, "Referee", permissions=0)
    alice = standin.add_member(guild, "alice", dms_open=True, manage_guild=False, roles=[role])
    standin.dm_channel(alice)        # the bot<->alice DM channel (for commands used in DMs)

    await standin.wait_ready(timeout)                 # bot identified, got READY + guilds
    await standin.wait_synced(timeout, names=("game",))
    r = await standin.slash(alice, channel, "game new", {"game": "palatinus", "players": 3})
    reply = await r.wait_reply(timeout)               # ResponseRecord
    r.responses, r.replies, r.callback, r.errors      # every answer / refusal so far
    await r.wait_callback(timeout); await r.wait_replies(n, timeout); await r.wait_error(timeout)
    choices = await standin.autocomplete(alice, channel, "move", {"action": "C"}, focused="action")
    r = await standin.click(alice, message, "custom-id")
    r = await standin.select(alice, message, "custom-id", ["value"])
    r = await standin.submit_modal(alice, r_that_showed_the_modal, {"input-id": "text"})
    await standin.say(alice, channel, "hello")        # a user message (MESSAGE_CREATE)

    standin.channel_messages(channel, visible_to=None) -> list[Message]
    standin.dms(alice) -> list[Message]
    await standin.wait_for_message(predicate, timeout) -> Message
    standin.messages, standin.interactions, standin.commands(guild=None)
    standin.violations        # limits the bot broke (assert it is empty)
    standin.spec_violations   # requests Discord's OpenAPI description refuses (400/50035,
                              # 404, 405); the e2e fixtures fail a test on any, unless it
                              # called standin.expect_spec_violations()
    standin.error_responses   # every error answer, refusals such as closed DMs included
    standin.unhandled         # routes / gateway ops the stand-in does not implement
    standin.advance_time(seconds)      # step past deadlines without sleeping
    await standin.force_reconnect(timeout)   # op 7, waits for the RESUME
    await standin.stop()

    # Several processes, one shard each: a server's events reach its shard, DMs shard 0.
    guild = standin.add_guild("Big", shard=(1, 2)); await standin.wait_shards(2, timeout)
    # Faults: awaited once a message is made (before the bot hears back), and before a
    # follow-up is handled (returning True drops it, as if its sender died).
    standin.world.after_create.append(fault); standin.world.before_followup.append(fault)

Every request under ``/api/v10`` is checked against Discord's OpenAPI 3.1 description
(``shared/discord-openapi.json`` beside the repository, see :mod:`.openapi`): route, method,
path and query parameters and the JSON body (or a multipart body's ``payload_json``).

Create Message honours ``nonce`` with ``enforce_nonce: true`` as Discord does: the same author
and nonce within five minutes (``standin.world.nonce_seconds``, which a test may shorten) returns
the first message; a malformed nonce is refused (50035). The nonce is echoed in that answer and
in MESSAGE_CREATE only: a message read back (Get Channel Message(s)) has none. Get Channel
Messages answers newest first, at most ``limit`` (default 50), ``before``/``after``/``around``.

Components V2 (flag ``IS_COMPONENTS_V2``, 1 << 15) as Discord documents it: no ``content`` or
``embeds`` on such a message, layout kinds at the top, 40 components in all (nested ones count),
4,000 characters of text displays, media galleries of 1-10 items whose ``attachment://NAME``
must name a file of the message, and the flag kept once set (an edit cannot drop it). Mentions
in a card's text displays ping as content's do.

Records: :class:`Message` (``id, channel, author, content, embeds, components, attachments``
with ``data`` bytes / ``filename`` / ``description``, ``flags``, ``ephemeral``, ``mentions``,
``mention_roles``, ``mention_everyone``, ``visible_to``, ``thread``, ``edits``; ``card``,
``text`` (content, or a card's text displays one a line), ``shown_attachments()`` (on a card
only the files a component names) and ``labels()``),
:class:`ResponseRecord` (``kind`` callback/followup/edit/delete, ``callback_type``,
``content, embeds, components, attachments, flags, ephemeral, message, modal``, ``text``) and
:class:`InteractionRecord`.

Driver calls a real user could not make (unknown command or option, a value outside the
choices, a button that is not on the message) raise :class:`UsageError`.

For discord.py clients, :mod:`.discord_setup` has ``pointed_at(standin)`` and
``running(client, standin)``.
"""

from .clock import StandInTimeout
from .driver import StandIn
from .errors import ApiError, RefusedAnswer, UsageError
from .interactions import Choice, InteractionRecord, ResponseRecord
from .messages import Attachment, Message
from .model import Channel, Guild, Member, Role, User
from .state import ErrorResponse, UnhandledRoute, Violation

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "Choice",
    "ErrorResponse",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "RefusedAnswer",
    "ResponseRecord",
    "Role",
    "StandIn",
    "StandInTimeout",
    "UnhandledRoute",
    "UsageError",
    "User",
    "Violation",
]
