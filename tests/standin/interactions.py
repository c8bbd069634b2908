"""Records of the interactions the driver sent and of every answer the bot gave to them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .messages import COMPONENTS_V2, Attachment, Message, component_text
from .model import JSON, Channel, Guild, Member, User

if TYPE_CHECKING:
    from .clock import Notifier
    from .errors import ApiError

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

DEADLINE_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0


@dataclass(frozen=True)
class Choice:
    name: str
    value: Any


@dataclass(eq=False)
class ResponseRecord:
    """One answer: the callback, a follow-up, an edit or a deletion.

    ``content``/``embeds``/``components``/``attachments``/``flags`` are copied from the
    resulting message when the answer was made; ``message`` is the live record.
    """

    kind: str  # "callback", "followup", "edit" or "delete"
    callback_type: int | None = None
    message: Message | None = None
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    modal: JSON | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def text(self) -> str:
        """What a member reads: ``content``, or a card's text displays one a line."""
        return component_text(self.components) if self.flags & COMPONENTS_V2 else self.content

    @property
    def is_message(self) -> bool:
        """True when the answer shows a message (not a bare ack, a modal or a deletion)."""
        return self.message is not None and self.kind != "delete" and not self.flags & 128

    @classmethod
    def of(cls, kind: str, message: Message | None, **extra: Any) -> ResponseRecord:
        if message is None:
            return cls(kind=kind, **extra)
        return cls(
            kind=kind,
            message=message,
            content=message.content,
            embeds=list(message.embeds),
            components=list(message.components),
            attachments=list(message.attachments),
            flags=message.flags,
            **extra,
        )


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the driver dispatched, and what the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    member: Member | None
    channel: Channel
    guild: Guild | None
    payload: JSON
    created_at: float
    notifier: Notifier
    message: Message | None = None  # the message a clicked component sits on
    callback_type: int | None = None
    original: Message | None = None
    first_followup_edits_original: bool = False
    deadline_flagged: bool = False
    responses: list[ResponseRecord] = field(default_factory=list)
    errors: list[ApiError] = field(default_factory=list)
    choices: list[Choice] | None = None

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def callback(self) -> ResponseRecord | None:
        return next((r for r in self.responses if r.kind == "callback"), None)

    @property
    def replies(self) -> list[ResponseRecord]:
        """Answers that show a message, in order."""
        return [r for r in self.responses if r.is_message]

    def add(self, response: ResponseRecord) -> ResponseRecord:
        self.responses.append(response)
        self.notifier.notify()
        return response

    async def wait_callback(self, timeout: float = 5.0) -> ResponseRecord:
        """The first response to the interaction (the callback)."""
        return await self.notifier.wait_until(
            lambda: self.callback, timeout, f"the callback to interaction {self.id}"
        )

    async def wait_reply(self, timeout: float = 5.0) -> ResponseRecord:
        """The first answer that shows a message (a reply, the edit of a deferral, a follow-up)."""
        return await self.notifier.wait_until(
            lambda: next(iter(self.replies), None), timeout, f"a reply to interaction {self.id}"
        )

    async def wait_replies(self, count: int, timeout: float = 5.0) -> list[ResponseRecord]:
        """The first ``count`` answers that show a message."""
        found = await self.notifier.wait_until(
            lambda: self.replies[:count] if len(self.replies) >= count else None,
            timeout,
            f"{count} replies to interaction {self.id}",
        )
        return list(found)

    async def wait_error(self, timeout: float = 5.0) -> ApiError:
        """The first error the stand-in returned for this interaction."""
        return await self.notifier.wait_until(
            lambda: next(iter(self.errors), None), timeout, f"an error for interaction {self.id}"
        )
