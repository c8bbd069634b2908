"""A card's layout within Discord's Components V2 limits, whatever it is given: one container,
one image named by its gallery, rows of at most five buttons, 4,000 characters of text."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.notices import Notice, SeatNotice
from bot.render_pool import Drawn
from bot.ui import ids
from bot.ui.cards import (
    TEXT_MAX,
    Actions,
    Card,
    accent_of,
    heading,
    layout,
    turn_words,
    with_image,
)
from bot.ui.delivery import seat_card
from bot.ui.ids import Mark
from rendering.palette import PLAYER_COLOURS


def _walk(view: discord.ui.LayoutView) -> list[discord.ui.Item[Any]]:
    return list(view.walk_children())


def test_a_full_card_keeps_to_discords_limits() -> None:
    parts = tuple((f"part{n}", f"Sheet {n}") for n in range(1, 12))
    actions = Actions(7, Mark(version=3), ("moves", "hand"), 1, parts, text_view=True,
                      url="https://games.example.org/t/abc")
    drawn = Drawn(b"\x89PNG fake", "The board: " + "x" * 2000)
    card = with_image(Card("### **Minerva** · Round 2 of 6 · Your turn", body="y" * 9000,
                           hint="It is your turn.", footer="Since your last turn:\n- a",
                           accent=accent_of(1), actions=actions), drawn, "hand")
    view, files = layout(card, drawn)
    [container] = view.children
    assert isinstance(container, discord.ui.Container)
    assert container.accent_colour == accent_of(1)
    items = _walk(view)
    assert len(items) + 1 <= 40  # the container counts too
    text = [i.content for i in items if isinstance(i, discord.ui.TextDisplay)]
    assert sum(len(t) for t in text) <= TEXT_MAX and text[-2:] == [
        "It is your turn.", "Since your last turn:\n- a"]
    rows = [i for i in items if isinstance(i, discord.ui.ActionRow)]
    assert rows and all(len(r.children) <= 5 for r in rows)
    labels = [i.label for i in items if isinstance(i, discord.ui.Button)]
    # Board buttons, at most eight details, the text view and the link.
    assert labels[:2] == ["My moves", "My hand"] and labels[-2:] == ["Text view",
                                                                     "Open on the web"]
    assert len(labels) == 2 + 8 + 2
    [gallery] = [i for i in items if isinstance(i, discord.ui.MediaGallery)]
    [item] = gallery.items
    assert item.media.url == "attachment://hand.png" and len(item.description or "") <= 1024
    [file] = files
    assert file.filename == "hand.png"


def test_a_card_without_an_image_has_no_gallery_and_no_file() -> None:
    view, files = layout(Card("### **Pebbles**", body="Alice holds."))
    assert files == []
    assert not [i for i in _walk(view) if isinstance(i, discord.ui.MediaGallery)]


def test_the_accent_is_the_seats_palette_colour() -> None:
    for seat, (r, g, b) in enumerate(PLAYER_COLOURS):
        assert accent_of(seat) == (r << 16) | (g << 8) | b
    assert accent_of(None) is None


def test_a_heading_says_the_game_the_stage_and_whose_turn() -> None:
    view = {"year": 2, "years": 6}
    assert heading("hadrians-wall", view, ["alice", "bob"], False) == (
        "### **Hadrian's Wall** · Year 2 of 6 · alice and bob to play")
    assert heading("minerva", {"round": 1, "rounds": 6}, ["carol"], False) == (
        "### **Minerva** · Round 1 of 6 · carol's turn")
    assert heading("palermo", {}, [], True) == "### **Palermo** · Game over"
    assert turn_words(["alice", "bob"], False, "bob") == "Your turn, with alice"


def test_detail_and_text_ids_survive_a_restart_by_their_template() -> None:
    big = 2**63 - 1
    for seat in (None, 0, 5):
        for key in ("part1", "city", "market-2"):
            custom_id = ids.detail(big, seat, key)
            match = re.fullmatch(ids.DETAIL, custom_id)
            assert match is not None and len(custom_id) <= 100
            assert (int(match["table"]), ids.seat_of(match["seat"]), match["key"]) == (
                big, seat, key)
        found = re.fullmatch(ids.TEXT, ids.text(big, seat))
        assert found is not None and ids.seat_of(found["seat"]) == seat


def test_a_dm_says_little_of_its_own_and_keeps_the_recap_apart() -> None:
    news = "\n".join(f"Your wolf piece on D{n} is a wolf merchant." for n in range(40))
    recap = "Since your last turn:\n- carol's soldier on B6 captures 2 farmers (B1, E4)."
    seat = SeatNotice(0, 42, "Ann", news, {"turn": 3}, recap=recap, state="All of it.")
    notice = Notice(7, "palatinus", 3, "playing", "", next_members=(42,), next_names=("Ann",))
    card = seat_card(notice, seat, Actions(7))
    own = "\n".join(t for t in (card.heading, card.body, card.hint) if t)
    assert len(own) <= 600 and card.body.startswith("Your wolf piece on D0")
    assert card.heading == "### **Palatinus** · Your turn"
    assert card.hint == "It is your turn: **My moves** lists what you can play."
    assert card.footer == recap and "All of it." not in card.text()
    assert card.accent == accent_of(0)
