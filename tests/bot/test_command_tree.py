"""The slash command tree stays within Discord's limits (a 26th subcommand fails here, not in
production), and every option is described."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import discord
from discord import app_commands

from bot.app import EXTENSIONS, create_bot
from bot.config import Settings

NAME = re.compile(r"^[-_\w]{1,32}$")
ROOT = Path(__file__).resolve().parents[2]


async def loaded_tree() -> app_commands.CommandTree:
    bot = create_bot(Settings(token="x"), render_workers=0)
    for name in EXTENSIONS:
        await bot.load_extension(name)
    return bot.tree


def check_command(cmd: app_commands.Command | app_commands.Group, depth: int = 0) -> None:
    assert NAME.match(cmd.name) and cmd.name == cmd.name.lower(), cmd.name
    assert 1 <= len(cmd.description) <= 100, cmd.qualified_name
    if isinstance(cmd, app_commands.Group):
        assert depth < 2, f"{cmd.qualified_name}: groups nest at most twice"
        assert len(cmd.commands) <= 25, f"{cmd.qualified_name}: over 25 subcommands"
        for sub in cmd.commands:
            check_command(sub, depth + 1)
        return
    assert len(cmd.parameters) <= 25, f"{cmd.qualified_name}: over 25 options"
    for param in cmd.parameters:
        assert NAME.match(param.name) and param.name == param.name.lower()
        assert 1 <= len(param.description) <= 100, f"{cmd.qualified_name} {param.name}"
        assert param.description != "…", f"{cmd.qualified_name} {param.name} is undescribed"
        assert len(param.choices) <= 25


async def test_the_command_tree_is_within_discords_limits() -> None:
    tree = await loaded_tree()
    commands = tree.get_commands()
    assert len(commands) <= 100
    names = {c.name for c in commands}
    expected = {"game", "move", "board", "hand", "undo", "history", "export", "rules", "help"}
    assert expected <= names
    for cmd in commands:
        check_command(cmd)  # type: ignore[arg-type]
    game = next(c for c in commands if c.name == "game")
    assert isinstance(game, app_commands.Group)
    subs = {c.name for c in game.commands}
    assert {"new", "join", "leave", "start", "status", "abandon", "add-bot"} <= subs


def test_the_bot_without_a_token_says_what_to_set(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "python -m bot local" in result.stderr


async def test_organisers_commands_are_hidden_from_members_by_default() -> None:
    """Discord honours ``default_member_permissions`` on top-level commands only: the
    organisers' league commands form a group of their own that carries it."""
    tree = await loaded_tree()
    payloads = {c.name: c.to_dict(tree) for c in tree.get_commands()}
    admin = payloads["league-admin"]
    assert admin["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    subs = {o["name"] for o in admin["options"]}
    assert {"create", "close", "round", "season", "admin-role"} <= subs
    member = payloads["league"]
    assert member["default_member_permissions"] is None
    everyone = {o["name"]: o for o in member["options"]}
    assert not {"create", "close", "season"} & set(everyone)
    # ``/league round`` is everyone's view of a round's progress, not the organisers' command:
    # it opens nothing (none of their options: deadline, force, auto).
    assert {o["name"] for o in everyone["round"].get("options", [])} == {"name", "number"}
