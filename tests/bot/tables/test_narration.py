"""Narration: one line per doer, nothing said twice in a row, names filled once."""

from __future__ import annotations

from bot.tables.narration import narrate
from bot.text import fill
from rules.core import Event


def test_two_players_never_share_a_line() -> None:
    events = (
        Event("pass", {"seat": 0}, text="{p0} passes."),
        Event("attack", {}, text="Year 1: the Picts attack the left flank."),
        Event("activate", {"seat": 1}, text="{p1} activates south."),
        Event("pass", {"seat": 1}, text="{p1} passes again."),
    )
    lines = fill(narrate(events, None), ["Root", "Computer 1"]).splitlines()
    assert lines == [
        "Root passes.",
        "Year 1: the Picts attack the left flank.",
        "Computer 1 activates south. Computer 1 passes again.",
    ]


def test_a_text_said_twice_in_a_row_is_said_once() -> None:
    events = (
        Event("disdain", {"seat": 0}, text="+1 disdain;"),
        Event("disdain", {"seat": 0}, text="+1 disdain;"),
    )
    assert narrate(events, None) == "+1 disdain;"


def test_private_events_reach_only_their_seat() -> None:
    events = (Event("draw", {"seat": 0}, to=frozenset({0}), text="You drew 7."),
              Event("draw", {"seat": 0}, text="{p0} drew a card."))
    assert narrate(events, 1) == "{p0} drew a card."
    assert narrate(events, 0) == "You drew 7. {p0} drew a card."
