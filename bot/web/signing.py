"""Signed links to a seat's private view: HMAC-SHA256 over the page, the seat, the member and
the expiry, with a secret only the host knows (``TABULA_WEB_SECRET``). A link opens that seat's
view for that member until it expires; change any part and the signature no longer matches."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from urllib.parse import urlencode

DEFAULT_TTL = 24 * 3600


@dataclass(frozen=True)
class Grant:
    """What a private link grants."""

    public_id: str
    seat: int
    member_id: int
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
        message = f"{grant.public_id}:{grant.seat}:{grant.member_id}:{grant.expires}"
        return hmac.new(self._key, message.encode(), hashlib.sha256).hexdigest()

    def grant(self, public_id: str, seat: int, member_id: int, now: int) -> Grant:
        return Grant(public_id, seat, member_id, now + self.ttl)

    def path(self, grant: Grant) -> str:
        """The link's path and query, relative to the site's address."""
        query = urlencode({"m": grant.member_id, "exp": grant.expires,
                           "sig": self._mac(grant)})
        return f"/p/{grant.public_id}/{grant.seat}?{query}"

    def check(self, public_id: str, seat: str, member: str, expires: str, sig: str,
              now: int) -> Grant:
        """The grant a link carries; ``Refused`` when it is malformed, forged or expired."""
        if not (seat.isdigit() and member.isdigit() and expires.isdigit()):
            raise Refused("This link is not a valid private link.")
        grant = Grant(public_id, int(seat), int(member), int(expires))
        if not hmac.compare_digest(self._mac(grant), sig):
            raise Refused("This link's signature does not match: it was changed or forged.")
        if grant.expires <= now:
            raise Refused("This link has expired. Ask for a new one with /hand in Discord.")
        return grant
