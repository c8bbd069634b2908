"""The synced command trees and the ``data`` of command and autocomplete interactions.

Interaction data is built from the stored tree, the way Discord's client does it: the command
id, nested subcommand options, typed values and the ``resolved`` map for users, channels and
roles. Whatever a Discord user could not type raises :class:`UsageError`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .errors import UsageError
from .limits import SUB_COMMAND, SUB_COMMAND_GROUP, check_command_list
from .model import ADMINISTRATOR, JSON, Channel, Guild, Member, Role, Snowflakes, User

GUILD_CONTEXT = 0
BOT_DM_CONTEXT = 1


class CommandStore:
    """Command lists per scope: ``None`` for global, a guild id for guild commands."""

    def __init__(self, ids: Snowflakes, application_id: int) -> None:
        self._ids = ids
        self._application_id = application_id
        self.scopes: dict[int | None, list[JSON]] = {}
        self.syncs = 0

    def overwrite(self, guild_id: int | None, body: Any) -> list[JSON]:
        check_command_list(body).raise_if_any("command_tree")
        old = {(c["type"], c["name"]): c for c in self.scopes.get(guild_id, [])}
        stored: list[JSON] = []
        for raw in body:
            command = copy.deepcopy(raw)
            kind = int(command.get("type", 1))
            previous = old.get((kind, command["name"]))
            command["type"] = kind
            command["id"] = previous["id"] if previous else str(self._ids.next())
            command["application_id"] = str(self._application_id)
            command["version"] = str(self._ids.next())
            command.setdefault("description", "")
            command.setdefault("nsfw", False)
            perms = command.get("default_member_permissions")
            command["default_member_permissions"] = None if perms is None else str(perms)
            if command.get("contexts") is None:
                dm_ok = command.get("dm_permission", True) and guild_id is None
                command["contexts"] = [GUILD_CONTEXT, BOT_DM_CONTEXT] if dm_ok else [GUILD_CONTEXT]
            if command.get("integration_types") is None:
                command["integration_types"] = [0]
            if guild_id is not None:
                command["guild_id"] = str(guild_id)
            stored.append(command)
        self.scopes[guild_id] = stored
        self.syncs += 1
        return copy.deepcopy(stored)

    def listing(self, guild_id: int | None) -> list[JSON]:
        return copy.deepcopy(self.scopes.get(guild_id, []))

    def find(self, name: str, guild_id: int | None, kind: int = 1) -> JSON | None:
        scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.scopes.get(scope, []):
                if command["name"] == name and command["type"] == kind:
                    return command
        return None


def check_available(command: JSON, member: Member | None, in_dm: bool) -> None:
    """Discord hides commands a user may not use; refuse them as the client would."""
    context = BOT_DM_CONTEXT if in_dm else GUILD_CONTEXT
    if context not in command.get("contexts", [GUILD_CONTEXT]):
        where = "in DMs" if in_dm else "in servers"
        raise UsageError(f"/{command['name']} is not available {where}")
    needed = command.get("default_member_permissions")
    if member is not None and needed is not None:
        have = member.permissions
        if not have & ADMINISTRATOR and int(needed) & have != int(needed):
            raise UsageError(f"{member.name} lacks the permissions /{command['name']} requires")


def _walk_path(command: JSON, path: list[str]) -> tuple[JSON, list[tuple[str, int]]]:
    node = command
    chain: list[tuple[str, int]] = []
    for name in path:
        options = node.get("options") or []
        found = next(
            (
                o
                for o in options
                if o["name"] == name and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if found is None:
            raise UsageError(f"/{command['name']} has no subcommand {name!r} at that place")
        chain.append((name, found["type"]))
        node = found
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options") or []):
        subs = ", ".join(o["name"] for o in node["options"])
        raise UsageError(f"/{' '.join([command['name'], *path])} needs a subcommand: {subs}")
    return node, chain


class _Resolved:
    def __init__(self, guild: Guild | None, channel_permissions: int) -> None:
        self.guild = guild
        self.channel_permissions = channel_permissions
        self.data: JSON = {}

    def user(self, value: Any) -> str:
        if isinstance(value, Member):
            user: User = value.user
        elif isinstance(value, User):
            user = value
        else:
            raise UsageError(f"a user option takes a User or Member record, not {value!r}")
        self.data.setdefault("users", {})[str(user.id)] = user.to_json()
        member = self.guild.members.get(user.id) if self.guild else None
        if member is not None:
            entry = member.to_json(with_user=False)
            entry["permissions"] = str(member.permissions)
            self.data.setdefault("members", {})[str(user.id)] = entry
        return str(user.id)

    def channel(self, value: Any, allowed_types: list[int] | None) -> str:
        if not isinstance(value, Channel):
            raise UsageError(f"a channel option takes a Channel record, not {value!r}")
        if allowed_types and value.type not in allowed_types:
            raise UsageError(f"channel {value.name!r} is not of an allowed type {allowed_types}")
        self.data.setdefault("channels", {})[str(value.id)] = value.interaction_json(
            self.channel_permissions
        )
        return str(value.id)

    def role(self, value: Any) -> str:
        if not isinstance(value, Role):
            raise UsageError(f"a role option takes a Role record, not {value!r}")
        self.data.setdefault("roles", {})[str(value.id)] = value.to_json()
        return str(value.id)


def _convert(option: JSON, value: Any, resolved: _Resolved) -> Any:
    kind, name = option["type"], option["name"]
    if kind == 3:
        if not isinstance(value, str):
            raise UsageError(f"option {name!r} takes text, not {value!r}")
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise UsageError(f"option {name!r} takes {low} to {high} characters")
    elif kind in (4, 10):
        wanted = int if kind == 4 else (int, float)
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise UsageError(f"option {name!r} takes a number, not {value!r}")
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise UsageError(f"option {name!r} takes values from {low} to {high}")
    elif kind == 5:
        if not isinstance(value, bool):
            raise UsageError(f"option {name!r} takes true or false, not {value!r}")
    elif kind == 6:
        return resolved.user(value)
    elif kind == 7:
        return resolved.channel(value, option.get("channel_types"))
    elif kind == 8:
        return resolved.role(value)
    elif kind == 9:
        return resolved.role(value) if isinstance(value, Role) else resolved.user(value)
    else:
        raise UsageError(f"option {name!r} has type {kind}, which the stand-in cannot fill")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = ", ".join(repr(c["value"]) for c in choices)
        raise UsageError(f"option {name!r} takes one of {allowed}")
    return value


def build_data(
    command: JSON,
    path: list[str],
    values: Mapping[str, Any],
    *,
    guild: Guild | None,
    channel_permissions: int,
    focused: str | None = None,
) -> JSON:
    """The ``data`` object of a slash command (or, with ``focused``, of an autocomplete)."""
    leaf, chain = _walk_path(command, path)
    definitions = {o["name"]: o for o in leaf.get("options") or []}
    unknown = sorted(set(values) - set(definitions))
    if unknown:
        raise UsageError(f"unknown options {unknown}; the command takes {sorted(definitions)}")
    if focused is not None:
        target = definitions.get(focused)
        if target is None or not target.get("autocomplete"):
            raise UsageError(f"option {focused!r} does not autocomplete")
    resolved = _Resolved(guild, channel_permissions)
    options: list[JSON] = []
    for name, definition in definitions.items():
        entry: JSON = {"name": name, "type": definition["type"]}
        if name == focused:
            entry.update(value=str(values.get(name, "")), focused=True)
        elif name in values:
            entry["value"] = _convert(definition, values[name], resolved)
        elif definition.get("required") and focused is None:
            raise UsageError(f"option {name!r} is required")
        else:
            continue
        options.append(entry)
    for name, kind in reversed(chain):
        options = [{"name": name, "type": kind, "options": options}]
    data: JSON = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if resolved.data:
        data["resolved"] = resolved.data
    return data


def focused_type(command: JSON, path: list[str], focused: str) -> int:
    leaf, _ = _walk_path(command, path)
    return int(next(o["type"] for o in leaf.get("options") or [] if o["name"] == focused))
