"""``/l/<public id>``: a league's page (standings as an image and as a table, rounds, results
linking to their tables' pages), its standings image and its results as CSV. ``?season=N``
shows one season: its standings, rounds and results only."""

from __future__ import annotations

import asyncio
import csv
import io

from aiohttp import web

from bot.leagues import Standings
from bot.leagues.reliability import percent
from bot.leagues.report import standings_png
from bot.store import LeagueRecord, LeagueResult, SeasonRecord
from bot.web.context import Site, bad_request, gone, site_of
from bot.web.numbers import number
from bot.web.templates import esc, html_response, name, page


async def _league(request: web.Request) -> tuple[Site, str, LeagueRecord]:
    site = site_of(request)
    public_id, league_id = await site.find(request, "league")
    league = await site.store.get_league(league_id)
    if league is None:
        raise gone("There is no page at this address.")
    await site.pages_on(league.guild_id)
    return site, public_id, league


async def _season(request: web.Request, site: Site, league: LeagueRecord
                  ) -> tuple[list[SeasonRecord], SeasonRecord | None]:
    """The league's seasons and the one ``?season=`` names (None without it)."""
    seasons = await site.store.seasons(league.id)
    text = request.query.get("season")
    if text is None:
        return seasons, None
    wanted = number(text)
    if wanted is None:
        raise bad_request("The season to show is not a number.")
    chosen = next((x for x in seasons if x.number == wanted), None)
    if chosen is None:
        raise gone("This league has no such season.")
    return seasons, chosen


async def _standings(site: Site, league: LeagueRecord, season: SeasonRecord | None
                     ) -> Standings:
    return await site.leagues.standings(league.guild_id, league.name,
                                        season.number if season else None)


async def league_page(request: web.Request) -> web.Response:
    site, public_id, league = await _league(request)
    seasons, season = await _season(request, site, league)
    standings = await _standings(site, league, season)
    game = site.games[league.game_id].title if league.game_id in site.games else league.game_id
    _, alt = await asyncio.to_thread(standings_png, standings.title, standings.lines)
    base = f"/l/{public_id}"
    image = f"{base}/standings.png" + (f"?season={season.number}" if season else "")
    parts = [f"<h1>{name(league.name)}</h1>",
             f"<p>A league of {esc(game)}{' (closed)' if league.closed else ''}.</p>",
             _picker(base, seasons, season),
             f"<section id=\"standings\"><h2>Standings: {name(standings.title)}</h2>"
             f"<img src=\"{esc(image)}\" alt=\"{esc(alt)}\">",
             _table(standings), "</section>"]
    results = list(reversed(await site.store.league_results(league.id)))
    if season is not None:
        results = [r for r in results if r.season_id == season.id]
    links = {r.table_id: await site.store.public_id("table", r.table_id) for r in results}
    parts.append(await _rounds(site, league, results, links, season))
    parts.append(_results(results, links))
    parts.append(f"<p><a id=\"csv\" href=\"{esc(base)}/results.csv\" download>All results as"
                 " CSV</a></p>")
    title = f"{league.name} league" + (f", season {season.number}" if season else "")
    return html_response(page(title, "\n".join(parts)))


def _picker(base: str, seasons: list[SeasonRecord], chosen: SeasonRecord | None) -> str:
    """Links to each season's page (and to the whole league's): plain links, so the choice
    works without a script and each season has an address of its own."""
    if not seasons:
        return ""

    def item(label: str, href: str, here: bool) -> str:
        current = " aria-current=\"page\"" if here else ""
        return f"<li><a class=\"season\" href=\"{esc(href)}\"{current}>{label}</a></li>"

    items = [item("All seasons", base, chosen is None)] + [
        item(f"Season {x.number}{' (running)' if x.running else ''}",
             f"{base}?season={x.number}", chosen is not None and x.id == chosen.id)
        for x in reversed(seasons)]
    return f"<nav id=\"seasons\" aria-label=\"Seasons\"><ul>{''.join(items)}</ul></nav>"


