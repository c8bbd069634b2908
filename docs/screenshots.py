"""The README's screenshots: a seeded game of each game played through the real bot on the
local Discord stand-in; one channel board from mid-game and one seat's DM drawn the way
Discord's dark theme shows a card, in Chromium at Discord's preview width (550 px).

    python docs/screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import copy
import html
import io
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's packages and its tests' harness, from anywhere

from PIL import Image  # noqa: E402

from rules.core import Rng  # noqa: E402
from tests.e2e.browser import ARGS, CHROMIUM  # noqa: E402
from tests.e2e.harness import mentioned_ids, table  # noqa: E402
from tests.e2e.test_bot_game import open_and_start, play_move  # noqa: E402
from tests.standin import Member, Message, StandIn, StandInTimeout  # noqa: E402

# Moves played before the board is taken: about a third of each game.
MID_GAME = {"palatinus": 20, "palermo": 30, "hadrians-wall": 45, "minerva": 24}
WIDTH = 680  # the browser's viewport: a chat column with room for a 550 px image in a card
PREVIEW = 550  # Discord's widest image preview
BUTTONS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
CSS = """
body{margin:0;background:#313338;color:#dbdee1;font:16px/1.375 "DejaVu Sans",sans-serif}
.msg{display:flex;gap:16px;padding:16px 16px 20px}
.avatar{width:40px;height:40px;border-radius:50%;background:#5865f2;color:#fff;flex:none;
 display:flex;align-items:center;justify-content:center;font-weight:700}
.head{margin-bottom:4px}.name{color:#f2f3f5;font-weight:600}
.app{background:#5865f2;color:#fff;font-size:10px;font-weight:600;padding:1px 4px;
 border-radius:3px;margin-left:4px;vertical-align:2px}.time{color:#949ba4;font-size:12px;
 margin-left:6px}.main{min-width:0;flex:1}
.card{position:relative;background:#2b2d31;border:1px solid #3f4147;border-radius:8px;
 padding:16px 16px 16px 20px;width:fit-content;display:flex;flex-direction:column;gap:8px}
.bar{position:absolute;left:0;top:0;bottom:0;width:4px;border-radius:8px 0 0 8px}
.text p{margin:0}.text h1,.text h2,.text h3{margin:0;color:#f2f3f5;line-height:1.25}
.text h3{font-size:16px}.item{padding-left:16px;text-indent:-12px}
.item::before{content:"\\2022  "}.text h2{font-size:20px}.small{font-size:12px;color:#949ba4}
code{background:#1e1f22;border-radius:4px;padding:0 3px;font:14px "DejaVu Sans Mono",monospace}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px}
.gallery img{display:block;max-width:550px;border-radius:8px}
hr{border:0;border-top:1px solid #3f4147;margin:4px 0;width:100%}
.row{display:flex;flex-wrap:wrap;gap:8px}
.btn{color:#fff;border-radius:8px;padding:0 16px;height:32px;display:flex;align-items:center;
 font-size:14px;font-weight:500}.btn.off{opacity:.5}
"""


def markdown(text: str, names: dict[int, str], channels: dict[int, str], now: float) -> str:
    """Discord's markdown as HTML: headings, -# small lines, bold, italics, code, timestamps
    and mentions; everything else (member names too) escaped."""
    lines = []
    for raw in text.splitlines():
        tag, line = "p", raw
        if match := re.match(r"(#{1,3}) (.*)", raw):
            tag, line = f"h{len(match.group(1))}", match.group(2)
        elif raw.startswith("-# "):
            tag, line = "p class=small", raw[3:]
        elif raw.startswith("- "):
            tag, line = "p class=item", raw[2:]
        out = html.escape(line, quote=False)
        out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
        out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
        out = re.sub(r"(?<![\w*])[*_](?![\s*_])(.+?)(?<!\s)[*_](?!\w)", r"<i>\1</i>", out)
        out = re.sub(r"&lt;t:(\d+)(?::(\w))?&gt;", lambda m: when(int(m[1]), m[2], now), out)
        out = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: pill("@", names.get(int(m[1]))), out)
        out = re.sub(r"&lt;#(\d+)&gt;", lambda m: pill("#", channels.get(int(m[1]))), out)
        lines.append(f"<{tag}>{out}</{tag.split()[0]}>" if out.strip() else "<p>&nbsp;</p>")
    return "".join(lines)


def pill(sign: str, name: str | None) -> str:
    return f'<span class="mention">{sign}{html.escape(name or "unknown")}</span>'


def when(stamp: int, style: str | None, now: float) -> str:
    """A ``<t:N:style>`` as Discord writes it (UTC here)."""
    if style == "R":
        minutes = round((stamp - now) / 60)
        if abs(minutes) >= 120:
            hours = round(abs(minutes) / 60)
            return f"in {hours} hours" if minutes > 0 else f"{hours} hours ago"
        return f"in {minutes} minutes" if minutes >= 0 else f"{-minutes} minutes ago"
    moment = datetime.fromtimestamp(stamp, UTC)
    if style in ("t", "T"):
        return moment.strftime("%H:%M")
    if style in ("d", "D"):
        return moment.strftime("%-d %B %Y")
    return moment.strftime("%-d %B %Y %H:%M")


def component(item: dict[str, Any], files: dict[str, bytes], text: Callable[[str], str]) -> str:
    kind = item.get("type")
    if kind == 10:
        return f'<div class="text">{text(str(item.get("content") or ""))}</div>'
    if kind == 14:
        return "<hr>" if item.get("divider", True) else "<div></div>"
    if kind == 12:
        shown = []
        for entry in item.get("items") or []:
            name = str(entry["media"]["url"]).removeprefix("attachment://")
            data = base64.b64encode(files.get(name, b"")).decode()
            alt = html.escape(str(entry.get("description") or ""))
            shown.append(f'<img src="data:image/png;base64,{data}" alt="{alt}">')
        return f'<div class="gallery">{"".join(shown)}</div>'
    if kind == 1:
        buttons = []
        for button in item.get("components") or []:
            colour = BUTTONS.get(int(button.get("style") or 2), "#4e5058")
            label = html.escape(str(button.get("label") or ""))
            arrow = " ↗" if button.get("style") == 5 else ""
            off = " off" if button.get("disabled") else ""
            buttons.append(f'<span class="btn{off}" style="background:{colour}">'
                           f"{label}{arrow}</span>")
        return f'<div class="row">{"".join(buttons)}</div>'
    if kind == 9:
        inner = "".join(component(c, files, text) for c in item.get("components") or [])
        return f"<div>{inner}</div>"
    return ""


def page(shot: Shot, names: dict[int, str], channels: dict[int, str]) -> str:
    """The card as a self-contained HTML page in Discord's dark theme."""
    now = time.time()
    files = shot.files

    def text(md: str) -> str:
        return markdown(md, names, channels, now)

    body = []
    for box in shot.components:
        inner = "".join(component(c, files, text) for c in box.get("components") or [])
        accent = box.get("accent_color")
        bar = (f'<div class="bar" style="background:#{int(accent):06x}"></div>'
               if accent is not None else "")
        body.append(f'<div class="card">{bar}{inner}</div>')
    stamp = datetime.fromtimestamp(now, UTC).strftime("Today at %H:%M")
    return (f'<!doctype html><html><head><meta charset="utf-8"><style>{CSS}</style></head>'
            f'<body><div class="msg"><div class="avatar">T</div><div class="main">'
            f'<div class="head"><span class="name">Tabula</span><span class="app">APP</span>'
            f'<span class="time">{stamp}</span></div>{"".join(body)}</div></div></body></html>')


@dataclass(frozen=True)
class Shot:
    """A card as it read at one moment (a DM is edited once its turn is played)."""

    components: list[Any]
    files: dict[str, bytes]

    @classmethod
    def of(cls, message: Message) -> Shot:
        return cls(copy.deepcopy(message.components),
                   {a.filename: a.data for a in message.shown_attachments()})


def turn_dm(standin: StandIn, member: Member, after: int) -> Message | None:
    """The member's DM card with an image (its private view) telling them it is their turn,
    sent after message ``after``."""
    found = [m for m in standin.dms(member) if m.id > after and m.card
             and m.shown_attachments() and "Your turn" in m.text]
    return found[-1] if found else None


async def play(game: str, folder: Path) -> tuple[Shot, Shot, dict[int, str], dict[int, str]]:
    """A seeded game up to mid-game: the last channel board, and alice's DM of her last turn
    as it read then."""
    async with StandIn() as standin, table(standin, folder / f"{game}.db") as t:
        board = await open_and_start(t, game)
        alice = t.members["alice"]
        rng = Rng(f"screenshots-{game}")
        dm: Shot | None = None
        for step in range(MID_GAME[game] * 3):
            if "Game over" in board.text or (step >= MID_GAME[game] and dm is not None):
                break
            if alice.id in mentioned_ids(board):
                # Not every board brings a DM (a simultaneous turn goes on in the one sent).
                with contextlib.suppress(StandInTimeout):
                    await standin.wait_until(partial(turn_dm, standin, alice, board.id), 1.0,
                                             "alice's DM of her turn")
                if (found := turn_dm(standin, alice, 0)) is not None:
                    dm = Shot.of(found)
            board = await play_move(t, board, rng, step)
        assert dm is not None, "alice was never on turn"
        names = {uid: user.name for uid, user in standin.world.users.items()}
        channels = {cid: channel.name for cid, channel in standin.world.channels.items()}
        return Shot.of(board), dm, names, channels


async def shoot(pages: dict[str, str], out: Path) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            tab = await browser.new_page(viewport={"width": WIDTH, "height": 400})
            for name, markup in pages.items():
                await tab.set_content(markup)
                shot = await tab.screenshot(full_page=True)
                Image.open(io.BytesIO(shot)).convert("RGB").save(out / name, optimize=True)
                print(f"{out / name}: {(out / name).stat().st_size // 1024} KB")
        finally:
            await browser.close()


async def main(out: Path, games: list[str]) -> None:
    pages: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for game in games:
            board, dm, names, channels = await play(game, Path(scratch))
            pages[f"card-{game}.png"] = page(board, names, channels)
            pages[f"card-{game}-dm.png"] = page(dm, names, channels)
    await shoot(pages, out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--game", action="append", choices=sorted(MID_GAME))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(args.out, args.game or sorted(MID_GAME)))
