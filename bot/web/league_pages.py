"""``/l/<public id>``: a league's page (standings as an image and as a table, the current
round's progress, rounds, results linking to their tables' pages), its standings image and its
results as CSV. The page shows one season, its latest unless ``?season=N`` picks another
(``?season=all``: the all-time standings, every round labelled by its season)."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import datetime

from aiohttp import web

from bot.leagues import Standings
from bot.leagues.progress import table_doing
from bot.leagues.reliability import percent
from bot.leagues.report import standings_png
from bot.store import LeagueRecord, LeagueResult, RoundRecord, SeasonRecord, Status, TableRecord
from bot.text import clean_name
from bot.web.context import Site, bad_request, gone, site_of
from bot.web.limits import who
from bot.web.numbers import number
from bot.web.templates import NAME_LIMIT, esc, html_response, name, page, when

ALL = "all"


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
    """The league's seasons and the one shown: ``?season=``'s, by default the latest (None:
    all time, asked for, or a league without seasons)."""
    seasons = await site.store.seasons(league.id)
    text = request.query.get("season")
    if text is None:
        return seasons, (max(seasons, key=lambda x: x.number) if seasons else None)
    if text == ALL:
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


async def _standings_image(request: web.Request, site: Site, league: LeagueRecord,
                           standings: Standings) -> tuple[bytes, str]:
    """The standings' PNG and alt text, drawn once for what they show (the page and its
    image ask for the same)."""
    key = ("standings", league.id, standings.title, tuple(standings.lines))
    found: tuple[bytes, str] = await site.work.get(
        key, who(request), standings_png, standings.title, standings.lines)
    return found


def _query(season: SeasonRecord | None, seasons: list[SeasonRecord]) -> str:
    if season is None:
        return f"?season={ALL}" if seasons else ""
    return f"?season={season.number}"


async def league_page(request: web.Request) -> web.Response:
    site, public_id, league = await _league(request)
    seasons, season = await _season(request, site, league)
    standings = await _standings(site, league, season)
    game = site.games[league.game_id].title if league.game_id in site.games else league.game_id
    base = f"/l/{public_id}"
    image = f"{base}/standings.png{_query(season, seasons)}"
    shown = f"Season {season.number}" if season else "All time"
    parts = [f"<h1>{name(league.name)}</h1>",
             f"<p>A league of {esc(game)}{' (closed)' if league.closed else ''}.</p>",
             _picker(base, seasons, season)]
    rounds = await site.store.rounds(league.id)
    if season is not None:
        rounds = [r for r in rounds if r.season_id == season.id]
    parts.append(await _progress(site, rounds))
    # The standings as a table only: the image (Discord's) says the same, unreadably small
    # on a phone; it is the link preview's picture instead.
    parts += ["<section id=\"standings\"><h2>Standings</h2>", _table(standings), "</section>"]
    results = list(reversed(await site.store.league_results(league.id)))
    if season is not None:
        results = [r for r in results if r.season_id == season.id]
    links = {r.table_id: await site.store.public_id("table", r.table_id) for r in results}
    parts.append(await _rounds(site, league, rounds, results, links, season))
    parts.append(_results(results, links, shown))
    parts.append(f"<p><a id=\"csv\" href=\"{esc(base)}/results.csv\" download>All results as"
                 " CSV</a></p>")
    title = f"{league.name} league" + (f", season {season.number}" if season else "")
    return html_response(page(title, "\n".join(parts),
                              head=_preview(site, base, title, standings, image)))


def _preview(site: Site, base: str, title: str, standings: Standings, image: str) -> str:
    """Link preview tags: the league, its leaders, and the standings image (by the public
    address only: without ``TABULA_PUBLIC_URL`` there is none)."""
    leaders = ", ".join(f"{x.rank}. {clean_name(x.name, NAME_LIMIT)}"
                        for x in standings.lines[:3])
    about = f"Standings: {leaders}." if leaders else "Nobody has signed up yet."
    tags = [("og:type", "website"), ("og:title", f"{clean_name(title, 120)} · Tabula"),
            ("og:description", about[:300])]
    if site.public_url is not None:
        tags += [("og:url", site.public_url + base), ("og:image", site.public_url + image)]
    card = "summary_large_image" if site.public_url is not None else "summary"
    return "".join([f"<meta property=\"{k}\" content=\"{esc(v)}\">" for k, v in tags]
                   + [f"<meta name=\"twitter:card\" content=\"{card}\">"])


def _picker(base: str, seasons: list[SeasonRecord], chosen: SeasonRecord | None) -> str:
    """Links to each season's page (and to the whole league's): plain links, so the choice
    works without a script and each season has an address of its own."""
    if not seasons:
        return ""

    def item(label: str, href: str, here: bool) -> str:
        current = " aria-current=\"page\"" if here else ""
        return f"<li><a class=\"season\" href=\"{esc(href)}\"{current}>{label}</a></li>"

    items = [item(f"Season {x.number}{' (running)' if x.running else ''}",
                  f"{base}?season={x.number}", chosen is not None and x.id == chosen.id)
             for x in reversed(seasons)] + [
        item("All time", f"{base}?season={ALL}", chosen is None)]
    return f"<nav id=\"seasons\" aria-label=\"Seasons\"><ul>{''.join(items)}</ul></nav>"


def _table(standings: Standings) -> str:
    if not standings.lines:
        return "<p>Nobody has signed up yet.</p>"
    rows = "".join(
        f"<tr><td>{x.rank}</td><th scope=\"row\">{name(x.name)}</th>"
        f"<td>{x.rating:.1f}{'?' if x.provisional else ''}</td>"
        f"<td>{x.games}</td><td>{x.wins}</td><td>{x.forfeits}</td>"
        f"<td>{esc(percent(x.reliability))}</td></tr>" for x in standings.lines)
    heads = "".join(f"<th scope=\"col\">{h}</th>" for h in (
        "Rank", "Player", "Rating", "Games", "Wins", "Forfeits", "Reliability"))
    # A wide table scrolls in its own box on a narrow screen, never the page.
    note = ("<p class=\"hint\">Rating: skill less three times its uncertainty; ? marks a"
            " provisional one (fewer than 5 games).</p>"
            if any(x.provisional for x in standings.lines) else "")
    # The caption above the box, not in it: a long league name wraps instead of scrolling.
    return (f"<p class=\"caption\" id=\"standings-title\">{name(standings.title)}</p>"
            "<div class=\"scroll\"><table id=\"standings-table\""
            " aria-labelledby=\"standings-title\">"
            f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></div>{note}")


def _places(result: LeagueResult) -> str:
    return ", ".join(f"{p.place}. {name(p.name)}{' (forfeit)' if p.forfeited else ''}"
                     for p in sorted(result.places, key=lambda p: (p.place, p.seat)))


def _result_item(result: LeagueResult, links: dict[int, str]) -> str:
    state = " (abandoned)" if result.abandoned else ""
    return (f"<li><a href=\"/t/{esc(links[result.table_id])}\">Game of "
            f"{esc(result.finished_at[:10])}</a>{state}: {_places(result)}</li>")


async def _rounds(site: Site, league: LeagueRecord, rounds: list[RoundRecord],
                  results: list[LeagueResult], links: dict[int, str],
                  season: SeasonRecord | None) -> str:
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


def _results(results: list[LeagueResult], links: dict[int, str], shown: str) -> str:
    head = f"<h2>Results: {esc(shown)}</h2>"
    if not results:
        return f"<section id=\"results\">{head}<p>No game finished yet.</p></section>"
    items = "".join(_result_item(r, links) for r in results)
    return f"<section id=\"results\">{head}<ul>{items}</ul></section>"


async def _waiting(site: Site, table: TableRecord, names: list[str]) -> list[str]:
    """The names (of ``names``, by seat) of the seats a playing table waits for, from its
    stored state."""
    game = site.games.get(table.game_id)
    if game is None or table.snapshot is None:
        return []
    key = ("waiting", table.id, table.version)
    seats = site.work.cached(key)
    if seats is None:
        state = await asyncio.to_thread(game.load, table.snapshot)
        seats = sorted(game.active_seats(state))
        site.work.keep(key, seats)
    return [names[seat] for seat in seats if seat < len(names)]


async def _progress(site: Site, rounds: list[RoundRecord]) -> str:
    """The open round's progress, as ``/league round`` tells it: its tables finished or
    playing, whom each playing table waits for, its deadline."""
    current = max((r for r in rounds if r.open), key=lambda r: r.number, default=None)
    if current is None:
        return ""
    tables = await site.store.round_tables(current.id)
    over = sum(t.status in (Status.OVER, Status.ABANDONED) for t in tables)
    head = f"Round {current.number} is {'open' if current.opened_at else 'being set up'}."
    if current.deadline:
        due = int(datetime.fromisoformat(current.deadline).timestamp())
        head += (f" Its deadline is {when(due)}." if due > site.now()
                 else " Its deadline has passed: its tables are being settled.")
    items = []
    for table in tables:
        public_id = await site.store.public_id("table", table.id)
        names = [name(s.name) for s in await site.store.seats(table.id)]
        waiting = (await _waiting(site, table, names)
                   if table.status == Status.PLAYING else [])
        doing = table_doing(table.status, waiting)
        items.append(f"<li><a href=\"/t/{esc(public_id)}\">{', '.join(names)}</a>: "
                     f"{doing}</li>")
    return (f"<section id=\"progress\"><h2>Round {current.number} now</h2>"
            f"<p>{head} {over} of {len(tables)} tables finished.</p>"
            f"<ul>{''.join(items)}</ul></section>")


async def standings_image(request: web.Request) -> web.Response:
    site, _, league = await _league(request)
    _, season = await _season(request, site, league)
    standings = await _standings(site, league, season)
    png, _ = await _standings_image(request, site, league, standings)
    return web.Response(body=png, content_type="image/png",
                        headers={"Cache-Control": "public, max-age=60"})


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
