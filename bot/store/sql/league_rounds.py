"""League rounds: each member's rating when a round formed, its plan (who sits at which
table), the tables opened for it, its deadline and the next round it opens by itself. A round
is added under its league's row lock, so two processes never pick the same number (and one
open round per league is a unique index)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.store.records import RoundRecord, RoundSlot, TableRecord
from bot.store.sql.database import Repository, transaction
from bot.store.sql.league_results import stamp
from bot.store.sql.rows import record
from bot.store.sql.script import Script, count, each, row, rows, value
from bot.store.sql.tables import table_record

LOCK_LEAGUE = "SELECT 1 FROM leagues WHERE id = ? FOR UPDATE"

round_record = partial(record, RoundRecord)


class LeagueRounds(Repository):
    @transaction
    def add_round(self, league_id: int, season_id: int | None, marks: dict[int, float],
                  *, force: bool = False, deadline: str | None = None,
                  auto_next: int | None = None, plan: Sequence[RoundSlot] = ()
                  ) -> Script[RoundRecord | None]:
        """A new round, with each member's shown rating at this moment and its ``plan``;
        None while another round of the league is open, unless ``force`` closes that one
        first (the check and the insert are one transaction, under the league's row lock)."""
        at = stamp()
        yield value(LOCK_LEAGUE, league_id)
        if force:
            yield count("UPDATE league_rounds SET closed_at = ? WHERE league_id = ?"
                        " AND closed_at IS NULL", at, league_id)
        elif (yield value("SELECT 1 FROM league_rounds WHERE league_id = ?"
                          " AND closed_at IS NULL", league_id)) is not None:
            return None
        # A round with no table to open is opened as it is made.
        opened = None if any(s.slot >= 0 for s in plan) else at
        made = yield row(
            "INSERT INTO league_rounds (league_id, season_id, number, created_at, deadline,"
            " auto_next, opened_at) VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1"
            " FROM league_rounds WHERE league_id = ?), ?, ?, ?, ?) RETURNING *",
            league_id, season_id, league_id, at, deadline, auto_next, opened)
        round_id = made["id"]
        if marks:
            yield each("INSERT INTO league_round_marks (round_id, member_id, rating)"
                       " VALUES (?, ?, ?)", [(round_id, m, r) for m, r in marks.items()])
        if plan:
            yield each("INSERT INTO league_round_slots (round_id, slot, computers)"
                       " VALUES (?, ?, ?)", [(round_id, s.slot, s.computers) for s in plan])
        seats = [(round_id, s.slot, place, m, name) for s in plan
                 for place, (m, name) in enumerate(s.members)]
        if seats:
            yield each("INSERT INTO league_round_seats (round_id, slot, place, member_id,"
                       " name) VALUES (?, ?, ?, ?, ?)", seats)
        # The check-ins, and a check-in window still open, were for this round.
        yield count("DELETE FROM league_checkins WHERE league_id = ?", league_id)
        yield count("UPDATE leagues SET checkin_closes = NULL WHERE id = ?", league_id)
        return round_record(made)

    async def close_round(self, round_id: int) -> bool:
        """Mark the round complete; False when it already was."""
        return bool(await self._db.execute(count(
            "UPDATE league_rounds SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
            stamp(), round_id)))

    async def claim_round_reminder(self, round_id: int, stage: int) -> bool:
        return bool(await self._db.execute(count(
            "UPDATE league_rounds SET reminded = ? WHERE id = ? AND reminded < ?",
            stage, round_id, stage)))

    async def open_rounds(self) -> list[RoundRecord]:
        return await self._many(round_record, rows(
            "SELECT * FROM league_rounds WHERE closed_at IS NULL ORDER BY id"))

    async def scheduled_rounds(self) -> list[RoundRecord]:
        """Rounds whose next round opens by itself at their deadline (not opened yet)."""
        return await self._many(round_record, rows(
            "SELECT * FROM league_rounds WHERE auto_next IS NOT NULL ORDER BY id"))

    @transaction
    def claim_next(self, round_id: int) -> Script[int | None]:
        """Take the round's order to open the next one (once: None when it was taken; the
        row is read locked, so a second claim waits and then finds it taken)."""
        seconds = yield value("SELECT auto_next FROM league_rounds WHERE id = ?"
                              " FOR UPDATE", round_id)
        if seconds is None:
            return None
        yield count("UPDATE league_rounds SET auto_next = NULL WHERE id = ?", round_id)
        return int(seconds)

    async def round_tables(self, round_id: int) -> list[TableRecord]:
        return await self._many(table_record, rows(
            "SELECT t.* FROM game_tables t JOIN league_round_tables rt ON rt.table_id = t.id"
            " WHERE rt.round_id = ? ORDER BY t.id", round_id))

    async def round_plan(self, round_id: int) -> list[RoundSlot]:
        def read() -> Script[list[RoundSlot]]:
            slots = yield rows("SELECT * FROM league_round_slots WHERE round_id = ?"
                               " ORDER BY slot", round_id)
            seats = yield rows("SELECT slot, member_id, name FROM league_round_seats"
                               " WHERE round_id = ? ORDER BY slot, place", round_id)
            return [record(RoundSlot, s, members=[(int(m["member_id"]), str(m["name"]))
                                                  for m in seats if m["slot"] == s["slot"]])
                    for s in slots]

        return await self._db.read(read())

    async def opening_rounds(self) -> list[RoundRecord]:
        return await self._many(round_record, rows(
            "SELECT * FROM league_rounds WHERE closed_at IS NULL AND opened_at IS NULL"
            " ORDER BY id"))

    @transaction
    def set_slot_channel(self, round_id: int, slot: int, channel_id: int) -> Script[int]:
        yield count("UPDATE league_round_slots SET channel_id = ? WHERE round_id = ?"
                    " AND slot = ? AND channel_id IS NULL", channel_id, round_id, slot)
        return int((yield value("SELECT channel_id FROM league_round_slots"
                                " WHERE round_id = ? AND slot = ?", round_id, slot)))

    @transaction
    def file_slot_table(self, round_id: int, slot: int, table_id: int) -> Script[int]:
        yield count("UPDATE league_round_slots SET table_id = ? WHERE round_id = ?"
                    " AND slot = ? AND table_id IS NULL", table_id, round_id, slot)
        filed = int((yield value("SELECT table_id FROM league_round_slots"
                                 " WHERE round_id = ? AND slot = ?", round_id, slot)))
        yield count("INSERT INTO league_round_tables (round_id, table_id) VALUES (?, ?)"
                    " ON CONFLICT (table_id) DO NOTHING", round_id, filed)
        return filed

    async def mark_round_opened(self, round_id: int) -> None:
        await self._db.execute(count(
            "UPDATE league_rounds SET opened_at = ? WHERE id = ? AND opened_at IS NULL",
            stamp(), round_id))

    async def owe_round_reply(self, round_id: int, application_id: str, token: str,
                              expires: int) -> None:
        await self._db.execute(count(
            "UPDATE league_rounds SET reply_app = ?, reply_token = ?, reply_expires = ?"
            " WHERE id = ?", application_id, token, expires, round_id))

    async def round_reply(self, round_id: int, now: int) -> tuple[str, str] | None:
        return await self._one(lambda r: (str(r["reply_app"]), str(r["reply_token"])), row(
            "SELECT reply_app, reply_token FROM league_rounds WHERE id = ?"
            " AND reply_expires > ?", round_id, now))

    async def drop_round_reply(self, round_id: int) -> None:
        await self._db.execute(count(
            "UPDATE league_rounds SET reply_app = NULL, reply_token = NULL,"
            " reply_expires = NULL WHERE id = ?", round_id))

    async def add_round_table(self, round_id: int, table_id: int) -> None:
        await self._db.execute(count(
            "INSERT INTO league_round_tables (round_id, table_id) VALUES (?, ?)",
            round_id, table_id))

    async def rounds(self, league_id: int) -> list[RoundRecord]:
        return await self._many(round_record, rows(
            "SELECT * FROM league_rounds WHERE league_id = ? ORDER BY number", league_id))

    async def round_of_table(self, table_id: int) -> RoundRecord | None:
        return await self._one(round_record, row(
            "SELECT r.* FROM league_rounds r JOIN league_round_tables t ON t.round_id = r.id"
            " WHERE t.table_id = ?", table_id))

    async def round_marks(self, round_id: int) -> dict[int, float]:
        found = await self._db.query(rows(
            "SELECT member_id, rating FROM league_round_marks WHERE round_id = ?", round_id))
        return {int(r["member_id"]): float(r["rating"]) for r in found}
