"""Play flows shared by slash commands and buttons: preview, commit, confirm, list moves,
show a hand. Each defers first when it renders or commits (Discord wants a first answer
within 3 s), then calls the table use cases; no rule of any game lives here.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord

from bot.notices import Notice
from bot.pace.notices import next_line
from bot.tables.outbox import DONE
from bot.ui.async_play import seen
from bot.ui.cards import Card, layout, text_layout, title_of, with_image
from bot.ui.components import confirm_button, moves_view
from bot.ui.delivery import delivery_of
from bot.ui.ids import Mark
from bot.ui.replies import given, owe
from bot.ui.respond import bot_of, defer, member_of, refuse, reply

SELECT_LIMIT = 25
STALE = "This board is out of date; use the latest one in the channel (or `/board`)."


async def show_preview(interaction: discord.Interaction[Any], table_id: int, text: str) -> None:
    """The mover's own view after the move, as a card of one image, with Confirm / Cancel."""
    await defer(interaction)
    bot = bot_of(interaction)
    await seen(interaction, table_id)
    proposal = await bot.tables.propose(table_id, member_of(interaction), text)
    table = await bot.tables.live.record(table_id)
    drawn = await bot.renderer.card(table.game_id, proposal.view)
    if proposal.hidden_result or not proposal.said:
        what = (f"You chose {quoted(proposal.text)}. "
                + ("It draws or reveals something: you see the result once it counts."
                   if proposal.hidden_result else "The picture shows your view after it."))
    else:
        what = f"{proposal.said}\nThe picture shows your view after it."
    card = with_image(Card(f"### **{title_of(table.game_id)}** · Preview of your move",
                           body=f"{what}\n**Confirm** plays it; only you see this preview.",
                           extra=(confirm_button("ok", proposal.pending_id),
                                  confirm_button("no", proposal.pending_id))),
                      drawn, "preview")
    view, files = layout(card, drawn)
    await interaction.followup.send(view=view, files=files, ephemeral=True)


def quoted(notation: str) -> str:
    """A move's notation inside a sentence (typed by the engine, never by a member)."""
    return f"“{notation}”"


async def commit(interaction: discord.Interaction[Any], table_id: int, text: str, *,
                 always: bool = False) -> None:
    """Commit a typed move (``/move confirm:true``), tell the mover, then post the board;
    ``always`` makes it the member's standing answer."""
    await defer(interaction)
    # Owed from here: should the bot die before answering, a restart answers.
    await owe(interaction, table_id)
    try:
        notice = await bot_of(interaction).tables.act(
            table_id, member_of(interaction), text, idem_key=str(interaction.id),
            then_computers=False, always=always,
        )
    except Exception:
        await given(interaction)  # the refusal is the answer
        raise
    await announce(interaction, notice)


async def confirm(interaction: discord.Interaction[Any], pending_id: int) -> None:
    """Commit a previewed move from its Confirm button, in place of the preview."""
    await defer(interaction, update=True)
    notice = await bot_of(interaction).tables.confirm(
        pending_id, member_of(interaction), idem_key=str(interaction.id), then_computers=False,
    )
    await announce(interaction, notice, edit=True)


async def announce(
    interaction: discord.Interaction[Any], notice: Notice, *, edit: bool = False
) -> None:
    """The move is committed: tell the mover first, then the channel and the DMs, then let
    computer seats answer (their moves are told in a message of their own)."""
    if notice.duplicate:
        await reply(interaction, "That move was already made.")
        await given(interaction)
        return
    done = DONE + await next_game(interaction, notice.table_id)
    if notice.to_mover:
        done = f"{notice.to_mover}\n{done}"
    if edit:
        # The preview was a card: it stays one (Discord keeps the flag), now words only.
        await interaction.edit_original_response(view=text_layout(done), attachments=[])
    else:
        await reply(interaction, done)
        await given(interaction)
    await tell_channel(interaction, notice)


async def next_game(interaction: discord.Interaction[Any], table_id: int) -> str:
    """The mover's other table that has waited longest on them, as a line to add."""
    waiting = await bot_of(interaction).scheduler.next_waiting(interaction.user.id, table_id)
    return "" if waiting is None else "\n" + next_line(waiting)


