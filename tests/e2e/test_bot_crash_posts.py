"""``python -m bot`` killed (kill -9) at the worst moments of a move, then started again:
right after Discord accepted the board but before the bot recorded it, the channel still shows
one board; between the commit and the mover's answer, the answer ("thinking…" until then) is
given after the restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rules import GAMES
from tests.e2e.processes import WAIT, BotProcess, a_move, boards, lines_told, open_solo
from tests.standin import InteractionRecord, Message, StandIn

pytestmark = [pytest.mark.skipif("minerva" not in GAMES, reason="needs Minerva"),
              pytest.mark.timeout(120)]


async def test_a_board_accepted_then_a_crash_leaves_one_message(
    standin: StandIn, tmp_path: Path, new_bot: Callable[..., BotProcess]
) -> None:
    guild = standin.add_guild("Games")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice")
    bot = new_bot(standin, str(tmp_path / "t.db"), tmp_path, dev_guild=guild.id)

    async def die_once_the_board_is_in(message: Message) -> None:
        if any(a.filename == "board.png" for a in message.attachments):
            standin.world.after_create.clear()
            await bot.kill()  # Discord has the board; the bot never hears back

    await bot.start()
    try:
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move"))
        await open_solo(standin, alice, channel, "minerva")
        standin.world.after_create.append(die_once_the_board_is_in)
        move = await a_move(standin, alice, channel)
        await standin.slash(alice, channel, "move", {"action": move, "confirm": True})
        await standin.wait_until(lambda: bot.proc is not None and bot.proc.returncode
                                 is not None, WAIT, "the bot to die")
        assert len(boards(standin, channel)) == 2
        await bot.start()  # catches up: posts the unrecorded board again, same nonce
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move"))
        # Once it is ready the restarted bot answers; by then the catch-up has run.
        move = await a_move(standin, alice, channel)
        record = await standin.slash(alice, channel, "move", {"action": move, "confirm": True})
        assert "Done" in (await record.wait_reply(WAIT)).text
    finally:
        await bot.stop()  # a clean stop lets the posts under way finish
    shown = boards(standin, channel)
    assert len(shown) == 3, [m.text for m in shown]
    # Each move told once: no line of the crashed move's board comes again.
    lines = lines_told(standin, channel)
    assert len(lines) == len(set(lines)), lines
    assert standin.violations == []


async def test_a_crash_between_commit_and_answer_is_answered_after_the_restart(
    standin: StandIn, tmp_path: Path, new_bot: Callable[..., BotProcess]
) -> None:
    guild = standin.add_guild("Games")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice")
    bot = new_bot(standin, str(tmp_path / "t.db"), tmp_path, dev_guild=guild.id)

    async def die_before_answering(record: InteractionRecord) -> bool:
        standin.world.before_followup.clear()
        await bot.kill()  # the move is committed; its answer never reaches Discord
        return True

    await bot.start()
    try:
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move"))
        await open_solo(standin, alice, channel, "minerva")
        move = await a_move(standin, alice, channel)
        standin.world.before_followup.append(die_before_answering)
        record = await standin.slash(alice, channel, "move", {"action": move, "confirm": True})
        await standin.wait_until(lambda: bot.proc is not None and bot.proc.returncode
                                 is not None, WAIT, "the bot to die")
        assert record.original is not None and record.original.loading  # "thinking…"
        await bot.start()
        await standin.wait_until(lambda: not record.original.loading, 2 * WAIT,  # type: ignore[union-attr]
                                 "the answer after the restart")
        assert "Done" in record.original.text
        await standin.wait_until(lambda: len(boards(standin, channel)) >= 2, WAIT,
                                 "the move's board")
    finally:
        await bot.stop()  # a clean stop lets the posts under way finish
    assert len(boards(standin, channel)) == 2
    assert standin.violations == []


@pytest.mark.parametrize("reached", [True, False], ids=["board-in", "board-lost"])
async def test_a_crash_longer_than_the_nonce_window_still_tells_each_move_once(
    standin: StandIn, tmp_path: Path, new_bot: Callable[..., BotProcess], reached: bool
) -> None:
    """Discord forgets a nonce after a few minutes: a board that got in before the crash is
    found among the channel's latest messages instead (one board, no line twice); one that
    never got in is still posted after the restart."""
    guild = standin.add_guild("Games")
    channel = standin.add_channel(guild, "games")
    alice = standin.add_member(guild, "alice")
    bot = new_bot(standin, str(tmp_path / "t.db"), tmp_path, dev_guild=guild.id)
    standin.world.nonce_seconds = 5.0  # shorter than the outage below

    async def die_once_the_board_is_in(message: Message) -> None:
        if any(a.filename == "board.png" for a in message.attachments):
            standin.world.after_create.clear()
            if not reached:  # as if the request had never reached Discord
                message.channel.messages.remove(message)
                del standin.world.messages[message.id]
                standin.world.nonces.clear()
            await bot.kill()

    await bot.start()
    try:
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move"))
        await open_solo(standin, alice, channel, "minerva")
        standin.world.after_create.append(die_once_the_board_is_in)
        move = await a_move(standin, alice, channel)
        await standin.slash(alice, channel, "move", {"action": move, "confirm": True})
        await standin.wait_until(lambda: bot.proc is not None and bot.proc.returncode
                                 is not None, WAIT, "the bot to die")
        assert len(boards(standin, channel)) == (2 if reached else 1)
        standin.advance_time(6.0)  # the outage outlasts Discord's memory of the nonce
        await bot.start()
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("game", "move"))
        await standin.wait_until(lambda: len(boards(standin, channel)) >= 2, WAIT,
                                 "the crashed move's board")
        move = await a_move(standin, alice, channel)
        record = await standin.slash(alice, channel, "move", {"action": move, "confirm": True})
        assert "Done" in (await record.wait_reply(WAIT)).text
        await standin.wait_until(lambda: len(boards(standin, channel)) >= 3, WAIT,
                                 "the next move's board")
    finally:
        await bot.stop()  # a clean stop lets the posts under way finish
    shown = boards(standin, channel)
    assert len(shown) == 3, [m.text for m in shown]
    lines = lines_told(standin, channel)
    assert len(lines) == len(set(lines)), lines
    assert standin.violations == []
