"""Message and attachment records, their JSON, and mention resolution under allowed_mentions."""

from __future__ import annotations

import mimetypes
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from .model import JSON, Channel, Guild, User, iso

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass(eq=False)
class Attachment:
    """A stored upload: the exact bytes the bot sent, with filename and alt text."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str = "application/octet-stream"
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def image_size(self) -> tuple[int, int] | None:
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return int(width), int(height)
        return None

    def to_json(self, *, with_nonce: bool = True) -> JSON:
        """The message object; ``with_nonce`` only where Discord echoes the nonce (the Create
        Message answer and MESSAGE_CREATE): it does not keep it with the message."""
        out: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        dims = self.image_size()
        if dims is not None:
            out["width"], out["height"] = dims
        return out


def guess_type(filename: str) -> str:
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


@dataclass(eq=False)
class Message:
    """A message the bot (or a simulated user) posted, as the stand-in stores it.

    ``attachments`` hold the bytes; ``mentions`` are the users the message really pinged once
    allowed_mentions was applied; ``visible_to`` is set for ephemeral messages.
    """

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    mentions: list[User] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    timestamp: str = field(default_factory=iso)
    edited_timestamp: str | None = None
    edits: int = 0
    interaction_meta: JSON | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    visible_to: User | None = None
    thread: Channel | None = None
    reply_to: Message | None = None
    deleted: bool = False
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def card(self) -> bool:
        """Sent with Components V2 (``IS_COMPONENTS_V2``): the text is in its components."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def text(self) -> str:
        """What a member reads: ``content``, or a card's text displays one a line."""
        return component_text(self.components) if self.card else self.content

    def shown_attachments(self) -> list[Attachment]:
        """The attachments a member sees: on a card only those a component names."""
        if not self.card:
            return list(self.attachments)
        names = named_files(self.components)
        return [a for a in self.attachments if a.filename in names]

    def labels(self) -> list[str]:
        """The labels of its buttons, in order."""
        return [str(c.get("label")) for c in walk_components(self.components)
                if c.get("type") == 2 and c.get("label")]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def find_component(self, custom_id: str) -> JSON | None:
        return next(
            (c for c in walk_components(self.components) if c.get("custom_id") == custom_id), None
        )

    def to_json(self, *, with_nonce: bool = True) -> JSON:
        """The message object; ``with_nonce`` only where Discord echoes the nonce (the Create
        Message answer and MESSAGE_CREATE): it does not keep it with the message."""
        out: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.to_json(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.to_json() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": [a.to_json() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.nonce is not None and with_nonce:
            out["nonce"] = self.nonce
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            out["application_id"] = str(self.application_id)
        if self.interaction_meta is not None:
            out["interaction_metadata"] = self.interaction_meta
        if self.thread is not None:
            out["thread"] = self.thread.to_json()
        if self.reply_to is not None:
            out["message_reference"] = {
                "type": 0,
                "message_id": str(self.reply_to.id),
                "channel_id": str(self.reply_to.channel.id),
            }
        return out

    def event_json(self) -> JSON:
        """The MESSAGE_CREATE / MESSAGE_UPDATE form: adds guild_id and the author's member."""
        out = self.to_json()
        guild = self.channel.guild
        if guild is not None:
            out["guild_id"] = str(guild.id)
            member = guild.members.get(self.author.id)
            if member is not None:
                out["member"] = member.to_json(with_user=False)
        return out


def named_files(components: list[JSON]) -> list[str]:
    """The file names a component tree shows (``attachment://NAME`` of a media gallery's
    items, a thumbnail or a file component), in order."""
    names: list[str] = []
    for comp in walk_components(components):
        media = [item.get("media") for item in comp.get("items") or [] if isinstance(item, dict)]
        media += [comp.get("media"), comp.get("file")]
        for found in media:
            url = str((found or {}).get("url") or "") if isinstance(found, dict) else ""
            if url.startswith("attachment://"):
                names.append(url.removeprefix("attachment://"))
    return names


def component_text(components: list[JSON]) -> str:
    """The text a member reads in a component tree: text displays, in order, one a line."""
    return "\n".join(str(c.get("content") or "") for c in walk_components(components)
                     if c.get("type") == 10 and c.get("content"))


def walk_components(components: list[JSON]) -> list[JSON]:
    """Every component in a tree (rows, containers, sections and their accessories)."""
    found: list[JSON] = []
    stack: list[Any] = list(reversed(components))
    for _ in range(10_000):  # a component tree is far smaller; the cap keeps the loop bounded
        if not stack:
            break
        item = stack.pop()
        if not isinstance(item, dict):
            continue
        found.append(item)
        children: list[Any] = list(item.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                children.append(item[key])
        stack.extend(reversed(children))
    return found


@dataclass
class Mentions:
    users: list[User]
    roles: list[int]
    everyone: bool


def resolve_mentions(
    content: str,
    allowed: JSON | None,
    users: dict[int, User],
    guild: Guild | None,
    replied_user: User | None = None,
) -> Mentions:
    """Which mentions in ``content`` really ping, given Discord's allowed_mentions rules.

    Without allowed_mentions every kind is parsed. With it, a kind pings only when named in
    ``parse`` or listed by id under ``users`` / ``roles``.
    """
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
    allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
    mentioned: list[User] = []
    for raw in USER_MENTION.findall(content):
        uid = int(raw)
        user = users.get(uid)
        if user is None or user in mentioned:
            continue
        if "users" in parse or uid in allowed_users:
            mentioned.append(user)
    if replied_user is not None and (allowed is None or allowed.get("replied_user")):
        if replied_user not in mentioned:
            mentioned.append(replied_user)
    roles: list[int] = []
    for raw in ROLE_MENTION.findall(content):
        rid = int(raw)
        if guild is None or guild.role(rid) is None or rid in roles:
            continue
        if "roles" in parse or rid in allowed_roles:
            roles.append(rid)
    everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
    return Mentions(users=mentioned, roles=roles, everyone=everyone)
