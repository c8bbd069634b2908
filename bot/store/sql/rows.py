"""Rows to records, built from the records' own dataclass fields: one builder for both
backends, whose rows differ only in how they hand back a few types (SQLite: ``0``/``1``
for booleans and text for times; PostgreSQL: ``bool`` and ``datetime``)."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, TypeVar

R = TypeVar("R")
Row = Mapping[str, Any]
Convert = Callable[[Any], Any]


def iso(moment: datetime) -> str:
    """A time as the store hands it out: UTC, milliseconds, ISO 8601."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def as_text(raw: Any) -> Any:
    if isinstance(raw, datetime):
        return iso(raw)
    if isinstance(raw, date):
        return raw.isoformat()
    return raw


def as_json(raw: Any) -> Any:
    return json.loads(raw) if isinstance(raw, str) else raw


def as_float(raw: Any) -> Any:
    return float(raw) if isinstance(raw, int | Decimal) else raw


def _converter(hint: Any) -> Convert | None:
    """How a column's value becomes the field's (None: as it comes)."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    kinds = [typing.get_origin(o) or o for o in options if o is not type(None)]
    if bool in kinds:
        return bool
    if str in kinds:
        return as_text
    if dict in kinds or list in kinds:
        return as_json
    if float in kinds:
        return as_float
    return None


_FIELDS: dict[type[Any], tuple[tuple[str, Convert | None], ...]] = {}


def _fields(cls: type[Any]) -> tuple[tuple[str, Convert | None], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = tuple((f.name, _converter(hints[f.name])) for f in dataclasses.fields(cls))
        _FIELDS[cls] = found
    return found


def record(cls: type[R], found: Row, **given: Any) -> R:
    """``cls`` from the row's columns of the same names (converted by the field's type);
    ``given`` values win, and a field neither has keeps its default."""
    values: dict[str, Any] = {}
    for name, convert in _fields(cls):
        if given and name in given:
            values[name] = given[name]
            continue
        try:
            raw = found[name]
        except (IndexError, KeyError):  # sqlite3.Row's and asyncpg's words for "no column"
            continue
        # Most columns need nothing: text that is text already, or a field with no converter.
        if raw is None or convert is None or (convert is as_text and type(raw) is str):
            values[name] = raw
        else:
            values[name] = convert(raw)
    return cls(**values)
