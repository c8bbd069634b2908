"""Bounded fuzzing of every engine's entry points for bad input (the long run is
fuzz/fuzz_rules.py): move text, action objects, setup options and replay files.

Only RulesError subclasses (or the replay CLI's documented exit codes) may come out, inputs are
never mutated and a refused apply leaves the state unchanged. Derandomized, so a CI failure
repeats locally.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from tests.examples import examples
from tests.fuzz_properties import cases, warm_up

CASES = cases()
BOUNDED = settings(
    max_examples=examples(150), deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_gets_only_rules_errors(name: str) -> None:
    warm_up()
    BOUNDED(CASES[name])()
