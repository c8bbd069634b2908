"""Audit scenarios of Minerva: set-up per player count, the fee and passing, the round end,
final scoring and the solitaire game (spec §7 to §9, §11, §12).

Each test builds its state through ``setup`` with pinned options and applies actions; where a
situation needs many turns to reach, single fields of the state are set by hand.
"""

from __future__ import annotations

import pytest

from rules.minerva import GAME
from rules.minerva.components import catalogue
from rules.minerva.rounds import award_glory
from rules.minerva.setup import pile_size
from rules.minerva.state import MinervaState
from tests.rules.test_minerva_support import (
    code_of,
    fresh,
    legal_texts,
    play,
    set_city,
    set_player,
    types_of,
)

CAT = catalogue()
FULL = [(1, 2), (1, 2), (2, 4), (2, 4), (3, 6), (3, 6), (4, 8), (5, 10)]


# ---- set-up ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "removed"),
    [(4, []), (3, [(1, 2), (2, 4)]), (2, [(1, 2), (2, 4), (3, 6)]), (1, [(1, 2), (2, 4), (3, 6)])],
)
def test_culture_stacks_lose_the_seed_tiles_per_player_count(
    players: int, removed: list[tuple[int, int]]
) -> None:
    # §8 / §7 culture_removal: 3 players lose one 2 VP and one 4 VP tile per category; 2 players
    # and solitaire also one 6 VP tile; the lowest VP stays on top.
    s = fresh(players)
    expected = list(FULL)
    for tile in removed:
        expected.remove(tile)
    for stack in ("theatre", "art", "academic"):
        assert s.culture[stack] == expected


@pytest.mark.parametrize(
    ("players", "start", "money"), [(2, 1, [4, 3]), (3, 1, [5, 3, 4]), (3, 2, [4, 5, 3])]
)
def test_start_money_for_two_and_three_players(players: int, start: int, money: list[int]) -> None:
    # §8: the start player has 3 denarii, the next seats clockwise 4, 5, 6; everyone 1 grain.
    s = GAME.setup(players, "m", {"start_seat": start})
    assert [p.money for p in s.players] == money
    assert all(p.res == [1, 0, 0, 0] for p in s.players)


def _deck(players: int, head: int) -> list[str]:
    """Each pile: ``head`` facilities, the round tile, the rest of the pile."""
    count = 2 if players == 1 else players
    normal = [t.id for t in CAT.normal if t.mark is None or t.mark <= count]
    size = pile_size(CAT, players)
    deck: list[str] = []
    for k in range(6):
        pile = normal[k * size:(k + 1) * size]
        deck.extend([*pile[:head], "R", *pile[head:]])
    return deck


def test_round_one_offer_is_starting_locations_and_tiles_above_the_first_round_tile() -> None:
    # §8: starting locations face up, then normal locations drawn until a round tile, which
    # leaves play; the rest of the first pile stays in the stack for round 2.
    deck = _deck(3, 2)
    s = GAME.setup(3, "o", {"deck": deck, "start_seat": 0})
    starting = [t.id for t in CAT.starting if t.mark is None or t.mark <= 3]
    assert s.offer == [*starting, deck[0], deck[1]]
    assert s.deck == deck[3:]


def test_four_players_use_every_starting_location() -> None:
    # §8 / §5: with 4 players no tile is removed (8 starting locations, 66 normal ones).
    s = GAME.setup(4, "all", {"deck": _deck(4, 0), "start_seat": 0})
    assert s.offer == [t.id for t in CAT.starting]
    assert len([t for t in s.deck if t != "R"]) == 66


# ---- the main phase -------------------------------------------------------------------------


def test_a_voluntary_pass_is_always_offered() -> None:
    # §9.1 / §14.21: a player may pass even when other actions are possible.
    s = fresh(2)
    assert {"build", "residence", "pass"} <= types_of(GAME.legal_actions(s, 0))


