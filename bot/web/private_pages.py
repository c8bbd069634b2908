"""``/p/<public id>/<seat>?m=…&exp=…&sig=…``: one seat's own view, for the member a signed
link was made for, until it expires. Anything else is refused with a short 403 page."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from bot.web.context import Site, site_of
from bot.web.limits import who
from bot.web.numbers import number
from bot.web.signing import Grant, Refused
from bot.web.templates import esc, html_response, name, page, refusal, when

PRIVATE = {"Cache-Control": "no-store"}


async def _view(request: web.Request) -> tuple[Site, Grant, str, dict[str, Any], str]:
    """The seat's view and the key it is kept by (table, version, seat, names), or
    ``Refused`` with the reason."""
    site = site_of(request)
    if site.signer is None:
        raise Refused("Private links are not enabled on this server.")
    public_id, table_id = await site.find(request, "table")
    q = request.query
    grant = site.signer.check(public_id, request.match_info["seat"], q.get("m", ""),
                              q.get("exp", ""), q.get("sig", ""), site.now())
    table = await site.store.get_table(table_id)
    if table is None or table.snapshot is None:
        raise Refused("This game has not started.")
    await site.pages_on(table.guild_id)
    seats = await site.store.seats(table_id)
    held = seats[grant.seat].member_id if grant.seat < len(seats) else None
    if held is None or not site.signer.holds(grant, held):
        raise Refused("This link is for a seat that is no longer yours.")
    game = site.games[table.game_id]
    names = [s.name for s in seats]
    # Kept per version: a visit (the page, then its images) loads the state once, and the
    # images are drawn once until the table moves on.
    key = f"private:{table.id}:{table.version}:{grant.seat}:{hash(tuple(names))}"
    view: dict[str, Any] | None = site.work.cached(("view", key))
    if view is None:
        state = await asyncio.to_thread(game.load, table.snapshot)
        view = {**game.view(state, grant.seat), "names": names}
        site.work.keep(("view", key), view)
    return site, grant, table.game_id, view, key


def _refused(exc: Refused) -> web.Response:
    response = refusal(403, "Link refused", str(exc))
    response.headers.update(PRIVATE)
    return response


async def private_page(request: web.Request) -> web.Response:
    try:
        site, grant, game_id, view, key = await _view(request)
    except Refused as exc:
        return _refused(exc)
    game = site.games[game_id]
    described = await site.replays.images(game_id, view, key, who(request))
    query = request.query_string
    images = "".join(
        f"<img src=\"/p/{esc(grant.public_id)}/{grant.seat}/{k}.png?{esc(query)}\""
        f" alt=\"{esc(each)}\">" for k, (_, each) in enumerate(described))
    # What the images show, as text too: the seat's secrets (a hand, what is behind the
    # screen) are read here as well as seen.
    lines = "".join(f"<li>{esc(line.strip())}</li>"
                    for line in game.describe(view).splitlines() if line.strip())
    body = (f"<h1>{esc(game.title)}: your view</h1>"
            f"<p>Seat {grant.seat + 1}, {name(view['names'][grant.seat])}. Only this link shows"
            f" it; it works until {when(grant.expires)}.</p>"
            f"<section id=\"own-view\"><div class=\"images\">{images}</div><h2>In words</h2>"
            f"<ul id=\"own-view-text\">{lines}</ul></section>"
            f"<p><a href=\"/t/{esc(grant.public_id)}\">The table's public page</a></p>")
    response = html_response(page(f"{game.title}: your view", body))
    response.headers.update(PRIVATE)
    return response


async def private_image(request: web.Request) -> web.Response:
    try:
        site, _, game_id, view, key = await _view(request)
    except Refused as exc:
        return _refused(exc)
    pngs = await site.replays.images(game_id, view, key, who(request))
    k = number(request.match_info["k"])
    if k is None or k >= len(pngs):
        return _refused(Refused("There is no such image."))
    return web.Response(body=pngs[k][0], content_type="image/png", headers=PRIVATE)


def add_routes(app: web.Application) -> None:
    app.router.add_get(r"/p/{public_id}/{seat:[0-9]+}", private_page)
    app.router.add_get(r"/p/{public_id}/{seat:[0-9]+}/{k:[0-9]+}.png", private_image)