async def play(interaction: discord.Interaction[Any], table_id: int, text: str, *,
               confirm: bool = False) -> None:
    """A chosen move: previewed first, unless asked to play it at once (``confirm``) or the
    member turned previews off in ``/settings``."""
    await defer(interaction)  # the first answer comes before any reading or work
    if confirm or not (await bot_of(interaction).scheduler.settings(interaction.user.id)).preview:
        await commit(interaction, table_id, text)
    else:
        await show_preview(interaction, table_id, text)


async def tell_channel(interaction: discord.Interaction[Any], notice: Notice) -> None:
    """Post a committed move through the outbox (computer seats due next answer first).
    The board is a channel message, not a follow-up of the interaction: only a message
    created with a nonce can be posted again after a crash without showing twice."""
    await bot_of(interaction).outbox.committed(notice)


def shortlist(moves: list[str], last: str | None, finishing: Collection[str],
              limit: int = SELECT_LIMIT) -> list[str]:
    """When there are too many moves for a menu: those in the area of the player's last move
    (its first word, e.g. "wall"), then the ones that finish a turn (first words in
    ``finishing``, the game's own: "pass", "done")."""
    area = last.split()[0].lower() if last and last.split() else None
    near = [m for m in moves if area and m.split() and m.split()[0].lower() == area]
    ending = [m for m in moves if m.split() and m.split()[0].lower() in finishing]
    picked = list(dict.fromkeys(near + ending))
    return picked[:limit]


async def offer_moves(interaction: discord.Interaction[Any], table_id: int) -> None:
    """The member's moves, answered first; then an absence of theirs ends (told in the
    channel, which may wait on the rate limit)."""
    await _offer_moves(interaction, table_id)
    await seen(interaction, table_id)


async def _offer_moves(interaction: discord.Interaction[Any], table_id: int) -> None:
    """An ephemeral select of the caller's legal moves: all of them when they fit, else a
    shortlist (the area of their last move, and passing) with how to search the rest."""
    bot = bot_of(interaction)
    member = member_of(interaction)
    moves = [m for m in await bot.tables.legal_moves(table_id, member) if len(m) <= 100]
    if not moves:
        await refuse(interaction, await bot.tables.idle_reason(table_id, member))
        return
    mark = Mark(fingerprint=await bot.tables.seat_print(table_id, member))
    if len(moves) <= SELECT_LIMIT:
        await reply(interaction, "Pick your move (a preview comes first unless `/settings` "
                    "turned it off).",
                    view=moves_view(table_id, mark, moves))
        return
    short = shortlist(moves, await bot.tables.last_notation(table_id, member),
                      await bot.tables.finishing_words(table_id))
    hint = (f"You have {len(moves)} moves to choose from, more than one menu holds. Type in "
            f"`/move` to search them all: {await bot.tables.moves_hint(table_id)}.")
    if short:
        await reply(interaction, hint + " The menu holds the usual ones.",
                    view=moves_view(table_id, mark, short))
    else:
        await reply(interaction, f"{hint} For example: {', '.join(moves[:5])}.")


async def show_hand(interaction: discord.Interaction[Any], table_id: int) -> None:
    """The caller's private view, ephemeral: the fallback for closed DMs."""
    await defer(interaction)
    bot = bot_of(interaction)
    await seen(interaction, table_id)
    seat = await bot.tables.private_view(table_id, member_of(interaction))
    status = await bot.tables.status(table_id)
    delivery = delivery_of(interaction)
    url = await delivery.private_url(table_id, seat.seat, interaction.user.id)
    view, files = await delivery.private_card(status, seat, url)
    await interaction.followup.send(view=view, files=files, ephemeral=True)


async def still_valid(interaction: discord.Interaction[Any], table_id: int, mark: Mark) -> bool:
    """Whether a board or menu made for ``mark`` still fits: the channel's boards by table
    version, a seat's own (DMs, menus) by that seat's position, whatever others did."""
    tables = bot_of(interaction).tables
    if mark.fingerprint is not None:
        now = await tables.seat_print(table_id, member_of(interaction))
        return now == mark.fingerprint
    table = await tables.live.record(table_id)
    return table.version == mark.version