def test_the_order_one_holder_starts_the_next_round() -> None:
    # §9.1 / §9.7: round 2 starts with the holder of order tile 1, not the start player.
    s = fresh(3)
    s = play(s, 0, "residence 1,0", "activate east")
    s = play(s, 1, "pass")
    s = play(s, 2, "pass")
    s = play(s, 0, "pass")
    assert [p.order for p in s.players] == [3, 1, 2]
    while s.phase == "hire":
        s = play(s, s.hire_queue[0], "done")
    assert s.round == 2 and s.current == 1 and s.first == 1


def test_the_fee_is_added_to_a_build_cost() -> None:
    # §9.1 fee + §9.2 cost: after a pass, a forest (1 grain) costs the grain and 1 denarius.
    s = fresh(2)
    s = play(s, 0, "pass")
    s.offer = [code_of("forest")]
    set_player(s, 1, money=4, res={"grain": 1})
    s = play(s, 1, "build forest 1,0")
    assert s.players[1].money == 3 and s.players[1].res == [0, 0, 0, 0]


def test_the_fee_can_be_raised_by_selling_a_resource() -> None:
    # §9.1: resources may be sold at any time, so a player with no money but a resource may
    # still pay the fee.
    s = fresh(2)
    s = play(s, 0, "pass")
    set_player(s, 1, money=0, res={"ore": 1})
    assert "residence 1,0" in legal_texts(s, 1)
    s = play(s, 1, "residence 1,0", "activate east")
    assert s.players[1].money == 0 and s.players[1].res == [0, 0, 0, 0]


def test_the_fee_applies_to_placing_an_assistant() -> None:
    # §9.1: the fee is due before action C too.
    s = fresh(2)
    s = play(s, 0, "pass")
    set_city(s, 1, {(1, 0): "R"})
    set_player(s, 1, money=2, res={}, reserve=1)
    s = play(s, 1, "assistant 1,0", "activate east")
    assert s.players[1].money == 1 and s.players[1].city[(1, 0)] == "A"


def test_the_last_pass_ends_the_phase_without_more_income() -> None:
    # §9.1: the phase ends as soon as the last player passes; no income turn follows.
    s = fresh(2)
    s = play(s, 0, "pass")
    s = play(s, 1, "residence 1,0", "activate south")
    assert s.players[0].money == 4  # 3 + 1 for the automatic pass
    s = play(s, 1, "pass")
    assert s.phase == "hire" and s.players[0].money == 4


def test_no_residence_action_without_residences_left() -> None:
    # §9.3: with an empty personal stack, action B is not possible.
    s = fresh(2)
    set_player(s, 0, houses=0)
    assert "residence" not in types_of(GAME.legal_actions(s, 0))


def test_no_assistant_action_without_an_assistant_in_reserve() -> None:
    # §9.4: action C needs an assistant in reserve and a residence without one.
    s = fresh(2)
    set_city(s, 0, {(1, 0): "R"})
    assert "assistant" not in types_of(GAME.legal_actions(s, 0))
    set_player(s, 0, reserve=1)
    assert "assistant 1,0" in legal_texts(s, 0)


def test_no_build_action_when_the_offer_and_temple_row_are_empty() -> None:
    # §9.2 step 1: an empty facility area rules out action A.
    s = fresh(2)
    s.offer, s.temples = [], []
    assert "build" not in types_of(GAME.legal_actions(s, 0))


# ---- gain assistants, gain glory, round 6 ---------------------------------------------------


def _both_pass(s: MinervaState) -> MinervaState:
    s = play(s, 0, "pass")
    return play(s, 1, "pass")


def test_an_assistant_is_paid_with_money_or_glory_never_a_mix() -> None:
    # §9.5: with 2 owned the price is 10 denarii or 2 glory; 9 denarii and 1 glory buy nothing.
    s = fresh(2)
    set_city(s, 0, {(1, 0): "A", (2, 0): "A"})
    set_player(s, 0, money=9, res={}, glory=1)
    set_player(s, 1, money=0, res={}, glory=0)
    s = _both_pass(s)
    assert s.phase == "main" and s.round == 2  # both were skipped: nobody could buy
    assert s.players[0].reserve == 0 and s.players[0].money == 9


