"""``/t/<public id>``: a table's page (the winner and final scores first, whose turn and until
when, the replay of the board with its history beside it, seats, the replay file, and link
preview tags), its images, each step's data for the script and its replay file."""

from __future__ import annotations

import json
import re

from aiohttp import web

import rendering
from bot.text import clean_name
from bot.web.chart import score_chart
from bot.web.context import Site, bad_request, gone, site_of
from bot.web.limits import who
from bot.web.numbers import number
from bot.web.replay import PublicTable
from bot.web.scores import has_running_score
from bot.web.templates import NAME_LIMIT, esc, html_response, name, page, when

NUMBER = re.compile(r"^\d+\.\s*")  # a history line's own number, left out of the caption
FIRST_ID = ' id="replay-image"'  # the replay's first image, as older links and tests know it
STATUS = {"lobby": "waiting for players", "playing": "being played", "over": "finished",
          "abandoned": "abandoned"}


async def public_table(request: web.Request) -> tuple[Site, PublicTable]:
    site = site_of(request)
    public_id, table_id = await site.find(request, "table")
    found = await site.replays.table(table_id, public_id, who(request))
    if found is None:
        raise gone("There is no page at this address.")
    await site.pages_on(found.table.guild_id)
    return site, found


def chosen_step(request: web.Request, last: int) -> int:
    text = request.query.get("step")
    if text is None:
        return last
    step = number(text)
    if step is None:
        raise bad_request("The step to show is not a number.")
    return min(step, last)


def image_path(t: PublicTable, step: int, k: int = 0) -> str:
    # The version in the query: a step's image changes only when the table does (an undo).
    return f"/t/{t.public_id}/img/{step}-{k}.png?v={t.table.version}"


# Images a renderer draws without a description of their own, by game and position: what
# each shows, said in its alt text in place of a copy of the first image's.
UNDESCRIBED = {"hadrians-wall": {1: "each player's sheet in summary: tracks, buildings,"
                                    " cohorts and score"}}
ALT_LIMIT = 1200


def image_alt(game_id: str, caption_text: str, k: int, count: int, alt: str,
              first: str) -> str:
    """An image's alt text: the step (its caption), then what this image shows."""
    if k and alt.startswith(first) and alt.endswith(f"(image {k + 1} of {count})"):
        alt = UNDESCRIBED.get(game_id, {}).get(k, f"image {k + 1} of {count} of the board")
    return f"{caption_text} {alt}"[:ALT_LIMIT]


async def step_images(site: Site, t: PublicTable, step: int, client: str
                      ) -> list[tuple[str, str]]:
    """Each image of a step (a game may draw several: a board, sheets, cities) with its alt
    text, as (address, alt)."""
    described = await site.replays.images(t.table.game_id, t.view(step),
                                          f"{t.table.id}:{t.table.version}:{step}", client)
    said = caption(t, step)
    first = described[0][1] if described else ""
    return [(image_path(t, step, k),
             image_alt(t.table.game_id, said, k, len(described), alt, first))
            for k, (_, alt) in enumerate(described)]


def _images(images: list[tuple[str, str]], first_id: str = "") -> str:
    return "".join(
        f"<img{first_id if k == 0 else ''} src=\"{esc(src)}\" alt=\"{esc(alt)}\">"
        for k, (src, alt) in enumerate(images))


async def table_page(request: web.Request) -> web.Response:
    site, t = await public_table(request)
    game = site.games[t.table.game_id]
    step = chosen_step(request, t.last)
    # All but whose turn it is depends only on the table at this version and the step: made
    # once and kept (a page read by many, or by every live reader after each move).
    key = ("page", t.table.id, t.table.version, tuple(t.names), step, site.public_url)
    made: tuple[str, str, str, str] | None = site.work.cached(key)
    if made is None:
        images = await step_images(site, t, step, who(request)) if t.started else []
        made = (*_parts(t, game.title, step, images), await _preview(site, t))
        site.work.keep(key, made)
    head, play, rest, preview = made
    summary = head.replace(TURN, await _turn(site, t), 1)
    return html_response(page(f"{game.title} table", f"{summary}\n{play}\n{rest}",
                              scripts=("replay.js", "live.js"), head=preview))


TURN = "<!--turn-->"  # where whose turn it is goes, read anew for each request


def _parts(t: PublicTable, title: str, step: int, images: list[tuple[str, str]]
           ) -> tuple[str, str, str]:
    """The page's head (up to whose turn), its replay and history, and the rest."""
    # The parts a new move changes have ids of their own: the script swaps them in place.
    # What a reader comes for first: who won, whose turn it is, then the board with its
    # moves beside it; the score chart, the seats and the replay file after.
    summary = (_final(t) if t.outcome is not None or t.replay_file is not None else "")
    head = (f"<h1>{esc(title)}</h1><p id=\"status\" class=\"status\">This game is"
            f" {esc(STATUS.get(t.table.status, ''))}.</p>{_live(t)}"
            f"<div id=\"summary\">{summary}{TURN}</div>")
    if t.started:
        play = f"<div class=\"play\">{_replay(t, step, images)}{_history(t)}</div>"
    else:
        play = _history(t)
    rest = [f"<div id=\"chart-box\">{_chart(t, step)}</div>", _seats(t)]
    if t.replay_file is not None:
        rest.append(f"<p><a id=\"replay-file\" href=\"/t/{esc(t.public_id)}/replay.json\""
                    " download>The replay file</a> (for <code>python -m rules replay</code>)."
                    "</p>")
    return head, play, "\n".join(rest)


