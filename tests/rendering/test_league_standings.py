"""The league standings image: size grows with rows, names are cut, alt text tells it all."""

from __future__ import annotations

from rendering.leagues import SHOWN, StandingRow, render_standings, standings_alt_text
from tests.rendering.textboxes import record_texts


def rows(n: int) -> list[StandingRow]:
    return [StandingRow(i + 1, f"Player {i + 1}" + "x" * 40 * (i == 0), 20.0 - i, 6, 6 - i,
                        1.0 - i / 20, i > 3, None if i == 2 else 0.5 - i / 4)
            for i in range(n)]


def test_the_image_has_a_row_per_member_up_to_a_limit() -> None:
    small, big = render_standings("Cup", rows(3)), render_standings("Cup", rows(7))
    assert small.width == big.width and big.height > small.height
    assert render_standings("Cup", rows(40)).size == render_standings("Cup", rows(SHOWN)).size
    assert render_standings("Cup", []).height > 0


def test_alt_text_names_ranks_ratings_and_marks() -> None:
    text = standings_alt_text("Cup, season 1", rows(5))
    assert text.startswith("Cup, season 1 standings. 1. Player 1xxxxxxxxxxxxx…, rating 20.0")
    assert "5. Player 5, rating 16.0 provisional, 6 played, 2 won, reliability 80%." in text


def test_every_text_keeps_a_contrast_of_four_and_a_half_to_one() -> None:
    # Rises, falls, "new", provisional ratings and the foot note, on paper and on the row band.
    with record_texts() as texts:
        render_standings("Cup", rows(8))
    assert {t.text[0] for t in texts} >= {"▲", "▼"}
    low = [(t.text, round(t.contrast, 2)) for t in texts if t.contrast < 4.5]
    assert not low
