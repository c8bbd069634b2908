"""Restart-proof buttons and selects (``DynamicItem``): the custom_id carries the table (and, on
a board, its version), so a click works after a restart and an old board's click is refused."""

from __future__ import annotations

import re
from typing import Any

import discord

LOBBY_OPS = {"join": "Join", "leave": "Leave", "bot": "Add computer", "start": "Start"}
STALE = "This board is out of date; use the latest one in the channel (or `/board`)."


class Guarded:
    """discord.py logs and drops a dynamic item's errors; these go to the one error handler,
    so a player hears about a mistake (or gets an incident id) instead of silence."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.cogs.common import report_error

        try:
            await self.run(interaction)
        except Exception as exc:
            await report_error(interaction, exc)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class LobbyButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tabula:lobby:(?P<op>join|leave|bot|start):(?P<table>[0-9]+)",
):
    def __init__(self, op: str, table_id: int) -> None:
        style = discord.ButtonStyle.success if op == "start" else discord.ButtonStyle.secondary
        if op == "join":
            style = discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(
            label=LOBBY_OPS[op], style=style, custom_id=f"tabula:lobby:{op}:{table_id}",
        ))
        self.op = op
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> LobbyButton:
        return cls(match["op"], int(match["table"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        from bot.cogs import lobby

        await lobby.run_lobby_op(interaction, self.op, self.table_id)


class BoardButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tabula:board:(?P<op>moves|hand):(?P<table>[0-9]+):(?P<version>[0-9]+)",
):
    def __init__(self, op: str, table_id: int, version: int) -> None:
        label = "My moves" if op == "moves" else "My hand"
        style = discord.ButtonStyle.primary if op == "moves" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"tabula:board:{op}:{table_id}:{version}",
        ))
        self.op = op
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> BoardButton:
        return cls(match["op"], int(match["table"]), int(match["version"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        from bot.cogs.common import bot_of, reply
        from bot.cogs.flows import offer_moves, show_hand

        table = await bot_of(interaction).tables.table_for(self.table_id)
        if table.version != self.version:
            await reply(interaction, STALE)
        elif self.op == "moves":
            await offer_moves(interaction, self.table_id)
        else:
            await show_hand(interaction, self.table_id)


class ConfirmButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tabula:confirm:(?P<op>ok|no):(?P<pending>[0-9]+)",
):
    def __init__(self, op: str, pending_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="Confirm" if op == "ok" else "Cancel",
            style=discord.ButtonStyle.success if op == "ok" else discord.ButtonStyle.danger,
            custom_id=f"tabula:confirm:{op}:{pending_id}",
        ))
        self.op = op
        self.pending_id = pending_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> ConfirmButton:
        return cls(match["op"], int(match["pending"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        from bot.cogs.common import bot_of, member_of
        from bot.cogs.flows import confirm

        if self.op == "ok":
            await confirm(interaction, self.pending_id)
        else:
            await bot_of(interaction).tables.cancel(self.pending_id, member_of(interaction))
            await interaction.response.edit_message(
                content="Cancelled; nothing was played.", attachments=[], view=None
            )


class MoveSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tabula:pick:(?P<table>[0-9]+):(?P<version>[0-9]+)",
):
    def __init__(self, table_id: int, version: int, moves: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=m[:100], value=m[:100]) for m in (moves or [])]
        super().__init__(discord.ui.Select(
            placeholder="Choose a move",
            options=options or [discord.SelectOption(label="-", value="-")],
            custom_id=f"tabula:pick:{table_id}:{version}",
        ))
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> MoveSelect:
        return cls(int(match["table"]), int(match["version"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        from bot.cogs.common import bot_of, reply
        from bot.cogs.flows import show_preview

        table = await bot_of(interaction).tables.table_for(self.table_id)
        data: dict[str, Any] = dict(interaction.data or {})
        values = list(data.get("values") or [])
        if table.version != self.version:
            await reply(interaction, STALE)
        elif values:
            await show_preview(interaction, self.table_id, str(values[0]))


def lobby_view(table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(op, table_id))
    return view


def board_view(table_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton("moves", table_id, version))
    view.add_item(BoardButton("hand", table_id, version))
    return view


def confirm_view(pending_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton("ok", pending_id))
    view.add_item(ConfirmButton("no", pending_id))
    return view


def moves_view(table_id: int, version: int, moves: list[str]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(MoveSelect(table_id, version, moves))
    return view


DYNAMIC_ITEMS = (LobbyButton, BoardButton, ConfirmButton, MoveSelect)
