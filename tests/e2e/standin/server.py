"""The aiohttp application: routes, bot-token auth, the global rate limit and error answers."""

from __future__ import annotations

import collections
import math
import traceback
from collections.abc import Awaitable, Callable

from aiohttp import web

from .clock import Clock
from .errors import ApiError
from .gateway import Gateway
from .httpio import INTERACTION, json_response
from .routes_interactions import InteractionRoutes
from .routes_rest import RestRoutes
from .state import UnhandledRoute, World

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RateLimiter:
    """Discord's global limit: ``limit`` bot-token requests in any ``window`` seconds."""

    def __init__(self, clock: Clock, limit: int, window: float) -> None:
        self.clock = clock
        self.limit = limit
        self.window = window
        self._stamps: collections.deque[float] = collections.deque()

    def check(self) -> None:
        now = self.clock.now()
        while self._stamps and self._stamps[0] <= now - self.window:
            self._stamps.popleft()
        if len(self._stamps) >= self.limit:
            retry = max(0.001, self._stamps[0] + self.window - now)
            raise ApiError(
                429,
                0,
                "You are being rate limited.",
                kind="rate_limit",
                details=[f"more than {self.limit} requests in {self.window:g} s"],
                headers={
                    "Via": "1.1 google",
                    "Retry-After": str(math.ceil(retry)),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                },
                extra={"retry_after": round(retry, 3), "global": True},
            )
        self._stamps.append(now)


def _is_interaction_route(path: str) -> bool:
    # Interaction callbacks and interaction-token webhooks carry no bot token and are not
    # bound by the bot's global rate limit.
    return path.startswith((f"{API}/interactions/", f"{API}/webhooks/"))


def build_app(world: World, gateway: Gateway, limiter: RateLimiter) -> web.Application:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        route = f"{request.method} {request.path}"
        if request.match_info.http_exception is not None:
            world.unhandled.append(
                UnhandledRoute(request.method, request.path, request.query_string)
            )
            world.notifier.notify()
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        try:
            if request.path.startswith(API) and not _is_interaction_route(request.path):
                if request.headers.get("Authorization") != f"Bot {world.token}":
                    raise ApiError(
                        401, 0, "401: Unauthorized", kind="unauthorized", violation=False
                    )
                limiter.check()
            return await handler(request)
        except ApiError as error:
            world.record_error(error, route, request.get(INTERACTION))
            return json_response(error.body(), status=error.status, headers=error.headers)
        except web.HTTPException:
            raise
        except Exception:
            # A fault in the stand-in itself: 503 is not retried by discord.py, and the
            # fixture fails the test on any entry here.
            world.internal_errors.append(f"{route}\n{traceback.format_exc()}")
            return json_response({"message": "stand-in internal error", "code": 0}, status=503)

    app = web.Application(middlewares=[middleware], client_max_size=64 * 1024 * 1024)
    RestRoutes(world).register(app, API)
    InteractionRoutes(world).register(app, API)
    app.router.add_get("/", gateway.handle)
    app.router.add_get("/resume", gateway.handle)
    return app
