"""League rows: leagues and their settings, seasons, sign-ups and check-ins, rounds,
sanctioned tables and forfeits (results and ratings: ``sqlite.league_results``). Portable SQL only
(ON CONFLICT, RETURNING); each method is one hand-off, one transaction when it writes. A
PostgreSQL store mirrors these methods."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.store.errors import AlreadyExists
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
from bot.store.sqlite.commits import now_text as _now
from bot.store.sqlite.league_results import LeagueResultRows
from bot.store.sqlite.rows import table_record as _table


class LeagueRows(LeagueResultRows):
    """Mixed into ``SqliteStore``, which provides the hand-offs."""

    # -- leagues ---------------------------------------------------------------------------

    async def create_league(self, guild_id: int, name: str, game_id: str, created_by: int,
                            settings: LeagueSettings | None = None) -> int:
        """A new league; ``AlreadyExists`` when the server has one of that name."""
        o = settings or LeagueSettings()
        try:
            return await self._transact(lambda db: int(db.execute(
                "INSERT INTO leagues (guild_id, name, game_id, created_by, created_at,"
                " channel_id, min_seats, max_seats, computers, min_reliability, carry, points)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, name, game_id, created_by, _now(), o.channel_id, o.min_seats,
                 o.max_seats, int(o.computers), o.min_reliability, o.carry, o.points),
            ).fetchone()[0]))
        except sqlite3.IntegrityError as exc:
            raise AlreadyExists("This server already has a league of that name.") from exc

    async def leagues(self, guild_id: int) -> list[LeagueRecord]:
        rows = await self._fetch(
            "SELECT * FROM leagues WHERE guild_id = ? ORDER BY closed, name", (guild_id,)
        )
        return [_league(r) for r in rows]

    async def league_named(self, guild_id: int, name: str) -> LeagueRecord | None:
        rows = await self._fetch(
            "SELECT * FROM leagues WHERE guild_id = ? AND name = ? COLLATE NOCASE",
            (guild_id, name),
        )
        return _league(rows[0]) if rows else None

    async def close_league(self, league_id: int) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE leagues SET closed = 1 WHERE id = ?", (league_id,)
        ))

    async def league_tables(self, league_id: int, status: str = Status.OVER
                            ) -> list[TableRecord]:
        rows = await self._fetch(
            "SELECT * FROM game_tables WHERE league_id = ? AND status = ? ORDER BY updated_at",
            (league_id, status),
        )
        return [_table(r) for r in rows]


    async def set_league_admin_role(self, guild_id: int, role_id: int | None) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_guilds (guild_id, admin_role_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET admin_role_id = excluded.admin_role_id",
            (guild_id, role_id),
        ))

    async def league_admin_role(self, guild_id: int) -> int | None:
        rows = await self._fetch(
            "SELECT admin_role_id FROM league_guilds WHERE guild_id = ?", (guild_id,)
        )
        return rows[0][0] if rows else None

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        rows = await self._fetch("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return _league(rows[0]) if rows else None

    async def join_league(self, league_id: int, member_id: int, name: str,
                          cap: int | None = None) -> bool:
        """Sign a member up (again); keeps their first join date. False (nothing written)
        when ``cap`` members are signed up already and this one is not among them."""

        def write(db: sqlite3.Connection) -> bool:
            if cap is not None and db.execute(
                    "SELECT COUNT(*) FROM league_members WHERE league_id = ? AND left_at IS NULL"
                    " AND member_id != ?", (league_id, member_id)).fetchone()[0] >= cap:
                return False
            db.execute(
                "INSERT INTO league_members (league_id, member_id, name, joined_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (league_id, member_id)"
                " DO UPDATE SET name = excluded.name, left_at = NULL",
                (league_id, member_id, name, _now()))
            return True

        return await self._transact(write)

    async def set_signups(self, league_id: int, signups_open: bool, cap: int | None,
                          checkin: bool) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE leagues SET signups_open = ?, cap = ?, checkin = ? WHERE id = ?",
            (int(signups_open), cap, int(checkin), league_id)))

    async def check_in(self, league_id: int, member_id: int) -> bool:
        """The member is present for the next round; False when they had checked in."""
        return await self._transact(lambda db: db.execute(
            "INSERT INTO league_checkins (league_id, member_id, at) VALUES (?, ?, ?)"
            " ON CONFLICT (league_id, member_id) DO NOTHING RETURNING member_id",
            (league_id, member_id, _now())).fetchone() is not None)

    async def checked_in(self, league_id: int) -> set[int]:
        rows = await self._fetch("SELECT member_id FROM league_checkins WHERE league_id = ?",
                                 (league_id,))
        return {int(r[0]) for r in rows}

    async def leave_league(self, league_id: int, member_id: int) -> bool:
        """False when the member was not signed up."""
        return await self._transact(lambda db: db.execute(
            "UPDATE league_members SET left_at = ? WHERE league_id = ? AND member_id = ?"
            " AND left_at IS NULL",
            (_now(), league_id, member_id),
        ).rowcount > 0)

    async def league_members(self, league_id: int, *, signed_up: bool = True
                             ) -> list[LeagueMemberRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_members WHERE league_id = ?"
            + (" AND left_at IS NULL" if signed_up else "") + " ORDER BY joined_at, member_id",
            (league_id,),
        )
        return [LeagueMemberRecord(int(r["member_id"]), str(r["name"]), str(r["joined_at"]),
                                   r["left_at"] is None) for r in rows]

    async def start_season(self, league_id: int, ends_on: str | None, carry: float
                           ) -> SeasonRecord:
        """End the running season (if any) and start the next one, in one transaction."""
        now = _now()

        def write(db: sqlite3.Connection) -> sqlite3.Row:
            db.execute(
                "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL",
                (now, league_id),
            )
            row: sqlite3.Row = db.execute(
                "INSERT INTO league_seasons (league_id, number, started_at, ends_on, carry)"
                " VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM league_seasons"
                " WHERE league_id = ?), ?, ?, ?) RETURNING *",
                (league_id, league_id, now, ends_on, carry),
            ).fetchone()
            return row

        return _season(await self._transact(write))

    async def end_season(self, league_id: int) -> SeasonRecord | None:
        row = await self._transact(lambda db: db.execute(
            "UPDATE league_seasons SET ended_at = ? WHERE league_id = ? AND ended_at IS NULL"
            " RETURNING *",
            (_now(), league_id),
        ).fetchone())
        return _season(row) if row else None

    async def seasons(self, league_id: int) -> list[SeasonRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_seasons WHERE league_id = ? ORDER BY number", (league_id,)
        )
        return [_season(r) for r in rows]

    async def season_carries(self) -> dict[int, float]:
        rows = await self._fetch("SELECT id, carry FROM league_seasons")
        return {int(r["id"]): float(r["carry"]) for r in rows}

    async def add_round(self, league_id: int, season_id: int | None, marks: dict[int, float],
                        *, force: bool = False, deadline: str | None = None,
                        auto_next: int | None = None, plan: Sequence[RoundSlot] = ()
                        ) -> RoundRecord | None:
        """A new round, with each member's shown rating at this moment and its ``plan``;
        None while another round of the league is open, unless ``force`` closes that one
        first. The check and the insert are one transaction (and one open round per league
        is a unique index)."""

        def write(db: sqlite3.Connection) -> sqlite3.Row | None:
            now = _now()
            if force:
                db.execute("UPDATE league_rounds SET closed_at = ? WHERE league_id = ?"
                           " AND closed_at IS NULL", (now, league_id))
            elif db.execute("SELECT 1 FROM league_rounds WHERE league_id = ?"
                            " AND closed_at IS NULL", (league_id,)).fetchone():
                return None
            # A round with no table to open is opened as it is made.
            opened = None if any(s.slot >= 0 for s in plan) else now
            row: sqlite3.Row = db.execute(
                "INSERT INTO league_rounds (league_id, season_id, number, created_at, deadline,"
                " auto_next, opened_at) VALUES (?, ?, (SELECT COALESCE(MAX(number), 0) + 1"
                " FROM league_rounds WHERE league_id = ?), ?, ?, ?, ?) RETURNING *",
                (league_id, season_id, league_id, now, deadline, auto_next, opened),
            ).fetchone()
            db.executemany(
                "INSERT INTO league_round_marks (round_id, member_id, rating) VALUES (?, ?, ?)",
                [(row["id"], m, r) for m, r in marks.items()],
            )
            db.executemany(
                "INSERT INTO league_round_slots (round_id, slot, computers) VALUES (?, ?, ?)",
                [(row["id"], s.slot, s.computers) for s in plan])
            db.executemany(
                "INSERT INTO league_round_seats (round_id, slot, place, member_id, name)"
                " VALUES (?, ?, ?, ?, ?)",
                [(row["id"], s.slot, place, m, name) for s in plan
                 for place, (m, name) in enumerate(s.members)])
            db.execute("DELETE FROM league_checkins WHERE league_id = ?", (league_id,))
            return row

        row = await self._transact(write)
        return _round(row) if row is not None else None

    async def close_round(self, round_id: int) -> bool:
        """Mark the round complete; False when it already was."""
        return await self._transact(lambda db: db.execute(
            "UPDATE league_rounds SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
            (_now(), round_id),
        ).rowcount > 0)

    async def open_rounds(self) -> list[RoundRecord]:
        rows = await self._fetch("SELECT * FROM league_rounds WHERE closed_at IS NULL"
                                 " ORDER BY id")
        return [_round(r) for r in rows]

    async def scheduled_rounds(self) -> list[RoundRecord]:
        """Rounds whose next round opens by itself at their deadline (not opened yet)."""
        rows = await self._fetch("SELECT * FROM league_rounds WHERE auto_next IS NOT NULL"
                                 " ORDER BY id")
        return [_round(r) for r in rows]

    async def claim_next(self, round_id: int) -> int | None:
        """Take the round's order to open the next one (once: None when it was taken)."""

        def write(db: sqlite3.Connection) -> int | None:
            row = db.execute("SELECT auto_next FROM league_rounds WHERE id = ?",
                             (round_id,)).fetchone()
            if row is None or row[0] is None:
                return None
            db.execute("UPDATE league_rounds SET auto_next = NULL WHERE id = ?", (round_id,))
            return int(row[0])

        return await self._transact(write)

    async def round_tables(self, round_id: int) -> list[TableRecord]:
        rows = await self._fetch(
            "SELECT t.* FROM game_tables t JOIN league_round_tables rt ON rt.table_id = t.id"
            " WHERE rt.round_id = ? ORDER BY t.id", (round_id,))
        return [_table(r) for r in rows]

    async def round_plan(self, round_id: int) -> list[RoundSlot]:
        slots = await self._fetch("SELECT * FROM league_round_slots WHERE round_id = ?"
                                  " ORDER BY slot", (round_id,))
        seats = await self._fetch("SELECT slot, member_id, name FROM league_round_seats"
                                  " WHERE round_id = ? ORDER BY slot, place", (round_id,))
        return [RoundSlot(int(s["slot"]), [(int(m["member_id"]), str(m["name"]))
                                           for m in seats if m["slot"] == s["slot"]],
                          int(s["computers"]), s["channel_id"], s["table_id"]) for s in slots]

    async def opening_rounds(self) -> list[RoundRecord]:
        rows = await self._fetch("SELECT * FROM league_rounds WHERE closed_at IS NULL"
                                 " AND opened_at IS NULL ORDER BY id")
        return [_round(r) for r in rows]

    async def set_slot_channel(self, round_id: int, slot: int, channel_id: int) -> int:
        def write(db: sqlite3.Connection) -> int:
            db.execute("UPDATE league_round_slots SET channel_id = ? WHERE round_id = ?"
                       " AND slot = ? AND channel_id IS NULL", (channel_id, round_id, slot))
            return int(db.execute("SELECT channel_id FROM league_round_slots WHERE round_id = ?"
                                  " AND slot = ?", (round_id, slot)).fetchone()[0])

        return await self._transact(write)

    async def file_slot_table(self, round_id: int, slot: int, table_id: int) -> int:
        def write(db: sqlite3.Connection) -> int:
            db.execute("UPDATE league_round_slots SET table_id = ? WHERE round_id = ?"
                       " AND slot = ? AND table_id IS NULL", (table_id, round_id, slot))
            filed = int(db.execute("SELECT table_id FROM league_round_slots WHERE round_id = ?"
                                   " AND slot = ?", (round_id, slot)).fetchone()[0])
            db.execute("INSERT INTO league_round_tables (round_id, table_id) VALUES (?, ?)"
                       " ON CONFLICT (table_id) DO NOTHING", (round_id, filed))
            return filed

        return await self._transact(write)

    async def mark_round_opened(self, round_id: int) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE league_rounds SET opened_at = ? WHERE id = ? AND opened_at IS NULL",
            (_now(), round_id)))

    async def owe_round_reply(self, round_id: int, application_id: str, token: str,
                              expires: int) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE league_rounds SET reply_app = ?, reply_token = ?, reply_expires = ?"
            " WHERE id = ?", (application_id, token, expires, round_id)))

    async def round_reply(self, round_id: int, now: int) -> tuple[str, str] | None:
        rows = await self._fetch("SELECT reply_app, reply_token FROM league_rounds"
                                 " WHERE id = ? AND reply_expires > ?", (round_id, now))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    async def drop_round_reply(self, round_id: int) -> None:
        await self._transact(lambda db: db.execute(
            "UPDATE league_rounds SET reply_app = NULL, reply_token = NULL,"
            " reply_expires = NULL WHERE id = ?", (round_id,)))

    async def add_round_table(self, round_id: int, table_id: int) -> None:
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_round_tables (round_id, table_id) VALUES (?, ?)",
            (round_id, table_id),
        ))

    async def sanction_table(self, league_id: int, table_id: int, by: int) -> None:
        """An organiser opened this league table outside rounds: its result counts."""
        await self._transact(lambda db: db.execute(
            "INSERT INTO league_sanctions (table_id, league_id, opened_by, at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
            (table_id, league_id, by, _now()),
        ))

    async def sanctioned(self, table_id: int) -> bool:
        """A round's table, or one an organiser opened for the league."""
        rows = await self._fetch(
            "SELECT 1 FROM league_round_tables WHERE table_id = ?"
            " UNION ALL SELECT 1 FROM league_sanctions WHERE table_id = ?",
            (table_id, table_id))
        return bool(rows)

    async def rounds(self, league_id: int) -> list[RoundRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_rounds WHERE league_id = ? ORDER BY number", (league_id,)
        )
        return [_round(r) for r in rows]

    async def round_of_table(self, table_id: int) -> RoundRecord | None:
        rows = await self._fetch(
            "SELECT r.* FROM league_rounds r JOIN league_round_tables t ON t.round_id = r.id"
            " WHERE t.table_id = ?",
            (table_id,),
        )
        return _round(rows[0]) if rows else None

    async def round_marks(self, round_id: int) -> dict[int, float]:
        rows = await self._fetch(
            "SELECT member_id, rating FROM league_round_marks WHERE round_id = ?", (round_id,)
        )
        return {int(r["member_id"]): float(r["rating"]) for r in rows}

    async def league_seatings(self, league_id: int, since: str = "") -> list[tuple[int, int]]:
        """(table, member) for every member seated at the league's tables opened since."""
        rows = await self._fetch(
            "SELECT s.table_id, s.member_id FROM seats s JOIN game_tables t"
            " ON t.id = s.table_id WHERE t.league_id = ? AND t.created_at >= ?"
            " AND s.member_id IS NOT NULL",
            (league_id, since),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def add_forfeit(self, table_id: int, seat: int, member_id: int, name: str,
                          reason: str) -> bool:
        """Record that a seat forfeited; False when it already had."""
        return await self._transact(lambda db: db.execute(
            "INSERT INTO league_forfeits (table_id, seat, member_id, name, reason, at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING"
            " RETURNING seat",
            (table_id, seat, member_id, name, reason, _now()),
        ).fetchone() is not None)

    async def forfeits(self, table_id: int) -> list[ForfeitRecord]:
        rows = await self._fetch(
            "SELECT * FROM league_forfeits WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [ForfeitRecord(int(r["table_id"]), int(r["seat"]), int(r["member_id"]),
                              str(r["name"]), str(r["reason"]), str(r["at"])) for r in rows]


def _league(row: sqlite3.Row) -> LeagueRecord:
    return LeagueRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        game_id=str(row["game_id"]),
        created_by=int(row["created_by"]),
        created_at=str(row["created_at"]),
        closed=bool(row["closed"]),
        channel_id=row["channel_id"],
        min_seats=row["min_seats"],
        max_seats=row["max_seats"],
        computers=bool(row["computers"]),
        min_reliability=float(row["min_reliability"]),
        carry=float(row["carry"]),
        points=row["points"],
        signups_open=bool(row["signups_open"]),
        cap=row["cap"],
        checkin=bool(row["checkin"]),
    )


# -- leagues, on the connection's thread -------------------------------------------------------




def _season(row: sqlite3.Row) -> SeasonRecord:
    return SeasonRecord(int(row["id"]), int(row["league_id"]), int(row["number"]),
                        str(row["started_at"]), row["ends_on"], row["ended_at"],
                        float(row["carry"]))


def _round(row: sqlite3.Row) -> RoundRecord:
    return RoundRecord(int(row["id"]), int(row["league_id"]), row["season_id"],
                       int(row["number"]), str(row["created_at"]), row["closed_at"],
                       row["deadline"], row["auto_next"], row["opened_at"])
