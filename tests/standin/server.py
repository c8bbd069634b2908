"""The aiohttp application: routes, bot-token auth, the global rate limit and error answers."""

from __future__ import annotations

import collections
import math
import traceback
from collections.abc import Awaitable, Callable

from aiohttp import web

from .clock import Clock
from .errors import INVALID_FORM_BODY, ApiError
from .gateway import Gateway
from .httpio import INTERACTION, json_response, read_body
from .openapi import JSON_TYPE, MULTIPART, Match, Spec
from .routes_interactions import InteractionRoutes
from .routes_rest import RestRoutes
from .state import UnhandledRoute, Violation, World

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


class SpecRefusal(ApiError):
    """A request Discord's OpenAPI description refuses."""


def route_refusal(found: Match, method: str) -> SpecRefusal | None:
    """Discord's answer to a route or method its description lacks (None if it has it)."""
    if found.route is None:
        return SpecRefusal(404, 0, "404: Not Found", kind="openapi_route",
                           details=["no such route in Discord's API"])
    if found.operation is None:
        return SpecRefusal(405, 0, "405: Method Not Allowed", kind="openapi_route",
                           details=[f"{found.route.template} has no {method}"])
    return None


async def check_against_spec(
    world: World, spec: Spec, request: web.Request, found: Match
) -> None:
    """Raises :class:`SpecRefusal` (answered as Discord answers) if a path or query value or
    the body does not fit the operation's description."""
    operation = found.operation
    assert operation is not None
    errors = spec.check_params(operation, found.params, request.query)
    if operation.bodies:
        if request.content_type.startswith("multipart/"):
            content_type, present = MULTIPART, True
        else:
            content_type, present = request.content_type, request.can_read_body
        payload, _ = await read_body(request)
        if content_type == MULTIPART and payload is None:
            payload = {}  # files without a payload_json part
        if content_type == "application/octet-stream" and present:
            content_type = JSON_TYPE  # a body sent without a Content-Type header
        errors.extend(spec.check_body(operation, content_type, payload, present))
    if errors:
        # Filed under its interaction (if any), so a driver waiting on it sees the refusal.
        token = found.params.get("interaction_token") or found.params.get("webhook_token")
        record = world.by_token.get(token) if token else None
        if record is not None:
            request[INTERACTION] = record
        raise SpecRefusal(400, INVALID_FORM_BODY, "Invalid Form Body", kind="openapi",
                          errors=errors.to_dict(),
                          details=errors.details())


def build_app(
    world: World, gateway: Gateway, limiter: RateLimiter, spec: Spec
) -> web.Application:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        route = f"{request.method} {request.path}"
        found = spec.match(request.method, request.path[len(API):])
        refusal = route_refusal(found, request.method) if request.path.startswith(API) else None
        if refusal is not None:
            # Not a route of Discord's API: refused before auth, whether served here or not.
            _record_spec(world, refusal, route, request)
            if request.match_info.http_exception is not None:
                world.unhandled.append(
                    UnhandledRoute(request.method, request.path, request.query_string)
                )
            return json_response(refusal.body(), status=refusal.status)
        if request.match_info.http_exception is not None:
            world.unhandled.append(
                UnhandledRoute(request.method, request.path, request.query_string)
            )
            world.notifier.notify()
            try:
                # Not served here, but still checked: Discord would refuse a bad request.
                if request.path.startswith(API):
                    await check_against_spec(world, spec, request, found)
            except SpecRefusal as error:
                _record_spec(world, error, route, request)
                return json_response(error.body(), status=error.status)
            except ApiError:
                pass  # a body that is not JSON; the route is not served anyway
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        try:
            if request.path.startswith(API) and not _is_interaction_route(request.path):
                if request.headers.get("Authorization") != f"Bot {world.token}":
                    raise ApiError(
                        401, 0, "401: Unauthorized", kind="unauthorized", violation=False
                    )
                limiter.check()
            if request.path.startswith(API):
                await check_against_spec(world, spec, request, found)
            return await handler(request)
        except SpecRefusal as error:
            _record_spec(world, error, route, request)
            return json_response(error.body(), status=error.status, headers=error.headers)
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


def _record_spec(world: World, error: ApiError, route: str, request: web.Request) -> None:
    interaction = request.get(INTERACTION)
    world.record_error(error, route, interaction)
    query = f"?{request.query_string}" if request.query_string else ""
    world.spec_violations.append(
        Violation(
            kind=error.kind,
            status=error.status,
            code=error.code,
            message=error.message,
            route=f"{route}{query}",
            details=list(error.details),
            interaction_id=interaction.id if interaction else None,
        )
    )
