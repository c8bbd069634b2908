"""Numbered SQL migrations, one folder per backend (``sqlite/``, ``postgres/``), numbered alike:
migration N makes the same schema change in each backend's dialect."""

from __future__ import annotations

from importlib import resources


def numbered(backend: str) -> list[tuple[int, str]]:
    """The numbered SQL files shipped for ``backend`` (``"sqlite"`` or ``"postgres"``), in
    order."""
    found = []
    for entry in resources.files(f"{__name__}.{backend}").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), entry.read_text(encoding="utf-8")))
    return sorted(found)
