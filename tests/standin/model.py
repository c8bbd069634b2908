"""Users, roles, guilds, members and channels, with their Discord JSON forms."""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .messages import Message

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (Discord's values) the stand-in grants or checks.
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


def iso(ts: float | None = None) -> str:
    moment = datetime.datetime.fromtimestamp(time.time() if ts is None else ts, datetime.UTC)
    return moment.isoformat()


class Snowflakes:
    """Increasing ids shaped like Discord's (timestamp in the high bits)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = now_ms << 22
        self._last = max(self._last + 1, candidate)
        return self._last

    def next_on_shard(self, shard: int, count: int) -> int:
        """An id whose server falls on gateway shard ``shard`` of ``count``
        (``(id >> 22) % count``), still above every id given before."""
        found = self.next()
        while (found >> 22) % count != shard:
            found = ((found >> 22) + 1) << 22
        self._last = found
        return found


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True

    def to_json(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_json(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        return self.guild.permissions_of(self)

    def to_json(self, *, with_user: bool = True) -> JSON:
        out: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            out["user"] = self.user.to_json()
        return out

    def interaction_json(self) -> JSON:
        out = self.to_json()
        out["permissions"] = str(self.permissions)
        return out


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str
    guild: Guild | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None
    created: str = field(default_factory=iso)
    messages: list[Message] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def last_message_id(self) -> str | None:
        return str(self.messages[-1].id) if self.messages else None

    def to_json(self) -> JSON:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": self.last_message_id(),
                "recipients": [self.recipient.to_json()],
                "flags": 0,
            }
        assert self.guild is not None
        out: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": self.last_message_id(),
            "flags": 0,
        }
        if self.is_thread:
            out.update(
                owner_id=str(self.owner_id),
                message_count=len(self.messages),
                member_count=1,
                total_message_sent=len(self.messages),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created,
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": self.created,
                },
            )
        else:
            out.update(topic=None, permission_overwrites=[], default_auto_archive_duration=1440)
        return out

    def interaction_json(self, permissions: int) -> JSON:
        out = self.to_json()
        if self.guild is not None:
            out["permissions"] = str(permissions)
        return out


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso)

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    def role(self, role_id: int) -> Role | None:
        return next((r for r in self.roles if r.id == role_id), None)

    def role_named(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)

    def permissions_of(self, member: Member) -> int:
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        bits = self.everyone.permissions
        for role_id in member.role_ids:
            role = self.role(role_id)
            if role is not None:
                bits |= role.permissions
        return ALL_PERMISSIONS if bits & ADMINISTRATOR else bits

    def to_json(self) -> JSON:
        """The full GUILD_CREATE payload (every member is sent, so no chunking is needed)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "features": [],
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "roles": [r.to_json() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.to_json() for m in self.members.values()],
            "channels": [c.to_json() for c in self.channels],
            "threads": [t.to_json() for t in self.threads],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
