"""The engine contract's building blocks: the seeded generator, ranking, names in texts,
options. Property-based where a property says more than an example."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core import (
    Event,
    InvalidAction,
    Outcome,
    Rng,
    derive_seed,
    format_text,
    merge_options,
    rank_by,
)


@given(st.text(max_size=40), st.integers(min_value=1, max_value=10_000))
def test_randbelow_stays_in_range_and_replays_from_its_state(seed: str, bound: int) -> None:
    rng = Rng(seed)
    saved = rng.state
    first = [rng.randbelow(bound) for _ in range(20)]
    assert all(0 <= x < bound for x in first)
    again = Rng.restore(saved)
    assert [again.randbelow(bound) for _ in range(20)] == first


@given(st.lists(st.integers(), max_size=60), st.text(max_size=10))
def test_shuffled_is_a_permutation_and_leaves_its_input_alone(items: list[int], seed: str) -> None:
    before = list(items)
    out = Rng(seed).shuffled(items)
    assert items == before
    assert Counter(out) == Counter(items)


def test_randbelow_is_roughly_uniform() -> None:
    rng = Rng("uniform")
    counts = Counter(rng.randbelow(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < c < 11_000 for c in counts.values())


def test_the_generator_state_is_a_short_string() -> None:
    rng = Rng("x")
    rng.randbelow(10)
    assert isinstance(rng.state, str) and len(rng.state) == 16
    assert derive_seed("a", 1) != derive_seed("a", 2) == derive_seed("a", 2)


@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=8))
def test_rank_by_groups_equal_keys_best_first(scores: list[int]) -> None:
    ranking = rank_by([(s,) for s in scores])
    assert sorted(seat for group in ranking for seat in group) == list(range(len(scores)))
    tops = [scores[group[0]] for group in ranking]
    assert tops == sorted(set(scores), reverse=True)
    assert all(len({scores[s] for s in group}) == 1 for group in ranking)


def test_format_text_puts_names_in_and_leaves_the_rest() -> None:
    assert format_text("{p0} beat {p1}.", ["Ann", "Bo"]) == "Ann beat Bo."
    assert format_text("{p3} and {p0}", ["Ann"]) == "{p3} and Ann"
    assert format_text("a { stray brace", ["Ann"]) == "a { stray brace"


def test_merge_options_refuses_unknown_keys() -> None:
    assert merge_options({"a": 1, "b": 2}, {"b": 3}) == {"a": 1, "b": 3}
    with pytest.raises(InvalidAction, match="Known options: a, b"):
        merge_options({"a": 1, "b": 2}, {"c": 3})


def test_events_and_outcomes_serialize() -> None:
    secret = Event("draw", {"card": 7}, to=frozenset({1}), text="You drew 7.")
    assert not secret.visible_to(None) and not secret.visible_to(0) and secret.visible_to(1)
    assert secret.to_json()["to"] == [1]
    outcome = Outcome((3, 5), ((1,), (0,)), ({"x": 3}, {"x": 5}))
    assert outcome.winners() == (1,)
    assert outcome.to_json()["ranking"] == [[1], [0]]
