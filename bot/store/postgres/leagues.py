"""The PostgreSQL store's leagues: settings, seasons, sign-ups, rounds, forfeits (results and
ratings: ``postgres.league_results``), method for method as in the SQLite store. Each method is
one statement where it can be; a numbered row (a season, a round) is added under the league's
row lock, so two processes never pick the same number."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

from bot.store.errors import AlreadyExists
from bot.store.postgres import rows
from bot.store.postgres.league_results import PostgresLeagueResults, stamp
from bot.store.postgres.tables import now
from bot.store.records import (
    ForfeitRecord,
    LeagueMemberRecord,
    LeagueRecord,
    LeagueSettings,
    RoundRecord,
    RoundSlot,
    SeasonRecord,
    Status,
    TableRecord,
)


class PostgresLeagues(PostgresLeagueResults):
    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int,
                            settings: LeagueSettings | None = None) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        o = settings or LeagueSettings()
        try:
            league_id = await self._pool.fetchval(
                "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at,"
                " channel_id, min_seats, max_seats, computers, min_reliability, carry, points)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
                guild_id, name, game_id, created_by, now(), o.channel_id, o.min_seats,
                o.max_seats, o.computers, o.min_reliability, o.carry, o.points,
            )
        except asyncpg.UniqueViolationError as exc:
            raise AlreadyExists("This server already has a league of that name.") from exc
        return int(league_id)

    async def leagues(self, guild_id: int) -> list[LeagueRecord]:
        # COLLATE "C": names sort by code point, as SQLite's BINARY collation does.
        found = await self._pool.fetch(
            'SELECT * FROM leagues WHERE guild_id = $1 ORDER BY closed, name COLLATE "C"',
            guild_id,
        )
        return [rows.league_record(r) for r in found]

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM leagues WHERE guild_id = $1 AND lower(name) = lower($2)",
            guild_id, name,
        )
        return rows.league_record(row) if row else None

    async def close_league(self, league_id: int) -> None:
        await self._pool.execute("UPDATE leagues SET closed = TRUE WHERE id = $1", league_id)

    async def league_tables(self, league_id: int, status: str = Status.OVER
                            ) -> list[TableRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM game_tables WHERE league_id = $1 AND status = $2 ORDER BY updated_at",
            league_id, str(status),
        )
        return [rows.table_record(r) for r in found]

    async def set_league_admin_role(self, guild_id: int, role_id: int | None) -> None:
        await self._pool.execute(
            "INSERT INTO league_guilds (guild_id, admin_role_id) VALUES ($1, $2)"
            " ON CONFLICT (guild_id) DO UPDATE SET admin_role_id = excluded.admin_role_id",
            guild_id, role_id,
        )

    async def league_admin_role(self, guild_id: int) -> int | None:
        role: int | None = await self._pool.fetchval(
            "SELECT admin_role_id FROM league_guilds WHERE guild_id = $1", guild_id
        )
        return role

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        row = await self._pool.fetchrow("SELECT * FROM leagues WHERE id = $1", league_id)
        return rows.league_record(row) if row else None

    async def join_league(self, league_id: int, member_id: int, name: str,
                          cap: int | None = None) -> bool:
        """Sign a member up (again); keeps their first join date. False (nothing written)
        when ``cap`` members are signed up already and this one is not among them; under
        the league's row lock, so two joins at once never pass the cap."""
        async with self._write() as db:
            await db.execute("SELECT 1 FROM leagues WHERE id = $1 FOR UPDATE", league_id)
            if cap is not None and await db.fetchval(
                    "SELECT COUNT(*) FROM league_members WHERE league_id = $1"
                    " AND left_at IS NULL AND member_id != $2", league_id, member_id) >= cap:
                return False
            await db.execute(
                "INSERT INTO league_members (league_id, member_id, name, joined_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (league_id, member_id)"
                " DO UPDATE SET name = excluded.name, left_at = NULL",
                league_id, member_id, name, stamp())
        return True

    async def set_signups(self, league_id: int, signups_open: bool, cap: int | None,
                          checkin: bool) -> None:
        await self._pool.execute(
            "UPDATE leagues SET signups_open = $2, cap = $3, checkin = $4 WHERE id = $1",
            league_id, signups_open, cap, checkin)

    async def check_in(self, league_id: int, member_id: int) -> bool:
        """The member is present for the next round; False when they had checked in."""
        added = await self._pool.fetchval(
            "INSERT INTO league_checkins (league_id, member_id, at) VALUES ($1, $2, $3)"
            " ON CONFLICT (league_id, member_id) DO NOTHING RETURNING member_id",
            league_id, member_id, stamp())
        return added is not None

    async def checked_in(self, league_id: int) -> set[int]:
        found = await self._pool.fetch(
            "SELECT member_id FROM league_checkins WHERE league_id = $1", league_id)
        return {r[0] for r in found}

    async def leave_league(self, league_id: int, member_id: int) -> bool:
        """False when the member was not signed up."""
        left = await self._pool.fetchval(
            "UPDATE league_members SET left_at = $3 WHERE league_id = $1 AND member_id = $2"
            " AND left_at IS NULL RETURNING member_id",
            league_id, member_id, stamp(),
        )
        return left is not None

    async def league_members(self, league_id: int, *, signed_up: bool = True
                             ) -> list[LeagueMemberRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM league_members WHERE league_id = $1"
            + (" AND left_at IS NULL" if signed_up else "") + " ORDER BY joined_at, member_id",
            league_id,
        )
        return [rows.member_record(r) for r in found]

    async def start_season(self, league_id: int, ends_on: str | None, carry: float
                           ) -> SeasonRecord:
        """End the running season (if any) and start the next one, in one transaction."""
        at = stamp()
        async with self._write() as db:
            await db.execute("SELECT 1 FROM leagues WHERE id = $1 FOR UPDATE", league_id)
            row = await db.fetchrow(
                "WITH ended AS (UPDATE league_seasons SET ended_at = $2 WHERE league_id = $1"
                " AND ended_at IS NULL)"
                " INSERT INTO league_seasons (league_id, number, started_at, ends_on, carry)"
                " VALUES ($1, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_seasons"
                " WHERE league_id = $1), $2, $3, $4) RETURNING *",
                league_id, at, ends_on, carry,
            )
        return rows.season_record(row)

    async def end_season(self, league_id: int) -> SeasonRecord | None:
        row = await self._pool.fetchrow(
            "UPDATE league_seasons SET ended_at = $2 WHERE league_id = $1 AND ended_at IS NULL"
            " RETURNING *",
            league_id, stamp(),
        )
        return rows.season_record(row) if row else None

    async def seasons(self, league_id: int) -> list[SeasonRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM league_seasons WHERE league_id = $1 ORDER BY number", league_id
        )
        return [rows.season_record(r) for r in found]

    async def season_carries(self) -> dict[int, float]:
        found = await self._pool.fetch("SELECT id, carry FROM league_seasons")
        return {r["id"]: r["carry"] for r in found}

    async def add_round(self, league_id: int, season_id: int | None, marks: dict[int, float],
                        *, force: bool = False, deadline: str | None = None,
                        auto_next: int | None = None, plan: Sequence[RoundSlot] = ()
                        ) -> RoundRecord | None:
        """A new round, with each member's shown rating at this moment and its ``plan``;
        None while another round of the league is open, unless ``force`` closes that one
        first. Under the league's row lock (and one open round per league is a unique
        index)."""
        at = stamp()
        async with self._write() as db:
            await db.execute("SELECT 1 FROM leagues WHERE id = $1 FOR UPDATE", league_id)
            if force:
                await db.execute("UPDATE league_rounds SET closed_at = $2 WHERE league_id = $1"
                                 " AND closed_at IS NULL", league_id, at)
            elif await db.fetchval("SELECT 1 FROM league_rounds WHERE league_id = $1"
                                   " AND closed_at IS NULL", league_id):
                return None
            # A round with no table to open ($8) is opened as it is made.
            row = await db.fetchrow(
                "WITH made AS (INSERT INTO league_rounds (league_id, season_id, number,"
                " created_at, deadline, auto_next, opened_at) VALUES ($1, $2, (SELECT"
                " COALESCE(MAX(number), 0) + 1 FROM league_rounds WHERE league_id = $1), $3,"
                " $6, $7, $8) RETURNING *),"
                " marked AS (INSERT INTO league_round_marks (round_id, member_id, rating)"
                " SELECT made.id, m.member_id, m.rating FROM made,"
                " unnest($4::bigint[], $5::float8[]) AS m(member_id, rating))"
                " SELECT * FROM made",
                league_id, season_id, at, list(marks), list(marks.values()), deadline,
                auto_next, None if any(s.slot >= 0 for s in plan) else at,
            )
            if plan:
                await db.executemany(
                    "INSERT INTO league_round_slots (round_id, slot, computers)"
                    " VALUES ($1, $2, $3)", [(row["id"], s.slot, s.computers) for s in plan])
                await db.executemany(
                    "INSERT INTO league_round_seats (round_id, slot, place, member_id, name)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    [(row["id"], s.slot, place, m, name) for s in plan
                     for place, (m, name) in enumerate(s.members)])
            await db.execute("DELETE FROM league_checkins WHERE league_id = $1", league_id)
        return rows.round_record(row)

    async def close_round(self, round_id: int) -> bool:
        """Mark the round complete; False when it already was."""
        closed = await self._pool.fetchval(
            "UPDATE league_rounds SET closed_at = $2 WHERE id = $1 AND closed_at IS NULL"
            " RETURNING id", round_id, stamp())
        return closed is not None

    async def open_rounds(self) -> list[RoundRecord]:
        found = await self._pool.fetch("SELECT * FROM league_rounds WHERE closed_at IS NULL"
                                       " ORDER BY id")
        return [rows.round_record(r) for r in found]

    async def scheduled_rounds(self) -> list[RoundRecord]:
        """Rounds whose next round opens by itself at their deadline (not opened yet)."""
        found = await self._pool.fetch("SELECT * FROM league_rounds WHERE auto_next IS NOT NULL"
                                       " ORDER BY id")
        return [rows.round_record(r) for r in found]

    async def claim_next(self, round_id: int) -> int | None:
        """Take the round's order to open the next one (once: None when it was taken)."""
        seconds: int | None = await self._pool.fetchval(
            "UPDATE league_rounds r SET auto_next = NULL FROM league_rounds old"
            " WHERE r.id = $1 AND old.id = r.id AND r.auto_next IS NOT NULL"
            " RETURNING old.auto_next", round_id)
        return seconds

    async def round_tables(self, round_id: int) -> list[TableRecord]:
        found = await self._pool.fetch(
            "SELECT t.* FROM game_tables t JOIN league_round_tables rt ON rt.table_id = t.id"
            " WHERE rt.round_id = $1 ORDER BY t.id", round_id)
        return [rows.table_record(r) for r in found]

    async def round_plan(self, round_id: int) -> list[RoundSlot]:
        slots = await self._pool.fetch("SELECT * FROM league_round_slots WHERE round_id = $1"
                                       " ORDER BY slot", round_id)
        seats = await self._pool.fetch(
            "SELECT slot, member_id, name FROM league_round_seats WHERE round_id = $1"
            " ORDER BY slot, place", round_id)
        return [RoundSlot(s["slot"], [(m["member_id"], m["name"]) for m in seats
                                      if m["slot"] == s["slot"]],
                          s["computers"], s["channel_id"], s["table_id"]) for s in slots]

    async def opening_rounds(self) -> list[RoundRecord]:
        found = await self._pool.fetch("SELECT * FROM league_rounds WHERE closed_at IS NULL"
                                       " AND opened_at IS NULL ORDER BY id")
        return [rows.round_record(r) for r in found]

    async def set_slot_channel(self, round_id: int, slot: int, channel_id: int) -> int:
        async with self._write() as db:
            await db.execute("UPDATE league_round_slots SET channel_id = $3 WHERE round_id = $1"
                             " AND slot = $2 AND channel_id IS NULL", round_id, slot, channel_id)
            set_: int = await db.fetchval("SELECT channel_id FROM league_round_slots"
                                          " WHERE round_id = $1 AND slot = $2", round_id, slot)
        return set_

    async def file_slot_table(self, round_id: int, slot: int, table_id: int) -> int:
        async with self._write() as db:
            await db.execute("UPDATE league_round_slots SET table_id = $3 WHERE round_id = $1"
                             " AND slot = $2 AND table_id IS NULL", round_id, slot, table_id)
            filed: int = await db.fetchval("SELECT table_id FROM league_round_slots"
                                           " WHERE round_id = $1 AND slot = $2", round_id, slot)
            await db.execute("INSERT INTO league_round_tables (round_id, table_id)"
                             " VALUES ($1, $2) ON CONFLICT (table_id) DO NOTHING",
                             round_id, filed)
        return filed

    async def mark_round_opened(self, round_id: int) -> None:
        await self._pool.execute("UPDATE league_rounds SET opened_at = $2 WHERE id = $1"
                                 " AND opened_at IS NULL", round_id, stamp())

    async def owe_round_reply(self, round_id: int, application_id: str, token: str,
                              expires: int) -> None:
        await self._pool.execute(
            "UPDATE league_rounds SET reply_app = $2, reply_token = $3, reply_expires = $4"
            " WHERE id = $1", round_id, application_id, token, expires)

    async def round_reply(self, round_id: int, now: int) -> tuple[str, str] | None:
        row = await self._pool.fetchrow("SELECT reply_app, reply_token FROM league_rounds"
                                        " WHERE id = $1 AND reply_expires > $2", round_id, now)
        return (row["reply_app"], row["reply_token"]) if row is not None else None

    async def drop_round_reply(self, round_id: int) -> None:
        await self._pool.execute(
            "UPDATE league_rounds SET reply_app = NULL, reply_token = NULL,"
            " reply_expires = NULL WHERE id = $1", round_id)

    async def add_round_table(self, round_id: int, table_id: int) -> None:
        await self._pool.execute(
            "INSERT INTO league_round_tables (round_id, table_id) VALUES ($1, $2)",
            round_id, table_id,
        )

    async def sanction_table(self, league_id: int, table_id: int, by: int) -> None:
        """An organiser opened this league table outside rounds: its result counts."""
        await self._pool.execute(
            "INSERT INTO league_sanctions (table_id, league_id, opened_by, at)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT (table_id) DO NOTHING",
            table_id, league_id, by, stamp())

    async def sanctioned(self, table_id: int) -> bool:
        """A round's table, or one an organiser opened for the league."""
        found = await self._pool.fetchval(
            "SELECT EXISTS (SELECT 1 FROM league_round_tables WHERE table_id = $1)"
            " OR EXISTS (SELECT 1 FROM league_sanctions WHERE table_id = $1)", table_id)
        return bool(found)

    async def rounds(self, league_id: int) -> list[RoundRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM league_rounds WHERE league_id = $1 ORDER BY number", league_id
        )
        return [rows.round_record(r) for r in found]

    async def round_of_table(self, table_id: int) -> RoundRecord | None:
        row = await self._pool.fetchrow(
            "SELECT r.* FROM league_rounds r JOIN league_round_tables t ON t.round_id = r.id"
            " WHERE t.table_id = $1",
            table_id,
        )
        return rows.round_record(row) if row else None

    async def round_marks(self, round_id: int) -> dict[int, float]:
        found = await self._pool.fetch(
            "SELECT member_id, rating FROM league_round_marks WHERE round_id = $1", round_id
        )
        return {r["member_id"]: r["rating"] for r in found}

    async def league_seatings(self, league_id: int, since: str = "") -> list[tuple[int, int]]:
        """(table, member) for every member seated at the league's tables opened since."""
        found = await self._pool.fetch(
            "SELECT s.table_id, s.member_id FROM seats s JOIN game_tables t"
            " ON t.id = s.table_id WHERE t.league_id = $1"
            " AND ($2::timestamptz IS NULL OR t.created_at >= $2)"
            " AND s.member_id IS NOT NULL",
            league_id, datetime.fromisoformat(since) if since else None,
        )
        return [(r[0], r[1]) for r in found]

    async def add_forfeit(self, table_id: int, seat: int, member_id: int, name: str,
                          reason: str) -> bool:
        """Record that a seat forfeited; False when it already had."""
        added = await self._pool.fetchval(
            "INSERT INTO league_forfeits (table_id, seat, member_id, name, reason, at)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (table_id, seat) DO NOTHING"
            " RETURNING seat",
            table_id, seat, member_id, name, reason, stamp(),
        )
        return added is not None

    async def forfeits(self, table_id: int) -> list[ForfeitRecord]:
        found = await self._pool.fetch(
            "SELECT * FROM league_forfeits WHERE table_id = $1 ORDER BY seat", table_id
        )
        return [rows.forfeit_record(r) for r in found]
