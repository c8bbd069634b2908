"""Claiming the right to announce a table's versions, the same on both stores.

A table row keeps ``announced`` (the last version told in its channel) and a claim on what is
being told now: ``announcing`` (versions ``announced + 1 .. announcing`` are being posted, as
one message), ``announce_until`` and ``announce_by`` (the process holding it). Claims are
compare-and-set in one transaction, so one process tells each version, in version order,
whichever process committed it. A claim whose holder died (it expired, or its holder asks
again after a restart) is taken over with its range unchanged: the range is posted again
under the same nonce, and Discord keeps the one message that may already have gone out; past
Discord's nonce window the poster finds that message among the channel's latest instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

CLAIM_COLUMNS = "announced, announcing, announce_until, announce_by"


class Turn(StrEnum):
    TOLD = "told"  # the versions asked for were told already
    BUSY = "busy"  # another process is telling earlier versions: ask again shortly
    POST = "post"  # post versions ``after + 1 .. upto`` as one message, then mark ``upto``


@dataclass(frozen=True)
class Claim:
    turn: Turn
    after: int = 0
    upto: int = 0
    retold: bool = False  # a range a crashed holder claimed: it may have reached Discord


@dataclass(frozen=True)
class PendingReply:
    """A member's move whose answer was not given yet (the bot stopped in between)."""

    interaction_id: str
    table_id: int
    guild_id: int | None
    application_id: str
    token: str
    expires_at: int
    holder: str  # the process that took the interaction (``Sharding.name``)


def decide(announced: int, announcing: int, until: int, holder: str | None, since: int,
           version: int, by: str, now: int) -> Claim:
    """What ``by`` may post next, towards a notice of versions ``since + 1 .. version``."""
    if announced >= version:
        return Claim(Turn.TOLD)
    if announcing > announced:
        if holder != by and until > now:
            return Claim(Turn.BUSY)
        return Claim(Turn.POST, announced, announcing, retold=True)
    if announced < since:
        return Claim(Turn.POST, announced, announced + 1)  # a version told by nobody yet
    return Claim(Turn.POST, announced, version)
