"""HTML made from strings, with every piece of member text escaped on the way in: ``esc`` is
the only door for data, and pages are built from trusted fragments around it."""

from __future__ import annotations

import html
from datetime import UTC, datetime

from aiohttp import web

from bot.text import clean_name

NAME_LIMIT = 64


def esc(text: object) -> str:
    """Text shown as text: ``<script>`` is four characters and a word, never an element."""
    return html.escape(str(text), quote=True)


def name(raw: str) -> str:
    """A member-supplied name, cleaned, capped and escaped."""
    return esc(clean_name(raw, NAME_LIMIT))


def when(epoch: int) -> str:
    """A moment as a ``<time>``: UTC in the page, the reader's own zone once the script ran."""
    moment = datetime.fromtimestamp(epoch, UTC)
    return (f'<time class="local" datetime="{moment.isoformat().replace("+00:00", "Z")}">'
            f'{moment.strftime("%Y-%m-%d %H:%M")} UTC</time>')


def page(title: str, body: str, *, scripts: tuple[str, ...] = (), head: str = "") -> str:
    """A whole page; ``title`` is plain text, ``body`` and ``head`` (more of the head: link
    previews) trusted HTML."""
    tags = "".join(f'<script src="/static/{s}" defer></script>' for s in ("local-time.js",
                                                                        *scripts))
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)} · Tabula</title>"
            "<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">"
            "<link rel=\"stylesheet\" href=\"/static/style.css\">"
            f"{head}{tags}</head><body><main>{body}</main>"
            "<footer>Tabula: board games played in Discord.</footer></body></html>\n")


def html_response(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def refusal(status: int, title: str, why: str) -> web.Response:
    """A short page that says why nothing is shown."""
    return html_response(page(title, f"<h1>{esc(title)}</h1><p>{esc(why)}</p>"), status)
