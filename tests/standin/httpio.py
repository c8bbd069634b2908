"""Reading request bodies (JSON or multipart) and writing Discord-shaped responses."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import INVALID_JSON, ApiError, FormErrors
from .interactions import InteractionRecord
from .state import Upload

FILE_PART = re.compile(r"^files?\[(\d+)\]$|^file(\d*)$")
MAX_PARTS = 64
# The interaction a request concerns, so errors can be filed under it.
INTERACTION = web.RequestKey("interaction", InteractionRecord)
# The decoded body: read once (a multipart stream cannot be read twice), checked against
# Discord's description before the route handler uses it.
BODY = web.RequestKey("body", tuple)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json`` (no charset), as
    discord.py only decodes bodies labelled that way."""
    out = web.Response(body=json.dumps(data).encode(), status=status, headers=headers)
    out.headers["Content-Type"] = "application/json"
    return out


def no_content() -> web.Response:
    return web.Response(status=204)


def _parse_json(raw: bytes | str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise ApiError(
            400, INVALID_JSON, "The request body contains invalid JSON.", kind="invalid_json"
        ) from None


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON payload and the uploaded files of a request.

    Multipart bodies carry ``payload_json`` plus ``files[n]`` parts, as discord.py sends them.
    """
    cached = request.get(BODY)
    if cached is None:
        cached = await _read_body(request)
        request[BODY] = cached
    payload, uploads = cached
    return payload, list(uploads)


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        payload: Any = None
        uploads: list[Upload] = []
        for _ in range(MAX_PARTS):
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            data = bytes(await part.read(decode=False))
            name = part.name or ""
            match = FILE_PART.match(name)
            if name == "payload_json":
                payload = _parse_json(data)
            elif match:
                index = int(match.group(1) or match.group(2) or 0)
                uploads.append(Upload(index, part.filename or f"file{index}", data))
        return payload, uploads
    raw = await request.read()
    if not raw:
        return None, []
    return _parse_json(raw), []


def snowflake(request: web.Request, key: str) -> int:
    value = request.match_info[key]
    if not value.isdigit():
        errors = FormErrors()
        errors.add((key,), "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
        errors.raise_if_any("bad_snowflake")
    return int(value)
