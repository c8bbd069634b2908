"""Every custom_id the bot sends, from one format: ``tabula:<kind>:<fields>``.

A board's buttons carry the table and what they were made for: a version (``v12``) on the
channel's board, or the seat's own position (``s`` + fingerprint) on a DM, so a click is
checked against the state it was meant for, after a restart too.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "tabula"
LOBBY_OPS = ("join", "leave", "bot", "start")
BOARD_OPS = ("moves", "hand")

LOBBY = rf"{PREFIX}:lobby:(?P<op>join|leave|bot|start):(?P<table>[0-9]+)"
BOARD = rf"{PREFIX}:board:(?P<op>moves|hand):(?P<table>[0-9]+):(?P<mark>v[0-9]+|s[0-9a-f]+)"
CONFIRM = rf"{PREFIX}:confirm:(?P<op>ok|no):(?P<pending>[0-9]+)"
PICK = rf"{PREFIX}:pick:(?P<table>[0-9]+):(?P<mark>v[0-9]+|s[0-9a-f]+)"
VOTE_CHOICES = ("remove", "wait", "substitute")
# A vote's buttons carry the round they were posted for: a click on an earlier round's message
# never counts in a later one.
VOTE = rf"{PREFIX}:vote:(?P<choice>remove|wait|substitute):(?P<turn>[0-9]+)(?::(?P<round>[0-9]+))?"
# An advert for a seat carries whom it was posted for and who posted it (checked then).
CHECKIN = rf"{PREFIX}:checkin:(?P<league>[0-9]+)"
# A detail of a view (its key from ``rendering.detail_parts``) and a view in words: of the
# public board (``p``) or of one seat's own view (its number, checked against the presser).
DETAIL = rf"{PREFIX}:detail:(?P<table>[0-9]+):(?P<seat>p|[0-9]+):(?P<key>[A-Za-z0-9_.:-]{{1,40}})"
TEXT = rf"{PREFIX}:text:(?P<table>[0-9]+):(?P<seat>p|[0-9]+)"
SEEK = rf"{PREFIX}:seek:(?P<table>[0-9]+):(?P<seat>[0-9]+):(?P<old>[0-9]+):(?P<by>[0-9]+)"


@dataclass(frozen=True)
class Mark:
    """What a board or menu was made for: a table version, or a seat's fingerprint."""

    version: int | None = None
    fingerprint: str | None = None

    def encode(self) -> str:
        return f"s{self.fingerprint}" if self.fingerprint else f"v{self.version or 0}"

    @classmethod
    def decode(cls, text: str) -> Mark:
        if text.startswith("s"):
            return cls(fingerprint=text[1:])
        return cls(version=int(text[1:]))


def lobby(op: str, table_id: int) -> str:
    return f"{PREFIX}:lobby:{op}:{table_id}"


def board(op: str, table_id: int, mark: Mark) -> str:
    return f"{PREFIX}:board:{op}:{table_id}:{mark.encode()}"


def confirm(op: str, pending_id: int) -> str:
    return f"{PREFIX}:confirm:{op}:{pending_id}"


def pick(table_id: int, mark: Mark) -> str:
    return f"{PREFIX}:pick:{table_id}:{mark.encode()}"


def vote(choice: str, turn_id: int, round_: int) -> str:
    return f"{PREFIX}:vote:{choice}:{turn_id}:{round_}"


def seek(table_id: int, seat: int, old: int, by: int) -> str:
    return f"{PREFIX}:seek:{table_id}:{seat}:{old}:{by}"


def checkin(league_id: int) -> str:
    return f"{PREFIX}:checkin:{league_id}"


def _seat(seat: int | None) -> str:
    return "p" if seat is None else str(seat)


def seat_of(field: str) -> int | None:
    """The seat a detail or text id names (None: the public board)."""
    return None if field == "p" else int(field)


def detail(table_id: int, seat: int | None, key: str) -> str:
    return f"{PREFIX}:detail:{table_id}:{_seat(seat)}:{key}"


def text(table_id: int, seat: int | None) -> str:
    return f"{PREFIX}:text:{table_id}:{_seat(seat)}"