def test_glory_alone_can_pay_for_an_assistant() -> None:
    # §9.5: 2 owned, 2 glory and no money: only the glory payment is offered.
    s = fresh(2)
    set_city(s, 0, {(1, 0): "A", (2, 0): "A"})
    set_player(s, 0, money=0, res={}, glory=2)
    set_player(s, 1, money=0, res={})
    s = _both_pass(s)
    assert s.hire_queue == [0]
    assert legal_texts(s, 0) == ["hire glory", "done"]
    s = play(s, 0, "hire glory")
    assert s.players[0].reserve == 1 and s.players[0].glory_tiles == []  # no glory left


def test_at_most_one_assistant_per_round() -> None:
    # §9.5: one purchase, then the step moves on even with money for more.
    s = fresh(2)
    set_player(s, 0, money=30)
    set_player(s, 1, money=0, res={})
    s = _both_pass(s)
    s = play(s, 0, "hire denarii")
    assert s.round == 2 and s.players[0].reserve == 1 and s.players[0].money == 25


def test_round_six_skips_the_assistants_and_ends_after_glory() -> None:
    # §9: no assistant step and no preparation in round 6; glory tiles, then the end.
    s = fresh(2)
    s.round = 6
    deck = list(s.deck)
    set_player(s, 0, money=30, glory=2)
    set_player(s, 1, glory=1)
    s = _both_pass(s)
    assert s.phase == "over" and GAME.active_seats(s) == frozenset()
    assert s.players[0].glory_tiles == [(6, 1, 7)] and s.players[1].glory_tiles == [(6, 2, 4)]
    assert s.players[0].reserve == 0 and s.deck == deck
    result = GAME.outcome(s)
    assert result is not None and result.breakdown[0]["order"] == 3  # round-6 order tile 1


def test_rounds_one_and_two_have_no_third_glory_tile() -> None:
    # §9.6: three players with glory in round 2; the third gets nothing.
    s = fresh(3)
    s.round = 2
    for seat, glory in enumerate((3, 2, 1)):
        set_player(s, seat, glory=glory, order=seat + 1)
    award_glory(CAT, s, [])
    assert [p.glory_tiles for p in s.players] == [[(2, 1, 3)], [(2, 2, 1)], []]


def test_more_glory_beats_a_lower_order_tile() -> None:
    # §9.6: the order tile only breaks ties of glory tokens.
    s = fresh(3)
    s.round = 3
    for seat, (glory, order) in enumerate(((1, 1), (4, 3), (2, 2))):
        set_player(s, seat, glory=glory, order=order)
    award_glory(CAT, s, [])
    assert [p.glory_tiles for p in s.players] == [[(3, 3, 1)], [(3, 1, 4)], [(3, 2, 2)]]


# ---- final scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "points"), [(2, [3, 0]), (3, [3, 2, 0]), (4, [3, 2, 1, 0])]
)
def test_order_tile_points_per_player_count(players: int, points: list[int]) -> None:
    # §7: round-6 order tiles score their VP side; the highest number in play shows no VP.
    s = fresh(players)
    s.phase = "over"
    for seat in range(players):
        set_player(s, seat, order=seat + 1, money=0, res={})
    result = GAME.outcome(s)
    assert result is not None
    assert [b["order"] for b in result.breakdown] == points


def test_a_tie_is_broken_by_temples_before_the_order_tile() -> None:
    # §12: equal VP and equal culture + glory tiles -> more temples wins, whatever the order.
    s = fresh(2)
    s.phase = "over"
    set_player(s, 0, order=1, money=3, res={})  # 1 + 3 order VP
    set_player(s, 1, order=2, money=12, res={})  # 4 + 0 order VP
    set_city(s, 1, {(1, 0): "temple_of_flora"})  # no grain: 0 VP, but one temple
    result = GAME.outcome(s)
    assert result is not None and result.scores == (4, 4)
    assert result.ranking == ((1,), (0,))


