"""Restart-proof buttons and selects (``DynamicItem``): matched by custom_id (``bot.ui.ids``),
so a click works after a restart; each is checked against what it was made for."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.leagues.checkin import CheckIns
from bot.text import clean_name, escape
from bot.ui import async_play, components, details, ids, lobby
from bot.ui.cards import text_layout
from bot.ui.flows import STALE, confirm, offer_moves, play, show_hand, still_valid
from bot.ui.ids import Mark
from bot.ui.respond import bot_of, member_of, refuse, reply, report_error


class Guarded:
    """discord.py logs and drops a dynamic item's errors; these go to the one error handler,
    so a player hears about a mistake (or gets an incident id) instead of silence."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.run(interaction)
        except Exception as exc:
            await report_error(interaction, exc)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class LobbyButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LOBBY):
    def __init__(self, op: str, table_id: int) -> None:
        super().__init__(components.lobby_button(op, table_id))
        self.op, self.table_id = op, table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> LobbyButton:
        return cls(match["op"], int(match["table"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await lobby.run_lobby_op(interaction, self.op, self.table_id)


class BoardButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.BOARD):
    def __init__(self, op: str, table_id: int, mark: Mark) -> None:
        super().__init__(components.board_button(op, table_id, mark))
        self.op, self.table_id, self.mark = op, table_id, mark

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> BoardButton:
        return cls(match["op"], int(match["table"]), Mark.decode(match["mark"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        if self.op == "hand":
            await show_hand(interaction, self.table_id)  # always the current hand
        elif self.mark.fingerprint is None and not await still_valid(
                interaction, self.table_id, self.mark):
            await refuse(interaction, STALE)
        else:
            # A seat's own board (a DM) lists the moves of now, or says why there are none
            # (whose turn it is, a part already done): the menu carries its own mark.
            await offer_moves(interaction, self.table_id)


class ConfirmButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=ids.CONFIRM):
    def __init__(self, op: str, pending_id: int) -> None:
        super().__init__(components.confirm_button(op, pending_id))
        self.op, self.pending_id = op, pending_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> ConfirmButton:
        return cls(match["op"], int(match["pending"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        if self.op == "ok":
            await confirm(interaction, self.pending_id)
            return
        await bot_of(interaction).tables.cancel(self.pending_id, member_of(interaction))
        await interaction.response.edit_message(  # the preview card, now words only
            view=text_layout("Cancelled; nothing was played."), attachments=[])


class MoveSelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.PICK):
    def __init__(self, table_id: int, mark: Mark) -> None:
        super().__init__(components.move_select(table_id, mark, []))
        self.table_id, self.mark = table_id, mark

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> MoveSelect:
        return cls(int(match["table"]), Mark.decode(match["mark"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = list(data.get("values") or [])
        if not await still_valid(interaction, self.table_id, self.mark):
            await refuse(interaction, STALE)
        elif values:
            await play(interaction, self.table_id, str(values[0]))


class VoteButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.VOTE):
    """A member's vote on a seat that ran out of time."""

    def __init__(self, choice: str, turn_id: int, round_: int) -> None:
        super().__init__(components.vote_button(choice, turn_id, round_))
        self.choice, self.turn_id, self.round = choice, turn_id, round_

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> VoteButton:
        # Buttons posted before votes had rounds belong to the first round.
        return cls(match["choice"], int(match["turn"]), int(match["round"] or 1))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await async_play.vote(interaction, self.turn_id, self.round, self.choice)


class SeekButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.SEEK):
    """An open advert for a seat: whoever clicks first takes it."""

    def __init__(self, table_id: int, seat: int, old: int, by: int) -> None:
        super().__init__(components.seek_button(table_id, seat, old, by))
        self.table_id, self.seat, self.old, self.by = table_id, seat, old, by

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> SeekButton:
        return cls(int(match["table"]), int(match["seat"]), int(match["old"]), int(match["by"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await async_play.take_seat(interaction, self.table_id, self.seat, self.old, self.by)


class CheckInButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=ids.CHECKIN):
    """A league member is present for the next round (only they are paired in it)."""

    def __init__(self, league_id: int) -> None:
        super().__init__(components.checkin_button(league_id))
        self.league_id = league_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> CheckInButton:
        return cls(int(match["league"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        league, new = await bot.leagues.check_in(self.league_id, member_of(interaction))
        name = escape(clean_name(league.name, 40))
        if new and interaction.message is not None:
            # The post counts who has checked in.
            state = await CheckIns(bot.leagues).state(league.id)
            await interaction.response.edit_message(
                content=state.text(), allowed_mentions=discord.AllowedMentions.none())
        await reply(interaction, f"You are checked in for the next round of **{name}**."
                    if new else f"You had checked in for **{name}** already.",
                    allowed_mentions=discord.AllowedMentions.none())


class DetailButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.DETAIL):
    """One detail image of the public board or of a seat's own view, for the presser."""

    def __init__(self, table_id: int, seat: int | None, key: str) -> None:
        super().__init__(components.detail_button(table_id, seat, key, "Detail"))
        self.table_id, self.seat, self.key = table_id, seat, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> DetailButton:
        return cls(int(match["table"]), ids.seat_of(match["seat"]), match["key"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await details.show_detail(interaction, self.table_id, self.seat, self.key)


class TextViewButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.TEXT):
    """The public board or a seat's own view in words, for the presser."""

    def __init__(self, table_id: int, seat: int | None) -> None:
        super().__init__(components.text_button(table_id, seat))
        self.table_id, self.seat = table_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> TextViewButton:
        return cls(int(match["table"]), ids.seat_of(match["seat"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await details.show_text(interaction, self.table_id, self.seat)


DYNAMIC_ITEMS = (LobbyButton, BoardButton, ConfirmButton, MoveSelect, VoteButton, SeekButton,
                 CheckInButton, DetailButton, TextViewButton)
