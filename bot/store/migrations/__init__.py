"""One numbered sequence of SQL migrations for both backends: ``NNNN_name.sql`` where both
dialects take the same SQL, ``NNNN_name.sqlite.sql`` and ``NNNN_name.postgres.sql`` where
they differ (column types, mostly). Migration N makes the same schema change in each."""

from __future__ import annotations

from importlib import resources

BACKENDS = ("sqlite", "postgres")


def numbered(backend: str) -> list[tuple[int, str]]:
    """The numbered SQL files for ``backend`` (``"sqlite"`` or ``"postgres"``), in order."""
    others = tuple(f".{b}.sql" for b in BACKENDS if b != backend)
    found = []
    for entry in resources.files(__name__).iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit() and not name.endswith(others):
            found.append((int(name[:4]), entry.read_text(encoding="utf-8")))
    numbers = [number for number, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two {backend} migrations share a number")
    return sorted(found)
