"""The table use cases under arbitrary member text, with a small budget every CI run (the
long run: ``python fuzz/fuzz_tables.py``)."""

from __future__ import annotations

from tests.bot.tables.fuzz_tables import Probe, properties


def test_arbitrary_names_and_moves_are_data() -> None:
    probe = Probe()
    try:
        for check in properties(25, probe):
            check()
    finally:
        probe.close()
    assert probe.examples > 50
