"""Discord's limits on command trees, messages, embeds, components, autocomplete and modals.

Each check fills a :class:`FormErrors`; callers raise it as a 400 with code 50035.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import (
    EMPTY_MESSAGE,
    REQUEST_TOO_LARGE,
    ApiError,
    FormErrors,
    Path,
    bad_length,
    max_length,
)
from .messages import COMPONENTS_V2, Message, named_files, walk_components
from .model import JSON

DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024

MAX_COMMANDS = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARS = 4000
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_FIELDS_MAX = 25
EMBED_TOTAL_MAX = 6000
ATTACHMENTS_MAX = 10
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
GALLERY_ITEMS_MAX = 10
# Components V2: what may stand at the top of a message, and the kinds that name a file.
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
TEXT_DISPLAY = 10
MEDIA_GALLERY = 12
THUMBNAIL = 11
FILE = 13
ATTACHMENT_URL = "attachment://"
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
CHAT_INPUT = 1
VALUE_TYPES = {3, 4, 5, 6, 7, 8, 9, 10, 11}
SELECT_TYPES = {3, 5, 6, 7, 8}

NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def _check_name(errors: FormErrors, path: Path, name: Any, chat_input: bool) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
        return
    if chat_input and (not NAME_RE.match(name) or name != name.lower()):
        errors.add(
            path,
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid: use 1-32 lowercase letters, digits, - or _.",
        )


def _check_description(errors: FormErrors, path: Path, text: Any) -> None:
    if not isinstance(text, str) or not 1 <= len(text) <= 100:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def _command_chars(node: dict[str, Any]) -> int:
    total = len(str(node.get("name", ""))) + len(str(node.get("description", "")))
    for choice in node.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        total += _command_chars(option)
    return total


def _check_options(errors: FormErrors, path: Path, options: list[Any], depth: int) -> None:
    max_length(errors, path, options, MAX_OPTIONS)
    kinds = {o.get("type") for o in options if isinstance(o, dict)}
    subs = kinds & {SUB_COMMAND, SUB_COMMAND_GROUP}
    if subs and kinds - subs:
        errors.add(
            path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Cannot mix subcommands and options."
        )
    seen: set[str] = set()
    optional_seen = False
    for i, option in enumerate(options):
        here = (*path, i)
        if not isinstance(option, dict):
            errors.add(here, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = option.get("type")
        name = option.get("name")
        _check_name(errors, (*here, "name"), name, True)
        _check_description(errors, (*here, "description"), option.get("description"))
        if name in seen:
            errors.add(
                (*here, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique.",
            )
        seen.add(str(name))
        if kind == SUB_COMMAND_GROUP:
            if depth > 0:
                errors.add(
                    here,
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Subcommand groups cannot nest.",
                )
            children = option.get("options") or []
            if any(c.get("type") != SUB_COMMAND for c in children if isinstance(c, dict)):
                errors.add(
                    (*here, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A group holds only subcommands.",
                )
            _check_options(errors, (*here, "options"), children, depth + 1)
        elif kind == SUB_COMMAND:
            children = option.get("options") or []
            if any(
                c.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
                for c in children
                if isinstance(c, dict)
            ):
                errors.add(
                    (*here, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "A subcommand holds only values.",
                )
            _check_options(errors, (*here, "options"), children, depth + 1)
        elif kind in VALUE_TYPES:
            required = bool(option.get("required"))
            if required and optional_seen:
                errors.add(
                    here,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options.",
                )
            optional_seen = optional_seen or not required
            _check_value_option(errors, here, option)
        else:
            errors.add(
                (*here, "type"),
                "BASE_TYPE_CHOICES",
                f"Value must be one of {sorted(VALUE_TYPES | {1, 2})}.",
            )


def _check_value_option(errors: FormErrors, here: Path, option: dict[str, Any]) -> None:
    choices = option.get("choices") or []
    max_length(errors, (*here, "choices"), choices, MAX_CHOICES)
    if choices and option.get("autocomplete"):
        errors.add(
            (*here, "autocomplete"),
            "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID",
            "Autocomplete cannot be used with choices.",
        )
    for j, choice in enumerate(choices):
        bad_length(errors, (*here, "choices", j, "name"), str(choice.get("name", "")), 1, 100)
        if isinstance(choice.get("value"), str):
            max_length(errors, (*here, "choices", j, "value"), choice["value"], 100)
    for key in ("min_length", "max_length"):
        value = option.get(key)
        if value is not None and not 0 <= int(value) <= 6000:
            errors.add((*here, key), "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")


def check_command_list(commands: Any) -> FormErrors:
    """Checks a bulk-overwrite body (PUT .../commands)."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return errors
    chat = [c for c in commands if isinstance(c, dict) and c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > MAX_COMMANDS:
        errors.add(
            (),
            "APPLICATION_COMMANDS_TOO_MANY",
            f"Maximum number of application commands reached ({MAX_COMMANDS}).",
        )
    names: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            errors.add((i,), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        kind = command.get("type", CHAT_INPUT)
        if kind not in (1, 2, 3, 4):
            errors.add((i, "type"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4).")
            continue
        chat_input = kind == CHAT_INPUT
        _check_name(errors, (i, "name"), command.get("name"), chat_input)
        key = (int(kind), str(command.get("name")))
        if key in names:
            errors.add(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique.",
            )
        names.add(key)
        if chat_input:
            _check_description(errors, (i, "description"), command.get("description"))
            _check_options(errors, (i, "options"), command.get("options") or [], 0)
            if _command_chars(command) > MAX_COMMAND_CHARS:
                errors.add(
                    (i,),
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_CHARS}).",
                )
        elif command.get("description"):
            errors.add(
                (i, "description"),
                "APPLICATION_COMMAND_INVALID_DESCRIPTION",
                "Context menu commands have no description.",
            )
    return errors


def check_embeds(errors: FormErrors, embeds: Any) -> None:
    if not isinstance(embeds, list):
        errors.add(("embeds",), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    max_length(errors, ("embeds",), embeds, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        here: Path = ("embeds", i)
        if not isinstance(embed, dict):
            errors.add(here, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        for key, limit in (("title", 256), ("description", 4096)):
            text = str(embed.get(key) or "")
            max_length(errors, (*here, key), text, limit)
            total += len(text)
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            text = str((embed.get(key) or {}).get(sub) or "")
            max_length(errors, (*here, key, sub), text, limit)
            total += len(text)
        fields = embed.get("fields") or []
        max_length(errors, (*here, "fields"), fields, EMBED_FIELDS_MAX)
        for j, fld in enumerate(fields):
            name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
            bad_length(errors, (*here, "fields", j, "name"), name, 1, 256)
            bad_length(errors, (*here, "fields", j, "value"), value, 1, 1024)
            total += len(name) + len(value)
    if total > EMBED_TOTAL_MAX:
        errors.add(
            ("embeds",),
            "MESSAGE_EMBEDS_TOO_LARGE",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )


def _check_button(errors: FormErrors, here: Path, button: dict[str, Any]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(
            (*here, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6)."
        )
    max_length(errors, (*here, "label"), str(button.get("label") or ""), LABEL_MAX)
    if style == 5:
        if not button.get("url"):
            errors.add((*here, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if "custom_id" in button:
            errors.add(
                (*here, "custom_id"),
                "COMPONENT_LINK_BUTTON_CUSTOM_ID",
                "Link buttons cannot have a custom_id.",
            )
    elif style != 6 and not button.get("custom_id"):
        errors.add((*here, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    if style != 6 and not button.get("label") and not button.get("emoji"):
        errors.add(
            here, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji."
        )


def _check_select(errors: FormErrors, here: Path, select: dict[str, Any]) -> None:
    max_length(errors, (*here, "placeholder"), str(select.get("placeholder") or ""), 150)
    options = select.get("options") or []
    if select.get("type") == 3:
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            errors.add(
                (*here, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
            )
        for j, option in enumerate(options):
            bad_length(
                errors, (*here, "options", j, "label"), str(option.get("label") or ""), 1, 100
            )
            bad_length(
                errors, (*here, "options", j, "value"), str(option.get("value") or ""), 1, 100
            )
            max_length(
                errors,
                (*here, "options", j, "description"),
                str(option.get("description") or ""),
                100,
            )
    low, high = int(select.get("min_values", 1)), int(select.get("max_values", 1))
    if not 0 <= low <= 25 or not 1 <= high <= 25 or low > high:
        errors.add(
            here,
            "SELECT_COMPONENT_VALUES_INVALID",
            "min_values/max_values must satisfy 0 <= min <= max <= 25.",
        )
    if select.get("type") == 3 and high > len(options):
        errors.add(
            (*here, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            "max_values exceeds the number of options.",
        )


def _check_v2(errors: FormErrors, components: list[Any], everything: list[JSON]) -> None:
    """Components V2 as Discord documents them: 40 components in all (nested ones count),
    4,000 characters of text displays, the top level of layout kinds, galleries of 1-10."""
    max_length(errors, ("components",), everything, V2_COMPONENTS_MAX)
    for i, top in enumerate(components):
        if not isinstance(top, dict) or top.get("type") not in V2_TOP_LEVEL:
            errors.add(
                ("components", i, "type"),
                "UNION_TYPE_CHOICES",
                f"Value must be one of {sorted(V2_TOP_LEVEL)}.",
            )
    text = sum(len(str(c.get("content") or "")) for c in everything
               if c.get("type") == TEXT_DISPLAY)
    if text > V2_TEXT_MAX:
        errors.add(
            ("components",),
            "MESSAGE_COMPONENTS_TEXT_TOO_LONG",
            f"Text displays hold {V2_TEXT_MAX} characters in all ({text} sent).",
        )
    for n, comp in enumerate(everything):
        if comp.get("type") == MEDIA_GALLERY:
            bad_length(errors, ("components", "#", n, "items"), list(comp.get("items") or []),
                       1, GALLERY_ITEMS_MAX)


def _check_v2_files(
    errors: FormErrors, payload: dict[str, Any], files: list[tuple[str, bytes]],
    before: Message | None,
) -> None:
    """Every ``attachment://NAME`` a component names is a file of the message: uploaded now,
    described in ``attachments``, or (in an edit) kept from before."""
    available = {name for name, _ in files}
    kept = payload.get("attachments")
    for att in kept or []:
        if isinstance(att, dict) and att.get("filename"):
            available.add(str(att["filename"]))
    if before is not None:
        ids = None if kept is None else {str(a.get("id")) for a in kept if isinstance(a, dict)}
        available |= {a.filename for a in before.attachments if ids is None or str(a.id) in ids}
    for name in named_files(list(payload.get("components") or [])):
        if name not in available:
            errors.add(
                ("components",),
                "COMPONENT_MEDIA_UNKNOWN_ATTACHMENT",
                f"attachment://{name} names no file of this message.",
            )


def check_components(errors: FormErrors, components: Any, flags: int) -> None:
    if not isinstance(components, list):
        errors.add(("components",), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    everything = walk_components(components)
    if flags & COMPONENTS_V2:
        _check_v2(errors, components, everything)
    else:
        max_length(errors, ("components",), components, ROWS_MAX)
        for i, row in enumerate(components):
            if not isinstance(row, dict) or row.get("type") != 1:
                errors.add(
                    ("components", i, "type"),
                    "UNION_TYPE_CHOICES",
                    "Top-level components must be action rows.",
                )
                continue
            children = row.get("components") or []
            kinds = {c.get("type") for c in children}
            if kinds & SELECT_TYPES and len(children) != 1:
                errors.add(
                    ("components", i, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu fills a whole row.",
                )
            elif not 1 <= len(children) <= ROW_BUTTONS_MAX:
                errors.add(
                    ("components", i, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {ROW_BUTTONS_MAX} in length.",
                )
    seen: set[str] = set()
    for n, comp in enumerate(everything):
        here: Path = ("components", "#", n)
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            bad_length(errors, (*here, "custom_id"), str(custom_id), 1, CUSTOM_ID_MAX)
            if custom_id in seen:
                errors.add(
                    (*here, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(str(custom_id))
        if comp.get("type") == 2:
            _check_button(errors, here, comp)
        elif comp.get("type") in SELECT_TYPES:
            _check_select(errors, here, comp)


def check_message(
    payload: dict[str, Any],
    files: list[tuple[str, bytes]],
    *,
    creating: bool,
    size_limit: int = DEFAULT_ATTACHMENT_LIMIT,
    keeps_attachments: int = 0,
    prefix: Path = (),
    before: Message | None = None,
) -> None:
    """Raises an :class:`ApiError` for any message limit the payload breaks.

    ``prefix`` roots the error paths (``("data",)`` for an interaction callback); ``before``
    is the message an edit changes (Components V2 stays on it once set).
    """
    for name, data in files:
        if len(data) > size_limit:
            raise ApiError(
                413,
                REQUEST_TOO_LARGE,
                "Request entity too large",
                kind="attachment_too_large",
                details=[f"{name}: {len(data)} bytes > {size_limit}"],
            )
    errors = FormErrors(prefix)
    asked = payload.get("flags")
    flags = int(asked or 0)
    if before is not None and before.flags & COMPONENTS_V2:
        if asked is not None and not flags & COMPONENTS_V2:
            errors.add(
                ("flags",),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The components v2 flag cannot be removed from a message.",
            )
        flags |= COMPONENTS_V2
    content = payload.get("content")
    if content is not None:
        max_length(errors, ("content",), str(content), CONTENT_MAX)
        if flags & COMPONENTS_V2 and content:
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Content cannot be used with components v2.",
            )
    if payload.get("embeds") is not None:
        check_embeds(errors, payload["embeds"])
        if flags & COMPONENTS_V2 and payload["embeds"]:
            errors.add(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Embeds cannot be used with components v2.",
            )
    if flags & COMPONENTS_V2:
        _check_v2_files(errors, payload, files, before)
    if payload.get("components") is not None:
        check_components(errors, payload["components"], flags)
    attachments = payload.get("attachments") or []
    count = max(len(attachments), len(files) + keeps_attachments)
    if count > ATTACHMENTS_MAX:
        errors.add(
            ("attachments",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ATTACHMENTS_MAX} or fewer in length.",
        )
    for i, att in enumerate(attachments):
        if isinstance(att, dict) and att.get("description") is not None:
            max_length(errors, ("attachments", i, "description"), str(att["description"]), 1024)
    mentions = payload.get("allowed_mentions")
    if isinstance(mentions, dict):
        parse = mentions.get("parse") or []
        for kind in ("users", "roles"):
            if kind in parse and mentions.get(kind):
                errors.add(
                    ("allowed_mentions",),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
    errors.raise_if_any("message")
    if creating and not (
        content
        or payload.get("embeds")
        or payload.get("components")
        or files
        or keeps_attachments
        or payload.get("sticker_ids")
        or payload.get("poll")
    ):
        raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message", kind="empty_message")


NONCE_MAX = 25


def check_nonce(payload: dict[str, Any]) -> str | None:
    """The nonce of a Create Message payload as a string (an integer or a string of at most
    25 characters), or None; 400 with code 50035 for anything else."""
    nonce = payload.get("nonce")
    if nonce is None:
        return None
    errors = FormErrors()
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        errors.add(("nonce",), "BASE_TYPE_STRING", "Must be an integer or a string.")
    elif isinstance(nonce, str):
        bad_length(errors, ("nonce",), nonce, 1, NONCE_MAX)
    elif abs(nonce) >= 2**63:
        errors.add(("nonce",), "NUMBER_TYPE_MAX", "Int value should be less than 2**63.")
    errors.raise_if_any("nonce")
    return str(nonce)


def check_choices(choices: Any, option_type: int) -> None:
    errors = FormErrors(("data",))
    if not isinstance(choices, list):
        errors.add(("choices",), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        errors.raise_if_any("autocomplete")
        return
    max_length(errors, ("choices",), choices, MAX_CHOICES)
    for i, choice in enumerate(choices):
        bad_length(errors, ("choices", i, "name"), str(choice.get("name", "")), 1, 100)
        value = choice.get("value")
        if option_type == 3:
            if not isinstance(value, str):
                errors.add(("choices", i, "value"), "BASE_TYPE_STRING", "Must be a string.")
            else:
                max_length(errors, ("choices", i, "value"), value, 100)
        elif option_type in (4, 10) and (
            isinstance(value, bool) or not isinstance(value, int | float)
        ):
            errors.add(("choices", i, "value"), "NUMBER_TYPE_COERCE", "Value is not a number.")
    errors.raise_if_any("autocomplete")


def check_modal(data: Any) -> None:
    errors = FormErrors(("data",))
    if not isinstance(data, dict):
        errors.add((), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        errors.raise_if_any("modal")
        return
    bad_length(errors, ("title",), str(data.get("title") or ""), 1, 45)
    bad_length(errors, ("custom_id",), str(data.get("custom_id") or ""), 1, CUSTOM_ID_MAX)
    components = data.get("components") or []
    bad_length(errors, ("components",), components, 1, 5)
    for n, comp in enumerate(walk_components(components)):
        if comp.get("custom_id") is not None:
            bad_length(
                errors,
                ("components", "#", n, "custom_id"),
                str(comp["custom_id"]),
                1,
                CUSTOM_ID_MAX,
            )
        if comp.get("type") == 4:
            max_length(errors, ("components", "#", n, "label"), str(comp.get("label") or ""), 45)
    errors.raise_if_any("modal")
