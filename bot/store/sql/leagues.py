"""Leagues: their settings and admin role, sign-ups and check-ins, seasons, sanctioned tables
and forfeits (rounds: ``league_rounds``; results and ratings: ``league_results``). A numbered
row (a season) and a capped sign-up are written under the league's row lock, so two processes
never pick the same number or pass the cap together."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from bot.store.errors import AlreadyExists, UniqueViolation
from bot.store.records import (
    ForfeitRecord,
    LeagueMemberRecord,
    LeagueRecord,
    LeagueSettings,
    SeasonRecord,
    Status,
    TableRecord,
)
from bot.store.sql.database import transaction
from bot.store.sql.league_results import season_carries, stamp
from bot.store.sql.league_rounds import LOCK_LEAGUE, LeagueRounds
from bot.store.sql.rows import record
from bot.store.sql.script import Script, count, row, rows, value
from bot.store.sql.tables import now, table_record

league_record = partial(record, LeagueRecord)
season_record = partial(record, SeasonRecord)


class Leagues(LeagueRounds):
    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int,
                            settings: LeagueSettings | None = None) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        o = settings or LeagueSettings()
        try:
            return int(await self._db.execute(value(
                "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at,"
                " channel_id, min_seats, max_seats, computers, min_reliability, carry, points)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, name, game_id, created_by, now(), o.channel_id, o.min_seats,
                o.max_seats, o.computers, o.min_reliability, o.carry, o.points)))
        except UniqueViolation as exc:
            raise AlreadyExists("This server already has a league of that name.") from exc

    async def leagues(self, guild_id: int) -> list[LeagueRecord]:
        found = await self._db.query(rows("SELECT * FROM leagues WHERE guild_id = ?",
                                          guild_id))
        # Open ones first, then by name in code point order (SQLite's BINARY collation; a
        # PostgreSQL ORDER BY would follow the database's locale).
        return sorted((league_record(r) for r in found), key=lambda x: (x.closed, x.name))

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None:
        """The server's league of that name, in any case (as the unique index compares)."""
        return await self._one(league_record, row(
            "SELECT * FROM leagues WHERE guild_id = ? AND lower(name) = lower(?)",
            guild_id, name))

    async def close_league(self, league_id: int) -> None:
        await self._db.execute(count("UPDATE leagues SET closed = TRUE WHERE id = ?",
                                     league_id))

    async def league_tables(self, league_id: int, status: str = Status.OVER
                            ) -> list[TableRecord]:
        return await self._many(table_record, rows(
            "SELECT * FROM game_tables WHERE league_id = ? AND status = ? ORDER BY updated_at",
            league_id, str(status)))

    async def set_league_admin_role(self, guild_id: int, role_id: int | None) -> None:
        await self._db.execute(count(
            "INSERT INTO league_guilds (guild_id, admin_role_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET admin_role_id = excluded.admin_role_id",
            guild_id, role_id))

    async def league_admin_role(self, guild_id: int) -> int | None:
        return await self._one(int, value(
            "SELECT admin_role_id FROM league_guilds WHERE guild_id = ?", guild_id))

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        return await self._one(league_record, row("SELECT * FROM leagues WHERE id = ?",
                                                  league_id))

    # -- sign-ups --------------------------------------------------------------------------
    @transaction
    def join_league(self, league_id: int, member_id: int, name: str,
                    cap: int | None = None) -> Script[bool]:
        """Sign a member up (again); keeps their first join date. False (nothing written)
        when ``cap`` members are signed up already and this one is not among them."""
        yield value(LOCK_LEAGUE, league_id)
        if cap is not None and (yield value(
                "SELECT COUNT(*) FROM league_members WHERE league_id = ?"
                " AND left_at IS NULL AND member_id != ?", league_id, member_id)) >= cap:
            return False
        yield count(
            "INSERT INTO league_members (league_id, member_id, name, joined_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (league_id, member_id)"
            " DO UPDATE SET name = excluded.name, left_at = NULL",
            league_id, member_id, name, stamp())
        return True

    async def set_signups(self, league_id: int, signups_open: bool, cap: int | None,
                          checkin: bool) -> None:
        await self._db.execute(count(
            "UPDATE leagues SET signups_open = ?, cap = ?, checkin = ? WHERE id = ?",
            signups_open, cap, checkin, league_id))

    async def check_in(self, league_id: int, member_id: int) -> bool:
        """The member is present for the next round; False when they had checked in."""
        return await self._db.execute(value(
            "INSERT INTO league_checkins (league_id, member_id, at) VALUES (?, ?, ?)"
            " ON CONFLICT (league_id, member_id) DO NOTHING RETURNING member_id",
            league_id, member_id, stamp())) is not None

    async def open_checkin_window(self, league_id: int, closes: str, seconds: int | None,
                                  auto: bool) -> None:
        await self._db.execute(count(
            "UPDATE leagues SET checkin_closes = ?, checkin_round = ?, checkin_auto = ?"
            " WHERE id = ?", closes, seconds, int(auto), league_id))

    async def checkin_windows(self) -> list[LeagueRecord]:
        """Open leagues with a check-in window open."""
        return await self._many(league_record, rows(
            "SELECT * FROM leagues WHERE checkin_closes IS NOT NULL AND NOT closed ORDER BY id"))

    async def close_checkin_window(self, league_id: int, closes: str) -> bool:
        """Claims the window's close (once, whichever process gets there)."""
        return bool(await self._db.execute(count(
            "UPDATE leagues SET checkin_closes = NULL WHERE id = ? AND checkin_closes = ?",
            league_id, closes)))

    async def checked_in(self, league_id: int) -> set[int]:
        found = await self._db.query(rows(
            "SELECT member_id FROM league_checkins WHERE league_id = ?", league_id))
        return {int(r[0]) for r in found}

    async def leave_league(self, league_id: int, member_id: int) -> bool:
        """False when the member was not signed up."""
        return bool(await self._db.execute(count(
            "UPDATE league_members SET left_at = ? WHERE league_id = ? AND member_id = ?"
            " AND left_at IS NULL", stamp(), league_id, member_id)))

    async def league_members(self, league_id: int, *, signed_up: bool = True
                             ) -> list[LeagueMemberRecord]:
        found = await self._db.query(rows(
            "SELECT * FROM league_members WHERE league_id = ?"
            + (" AND left_at IS NULL" if signed_up else "") + " ORDER BY joined_at, member_id",
            league_id))
        return [record(LeagueMemberRecord, r, active=r["left_at"] is None) for r in found]

    # -- seasons ---------------------------------------------------------------------------
    @transaction
    def start_season(self, league_id: int, ends_on: str | None, carry: float
                     ) -> Script[SeasonRecord]:
        """End the running season (if any) and start the next one, in one transaction."""
        at = stamp()
        yield value(LOCK_LEAGUE, league_id)
        yield count("UPDATE league_seasons SET ended_at = ? WHERE league_id = ?"
                    " AND ended_at IS NULL", at, league_id)
        made = yield row(
            "INSERT INTO league_seasons (league_id, number, started_at, ends_on, carry)"
            " VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_seasons"
            " WHERE league_id = ?), ?, ?, ?) RETURNING *",
            league_id, league_id, at, ends_on, carry)
        return season_record(made)

    async def end_season(self, league_id: int) -> SeasonRecord | None:
        found = await self._db.execute(row(
            "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL"
            " RETURNING *", stamp(), league_id))
        return None if found is None else season_record(found)

    async def seasons(self, league_id: int) -> list[SeasonRecord]:
        return await self._many(season_record, rows(
            "SELECT * FROM league_seasons WHERE league_id = ? ORDER BY number", league_id))

    async def season_carries(self) -> dict[int, float]:
        return await self._db.read(season_carries())

    # -- sanctioned tables, seatings and forfeits -------------------------------------------
    async def sanction_table(self, league_id: int, table_id: int, by: int) -> None:
        """An organiser opened this league table outside rounds: its result counts."""
        await self._db.execute(count(
            "INSERT INTO league_sanctions (table_id, league_id, opened_by, at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
            table_id, league_id, by, stamp()))

    async def sanctioned(self, table_id: int) -> bool:
        """A round's table, or one an organiser opened for the league."""
        return bool(await self._db.query(value(
            "SELECT EXISTS (SELECT 1 FROM league_round_tables WHERE table_id = ?)"
            " OR EXISTS (SELECT 1 FROM league_sanctions WHERE table_id = ?)",
            table_id, table_id)))

    async def league_seatings(self, league_id: int, since: str = "") -> list[tuple[int, int]]:
        """(table, member) for every member seated at the league's tables opened since (an
        ISO time, as the store hands them out; "": ever)."""
        sql = ("SELECT s.table_id, s.member_id FROM seats s JOIN game_tables t"
               " ON t.id = s.table_id WHERE t.league_id = ? AND s.member_id IS NOT NULL")
        if since:
            # A time: TEXT in SQLite (the same ISO form), TIMESTAMPTZ in PostgreSQL.
            found = await self._db.query(rows(sql + " AND t.created_at >= ?", league_id,
                                              datetime.fromisoformat(since)))
        else:
            found = await self._db.query(rows(sql, league_id))
        return [(int(r[0]), int(r[1])) for r in found]

    async def add_forfeit(self, table_id: int, seat: int, member_id: int, name: str,
                          reason: str) -> bool:
        """Record that a seat forfeited; False when it already had."""
        return await self._db.execute(value(
            "INSERT INTO league_forfeits (table_id, seat, member_id, name, reason, at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING"
            " RETURNING seat", table_id, seat, member_id, name, reason, stamp())) is not None

    async def forfeits(self, table_id: int) -> list[ForfeitRecord]:
        return await self._many(partial(record, ForfeitRecord), rows(
            "SELECT * FROM league_forfeits WHERE table_id = ? ORDER BY seat", table_id))
