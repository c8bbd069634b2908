"""Counting words the way players write them: "1 soldier", "2 soldiers", "1 denarius",
"3 denarii", "an H2 house". One helper for every text of every game and of the front ends
(the bot imports it too), so no text falls back on "soldier(s)"."""

from __future__ import annotations

from collections.abc import Sequence

# Nouns whose plural is not made by the rules of ``plural`` (uncountable ones stay as they are).
_IRREGULAR = {
    "denarius": "denarii",
    "glory": "glory",
    "disdain": "disdain",
    "renown": "renown",
    "piety": "piety",
    "valour": "valour",
    "production": "production",
    "discipline": "discipline",
    "wolf": "wolves",
}
# Nouns the games name in the plural (Hadrian's Wall's citizens): one of them is singular.
_PLURALS = {"apparitores": "apparitor", "traders": "trader", "performers": "performer",
            "priests": "priest", "patricians": "patrician"}

# Letters read with a vowel sound at the start ("an H2", "an M3", "an 8").
_VOWEL_SOUND_LETTERS = frozenset("AEFHILMNORSX")


def plural(noun: str, count: int = 2) -> str:
    """``noun`` in the form ``count`` needs; the last word of a phrase is the one that
    changes ("wall guard" -> "wall guards"). A noun the games name in the plural
    ("patricians") becomes singular for a count of one."""
    head, _, last = noun.rpartition(" ")
    lower = last.lower()
    if count == 1:
        word = _PLURALS.get(lower, last)
    elif lower in _PLURALS:
        word = last
    elif lower in _IRREGULAR:
        word = _IRREGULAR[lower]
    elif lower.endswith(("s", "x", "ch", "sh")):
        word = last + "es"
    elif lower.endswith("y") and lower[-2:-1] not in tuple("aeiou"):
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def counted(count: int, noun: str) -> str:
    """The count and the noun in agreement: "1 soldier", "0 points", "3 denarii"."""
    return f"{count} {plural(noun, count)}"


def signed(count: int, noun: str) -> str:
    """A gain or loss: "+1 soldier", "-2 points"."""
    return f"{count:+d} {plural(noun, abs(count))}"


def article(word: str) -> str:
    """"a" or "an" before ``word``, by how it is read aloud: "an H2 house", "an 8", "a tile"."""
    first = word[:1]
    if not first:
        return "a"
    if first.isupper() and (len(word) == 1 or not word[1:2].islower()):
        return "an" if first in _VOWEL_SOUND_LETTERS else "a"
    if first.isdigit():
        digits = word[: len(word) - len(word.lstrip("0123456789"))]
        return "an" if digits.startswith("8") or digits in ("11", "18") else "a"
    return "an" if first.lower() in "aeiou" else "a"


def with_article(word: str) -> str:
    return f"{article(word)} {word}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


PLACES = ("first", "second", "third", "fourth", "fifth", "sixth")


def placed(groups: Sequence[tuple[Sequence[str], str]]) -> str:
    """A final ranking in words, best first: each group is the names that share a place and
    what they scored ("with 42 points", or ""): "bob wins with 42 points; carol is second
    with 30; alice and ren share third place with 12"."""
    said = []
    for i, (names, score) in enumerate(groups):
        who, tail = listed(list(names)), f" {score}" if score else ""
        place = PLACES[i] if i < len(PLACES) else f"number {i + 1}"
        if len(names) > 1:
            said.append(f"{who} share {place} place{tail}")
        elif i == 0:
            said.append(f"{who} wins{tail}")
        else:
            said.append(f"{who} is {place}{tail}")
    return "; ".join(said)


def option_text(value: object, inner: bool = False) -> str:
    """A setup option's value in words, never as JSON: ``True`` is "yes", ``None`` "the
    default", ``"first_home"`` "first home", a list its items, an object its entries (an
    object inside another in brackets: "H1 (roof NW, door NE, count 12)")."""
    if value is None:
        return "the default"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, list | tuple):
        return listed([option_text(v) for v in value]) if value else "none"
    if isinstance(value, dict):
        entries = [f"{option_text(k)} {option_text(v, True)}" for k, v in value.items()]
        if not entries:
            return "none"
        return f"({', '.join(entries)})" if inner else "; ".join(entries)
    return str(value)


def options_changed(defaults: dict[str, object], chosen: dict[str, object]) -> list[str]:
    """The options a table set away from the game's defaults, one line each, in words
    ("tie break: first home")."""
    return [f"{option_text(key)}: {option_text(value)}" for key, value in sorted(chosen.items())
            if defaults.get(key) != value]
