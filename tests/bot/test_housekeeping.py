"""Small findings that stay fixed: no lock kept per table ever played, the invite asks for no
permission the bot does not use, and the image's dependency layer does not depend on source."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import discord

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
