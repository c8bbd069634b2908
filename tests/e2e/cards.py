"""What every post and DM must be: one card (a Components V2 container) with one image, its
alt text beside it, and few enough words."""

from __future__ import annotations

from tests.standin import Message
from tests.standin.messages import walk_components

PNG = b"\x89PNG\r\n\x1a\n"
CONTAINER, TEXT, GALLERY = 17, 10, 12
RECAP = "Since your last turn"
DM_WORDS_MAX = 600  # a DM's own words, the recap aside
CARD_TEXT_MAX = 4000


def gallery_items(message: Message) -> list[dict[str, object]]:
    return [item for c in walk_components(message.components) if c.get("type") == GALLERY
            for item in c.get("items") or []]


PREVIEW_WIDTH = 550


def assert_one_card(message: Message, images: int = 1) -> None:
    """One container, ``images`` images in it (each named by the gallery, with alt text),
    no legacy content or embeds, and the text within Discord's limit."""
    assert message.card, f"not a card: {message.content[:200]!r}"
    assert message.content == "" and message.embeds == []
    assert [c.get("type") for c in message.components] == [CONTAINER], message.components
    items = gallery_items(message)
    assert len(items) == images, f"{len(items)} images on a card: {message.text[:200]!r}"
    assert all(str(item.get("description") or "").strip() for item in items)
    shown = message.shown_attachments()
    assert len(shown) == images and all(a.data.startswith(PNG) for a in shown)
    for attachment in shown:
        # Drawn for Discord's 550 px preview: at most 1,100 px tall at that width.
        width, height = png_size(attachment.data)
        assert height * PREVIEW_WIDTH / width <= 2 * PREVIEW_WIDTH, (width, height)
    assert 0 < len(message.text) <= CARD_TEXT_MAX


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header (IHDR comes first)."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def dm_words(message: Message) -> str:
    """A DM card's own words: its text displays less the recap."""
    return "\n".join(str(c.get("content")) for c in walk_components(message.components)
                     if c.get("type") == TEXT and not str(c.get("content")).startswith(RECAP))


def assert_dm_reads_short(message: Message) -> None:
    words = dm_words(message)
    assert len(words) <= DM_WORDS_MAX, f"{len(words)} characters in a DM: {words!r}"
