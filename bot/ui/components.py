"""The buttons and menus the bot sends.

Clicks come back through the ``DynamicItem`` classes of ``bot.ui.items``, which match them by
custom_id, so a board keeps working after a restart. The views here are stopped before they are
sent: discord.py then keeps no view in memory per message sent.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui import ids
from bot.ui.ids import Mark

LOBBY_LABELS = {"join": "Join", "leave": "Leave", "bot": "Add computer", "start": "Start"}
LOBBY_STYLES = {"join": discord.ButtonStyle.primary, "start": discord.ButtonStyle.success}
VOTE_LABELS = {"remove": "Remove (computer plays)", "wait": "Wait another period",
               "substitute": "Find a substitute"}


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def lobby_button(op: str, table_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=LOBBY_LABELS[op], custom_id=ids.lobby(op, table_id),
                             style=LOBBY_STYLES.get(op, discord.ButtonStyle.secondary))


def board_button(op: str, table_id: int, mark: Mark) -> discord.ui.Button[Any]:
    moves = op == "moves"
    return discord.ui.Button(
        label="My moves" if moves else "My hand", custom_id=ids.board(op, table_id, mark),
        style=discord.ButtonStyle.primary if moves else discord.ButtonStyle.secondary,
    )


def confirm_button(op: str, pending_id: int) -> discord.ui.Button[Any]:
    ok = op == "ok"
    return discord.ui.Button(
        label="Confirm" if ok else "Cancel", custom_id=ids.confirm(op, pending_id),
        style=discord.ButtonStyle.success if ok else discord.ButtonStyle.danger,
    )


def move_select(table_id: int, mark: Mark, moves: list[str]) -> discord.ui.Select[Any]:
    options = [discord.SelectOption(label=m[:100], value=m[:100]) for m in moves]
    return discord.ui.Select(
        placeholder="Choose a move", custom_id=ids.pick(table_id, mark),
        options=options or [discord.SelectOption(label="-", value="-")],
    )


def detail_button(table_id: int, seat: int | None, key: str, label: str
                  ) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80] or "Detail",
                             custom_id=ids.detail(table_id, seat, key),
                             style=discord.ButtonStyle.secondary)


def text_button(table_id: int, seat: int | None) -> discord.ui.Button[Any]:
    return discord.ui.Button(label="Text view", custom_id=ids.text(table_id, seat),
                             style=discord.ButtonStyle.secondary)


def link_button(url: str, label: str = "Open on the web") -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, url=url, style=discord.ButtonStyle.link)


def lobby_view(table_id: int) -> discord.ui.View:
    return _view(*(lobby_button(op, table_id) for op in ids.LOBBY_OPS))


def moves_view(table_id: int, mark: Mark, moves: list[str]) -> discord.ui.View:
    return _view(move_select(table_id, mark, moves))


def vote_button(choice: str, turn_id: int, round_: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=VOTE_LABELS[choice],
                             custom_id=ids.vote(choice, turn_id, round_),
                             style=discord.ButtonStyle.secondary)


def seek_button(table_id: int, seat: int, old: int, by: int, label: str = "Join as substitute"
                ) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                             custom_id=ids.seek(table_id, seat, old, by))


def checkin_button(league_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(label="Check in", style=discord.ButtonStyle.success,
                             custom_id=ids.checkin(league_id))


def checkin_view(league_id: int) -> discord.ui.View:
    return _view(checkin_button(league_id))


def vote_view(turn_id: int, round_: int) -> discord.ui.View:
    return _view(*(vote_button(choice, turn_id, round_) for choice in ids.VOTE_CHOICES))


def seek_view(table_id: int, seat: int, old: int, by: int, label: str = "Join as substitute"
              ) -> discord.ui.View:
    return _view(seek_button(table_id, seat, old, by, label))
