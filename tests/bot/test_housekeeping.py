"""Small findings that stay fixed: no lock kept per table ever played, the invite asks for no
permission the bot does not use, the image's dependency layer does not depend on source, and
its lock file keeps up with the project's dependencies."""

from __future__ import annotations

import asyncio
import re
import tomllib
from pathlib import Path

import discord
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.locks import KeyedLocks

ROOT = Path(__file__).resolve().parents[2]
USED = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, attach_files=True, read_message_history=True,
)


async def test_locks_are_dropped_when_nobody_holds_or_waits() -> None:
    locks = KeyedLocks()

    async def use(key: int) -> None:
        async with locks.hold(key):
            await asyncio.sleep(0)

    await asyncio.gather(*(use(n % 50) for n in range(500)))
    assert len(locks) == 0


def test_the_invite_asks_for_exactly_the_permissions_used() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    asked = {int(v) for v in re.findall(r"permissions=(\d+)", readme)}
    assert asked == {USED.value}
    assert not discord.Permissions(USED.value).embed_links  # no embed is ever sent


def test_dependencies_install_before_the_source_is_copied() -> None:
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    first_source = next(i for i, line in enumerate(lines) if line.startswith("COPY bot"))
    first_install = next(i for i, line in enumerate(lines) if "pip install" in line)
    assert first_install < first_source
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".git", ".venv", "**/*.db"} <= set(ignored)


def test_the_image_lock_pins_every_runtime_dependency_within_its_range() -> None:
    """The image installs ``requirements.lock`` alone (``--no-deps --require-hashes``): every
    dependency of the bot and of its PostgreSQL extra is there, hashed, at a version that the
    project's own ranges allow (a stale lock after a change in ``pyproject.toml`` fails here)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in
              [*project["dependencies"], *project["optional-dependencies"]["postgres"]]]
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pinned = {canonicalize_name(name): version
              for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lock, re.M)}
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in requirements.lock"
        assert requirement.specifier.contains(pinned[name]), (name, pinned[name])
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", lock)[1:]  # [0]: pip-compile's header
    assert all("--hash=sha256:" in block for block in blocks)
    assert "aiosqlite" in {canonicalize_name(Requirement(r).name)
                           for r in project["dependencies"]}  # the SQLite store's driver
