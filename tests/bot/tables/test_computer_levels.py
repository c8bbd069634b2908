"""The level descriptions members read say what each level does, and say it truly."""

from __future__ import annotations

import re

from bot.tables.computers import LEVELS
from rules import players
from rules.players.registry import games_with_players


def test_every_level_is_described_by_what_it_does_not_by_a_time() -> None:
    assert tuple(LEVELS) == players.LEVELS
    for text in LEVELS.values():
        assert "second" not in text  # normal once said "about a second" and took 0.03-0.11 s


def test_every_level_choice_fits_discord_and_says_how_strong_it_is() -> None:
    for level, text in LEVELS.items():
        assert len(f"{level} ({text})") <= 100  # a choice's name, as the command offers it
        if level != "random":
            assert re.search(r"beats \w+ in \d+-\d+% of games", text), level


def test_hard_searches_the_share_more_that_its_description_says() -> None:
    assert "three to five times" in LEVELS["hard"]
    for game_id in games_with_players():
        normal, hard = players.budget(game_id, "normal"), players.budget(game_id, "hard")
        assert 3 <= hard.iterations / normal.iterations <= 5.0, game_id
        assert hard.rollout_depth == normal.rollout_depth, game_id
