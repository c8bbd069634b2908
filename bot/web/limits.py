"""Requests per client: a token bucket per address (429 with Retry-After when it is empty),
and the headers every answer carries (a Content-Security-Policy that allows only this site's
own images, styles and scripts)."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.web.context import site_of

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CLIENTS_KEPT = 10_000

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self';"
        " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a private link never leaks to another site
    "X-Frame-Options": "DENY",
}


def client_of(request: web.Request) -> str:
    """The client's address. A request from this machine (a reverse proxy beside the bot) is
    counted by the address the proxy names last in ``X-Forwarded-For``."""
    peer = request.remote or "unknown"
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if local and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip() or peer
    return peer


class Buckets:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, burst: float, rate: float) -> float:
        """0 when the client may go on, else the seconds until it may."""
        now = self.clock()
        tokens, then = self._buckets.get(client, (burst, now))
        tokens = min(burst, tokens + (now - then) * rate)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / rate
        self._buckets[client] = (tokens - 1 if tokens >= 1 else tokens, now)
        self._buckets.move_to_end(client)
        while len(self._buckets) > CLIENTS_KEPT:
            self._buckets.popitem(last=False)
        return wait


BUCKETS = web.AppKey("buckets", Buckets)


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    limits = site_of(request).limits
    wait = request.app[BUCKETS].take(client_of(request), limits.burst, limits.rate)
    if wait > 0:
        return web.Response(text="Too many requests; try again shortly.\n", status=429,
                            headers={"Retry-After": str(math.ceil(wait)), **HEADERS})
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(HEADERS)
        raise
    response.headers.update(HEADERS)
    return response