def _live(t: PublicTable) -> str:
    """Where the script says a new move came (live, from the table's event stream)."""
    if t.table.status not in ("lobby", "playing"):
        return ""
    return (f"<p id=\"live\" data-events=\"/t/{esc(t.public_id)}/events\""
            f" data-version=\"{t.table.version}\" aria-live=\"polite\" hidden></p>")


def _chart(t: PublicTable, step: int) -> str:
    svg = score_chart(t.names, t.scores, step)
    if not svg:
        return ""
    about = ("Each player's points as the game went." if has_running_score(t.table.game_id)
             else "")
    if t.table.game_id == "minerva":
        about = ("Each player's points banked as the game went (culture and glory tiles);"
                 " temples, money and turn order count at the end.")
    return (f"<section id=\"chart\"><h2>Scores over the game</h2><p class=\"hint\">{about}"
            f"</p><div class=\"chart\">{svg}</div></section>")


async def _preview(site: Site, t: PublicTable) -> str:
    """Link preview tags (Open Graph, Twitter card): a link pasted in Discord unfurls with
    the board now. Only the public view's image, and only as an absolute address: without
    ``TABULA_PUBLIC_URL`` there is none."""
    title = f"{site.games[t.table.game_id].title} table · Tabula"
    if t.outcome is not None:
        about = winners(t) + " " + scores(t)
    elif t.table.status == "abandoned":
        about = "This game was abandoned before its end."
    elif t.started:
        about = f"This game is being played. {caption(t, t.last)}"
    else:
        about = "This game is waiting for players."
    tags = [("og:type", "website"), ("og:title", title), ("og:description", about[:300])]
    if site.public_url is not None:
        tags.append(("og:url", f"{site.public_url}/t/{t.public_id}"))
        if t.started and rendering.has_renderer(t.table.game_id):
            tags.append(("og:image", site.public_url + image_path(t, t.last)))
    card = "summary_large_image" if any(k == "og:image" for k, _ in tags) else "summary"
    return "".join(
        [f"<meta property=\"{k}\" content=\"{esc(v)}\">" for k, v in tags]
        + [f"<meta name=\"twitter:card\" content=\"{card}\">",
           f"<meta name=\"description\" content=\"{esc(about[:300])}\">"])


def _seats(t: PublicTable) -> str:
    items = "".join(
        f"<li>{name(s.name)}{' (computer)' if s.is_computer else ''}</li>" for s in t.seats)
    return f"<section id=\"seats\"><h2>Seats</h2><ol>{items}</ol></section>"


async def _turn(site: Site, t: PublicTable) -> str:
    if t.table.status != "playing" or not t.active:
        return ""
    turns = await site.store.open_turns(t.table.id)
    who = []
    for seat in t.active:
        turn = turns.get(seat)
        due = f", deadline {when(turn.due_at)}" if turn and turn.due_at else ""
        who.append(f"<li>{name(t.names[seat])}{due}</li>")
    return f"<section id=\"turn\"><h2>Whose turn</h2><ul>{''.join(who)}</ul></section>"


def _places(t: PublicTable) -> dict[int, int]:
    assert t.outcome is not None
    return {seat: n for n, group in enumerate(t.outcome.ranking, start=1) for seat in group}


def winners(t: PublicTable) -> str:
    """Who won, as plain text (names cleaned and capped; escape it to show it)."""
    assert t.outcome is not None
    first = t.outcome.ranking[0] if t.outcome.ranking else []
    names = [clean_name(t.names[seat], NAME_LIMIT) for seat in first]
    if not names:
        return "The game is over."
    if len(names) == 1:
        return f"{names[0]} won."
    return f"{', '.join(names[:-1])} and {names[-1]} shared the win."


def scores(t: PublicTable) -> str:
    """The final scores, best first, as plain text."""
    assert t.outcome is not None
    place = _places(t)
    ordered = sorted(enumerate(t.outcome.scores), key=lambda x: place.get(x[0], 99))
    return "Final scores: " + ", ".join(
        f"{clean_name(t.names[seat], NAME_LIMIT)} {score}" for seat, score in ordered) + "."


