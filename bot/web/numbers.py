"""Numbers in addresses, read strictly: ASCII digits only and few of them. ``str.isdigit``
takes "²" and "٣", which ``int`` then refuses or reads; and a number of thousands of digits
costs time to convert for no page at all."""

from __future__ import annotations

import re

DIGITS = 18  # below 2**63: any step, seat, image or epoch second fits
_DIGITS = re.compile("[0-9]+")


def number(text: str, digits: int = DIGITS) -> int | None:
    """The number ``text`` spells (at most ``digits`` long), or None when it is anything
    else."""
    return int(text) if len(text) <= digits and _DIGITS.fullmatch(text) else None
