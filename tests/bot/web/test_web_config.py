"""The web settings from the environment, ``python -m bot web``, ``web-pages`` and
``healthz``."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import ConfigError, Settings, WebSettings
from bot.store import SqliteStore
from tests.e2e.web_harness import free_port
from tests.process_groups import reap

ROOT = Path(__file__).resolve().parents[3]


def test_the_web_is_off_unless_tabula_web_names_an_address() -> None:
    assert WebSettings.from_env({}) == WebSettings()
    on = WebSettings.from_env({"TABULA_WEB": "0.0.0.0:8080",
                               "TABULA_PUBLIC_URL": "https://games.example/",
                               "TABULA_WEB_SECRET": "s" * 32, "TABULA_LINK_HOURS": "2"})
    assert on == WebSettings(("0.0.0.0", 8080), "https://games.example", "s" * 32, 7200)
    assert WebSettings.from_env({"TABULA_WEB": "[::1]:9000"}).listen == ("::1", 9000)
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "TABULA_WEB": "127.0.0.1:1"})
    assert settings.web.listen == ("127.0.0.1", 1)


@pytest.mark.parametrize("env", [
    {"TABULA_WEB": "8080"}, {"TABULA_WEB": "host:port"}, {"TABULA_WEB": "h:70000"},
    {"TABULA_PUBLIC_URL": "games.example"}, {"TABULA_WEB_SECRET": "short"},
    {"TABULA_LINK_HOURS": "0"}, {"TABULA_LINK_HOURS": "soon"},
])
def test_bad_web_settings_say_what_is_expected(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        WebSettings.from_env(env)


def test_web_pages_can_be_turned_off_for_a_server(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_DB", str(tmp_path / "t.db"))
    assert main(["web-pages", "77", "off"]) == 0
    assert main(["web-pages", "77", "maybe"]) == 2

    async def read() -> bool:
        store = await SqliteStore.open(tmp_path / "t.db")
        try:
            return await store.web_pages_on(77)
        finally:
            await store.close()

    assert asyncio.run(read()) is False
    assert main(["web-pages", "77", "on"]) == 0
    assert asyncio.run(read()) is True


def test_python_m_bot_web_serves_the_pages_alone(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "TABULA_DB": str(tmp_path / "alone.db"),
           "TABULA_WEB": f"127.0.0.1:{port}", "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    process = subprocess.Popen([sys.executable, "-m", "bot", "web"], env=env, cwd=ROOT,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        answer = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                            timeout=2) as r:
                    answer = r.read()
                break
            except OSError:
                time.sleep(0.1)
        assert answer == b"ok\n"
        checked = subprocess.run([sys.executable, "-m", "bot", "healthcheck"], env=env, cwd=ROOT,
                                 timeout=60)
        assert checked.returncode == 0
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            reap(process)  # still running, or a worker left behind
    assert process.returncode == 0
    down = subprocess.run([sys.executable, "-m", "bot", "healthcheck"], env=env, cwd=ROOT,
                          timeout=60, capture_output=True, text=True)
    assert down.returncode == 1 and "unhealthy" in down.stderr


def test_the_health_check_asks_the_web_pages_when_they_are_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_WEB", f"127.0.0.1:{free_port()}")
    monkeypatch.delenv("TABULA_HEARTBEAT", raising=False)
    assert main(["healthcheck"]) == 1  # nothing listens there: unhealthy, not "no heartbeat"


def test_the_web_pages_load_no_discord() -> None:
    """``python -m bot web`` runs without discord.py: nothing under bot/web imports it."""
    code = "import sys, bot.web.server, bot.web.links; print('discord' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert found.stdout.strip() == "False", found.stderr


def test_python_m_bot_web_says_what_is_missing(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABULA_WEB", raising=False)
    assert main(["web"]) == 2
    monkeypatch.setenv("TABULA_WEB", "127.0.0.1:0")
    monkeypatch.setenv("TABULA_DB", str(tmp_path / "no-such-folder" / "t.db"))
    assert main(["web"]) == 2
