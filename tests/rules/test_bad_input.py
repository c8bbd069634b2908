"""Bad input to the engines gets a RulesError that says what is allowed, never a crash:
setup options of the wrong type or shape, move text with huge numbers or odd characters, and
action objects that legal_actions does not list (extra keys, bool for int, missing keys)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rules import GAMES
from rules.core import IllegalAction, InvalidAction, RulesError
from tests.fuzz_properties import ECHO_LIMIT, apply_checked, check_message
from tests.fuzz_strategies import Sample, samples

GAME_IDS = sorted(GAMES)


def some_samples(game_id: str, count: int = 10) -> list[Sample]:
    """Sample states spread over a game's phases, few enough for a quick test."""
    every = samples(game_id)
    return list(every[:: max(1, len(every) // count)])


def dumped(game_id: str, state: Any) -> str:
    return json.dumps(GAMES[game_id].dump(state), sort_keys=True)


# ------------------------------------------------------------------------------ options


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("overrides", [[[]], "fast", 1, [("start_seat", 0)], True])
def test_options_that_are_not_an_object_are_refused(game_id: str, overrides: Any) -> None:
    game = GAMES[game_id]
    with pytest.raises(InvalidAction, match="object"):
        game.options(overrides)
    with pytest.raises(InvalidAction, match="object"):
        game.setup(game.min_players, "s", overrides)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_unknown_option_is_refused_naming_the_known_ones(game_id: str) -> None:
    game = GAMES[game_id]
    with pytest.raises(InvalidAction, match="Known options"):
        game.options({"no_such_option": 1})
    with pytest.raises(InvalidAction, match="Unknown option"):
        game.options({7: 1})  # type: ignore[dict-item]


@pytest.mark.parametrize("key", ["fate_order", "neutral_order"])
@pytest.mark.parametrize("value", [[None, 1], [1, "F01"], ["F01", ["F02"]], [{}, {}]])
def test_hadrians_wall_order_options_of_mixed_types_are_refused(key: str, value: Any) -> None:
    game = GAMES["hadrians-wall"]
    with pytest.raises(InvalidAction, match=f"{key} must list each of these once"):
        game.options({key: value})
    with pytest.raises(InvalidAction):
        game.setup(2, "s", {key: value})


@pytest.mark.parametrize("cards", [[[None, 1]], [["P01"] * 12], "P01", [7]])
def test_hadrians_wall_player_cards_of_the_wrong_shape_are_refused(cards: Any) -> None:
    with pytest.raises(InvalidAction, match="player_cards"):
        GAMES["hadrians-wall"].setup(2, "s", {"player_cards": cards})


def test_hadrians_wall_fate_order_of_the_wrong_length_or_with_a_duplicate_is_refused() -> None:
    game = GAMES["hadrians-wall"]
    fate = game.options()["fate_order"] or [f"F{n:02}" for n in range(1, 49)]
    for bad in (fate[:-1], [*fate, fate[0]], [fate[0], *fate[1:-1], fate[0]]):
        with pytest.raises(InvalidAction, match="fate_order must list each of these once"):
            game.options({"fate_order": bad})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_option_error_never_echoes_a_long_value(game_id: str) -> None:
    game = GAMES[game_id]
    long = "Z" * 5000
    for key, default in game.options().items():
        bad: list[Any] = [long, [long], {long: long}, [[long]]]
        if isinstance(default, dict) and default:
            first = sorted(default)[0]
            bad += [{**default, first: long}, {**default, first: {long: [long]}},
                    {**default, long: 1}]
        for value in bad:
            with pytest.raises(InvalidAction) as caught:
                game.options({key: value})  # some checks need the player count: setup's
                game.setup(game.min_players, "s", {key: value})
            assert "Z" * (ECHO_LIMIT + 1) not in str(caught.value), (key, str(caught.value)[:200])


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_minerva_true_or_false_options_take_only_booleans(value: Any) -> None:
    with pytest.raises(InvalidAction, match="circus_keeps_city_connected"):
        GAMES["minerva"].options({"circus_keeps_city_connected": value})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_setup_refuses_a_player_count_out_of_range_or_not_a_number(game_id: str) -> None:
    game = GAMES[game_id]
    for players in (game.min_players - 1, game.max_players + 1, 10**9, -1, True, 2.0, "3"):
        with pytest.raises(InvalidAction, match="players"):
            game.setup(players, "s")  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_seed_with_a_lone_surrogate_still_sets_up(game_id: str) -> None:
    game = GAMES[game_id]
    state = game.setup(game.min_players, "\ud800")
    assert game.active_seats(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_setup_does_not_change_the_options_it_is_given(game_id: str) -> None:
    game = GAMES[game_id]
    defaults = game.options()
    given = copy.deepcopy(defaults)
    state = game.setup(game.min_players, "s", given)
    assert given == defaults
    json.dumps(game.dump(state))


# ------------------------------------------------------------------------------ move text


def texts_for(game_id: str) -> list[tuple[Sample, int, str]]:
    """(sample, seat, text): huge numbers in place of every number of a legal move's text
    (beyond the length limit, and long ones within it), superscript digits, very long words."""
    out = []
    for sample in some_samples(game_id):
        seat = sample.seats[0]
        legal = sample.game.legal_actions(sample.state, seat)
        written = [sample.game.format_action(sample.state, a) for a in legal[:4]]
        for text in written:
            out.append((sample, seat, "".join("9" * 5000 if c.isdigit() else c for c in text)))
            out.append((sample, seat, "".join("²" if c.isdigit() else c for c in text)))
            out.append((sample, seat, "".join("9" * 40 if c.isdigit() else c for c in text)))
            out.append((sample, seat, text + " " + "9" * 5000))
            out.append((sample, seat, text.split()[0] + " " + "x" * 5000))
        out.append((sample, seat, "9" * 5000))
        out.append((sample, seat, "move " + "9" * 5000))
        out.append((sample, seat, "q" * 10_000))
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_huge_numbers_and_odd_digits_in_move_text_are_invalid_actions(game_id: str) -> None:
    game = GAMES[game_id]
    for sample, seat, text in texts_for(game_id):
        state = sample.state
        try:
            action = game.parse_action(state, seat, text)
        except InvalidAction as exc:
            check_message(exc, text)
        else:  # the notation is forgiving: what it read must apply or be refused cleanly
            apply_checked(game, state, seat, action)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_error_never_echoes_more_than_about_100_characters_of_the_input(game_id: str) -> None:
    game = GAMES[game_id]
    sample = samples(game_id)[0]
    long_word = "Z" * 300
    for text in (long_word, f"build {long_word}", f"{long_word} 1,0", f"move {long_word}",
                 f"police {long_word}", f"SF {long_word}", f"M {long_word} C4"):
        try:
            game.parse_action(sample.state, sample.seats[0], text)
        except InvalidAction as exc:
            assert "z" * (ECHO_LIMIT + 1) not in str(exc).lower()


# ------------------------------------------------------------------------------ actions


def legal_sample(game_id: str) -> list[tuple[Any, int, dict[str, Any]]]:
    """(state, seat, legal action) from every sample state that has a legal action."""
    out = []
    for sample in some_samples(game_id):
        for seat in sample.seats:
            legal = sample.game.legal_actions(sample.state, seat)
            if legal:
                out.append((sample.state, seat, legal[len(legal) // 2]))
    return out


def refused(game_id: str, state: Any, seat: int, action: Any, error: type[Exception]) -> None:
    before = dumped(game_id, state)
    given = copy.deepcopy(action)
    with pytest.raises(error):
        GAMES[game_id].apply(state, seat, action)
    assert dumped(game_id, state) == before
    assert action == given


def test_palatinus_refuses_an_unknown_key() -> None:
    state = GAMES["palatinus"].setup(2, "s", {"start_seat": 0})
    action = {"type": "lay", "position": 1, "rotation": 0, "junk": 1}
    refused("palatinus", state, 0, action, InvalidAction)


def test_hadrians_wall_refuses_true_for_a_box_number() -> None:
    game = GAMES["hadrians-wall"]
    for sample in samples("hadrians-wall"):
        for seat in sample.seats:
            for action in game.legal_actions(sample.state, seat):
                if action["type"] == "citizen" and action["box"] == 1:
                    refused("hadrians-wall", sample.state, seat, {**action, "box": True},
                            InvalidAction)
                    return
    raise AssertionError("no sample state offers a first citizen box")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_apply_refuses_extra_keys_and_wrongly_typed_values(game_id: str) -> None:
    for state, seat, action in legal_sample(game_id):
        refused(game_id, state, seat, {**action, "junk": 1}, InvalidAction)
        refused(game_id, state, seat, {**action, "type": 1}, InvalidAction)
        refused(game_id, state, seat, {**action, "type": None}, InvalidAction)
        for key, value in action.items():
            if key == "type":
                continue
            wrong: list[Any] = [None, {}, 0.5]
            if isinstance(value, int):
                wrong += [True, False, float(value), str(value)]
            elif isinstance(value, str):
                wrong += [1, True, [value]]
            elif isinstance(value, list):
                wrong += ["x", 1, tuple(value)]
                if value:
                    wrong.append([True, *value[1:]])
            for bad in wrong:
                refused(game_id, state, seat, {**action, key: bad}, InvalidAction)
            rest = {k: v for k, v in action.items() if k != key}
            if not any(rest == a for a in GAMES[game_id].legal_actions(state, seat)):
                refused(game_id, state, seat, rest, RulesError)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("action", [[], "pass", None, 3, {"type": ["pass"]}, {}])
def test_apply_refuses_what_is_not_an_action_object(game_id: str, action: Any) -> None:
    sample = samples(game_id)[0]
    refused(game_id, sample.state, sample.seats[0], action, InvalidAction)


def test_a_refusal_by_legality_stays_an_illegal_action() -> None:
    # Validation comes first but must not turn legality messages into shape messages.
    state = GAMES["palatinus"].setup(2, "s", {"start_seat": 0})
    with pytest.raises(IllegalAction, match="rotation is r0 to r5"):
        GAMES["palatinus"].apply(state, 0, {"type": "lay", "position": 1, "rotation": 9})
