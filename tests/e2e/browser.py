"""Chromium from the system (Debian's package) driven by Playwright, never a browser of
Playwright's own: the browser tests skip, saying why, only when it truly is not there."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TABULA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def screenshot_path(tmp_path: Path, name: str) -> Path:
    """Where a page's screenshot goes: ``TABULA_SCREENSHOTS`` (the README's docs/) when set."""
    folder = os.environ.get("TABULA_SCREENSHOTS")
    return (Path(folder) if folder else tmp_path) / name


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    playwright_api = pytest.importorskip(
        "playwright.async_api", reason="Playwright is not installed (pip install -e '.[test]')")
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium, as"
                    " root; ./run-tests does it when it can)")
    async with playwright_api.async_playwright() as p:
        launched = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()
