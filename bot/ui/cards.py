"""Posts as cards (Discord's Components V2): one container per message, its accent the colour
of the seat it is about, with a short heading, ONE image and its alt text, a few lines of what
happened, and the buttons. More detail is one click away (detail buttons, "Text view", the web
page), never stacked into the same message.

A card is plain data (``Card``) until ``layout`` builds discord.py's ``LayoutView`` and the one
file it names: a DM board is rebuilt from it when its "My moves" button is taken away.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord
from discord import ui

from bot.render_pool import Drawn
from bot.text import clip
from bot.ui.components import board_button, detail_button, link_button, text_button
from bot.ui.ids import Mark
from rendering.palette import player_colour
from rules import ENTRIES

TEXT_MAX = 4000  # characters of text displays in one message
HEADING_MAX = 200
ALT_MAX = 1024  # a gallery item's description
ROW_MAX = 5
DETAILS_MAX = 8  # detail buttons on one card (two rows at most)


@dataclass(frozen=True)
class Actions:
    """The buttons of a card: board buttons (``ops``) with their mark, details of ``seat``'s
    view (None: the public one), "Text view", and a link."""

    table_id: int
    mark: Mark | None = None
    ops: tuple[str, ...] = ()
    seat: int | None = None
    parts: tuple[tuple[str, str], ...] = ()
    text_view: bool = False
    url: str | None = None
    url_label: str = "Open on the web"

    def items(self) -> list[ui.Button[Any]]:
        found: list[ui.Button[Any]] = []
        if self.mark is not None:
            found += [board_button(op, self.table_id, self.mark) for op in self.ops]
        found += [detail_button(self.table_id, self.seat, key, label)
                  for key, label in self.parts[:DETAILS_MAX]]
        if self.text_view:
            found.append(text_button(self.table_id, self.seat))
        if self.url:
            found.append(link_button(self.url, self.url_label))
        return found


@dataclass(frozen=True)
class Card:
    """What one message shows."""

    heading: str
    body: str = ""
    hint: str = ""  # what the reader can do now (a DM's; said again when that changes)
    footer: str = ""  # a last line, e.g. whom the table waits for (mentions ping here)
    alt: str = ""
    filename: str | None = None  # the one image's attachment, when there is one
    accent: int | None = None
    actions: Actions | None = None
    extra: tuple[ui.Item[Any], ...] = field(default=())  # one row more: Confirm and Cancel
    game_id: str = ""  # with ``stage``: what a heading said again later is made of
    stage: str = ""

    def text(self) -> str:
        """Every line of the card as a member reads it."""
        return "\n".join(t for t in (self.heading, self.body, self.hint, self.footer) if t)


def accent_of(seat: int | None) -> int | None:
    """The seat's colour (``rendering.palette``), as Discord's accent integer."""
    if seat is None:
        return None
    r, g, b = player_colour(seat)
    return (r << 16) | (g << 8) | b


def title_of(game_id: str) -> str:
    entry = ENTRIES.get(game_id)
    return entry.game.title if entry is not None else game_id


def stage_of(view: Mapping[str, Any] | None) -> str:
    """"Round 2 of 6" or "Year 1 of 6" when the view counts them, else nothing."""
    if not view:
        return ""
    for key, word in (("year", "Year"), ("round", "Round")):
        now, last = view.get(key), view.get(key + "s")
        if isinstance(now, int) and not isinstance(now, bool) and now > 0:
            return f"{word} {now}" + (f" of {last}" if isinstance(last, int) and last else "")
    return ""


def turn_words(names: Sequence[str], over: bool, you: str | None = None) -> str:
    """Whose turn it is, said short: "carol's turn", "alice and bob to play", "your turn"."""
    if over:
        return "Game over"
    if not names:
        return ""
    if you is not None and you in names:
        others = [n for n in names if n != you]
        return "Your turn" if not others else "Your turn, with " + " and ".join(others)
    if len(names) == 1:
        return f"{names[0]}'s turn"
    return ", ".join(names[:-1]) + f" and {names[-1]} to play"


def heading(game_id: str, view: Mapping[str, Any] | None, names: Sequence[str], over: bool,
            you: str | None = None) -> str:
    return heading_of(game_id, stage_of(view), names, over, you)


def heading_of(game_id: str, stage: str, names: Sequence[str], over: bool,
               you: str | None = None) -> str:
    parts = [f"**{title_of(game_id)}**", stage, turn_words(names, over, you)]
    return clip("### " + " · ".join(p for p in parts if p), HEADING_MAX)


def layout(card: Card, drawn: Drawn | None = None) -> tuple[ui.LayoutView, list[discord.File]]:
    """The card's view and its file (only with ``drawn``; an edit keeps the file it has).
    The view is stopped: its buttons are answered by ``bot.ui.items``, so discord.py keeps
    nothing per message sent."""
    children: list[ui.Item[Any]] = [ui.TextDisplay(card.heading)] if card.heading else []
    files: list[discord.File] = []
    if card.filename is not None:
        alt = (drawn.alt if drawn is not None else card.alt)[:ALT_MAX] or None
        children.append(ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{card.filename}", description=alt)))
        if drawn is not None and drawn.png is not None:
            files.append(discord.File(io.BytesIO(drawn.png), filename=card.filename,
                                      description=alt))
    room = TEXT_MAX - len(card.heading) - len(card.hint) - len(card.footer) - 3
    if card.body.strip() or not (children or card.hint):
        children.append(ui.TextDisplay(clip(card.body.strip() or "…", max(room, 1))))
    if card.hint:
        children.append(ui.TextDisplay(card.hint))
    if card.footer:
        children.append(ui.TextDisplay(card.footer))
    buttons = card.actions.items() if card.actions is not None else []
    for start in range(0, len(buttons), ROW_MAX):
        children.append(ui.ActionRow(*buttons[start:start + ROW_MAX]))
    if card.extra:
        children.append(ui.ActionRow(*card.extra))
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.Container(*children, accent_colour=card.accent))
    view.stop()
    return view, files


def text_layout(text: str) -> ui.LayoutView:
    """A card of words only: what replaces a card (a preview) once it has been answered."""
    view, _ = layout(Card("", body=text))
    return view


def with_image(card: Card, drawn: Drawn, stem: str) -> Card:
    """The card carrying ``drawn``'s image (named ``stem``.png) and its alt text."""
    if drawn.png is None:
        return card
    return replace(card, filename=f"{stem}.png", alt=drawn.alt)


async def answer_card(interaction: discord.Interaction[Any], card: Card,
                      drawn: Drawn | None = None, *, ephemeral: bool = True,
                      mentions: discord.AllowedMentions | None = None) -> None:
    """Answer with a card, whether or not the interaction was answered or deferred first;
    nobody is pinged unless ``mentions`` says so."""
    view, files = layout(card, drawn)
    quiet = mentions or discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(view=view, files=files, ephemeral=ephemeral,
                                        allowed_mentions=quiet)
    else:
        await interaction.response.send_message(view=view, files=files, ephemeral=ephemeral,
                                                allowed_mentions=quiet)
