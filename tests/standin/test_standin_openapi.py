"""Every request to the stand-in is checked against Discord's OpenAPI description: a command
option bounded past Discord's integers is refused as Discord refuses it, and the bot's own
command tree fits the description."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from discord import app_commands

from tests.bot.test_command_tree import loaded_tree
from tests.standin import Channel, StandIn
from tests.standin.openapi import SPEC_FILE, SpecMissing, load_spec

pytestmark = pytest.mark.timeout(60)

JSON = dict[str, Any]
MAX_SAFE = 2**53 - 1  # Discord's largest integer (the description's Int53Type)


def planted_tree(max_value: int) -> list[JSON]:
    option = {"type": 4, "name": "result", "description": "The result's number",
              "required": True, "min_value": 1, "max_value": max_value}
    return [{"name": "void", "description": "Void a result", "options": [option]}]


class Raw:
    def __init__(self, standin: StandIn, http: aiohttp.ClientSession) -> None:
        self.standin, self.http = standin, http

    async def call(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.standin.token}"}
        url = f"{self.standin.api_base}{path}"
        async with self.http.request(method, url, headers=headers, **kwargs) as resp:
            return resp.status, await resp.json() if resp.status != 204 else None


@pytest.fixture
async def raw(standin: StandIn) -> AsyncIterator[Raw]:
    async with aiohttp.ClientSession() as http:
        yield Raw(standin, http)


@pytest.fixture
def channel(standin: StandIn) -> Channel:
    return standin.add_channel(standin.add_guild("Spec"), "games")


async def test_a_max_value_of_2_to_the_53_is_refused_like_discord(raw: Raw) -> None:
    standin = raw.standin
    standin.expect_spec_violations()
    commands = f"/applications/{standin.application_id}/commands"
    status, body = await raw.call("PUT", commands, json=planted_tree(2**53))
    assert status == 400, f"max_value 2**53 was accepted: {body}"
    assert (body["code"], body["message"]) == (50035, "Invalid Form Body")
    [error] = body["errors"]["0"]["options"]["0"]["max_value"]["_errors"]
    assert error["code"] == "NUMBER_TYPE_MAX" and str(MAX_SAFE) in error["message"]
    assert standin.commands() == []  # Discord refuses the whole overwrite
    [violation] = standin.spec_violations
    assert violation.kind == "openapi" and violation.route == f"PUT /api/v10{commands}"
    assert violation.details == [f"0.options.0.max_value: {error['message']}"]
    assert [v.kind for v in standin.violations] == ["openapi"]

    status, _ = await raw.call("PUT", commands, json=planted_tree(MAX_SAFE))
    assert status == 200 and standin.commands()[0]["options"][0]["max_value"] == MAX_SAFE
    assert len(standin.spec_violations) == 1


async def test_a_multipart_payload_json_is_checked_too(raw: Raw, channel: Channel) -> None:
    raw.standin.expect_spec_violations()
    form = aiohttp.FormData()
    payload = {"content": "board", "attachments": [{"id": 0, "filename": "b.png"}],
               "allowed_mentions": {"parse": ["everyone", "nobody"]}}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", b"\x89PNG", filename="b.png", content_type="image/png")
    status, body = await raw.call("POST", f"/channels/{channel.id}/messages", data=form)
    assert (status, body["code"]) == (400, 50035)
    [error] = body["errors"]["allowed_mentions"]["parse"]["1"]["_errors"]
    assert error["code"] == "BASE_TYPE_CHOICES"
    assert raw.standin.channel_messages(channel) == []
    assert [v.kind for v in raw.standin.spec_violations] == ["openapi"]


async def test_routes_methods_and_parameters_are_checked(raw: Raw, channel: Channel) -> None:
    standin = raw.standin
    standin.expect_spec_violations()
    assert (await raw.call("GET", "/no-such-route"))[0] == 404
    assert (await raw.call("PUT", "/users/@me"))[0] == 405
    callback = "/interactions/1/token/callback"
    status, body = await raw.call("POST", f"{callback}?with_response=maybe", json={"type": 6})
    assert status == 400 and body["errors"]["with_response"]["_errors"][0]["code"] == (
        "BASE_TYPE_BAD_TYPE")
    status, body = await raw.call("GET", "/channels/12x")
    assert status == 400 and "channel_id" in body["errors"]
    status, body = await raw.call("GET", f"/channels/{channel.id}/messages?limit=101")
    assert status == 400 and body["errors"]["limit"]["_errors"][0]["code"] == "NUMBER_TYPE_MAX"
    assert [v.status for v in standin.spec_violations] == [404, 405, 400, 400, 400]
    assert [str(u) for u in standin.unhandled] == [
        "GET /api/v10/no-such-route", "PUT /api/v10/users/@me"]
    # Within the description, the request reaches the stand-in's own checks.
    status, body = await raw.call("POST", f"{callback}?with_response=true", json={"type": 6})
    assert (status, body["code"]) == (404, 10062)


async def test_a_refused_request_fails_a_test_that_did_not_expect_it(raw: Raw) -> None:
    """The check the e2e fixtures run at teardown, here run by hand."""
    standin = raw.standin
    commands = f"/applications/{standin.application_id}/commands"
    assert (await raw.call("PUT", commands, json=planted_tree(2**53)))[0] == 400
    assert [v.kind for v in standin.unexpected_spec_violations()] == ["openapi"]
    standin.expect_spec_violations()  # so this test itself passes
    assert standin.unexpected_spec_violations() == []


def test_the_description_is_found_beside_the_repository() -> None:
    root = Path(__file__).resolve().parents[2]
    assert SPEC_FILE == root.parent / "shared" / "discord-openapi.json"
    assert SPEC_FILE.is_file(), f"{SPEC_FILE} is missing: the e2e tests need it"
    with pytest.raises(SpecMissing):
        load_spec(root / "no-such-description.json")


def integer_options(options: list[JSON]) -> Iterator[JSON]:
    for option in options:
        if option["type"] in (1, 2):
            yield from integer_options(option.get("options", []))
        elif option["type"] == 4:
            yield option


async def test_the_bots_command_tree_fits_discords_description() -> None:
    tree: app_commands.CommandTree[Any] = await loaded_tree()
    # What ``tree.sync()`` PUTs: every command of every type.
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    spec = load_spec()
    found = spec.match("PUT", "/applications/1/commands")
    assert found.operation is not None
    errors = spec.check_body(found.operation, "application/json", payload, present=True)
    assert not errors, "\n".join(errors.details())
    bounded = [o for c in payload for o in integer_options(c.get("options", []))]
    assert any(o.get("max_value") == MAX_SAFE for o in bounded)  # /league-admin void
    for option in bounded:
        for key in ("min_value", "max_value"):
            assert -MAX_SAFE <= option.get(key, 0) <= MAX_SAFE, option
