"""Words a player must never read in Discord, and every text a game showed them.

``texts`` gathers what members saw (channel posts, DMs, ephemeral answers, embeds, buttons,
menus and alt text); ``findings`` names each banned word or pattern found in one text."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Any

from tests.standin import Message

# Nouns the games count, singular -> plural: a count of one takes the first, others the second.
NOUNS = {
    "denarius": "denarii", "assistant": "assistants", "point": "points", "attack": "attacks",
    "table": "tables", "card": "cards", "soldier": "soldiers", "builder": "builders",
    "servant": "servants", "civilian": "civilians", "resource": "resources", "move": "moves",
    "coin": "coins", "piece": "pieces", "tile": "tiles", "house": "houses", "step": "steps",
    "player": "players", "turn": "turns", "token": "tokens", "round": "rounds",
    "worker": "workers", "building": "buildings", "seat": "seats", "year": "years",
    "glory": "glory", "disdain": "disdain", "renown": "renown", "piety": "piety",
    "valour": "valour", "column": "columns", "field": "fields", "pawn": "pawns",
    "chip": "chips", "box": "boxes", "merchant": "merchants", "farmer": "farmers",
    "residence": "residences", "facility": "facilities", "section": "sections",
    "attribute": "attributes", "citizen": "citizens", "gladiator": "gladiators",
    "mention": "mentions", "game": "games", "minute": "minutes", "hour": "hours",
    "day": "days", "member": "members", "vote": "votes",
}
_SINGULAR = sorted({s for s, p in NOUNS.items() if s != p})
_PLURAL = sorted({p for s, p in NOUNS.items() if s != p})
_ONE_MANY = re.compile(rf"(?<![\w.,/-])1 ({'|'.join(_PLURAL)})\b")
# "Year 2 attack" names an attack, it does not count them.
_MANY_ONE = re.compile(
    rf"(?<![\w.,/-])(?<!Year )(0|[2-9]|[1-9]\d+) ({'|'.join(_SINGULAR)})\b(?![-'])")
_A_VOWEL_SOUND = re.compile(r"\ba [AEFHILMNORSX]\d")
_RAW_OPTION = re.compile(r"`?\b[a-z_]+`?: (\{|\[|\"|null\b|true\b|false\b)")


_SHORTHAND = re.compile(
    r"about to play `|\(cell, then |Culture tops: |take a disc\b|legal moves; "
    r"|^Final: \d\. |\bearned 0 points|^Moves: \S+ .* \| "
    r"|\b(ren|pie|val|dis) \d+; |: \d+ of \d+ (chosen|done|resolved)\.", re.MULTILINE)


def texts(messages: Iterable[Message]) -> Iterator[str]:
    """Every text in ``messages`` a member could read."""
    for message in messages:
        if message.text:
            yield message.text  # a card's text displays, as one text
        for embed in message.embeds:
            yield from _embed_texts(embed)
        for attachment in message.attachments:
            if attachment.description:
                yield attachment.description
        yield from _component_texts(message.components)


def _embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description"):
        if embed.get(key):
            yield str(embed[key])
    for item in embed.get("fields", []):
        yield f"{item.get('name', '')}\n{item.get('value', '')}"
    footer = embed.get("footer") or {}
    if footer.get("text"):
        yield str(footer["text"])


def _component_texts(components: list[Any]) -> Iterator[str]:
    for component in components:
        if not isinstance(component, dict):
            continue
        for key in ("label", "placeholder", "description"):
            if component.get(key):
                yield str(component[key])
        for option in component.get("options", []):
            yield str(option.get("label", ""))
        yield from _component_texts(component.get("components", []))


def findings(text: str) -> list[str]:
    """What is wrong with one text a member reads; empty when nothing is."""
    found = []
    if "python -m" in text:
        found.append("a terminal command (python -m)")
    if "'legal'" in text or "`legal`" in text:
        found.append("a terminal-only command (legal)")
    if "(s)" in text:
        found.append("a plural written (s)")
    found += [f"number and noun disagree: {m.group(0)!r}"
              for pattern in (_ONE_MANY, _MANY_ONE) for m in pattern.finditer(text)]
    found += [f"'a' before a vowel sound: {m.group(0)!r}" for m in _A_VOWEL_SOUND.finditer(text)]
    found += [f"an option key with a JSON value: {m.group(0)!r}"
              for m in _RAW_OPTION.finditer(text)]
    if text.count("Next:") > 1:
        found.append("more than one 'Next:' in a post")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    found += [f"a line said twice: {a!r}" for a, b in itertools.pairwise(lines) if a == b]
    if "Since your last turn" in text:
        recap = text.split("Since your last turn", 1)[1].splitlines()
        if any(line.startswith("- ") and "Next:" in line for line in recap):
            found.append("a 'Next:' hint inside a recap")
    found += [f"'Next:' addressed to a computer: {line!r}" for line in lines
              if re.search(r"Computer \d+\b[^.]*\. Next:|^Next:.*\bComputer \d", line)]
    if "Preview of **" in text:
        found.append("a preview titled with raw notation")
    if "searches them all as you type (area names" in text:
        found.append("another game's /move hint")
    # Shorthand where a sentence belongs (the worst lines players met, and their kind).
    found += [f"shorthand: {m.group(0)!r}" for m in _SHORTHAND.finditer(text)]
    return found
