"""The heartbeat file a connected bot keeps fresh, and ``python -m bot healthcheck``, the
check a container's HEALTHCHECK runs on it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import ConfigError, Settings
from bot.heartbeat import STALE_SECONDS, Heartbeat, check
from bot.pace.clock import FakeClock, epoch


def test_a_fresh_beat_is_healthy_and_a_stale_one_is_not(tmp_path: Path) -> None:
    clock = FakeClock()
    heartbeat = Heartbeat(tmp_path / "beat", clock)
    heartbeat.beat()
    assert (tmp_path / "beat").read_text() == f"{epoch(clock)}\n"
    assert check(tmp_path / "beat", epoch(clock) + STALE_SECONDS) == (
        True, f"the last heartbeat is {STALE_SECONDS} s old")
    healthy, why = check(tmp_path / "beat", epoch(clock) + STALE_SECONDS + 1)
    assert not healthy and "61 s old" in why
    clock.advance(STALE_SECONDS + 1)
    heartbeat.beat()  # the next beat makes it fresh again
    assert check(tmp_path / "beat", epoch(clock))[0]
    assert not list(tmp_path.glob("*.partial"))  # replaced whole, nothing left beside it


def test_no_file_or_no_time_in_it_is_unhealthy(tmp_path: Path) -> None:
    healthy, why = check(tmp_path / "beat", time.time())
    assert not healthy and "not connected" in why
    (tmp_path / "beat").write_text("soon\n")
    healthy, why = check(tmp_path / "beat", time.time())
    assert not healthy and "holds no time" in why


def test_a_stopped_heartbeat_removes_its_file_and_beats_no_more(tmp_path: Path) -> None:
    heartbeat = Heartbeat(tmp_path / "beat", FakeClock())
    heartbeat.beat()
    heartbeat.stop()
    heartbeat.beat()  # a beat already on its way when the bot closed
    assert not (tmp_path / "beat").exists()


@pytest.mark.parametrize("connected", [True, False])
async def test_the_loop_beats_only_while_connected(tmp_path: Path, connected: bool) -> None:
    heartbeat = Heartbeat(tmp_path / "beat", FakeClock())
    stop = asyncio.Event()

    def gateway() -> bool:
        stop.set()  # one round: the loop ends at its wait
        return connected

    await asyncio.wait_for(heartbeat.run(gateway, stop, every=3600), 10)
    assert (tmp_path / "beat").exists() is connected


def test_the_heartbeat_file_comes_from_the_environment(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "t", "TABULA_HEARTBEAT": f" {tmp_path / 'beat'} "}
    assert Settings.from_env(env).heartbeat == tmp_path / "beat"
    assert Settings.from_env({"DISCORD_TOKEN": "t", "TABULA_HEARTBEAT": " "}).heartbeat is None
    with pytest.raises(ConfigError):
        Settings.from_env({"TABULA_HEARTBEAT": "x"})  # still no token


def test_healthcheck_exits_0_fresh_1_stale_or_missing_2_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    beat = tmp_path / "beat"
    monkeypatch.delenv("TABULA_HEARTBEAT", raising=False)
    assert main(["healthcheck"]) == 2
    assert "TABULA_HEARTBEAT is not set" in capsys.readouterr().err
    monkeypatch.setenv("TABULA_HEARTBEAT", str(beat))
    assert main(["healthcheck"]) == 1
    assert "no heartbeat" in capsys.readouterr().err
    beat.write_text(f"{int(time.time()) - STALE_SECONDS - 30}\n")
    assert main(["healthcheck"]) == 1
    assert "old (more than 60 s)" in capsys.readouterr().err
    beat.write_text(f"{int(time.time())}\n")
    assert main(["healthcheck"]) == 0
    assert "the last heartbeat is" in capsys.readouterr().out
