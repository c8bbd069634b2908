"""Member-supplied text as data: names cleaned and capped, markdown and mentions neutralised,
seat placeholders filled in one pass, and echoes of typed input kept short.

Nothing here imports Discord: the table use cases build their texts with it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

NAME_LIMIT = 32  # Discord's own cap on display names
ECHO_LIMIT = 100
CONTENT_LIMIT = 2000

# Control, format (zero-width, bidi overrides), private-use and surrogate characters, and
# line/paragraph separators: none belongs in a name, and bidi overrides can flip the text
# around the name.
_DROPPED = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]()<:])")
_MASS_MENTION = re.compile(r"@(everyone|here)", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\{p(\d{1,2})\}")


def clean_name(raw: str, limit: int = NAME_LIMIT) -> str:
    """A display name fit to show anywhere: one line, no invisible or direction-changing
    characters, at most ``limit`` characters."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", raw)
        if ch.isspace() or unicodedata.category(ch) not in _DROPPED
    )
    name = " ".join(kept.split())
    if len(name) > limit:
        name = name[: limit - 1].rstrip() + "…"
    return name or "Player"


def escape(text: str) -> str:
    """Member text inside a Discord message: shown literally, never markup or a mention."""
    text = _MARKDOWN.sub(r"\\\1", text)
    return _MASS_MENTION.sub("@\u200b\\1", text)


def fill(template: str, names: Sequence[str]) -> str:
    """Put names into a trusted template's ``{p0}``, ``{p1}`` ... in one pass.

    The names are inserted as they are; nothing in a name is ever read as a placeholder or a
    format spec, so what a name adds is bounded by its own (capped) length."""

    def name_of(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)

    return _PLACEHOLDER.sub(name_of, template)


# An escaped character (kept), or a bold or code mark (dropped), read in one pass.
_MARKUP = re.compile(r"\\([\\*_~`|>#\-\[\]()<:])|\*\*|`")


def plain(text: str) -> str:
    """A Discord text for a terminal: no bold or code marks, names unescaped."""
    return _MARKUP.sub(lambda m: m.group(1) or "", text)


def echo(typed: str, limit: int = ECHO_LIMIT) -> str:
    """Typed input quoted back to its author: one line, capped, as inline code."""
    flat = " ".join(clean_name(typed, limit=limit * 2).replace("`", "'").split())
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return f"`{flat}`"


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Fit Discord's message limit, cutting at a line where possible."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2].rsplit("\n", 1)[0]
    return cut + "\n…"