def _table(standings: Standings) -> str:
    if not standings.lines:
        return "<p>Nobody has signed up yet.</p>"
    rows = "".join(
        f"<tr><td>{x.rank}</td><th scope=\"row\">{name(x.name)}</th>"
        f"<td>{x.rating:.1f}{' (provisional)' if x.provisional else ''}</td>"
        f"<td>{x.games}</td><td>{x.wins}</td><td>{x.forfeits}</td>"
        f"<td>{esc(percent(x.reliability))}</td></tr>" for x in standings.lines)
    heads = "".join(f"<th scope=\"col\">{h}</th>" for h in (
        "Rank", "Player", "Rating", "Games", "Wins", "Forfeits", "Reliability"))
    # A wide table scrolls in its own box on a narrow screen, never the page.
    return (f"<div class=\"scroll\"><table id=\"standings-table\">"
            f"<caption>{name(standings.title)}</caption>"
            f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></div>")


def _places(result: LeagueResult) -> str:
    return ", ".join(f"{p.place}. {name(p.name)}{' (forfeit)' if p.forfeited else ''}"
                     for p in sorted(result.places, key=lambda p: (p.place, p.seat)))


def _result_item(result: LeagueResult, links: dict[int, str]) -> str:
    state = " (abandoned)" if result.abandoned else ""
    return (f"<li><a href=\"/t/{esc(links[result.table_id])}\">Game of "
            f"{esc(result.finished_at[:10])}</a>{state}: {_places(result)}</li>")


async def _rounds(site: Site, league: LeagueRecord, results: list[LeagueResult],
                  links: dict[int, str], season: SeasonRecord | None) -> str:
    rounds = await site.store.rounds(league.id)
    if season is not None:
        rounds = [r for r in rounds if r.season_id == season.id]
    if not rounds:
        return ""
    # Each round says its season: without one picked, the rounds span them all.
    seasons = {s.id: s.number for s in await site.store.seasons(league.id)}
    items = []
    for r in reversed(rounds):
        done = [x for x in results if x.round_id == r.id]
        inner = "".join(_result_item(x, links) for x in done) or "<li>No result yet.</li>"
        its = seasons.get(r.season_id) if r.season_id is not None else None
        label = f"Season {its}, round {r.number}" if its else f"Round {r.number}"
        items.append(f"<li>{label}, opened {esc(r.created_at[:10])}<ul>{inner}</ul></li>")
    return f"<section id=\"rounds\"><h2>Rounds</h2><ul>{''.join(items)}</ul></section>"


def _results(results: list[LeagueResult], links: dict[int, str]) -> str:
    if not results:
        return "<section id=\"results\"><h2>Results</h2><p>No game finished yet.</p></section>"
    items = "".join(_result_item(r, links) for r in results)
    return f"<section id=\"results\"><h2>Results</h2><ul>{items}</ul></section>"


async def standings_image(request: web.Request) -> web.Response:
    site, _, league = await _league(request)
    _, season = await _season(request, site, league)
    standings = await _standings(site, league, season)
    png, _ = await asyncio.to_thread(standings_png, standings.title, standings.lines)
    return web.Response(body=png, content_type="image/png")


async def results_csv(request: web.Request) -> web.Response:
    site, public_id, league = await _league(request)
    _, text = await site.leagues.export(league.guild_id, league.name)
    return web.Response(text=public_csv(text), content_type="text/csv", headers={
        "Content-Disposition": f"attachment; filename=league-{public_id}.csv"})


def public_csv(text: str) -> str:
    """The league's CSV without Discord ids: each member is ``p1``, ``p2``… in the order
    they first appear (the results only grow, so a member keeps theirs)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or "member_id" not in rows[0]:
        return text
    column = rows[0].index("member_id")
    rows[0][column] = "player"
    players: dict[str, str] = {}
    for row in rows[1:]:
        if row[column]:
            row[column] = players.setdefault(row[column], f"p{len(players) + 1}")
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def add_routes(app: web.Application) -> None:
    app.router.add_get("/l/{public_id}", league_page)
    app.router.add_get("/l/{public_id}/standings.png", standings_image)
    app.router.add_get("/l/{public_id}/results.csv", results_csv)
