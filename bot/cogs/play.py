"""``/move`` (with autocomplete from the legal moves), ``/board``, ``/hand`` and ``/undo``."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.store import Status
from bot.ui import flows, ids
from bot.ui.cards import Actions, Card, accent_of, heading, layout, with_image
from bot.ui.delivery import delivery_of
from bot.ui.ids import Mark
from bot.ui.respond import bot_of, defer, member_of, reply, table_here
from rules.core import RulesError

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25


def matches(move: str, typed: str) -> bool:
    """Every word typed appears in the move (any order, any case): "wall 3" finds
    "build wall 3 (2 stone)"."""
    low = move.lower()
    return all(word in low for word in typed.lower().split())


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Make your move (a preview comes first)")
    @app_commands.describe(
        action="Your move in the game's notation; start typing to see the legal ones",
        confirm="Play it at once, without the preview",
        always="Answer this way whenever it is asked again (false, without a move: stop)",
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        action: app_commands.Range[str, 0, 200] | None = None,
        confirm: bool = False,
        always: bool | None = None,
    ) -> None:
        table = await table_here(interaction)
        if always is not None and not action:
            was = await bot_of(interaction).tables.drop_standing(table.id, member_of(interaction))
            await reply(interaction, "You will be asked again." if was else
                        "You had no standing answer here.")
        elif always and action:
            await flows.commit(interaction, table.id, action, always=True)
        elif not action:
            await flows.offer_moves(interaction, table.id)
        else:
            await flows.play(interaction, table.id, action, confirm=confirm)

    @move.autocomplete("action")
    async def move_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            table = await table_here(interaction)
            moves = await bot_of(interaction).tables.legal_moves(table.id,
                                                                 member_of(interaction))
        except RulesError:
            return []
        except Exception:
            log.exception("autocomplete failed for %s", interaction.user.id)
            return []
        found = [m for m in moves if matches(m, current)][:AUTOCOMPLETE_LIMIT]
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in found]

    @app_commands.command(name="board", description="Show this game's board")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        bot = bot_of(interaction)
        text, view = await bot.tables.public_view(table.id)  # refuses before any answer
        await defer(interaction, public=True)
        drawn = await bot.renderer.card(table.game_id, view)
        playing = table.status == Status.PLAYING
        status = await bot.tables.status(table.id)
        url = await delivery_of(interaction).table_url(table.id)
        actions = Actions(table.id, Mark(version=table.version) if playing else None,
                          ids.BOARD_OPS, None, drawn.parts, text_view=True, url=url)
        # Without an image (a game that draws none) the view's words are the card's body.
        card = with_image(Card(heading(table.game_id, view, status.next_names, status.over),
                               body="" if drawn.png else text,
                               accent=accent_of(status.lead_seat), actions=actions),
                          drawn, "board")
        layout_view, files = layout(card, drawn)
        await interaction.followup.send(view=layout_view, files=files,
                                        allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="hand", description="Your private view (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        await flows.show_hand(interaction, table.id)

    @app_commands.command(name="undo", description="Take back your last move, if nobody "
                          "has acted since")
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_here(interaction)
        await defer(interaction)
        notice = await bot_of(interaction).tables.undo(
            table.id, member_of(interaction), idem_key=str(interaction.id)
        )
        await flows.announce(interaction, notice)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
