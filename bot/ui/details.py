"""What the buttons under a card open, for the presser only: one detail image of a view
("Sheet", "City", "Market"), or the whole view in words ("Text view").

A seat's own view opens only for the member at that seat, whoever else presses the button
(a DM can be forwarded, a message seen over a shoulder); the public board's for anyone. Each
answers what is true now, not what the card showed when it was sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.render_pool import Drawn
from bot.ui.cards import Card, accent_of, answer_card, title_of, with_image
from bot.ui.respond import bot_of, defer, member_of, refuse

NOT_YOURS = "That is another player's own view: only they can open it."
GONE = "That detail is not part of this game's view any more; the latest board has its own."


async def _view_of(interaction: discord.Interaction[Any], table_id: int, seat: int | None
                   ) -> tuple[str, Mapping[str, Any], str, int | None] | None:
    """(game, view, the view in words, its seat) the presser may see; None once refused."""
    bot = bot_of(interaction)
    table = await bot.tables.live.record(table_id)
    if seat is None:
        words, public = await bot.tables.public_view(table_id)
        return table.game_id, public, words, None
    mine = await bot.tables.private_view(table_id, member_of(interaction))
    if mine.seat != seat:
        await refuse(interaction, NOT_YOURS)
        return None
    return table.game_id, mine.view, mine.state, mine.seat


def _head(alt: str) -> str:
    """An alt text's first clause, as a card's heading."""
    return alt.split(":")[0].split(". ")[0].strip()[:120]


async def show_detail(interaction: discord.Interaction[Any], table_id: int, seat: int | None,
                      key: str) -> None:
    await defer(interaction)
    found = await _view_of(interaction, table_id, seat)
    if found is None:
        return
    game_id, view, _, seat = found
    try:
        png, alt = await bot_of(interaction).renderer.detail(game_id, view, key)
    except KeyError:
        await refuse(interaction, GONE)
        return
    drawn = Drawn(png, alt)
    card = with_image(Card(f"### **{title_of(game_id)}** · {_head(alt)}",
                           accent=accent_of(seat)), drawn, "detail")
    await answer_card(interaction, card, drawn)


async def show_text(interaction: discord.Interaction[Any], table_id: int,
                    seat: int | None) -> None:
    await defer(interaction)
    found = await _view_of(interaction, table_id, seat)
    if found is None:
        return
    game_id, _, words, seat = found
    whose = "The board" if seat is None else "Your view"
    card = Card(f"### **{title_of(game_id)}** · {whose} in words",
                body=words or "Nothing to describe yet.", accent=accent_of(seat))
    await answer_card(interaction, card)
