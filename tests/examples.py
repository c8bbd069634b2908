"""How many examples a model (hypothesis stateful) test runs: the count it names, times
``TABULA_DEEP`` (default 1). CI runs the counts as they are, derandomized (``tests/conftest.py``):
the same examples every run, so a failure there is reproducible and never a flake. A deeper
search, e.g. ``TABULA_DEEP=20 ./run-tests tests/bot -k "model or stateful or season"``, tries
twenty times as many sequences, each run new ones."""

from __future__ import annotations

import os


def examples(count: int) -> int:
    deep = os.environ.get("TABULA_DEEP", "").strip()
    return count * max(1, int(deep)) if deep.isdigit() else count
