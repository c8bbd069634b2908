"""``/league round``'s text (the round's state and deadline, a line per table), and what a
round's deadline says of each table it ends; member names made inert and capped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.leagues.progress import RoundProgress, TableProgress, progress_text
from bot.leagues.referee import who_ended
from bot.store import RoundRecord

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


def progress(deadline: datetime | None, *tables: TableProgress, opened: bool = True,
             closed: bool = False) -> RoundProgress:
    round_ = RoundRecord(7, 1, None, 3, NOW.isoformat(),
                         closed_at=NOW.isoformat() if closed else None,
                         deadline=deadline.isoformat() if deadline else None,
                         opened_at=NOW.isoformat() if opened else None)
    return RoundProgress("Cup", round_, 4, tables)


def test_an_open_round_shows_its_deadline_and_whom_each_table_waits_for() -> None:
    due = NOW + timedelta(days=2)
    text = progress_text(progress(
        due,
        TableProgress(11, "playing", ("Ann", "Ben"), ("Ben",)),
        TableProgress(12, "over", ("Cy", "Dee")),
        TableProgress(13, "abandoned", ("Eve", "Fay")),
    ), NOW)
    at = int(due.timestamp())
    assert text.splitlines() == [
        f"**Cup**, round 3 of 4: open; deadline <t:{at}:f> (<t:{at}:R>). 2 of 3 tables "
        "finished.",
        "1. <#11> (Ann, Ben): playing, waits for Ben",
        "2. <#12> (Cy, Dee): finished",
        "3. <#13> (Eve, Fay): abandoned",
    ]


def test_a_passed_deadline_a_round_being_set_up_and_a_closed_round_say_so() -> None:
    late = progress_text(progress(NOW - timedelta(minutes=1)), NOW)
    assert "its deadline has passed" in late
    assert "still being set up" in progress_text(progress(None, opened=False), NOW)
    closed = progress_text(progress(NOW + timedelta(days=1), closed=True), NOW)
    assert ": closed." in closed and "deadline" not in closed


def test_member_names_are_inert_and_capped() -> None:
    name = "**@everyone**" + "x" * 200
    text = progress_text(progress(None, TableProgress(11, "playing", (name,), (name,))), NOW)
    assert "**@everyone**" not in text and "@everyone" not in text.replace("@\u200beveryone", "")
    assert len(text) < 300


def test_a_table_a_round_deadline_ends_names_who_forfeits_and_who_shares_first_place() -> None:
    assert who_ended(["Ann", "Ben", "Cy"], frozenset({1, 2}), True) == (
        "Ben, Cy forfeit (the table was waiting for them); Ann takes first place.")
    assert who_ended(["Ann", "Ben"], frozenset({0}), True) == (
        "Ann forfeits (the table was waiting for them); Ben takes first place.")
    assert who_ended(["Ann", "Ben"], frozenset(), True) == "Ann, Ben share first place."
    assert who_ended(["Ann"], frozenset(), False) == "it never started: no result."
    assert "**" not in who_ended(["**Bold**"], frozenset({0}), True).replace("\\*", "")