def test_separate_money_scoring_option() -> None:
    # §12 / §14.5 option: "separate" counts denarii and resources each by thirds.
    s = fresh(2, money_scoring="separate")
    s.phase = "over"
    set_player(s, 0, money=5, res={"grain": 2})
    result = GAME.outcome(s)
    assert result is not None and result.breakdown[0]["money"] == 1
    combined = fresh(2)
    combined.phase = "over"
    set_player(combined, 0, money=5, res={"grain": 2})
    result = GAME.outcome(combined)
    assert result is not None and result.breakdown[0]["money"] == 2


def test_resources_counted_by_a_resource_temple_also_count_as_money() -> None:
    # §6 / §12: resource temples do not use up the tokens.
    s = fresh(2)
    s.phase = "over"
    set_city(s, 0, {(1, 0): "temple_of_flora"})
    set_player(s, 0, money=0, res={"grain": 6}, order=2)
    result = GAME.outcome(s)
    assert result is not None
    assert result.breakdown[0]["temples"] == 12 and result.breakdown[0]["money"] == 2


# ---- solitaire ------------------------------------------------------------------------------


def _solo(head: int) -> MinervaState:
    starting = [t.id for t in CAT.starting if t.mark is None]
    return GAME.setup(1, "solo", {"deck": _deck(1, head), "starting_order": starting})


def test_solitaire_round_tile_drawn_first_in_a_pair_is_set_aside() -> None:
    # §11: a round tile as the first card of a pair is set aside and the draw stops.
    s = _solo(2)
    deck = _deck(1, 2)
    assert s.pairs[2:] == [deck[:2]]
    assert all("R" not in pair for pair in s.pairs)
    assert s.deck == deck[3:]


def test_solitaire_choosing_the_facility_of_a_round_pair_gains_no_coins() -> None:
    # §11: the 3 denarii go back to the bank when the facility is chosen.
    s = _solo(3)
    assert s.pairs[-1][1] == "R"
    facility = GAME.cat.code_type(s.pairs[-1][0])
    assert facility is not None and facility.key == "forest"
    s = play(s, 0, "build forest 1,0 drop round")
    assert s.players[0].money == 3 and s.players[0].res == [0, 0, 0, 0]
    assert all(pair[1] != "R" for pair in s.pairs) and s.removed == 0


def test_solitaire_temples_are_built_without_a_partner() -> None:
    # §11 ruling: the temple row works as in multiplayer.
    s = _solo(3)
    key = CAT.temples[s.temples[0]].key
    set_player(s, 0, money=20)
    assert f"build {key} 1,0" in legal_texts(s, 0)
    s = play(s, 0, f"build {key} 1,0")
    assert len(s.temples) == 5 and s.removed == 0


def test_solitaire_has_no_fee_and_no_order_tile() -> None:
    # §11: no order tiles, so no fee and no order VP; passing ends the phase at once.
    s = _solo(3)
    s = play(s, 0, "residence 1,0", "activate east")
    assert s.players[0].money == 3 and s.players[0].order is None
    s.round = 6
    s = play(s, 0, "pass")
    assert s.phase == "over" and s.players[0].order is None
    result = GAME.outcome(s)
    assert result is not None and result.breakdown[0]["order"] == 0


def test_solitaire_without_glory_gains_no_glory_tile() -> None:
    # §11: no glory token, no tile.
    s = _solo(3)
    award_glory(CAT, s, [])
    assert s.players[0].glory_tiles == []
    s.round = 3
    set_player(s, 0, glory=3)
    award_glory(CAT, s, [])
    assert s.players[0].glory_tiles == [(3, 1, 4)]  # as many as the round number: 1st


@pytest.mark.parametrize(("players", "ranks"), [(1, [1, 2]), (2, [1, 2]), (3, [1, 2, 3])])
def test_views_show_only_the_glory_tiles_that_can_be_won(players: int, ranks: list[int]) -> None:
    # §9.6 / §11: with 2 players and in solitaire the 3rd tile of rounds 3-6 is always removed.
    s = fresh(players)
    s.round = 3
    assert [g["rank"] for g in GAME.view(s, None)["glory_tiles"]] == ranks
