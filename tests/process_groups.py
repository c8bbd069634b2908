"""Child processes each in a process group of their own (``start_new_session=True``), and their
reaping: SIGKILL to the whole group, then a wait until nothing of it runs. A bot's group holds
what it started too (its worker pools, their resource tracker), which a kill of the bot alone
would leave running. Tests reap in ``finally`` blocks and fixture teardowns, so a test that
fails or times out leaves no process behind either."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

GONE_WITHIN = 15.0  # seconds for a SIGKILLed group to be gone


def kill_group(pgid: int) -> None:
    """SIGKILL to every process of the group (nothing when none is left)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def members(pgid: int) -> list[int]:
    """The live processes of the group (zombies are dead: they are left to their parent)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # After the command's closing parenthesis: state, ppid, pgrp, ...
        state, _ppid, pgrp = stat[stat.rindex(")") + 2:].split()[:3]
        if int(pgrp) == pgid and state != "Z":
            found.append(int(entry.name))
    return found


def _left(pgid: int) -> list[int]:
    if Path("/proc/self/stat").exists():
        return members(pgid)
    try:  # no /proc: a group with any process in it takes a signal
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    return [pgid]


def _gone_error(pgid: int, left: list[int]) -> AssertionError:
    return AssertionError(f"process group {pgid} still runs {left} {GONE_WITHIN} s after SIGKILL")


def reap_group(pgid: int) -> None:
    """Kill the group and wait until all of it is gone (its processes need not be children)."""
    kill_group(pgid)
    deadline = time.monotonic() + GONE_WITHIN
    while left := _left(pgid):
        if time.monotonic() > deadline:
            raise _gone_error(pgid, left)
        time.sleep(0.05)


def reap(proc: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    """Kill the group ``proc`` leads and wait until all of it is gone."""
    kill_group(proc.pid)
    proc.wait(timeout=GONE_WITHIN)
    reap_group(proc.pid)


async def reap_async(proc: asyncio.subprocess.Process) -> None:
    """``reap`` for a child started with asyncio."""
    kill_group(proc.pid)
    await asyncio.wait_for(proc.wait(), GONE_WITHIN)
    deadline = time.monotonic() + GONE_WITHIN
    while left := _left(proc.pid):
        if time.monotonic() > deadline:
            raise _gone_error(proc.pid, left)
        await asyncio.sleep(0.05)