def _final(t: PublicTable) -> str:
    out = ["<section id=\"final\"><h2>Final scores</h2>"]
    if t.outcome is not None:
        place = _places(t)
        out.append(f"<p id=\"winner\">{esc(winners(t))}</p>")
        rows = "".join(
            f"<tr><td>{place.get(seat, '')}</td><th scope=\"row\">{name(t.names[seat])}</th>"
            f"<td>{esc(score)}</td></tr>"
            for seat, score in sorted(enumerate(t.outcome.scores),
                                      key=lambda x: place.get(x[0], 99)))
        out.append("<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Place</th>"
                   "<th scope=\"col\">Player"
                   f"</th><th scope=\"col\">Score</th></tr></thead><tbody>{rows}</tbody>"
                   "</table></div>")
    else:
        out.append("<p>The game was abandoned before its end.</p>")
    out.append("</section>")
    return "".join(out)


def _replay(t: PublicTable, step: int, images: list[tuple[str, str]]) -> str:
    base = f"/t/{t.public_id}"

    def link(label: str, to: int, ident: str) -> str:
        return (f"<a id=\"{ident}\" class=\"step\" data-step=\"{to}\" "
                f"href=\"{esc(base)}?step={to}#replay\">{label}</a>")

    nav = " ".join((link("First", 0, "first"), link("Previous", max(step - 1, 0), "prev"),
                    link("Next", min(step + 1, t.last), "next"), link("Last", t.last, "last")))
    # The controls above the images: beside the board whatever its height. The form's
    # action keeps #replay: without the script, "Show" lands on the replay, not the top.
    return (
        f"<section id=\"replay\" data-base=\"{esc(base)}\" data-version=\"{t.table.version}\""
        f" data-last=\"{t.last}\" data-step=\"{step}\"><h2>Replay</h2>"
        f"<p id=\"replay-caption\" aria-live=\"polite\">{esc(caption(t, step))}</p>"
        f"<div class=\"controls\"><nav aria-label=\"Replay steps\">{nav}</nav>"
        f"<form method=\"get\" action=\"{esc(base)}#replay\">"
        "<label for=\"replay-slider\">Step</label>"
        f"<input type=\"range\" id=\"replay-slider\" name=\"step\" min=\"0\" max=\"{t.last}\""
        f" value=\"{step}\"><button type=\"submit\">Show</button></form></div>"
        f"<div id=\"replay-images\">{_images(images, FIRST_ID)}</div>"
        "<p class=\"hint\">Arrow keys step too; a line of the history opens its step.</p>"
        "</section>")


def caption(t: PublicTable, step: int) -> str:
    """A step's caption, as text: the first history line of its move (a move told in several
    lines goes on with what followed from it). The page and the script both show this."""
    if step == 0:
        return f"Step 0 of {t.last}: the setup."
    line = next((text for s, text in t.history if s == step), "")
    return f"Step {step} of {t.last}: {NUMBER.sub('', line)}"


def _history(t: PublicTable) -> str:
    if not t.history:
        return "<section id=\"history\"><h2>History</h2><p>No moves yet.</p></section>"
    base = esc(f"/t/{t.public_id}")
    # Each move's line opens its step: a link that works without the script, which opens
    # it in place instead.
    items = "".join(
        f"<li data-step=\"{s}\"><a class=\"to-step\" data-step=\"{s}\""
        f" href=\"{base}?step={s}#replay\">{esc(text)}</a></li>" if s is not None
        else f"<li class=\"seat-change\">{esc(text)}</li>" for s, text in t.history)
    return f"<section id=\"history\"><h2>History</h2><ul>{items}</ul></section>"


def _step_of(request: web.Request, t: PublicTable) -> int:
    step = number(request.match_info["step"])
    if step is None or step > t.last:
        raise gone("The replay has no such step.")
    return step


async def step_image(request: web.Request) -> web.Response:
    site, t = await public_table(request)
    step, k = _step_of(request, t), number(request.match_info["k"])
    pngs = await site.replays.images(t.table.game_id, t.view(step),
                                     f"{t.table.id}:{t.table.version}:{step}", who(request))
    if k is None or k >= len(pngs):
        raise gone("The replay has no such image.")
    return web.Response(body=pngs[k][0], content_type="image/png",
                        headers={"Cache-Control": "public, max-age=300"})


async def step_data(request: web.Request) -> web.Response:
    """What the replay's script shows for a step: its caption and images, as the page
    itself would."""
    site, t = await public_table(request)
    step = _step_of(request, t)
    images = await step_images(site, t, step, who(request))
    return web.json_response({
        "step": step, "last": t.last, "caption": caption(t, step),
        "images": [{"src": src, "alt": alt} for src, alt in images]})


async def replay_file(request: web.Request) -> web.Response:
    _, t = await public_table(request)
    if t.replay_file is None:
        raise gone("The replay file is published once the game is over.")
    return web.Response(
        text=json.dumps(t.replay_file, indent=1), content_type="application/json",
        headers={"Content-Disposition": f"attachment; filename=tabula-{t.public_id}.json"})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/t/{public_id}", table_page)
    # [0-9], not \d: a route's \d takes the digits of any script.
    app.router.add_get(r"/t/{public_id}/img/{step:[0-9]+}-{k:[0-9]+}.png", step_image)
    app.router.add_get(r"/t/{public_id}/step/{step:[0-9]+}.json", step_data)
    app.router.add_get("/t/{public_id}/replay.json", replay_file)
