"""Signed links to a seat's private view: HMAC-SHA256 over the page, the seat, the member and
the expiry, with a secret only the host knows (``TABULA_WEB_SECRET``). A link opens that seat's
view for that member until it expires; change any part and the signature no longer matches.

A link names its member by an opaque id (a keyed hash of the Discord id and the page), never
by the Discord id: a shared link gives away no account, nor ties one table to another. Links
of the older kind (the Discord id in ``m=``) are refused with a page that says to ask anew.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from urllib.parse import urlencode

from bot.web.numbers import number

DEFAULT_TTL = 24 * 3600
MEMBER = re.compile(r"[0-9a-f]{24}")  # an opaque member id
OLD_MEMBER = re.compile(r"[0-9]{1,20}")  # a Discord id, as links of the older kind had


@dataclass(frozen=True)
class Grant:
    """What a private link grants."""

    public_id: str
    seat: int
    member: str  # the member's opaque id for this page (``Signer.member``)
    expires: int  # epoch seconds


class Refused(Exception):
    """A private link that opens nothing; the message says why, for the refusal page."""


class Signer:
    def __init__(self, secret: str, ttl: int = DEFAULT_TTL) -> None:
        if not secret:
            raise ValueError("signed links need a secret")
        self._key = secret.encode()
        self.ttl = ttl

    def _mac(self, grant: Grant) -> str:
        # "v2": a message of another shape than the older links' (which named the Discord id).
        message = f"v2:{grant.public_id}:{grant.seat}:{grant.member}:{grant.expires}"
        return hmac.new(self._key, message.encode(), hashlib.sha256).hexdigest()

    def member(self, public_id: str, member_id: int) -> str:
        """A member's opaque id on one page: the same for each link to it, no use elsewhere."""
        message = f"member:{public_id}:{member_id}"
        return hmac.new(self._key, message.encode(), hashlib.sha256).hexdigest()[:24]

    def grant(self, public_id: str, seat: int, member_id: int, now: int) -> Grant:
        return Grant(public_id, seat, self.member(public_id, member_id), now + self.ttl)

    def holds(self, grant: Grant, member_id: int) -> bool:
        """Whether the grant was made for that member."""
        return hmac.compare_digest(grant.member, self.member(grant.public_id, member_id))

    def path(self, grant: Grant) -> str:
        """The link's path and query, relative to the site's address."""
        query = urlencode({"m": grant.member, "exp": grant.expires, "sig": self._mac(grant)})
        return f"/p/{grant.public_id}/{grant.seat}?{query}"

    def check(self, public_id: str, seat: str, member: str, expires: str, sig: str,
              now: int) -> Grant:
        """The grant a link carries; ``Refused`` when it is malformed, forged or expired."""
        if OLD_MEMBER.fullmatch(member):
            raise Refused("This link is of an older kind, no longer accepted. Ask for a new"
                          " one with /hand in Discord.")
        seat_number, expiry = number(seat), number(expires)
        if seat_number is None or expiry is None or not MEMBER.fullmatch(member):
            raise Refused("This link is not a valid private link.")
        grant = Grant(public_id, seat_number, member, expiry)
        if not hmac.compare_digest(self._mac(grant), sig):
            raise Refused("This link's signature does not match: it was changed or forged.")
        if grant.expires <= now:
            raise Refused("This link has expired. Ask for a new one with /hand in Discord.")
        return grant
