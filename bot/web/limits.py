"""Requests per client: a token bucket per address (429 with Retry-After when it is empty),
and the headers every answer carries (a Content-Security-Policy that allows only this site's
own images, styles and scripts)."""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.config import Network
from bot.web.context import site_of
from bot.web.renders import Busy
from bot.web.templates import refusal

log = logging.getLogger(__name__)

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


def _trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.is_loopback or any(ip in network for network in trusted)


def client_of(request: web.Request, trusted: tuple[Network, ...] = ()) -> str:
    """The client's address. A request from a trusted reverse proxy (one on this machine, or
    in ``trusted``: a proxy on a Docker bridge) is counted by the address it names in
    ``X-Forwarded-For``: the last one that is not itself a trusted proxy. Anyone else could
    write any address there, so from them the header is ignored."""
    peer = request.remote or "unknown"
    forwarded = request.headers.get("X-Forwarded-For", "")
    if not forwarded or not _trusted(peer, trusted):
        return peer
    chain = [a.strip() for a in forwarded.split(",")[-32:] if a.strip()]
    for address in reversed(chain):
        if not _trusted(address, trusted):
            return address[:64]
    return chain[0][:64] if chain else peer


def who(request: web.Request) -> str:
    """The client of a request, as the limits count it."""
    return client_of(request, site_of(request).limits.trusted)


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
    wait = request.app[BUCKETS].take(client_of(request, limits.trusted), limits.burst,
                                     limits.rate)
    if wait > 0:
        return web.Response(text="Too many requests; try again shortly.\n", status=429,
                            headers={"Retry-After": str(math.ceil(wait)), **HEADERS})
    try:
        response = await handler(request)
    except Busy as exc:
        # The web workers are full: a short wait, said so, rather than a queue without end.
        response = refusal(503, "Busy", "The server is busy drawing boards; try again in a"
                           " moment.")
        response.headers["Retry-After"] = str(exc.retry_after)
    except web.HTTPException as exc:
        exc.headers.update(HEADERS)
        raise
    except Exception:
        # A fault of ours: logged here, and answered like any other page (with the headers),
        # never with its traceback.
        log.exception("error answering %s %s", request.method, request.path[:200])
        response = refusal(500, "Server error", "Something went wrong on our side.")
    response.headers.update(HEADERS)
    return response
