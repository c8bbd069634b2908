"""``python -m bot`` killed (kill -9) while ``/league-admin round`` opens its tables, then
started again: the round's plan was stored first, so the restart finishes opening it (no
thread or table made twice, every member seated once, every table started) and answers the
organiser in place of "thinking…"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import open_store
from rules import GAMES
from tests.e2e.processes import WAIT, BotProcess
from tests.standin import Message, StandIn

pytestmark = [pytest.mark.skipif("palatinus" not in GAMES, reason="needs Palatinus"),
              pytest.mark.timeout(120)]

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ida", "jon", "kim", "lou")


async def test_a_round_killed_while_opening_is_finished_after_the_restart(
    standin: StandIn, tmp_path: Path, new_bot: Callable[..., BotProcess]
) -> None:
    guild = standin.add_guild("Games")
    channel = standin.add_channel(guild, "league")
    admin = standin.add_member(guild, "admin", manage_guild=True)
    members = [standin.add_member(guild, n) for n in NAMES]
    db = str(tmp_path / "t.db")
    bot = new_bot(standin, db, tmp_path, dev_guild=guild.id)

    async def die_at_the_second_table(message: Message) -> None:
        if "table 2:" in message.text:
            standin.world.after_create.clear()
            await bot.kill()  # table 2 has started; tables 3 and on are not made

    await bot.start()
    try:
        await standin.wait_ready(WAIT)
        await standin.wait_synced(WAIT, names=("league-admin", "league"))
        r = await standin.slash(admin, channel, "league-admin create",
                                {"name": "Spring", "game": "palatinus", "smallest": 4,
                                 "largest": 4})
        await r.wait_reply(WAIT)
        for m in members:
            await (await standin.slash(m, channel, "league join", {"name": "Spring"})
                   ).wait_reply(WAIT)
        standin.world.after_create.append(die_at_the_second_table)
        record = await standin.slash(admin, channel, "league-admin round", {"name": "Spring"})
        await standin.wait_until(lambda: bot.proc is not None and bot.proc.returncode
                                 is not None, WAIT, "the bot to die")
        assert record.original is not None and record.original.loading  # "thinking…"
        assert len(guild.threads) == 2
        await bot.start()
        await standin.wait_until(lambda: not record.original.loading, 2 * WAIT,  # type: ignore[union-attr]
                                 "the answer after the restart")
        assert "Round 1" in record.original.text
        assert record.original.text.count("- table") == 3
    finally:
        await bot.stop()
    assert len(guild.threads) == 3
    store = await open_store(db)
    try:
        [round_] = await store.open_rounds()
        made = await store.round_tables(round_.id)
        assert len(made) == 3 and all(t.status == "playing" for t in made)
        seated: Counter[int | None] = Counter()
        for table in made:
            seated.update(s.member_id for s in await store.seats(table.id))
        assert seated == Counter(m.id for m in members)
    finally:
        await store.close()
    assert standin.violations == []
