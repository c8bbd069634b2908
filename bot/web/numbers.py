"""Numbers in addresses, read strictly: ASCII digits only and few of them. ``str.isdigit``
takes "²" and "٣", which ``int`` then refuses or reads; and a number of thousands of digits
costs time to convert for no page at all."""

from __future__ import annotations

import re

DIGITS = 18  # below 2**63: any step, seat, image, epoch second or id fits
_NUMBER = re.compile(f"[0-9]{{1,{DIGITS}}}")


def number(text: str) -> int | None:
    """The number ``text`` spells, or None when it is anything else."""
    return int(text) if _NUMBER.fullmatch(text) else None
