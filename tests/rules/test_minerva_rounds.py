"""Set-up, turn order, passing, the round end and scoring of Minerva (spec §8, §9, §11, §12)."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, InvalidAction
from rules.minerva import GAME
from rules.minerva.components import catalogue
from rules.minerva.rounds import assistant_price, award_glory
from rules.minerva.scoring import breakdown, temple_score
from rules.minerva.setup import pile_size
from rules.minerva.state import MinervaState
from tests.rules.test_minerva_support import (
    code_of,
    fresh,
    legal_texts,
    play,
    set_city,
    set_player,
)

CAT = catalogue()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_per_player_count(players: int) -> None:
    # §8: marks, culture removals, fountain + 9 residences + 1 grain, 5 temples, sorted stacks.
    s = GAME.setup(players, "setup", {"start_seat": 0})
    count = 2 if players == 1 else players
    kept_start = {t.id for t in CAT.starting if t.mark is None or t.mark <= count}
    kept_normal = {t.id for t in CAT.normal if t.mark is None or t.mark <= count}
    if players == 1:
        shown = {code for pair in s.pairs for code in pair} - {"R"}
    else:
        shown = set(s.offer)
    assert kept_start <= shown
    assert (shown - kept_start) | {t for t in s.deck if t != "R"} == kept_normal
    assert len(s.temples) == 5 and len(s.temple_stack) == 15
    stack_size = {1: 5, 2: 5, 3: 6, 4: 8}[players]
    for tiles in s.culture.values():
        assert len(tiles) == stack_size
        assert tiles == sorted(tiles, key=lambda t: t[1])  # lowest VP on top
    for p in s.players:
        assert p.city == {(0, 0): "F"} and p.houses == 9 and p.res == [1, 0, 0, 0]


def test_start_money_runs_clockwise_from_the_start_seat() -> None:
    # §8: 3/4/5/6 denarii from the start player clockwise.
    s = GAME.setup(4, "money", {"start_seat": 2})
    assert [p.money for p in s.players] == [5, 6, 3, 4]
    assert s.current == 2


def test_normal_stack_is_six_piles_each_with_one_round_tile() -> None:
    # §8: equal piles, one round tile shuffled into each; the first draw stops at a round tile.
    for players in (2, 3, 4):
        s = GAME.setup(players, f"piles{players}")
        size = pile_size(CAT, players)
        drawn = [t for t in s.offer if t.startswith("N")]
        whole = [*drawn, "R", *s.deck]
        piles = [whole[k * (size + 1):(k + 1) * (size + 1)] for k in range(6)]
        assert all(pile.count("R") == 1 for pile in piles)
        assert sum(len(pile) for pile in piles) == len(whole)


def test_options_pin_the_stacks_and_refuse_bad_values() -> None:
    # README options: deck, temple_order, start_seat.
    size = pile_size(CAT, 2)
    normal = [t.id for t in CAT.normal if t.mark is None]
    deck: list[str] = []
    for k in range(6):
        deck.extend(["R", *normal[k * size:(k + 1) * size]])
    temples = sorted(CAT.temples)
    s = GAME.setup(2, "x", {"deck": deck, "temple_order": temples, "start_seat": 1})
    assert s.offer == [t.id for t in CAT.starting if t.mark is None]  # R on top: no draw
    assert s.temples == temples[:5] and s.current == 1
    with pytest.raises(InvalidAction):
        GAME.setup(2, "x", {"deck": deck[1:]})
    with pytest.raises(InvalidAction):
        GAME.setup(2, "x", {"start_seat": 5})
    with pytest.raises(InvalidAction):
        GAME.options({"colour": "red"})
    assert GAME.options()["money_scoring"] == "combined"


def test_pass_takes_the_lowest_order_tile_and_later_passes_pay_one() -> None:
    # §9.1: first pass takes order tile 1 and no money; each later turn of that player
    # passes automatically for 1 denarius; others pay a 1 denarius fee before acting.
    s = fresh(3)
    start = [p.money for p in s.players]
    s = play(s, 0, "pass")
    assert s.players[0].order == 1 and s.players[0].money == start[0]
    s = play(s, 1, "residence 1,0", "activate east")
    assert s.players[1].money == start[1] - 1  # the fee
    s = play(s, 2, "residence 1,0", "activate east")
    assert s.players[2].money == start[2] - 1
    assert s.current == 1 and s.players[0].money == start[0] + 1  # auto-pass income
    s = play(s, 1, "pass")
    assert s.players[1].order == 2 and s.players[1].money == start[1] - 1
    assert s.current == 2 and s.players[0].money == start[0] + 1
    s = play(s, 2, "residence 0,1", "activate east")
    assert s.current == 2  # both others have passed: each gains 1 as the turn goes round
    assert s.players[0].money == start[0] + 2 and s.players[1].money == start[1]


def test_a_player_who_cannot_pay_the_fee_must_pass() -> None:
    # §9.1: cannot or will not pay -> pass.
    s = fresh(2)
    s = play(s, 0, "pass")
    set_player(s, 1, money=0, res={})
    s.offer = [code_of("wheat_field")]  # free, but the fee is not
    assert legal_texts(s, 1) == ["pass"]
    with pytest.raises(IllegalAction, match="fee"):
        play(s, 1, "residence 1,0")


def test_the_phase_ends_when_the_last_player_passes() -> None:
    # §9.1: no income turns after the last pass; then assistants in descending order tiles.
    s = fresh(3)
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    s = play(s, 2, "pass")
    assert s.phase == "hire"
    assert s.hire_queue == [2, 1, 0]  # order tiles 3, 2, 1


def test_assistant_price_example() -> None:
    # §9.5 seed example: 1 in reserve + 3 placed -> 15 denarii or 3 glory.
    s = fresh(2)
    set_city(s, 0, {(1, 0): "A", (2, 0): "A", (3, 0): "A"})
    set_player(s, 0, reserve=1)
    assert assistant_price(CAT, s.players[0]) == (15, 3)
    set_player(s, 0, reserve=2)
    assert assistant_price(CAT, s.players[0]) is None  # 5 owned: none left to buy


def test_assistant_bought_with_glory_counts_before_the_glory_comparison() -> None:
    # §9.5 then §9.6: glory spent on an assistant no longer counts for the glory tiles.
    s = fresh(2)
    set_player(s, 0, glory=2)
    set_player(s, 1, glory=2)
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    assert s.hire_queue == [1, 0]
    s = play(s, 1, "done")
    s = play(s, 0, "hire glory")
    assert s.players[0].reserve == 1
    assert s.round == 2
    assert s.players[1].glory_tiles == [(1, 1, 2)]  # 2 glory beat the 1 left after buying
    assert s.players[0].glory_tiles == [(1, 2, 1)]


def test_hire_with_money_sells_resources_when_short() -> None:
    # §9.5 and §9.1 (selling at any decision point).
    s = fresh(2)
    s = play(s, 0, "pass")
    s = play(s, 1, "pass")
    set_player(s, 1, money=3, res={"stone": 2})
    s = play(s, 1, "hire denarii")
    assert s.players[1].reserve == 1 and s.players[1].money == 0 and s.players[1].res[2] == 0


def _round5_table() -> MinervaState:
    s = fresh(4)
    s.round = 5
    for seat, (glory, order) in enumerate([(3, 1), (3, 2), (0, 3), (0, 4)]):
        set_player(s, seat, glory=glory, order=order)
    return s


def test_round5_glory_tie_example() -> None:
    # §9.6 seed example: Nerva and Trojanus tie on 3; the lower order tile wins; nobody else
    # has glory, so the 3rd tile is removed.
    s = _round5_table()
    award_glory(CAT, s, [])
    assert s.players[0].glory_tiles == [(5, 1, 6)]
    assert s.players[1].glory_tiles == [(5, 2, 3)]
    assert s.players[2].glory_tiles == [] and s.players[3].glory_tiles == []


def test_round5_glory_third_tile_goes_to_the_lower_order_tile() -> None:
    # §9.6 seed example, variant: with 1 glory each Hadrianus (order 3) gains the 3rd tile.
    s = _round5_table()
    set_player(s, 2, glory=1)
    set_player(s, 3, glory=1)
    award_glory(CAT, s, [])
    assert s.players[2].glory_tiles == [(5, 3, 2)] and s.players[3].glory_tiles == []


def test_prepare_draws_to_the_next_round_tile_and_order_one_starts() -> None:
    # §9.7: order tile 1 starts the next round; tokens and order tiles return; new tiles drawn.
    s = fresh(2)
    offered = len(s.offer)
    deck = list(s.deck)
    s = play(s, 1 - 1, "pass")
    s = play(s, 1, "pass", "done")
    s = play(s, 0, "done") if s.phase == "hire" else s
    assert s.round == 2 and s.current == 0 and s.first == 0
    upto = deck.index("R")
    assert s.offer[offered:] == deck[:upto]
    assert all(p.order is None and p.glory == 0 and not p.passed for p in s.players)


def test_temple_of_each_area_kind_scores() -> None:
    # §6: surround8 (seed example: trade, 3 VP each), cross across gaps and residences,
    # distinct types, and a resource temple.
    s = fresh(2)
    set_city(s, 0, {
        (1, 1): "temple_of_mercury",
        (1, 0): "markets", (2, 0): "stone_dealer", (0, 1): "R", (2, 1): "stall",
        (1, 2): "blacksmith",
    })
    p = s.players[0]
    mercury = CAT.temples[code_of("temple_of_mercury")]
    assert temple_score(CAT, p, (1, 1), mercury) == 9
    minerva = CAT.temples[code_of("temple_of_minerva")]
    # production, trade, residential and military around it
    assert temple_score(CAT, p, (1, 1), minerva) == 2 * 4
    set_city(s, 1, {
        (0, 1): "temple_of_fortuna", (0, -2): "markets", (1, 1): "R", (3, 1): "blacksmith",
        (0, 3): "foundry", (2, 2): "markets",
    })
    q = s.players[1]
    fortuna = CAT.temples[code_of("temple_of_fortuna")]
    assert temple_score(CAT, q, (0, 1), fortuna) == 2 * 3
    set_player(s, 1, res={"grain": 4})
    flora = CAT.temples[code_of("temple_of_flora")]
    assert temple_score(CAT, q, (5, 5), flora) == 8
    assert breakdown(CAT, s, q)["temples"] == 6


def test_final_scoring_sums_sources_and_breaks_ties() -> None:
    # §12: culture + glory + temples + (money + resources) // 3 + round-6 order tiles;
    # ties: more culture+glory tiles, then more temples, then the lower order tile.
    s = fresh(3)
    s.phase = "over"
    set_player(s, 0, money=5, res={"grain": 1}, order=1, culture_tiles=[("art", 1, 2)])
    set_player(s, 1, money=8, res={}, order=2, glory_tiles=[(1, 1, 2)])
    set_player(s, 2, money=12, res={}, order=3)
    result = GAME.outcome(s)
    assert result is not None
    assert result.breakdown[0] == {
        "culture": 2, "glory": 0, "temples": 0, "money": 2, "order": 3, "total": 7,
    }
    assert result.scores == (7, 6, 4)  # order 3 is the highest in play: 0 VP
    set_player(s, 0, money=6, res={}, order=2)  # 2 + 2 + 2
    set_player(s, 1, money=3, order=1)  # 2 + 1 + 3
    result = GAME.outcome(s)
    assert result is not None and result.scores[:2] == (6, 6)
    assert result.ranking[0] == (1,)  # same tiles and temples: order 1 beats order 2
    set_player(s, 0, glory_tiles=[(2, 2, 1)], money=3)  # 2 + 1 + 1 + 2, two tiles
    result = GAME.outcome(s)
    assert result is not None and result.scores[:2] == (6, 6)
    assert result.ranking[0] == (0,)  # more culture + glory tiles wins


def _solo_deck() -> list[str]:
    """Pile 1: two facilities, then a facility paired with the round tile."""
    size = pile_size(CAT, 1)
    normal = [t.id for t in CAT.normal if t.mark is None]
    deck: list[str] = []
    for k in range(6):
        pile = normal[k * size:(k + 1) * size]
        deck.extend([*pile[:3], "R", *pile[3:]])
    return deck


def test_solitaire_round() -> None:
    # §11: pairs of facilities, build one and remove the other; a round tile second in a pair
    # carries 3 denarii; passing ends the phase; glory against the round number; title.
    starting = [t.id for t in CAT.starting if t.mark is None]
    s = GAME.setup(1, "solo", {"deck": _solo_deck(), "starting_order": starting})
    assert s.pairs == [starting[:2], starting[2:], ["N01", "N02"], ["N04", "R"]]
    assert s.players[0].money == 3 and s.players[0].res == [1, 0, 0, 0]
    texts = legal_texts(s, 0)
    assert "build wheat_field 1,0 drop forest" in texts
    assert "build forest 1,0 drop wheat_field" in texts
    assert "coins drop forest" in texts
    s = play(s, 0, "build wheat_field 1,0 drop forest")
    assert ["S1", "S2"] not in s.pairs and s.removed == 1
    s = play(s, 0, "coins drop forest")
    assert s.players[0].money == 6 and ["N04", "R"] not in s.pairs
    set_player(s, 0, glory=1)
    s = play(s, 0, "pass")
    assert s.phase == "hire"
    s = play(s, 0, "done")
    assert s.players[0].glory_tiles == [(1, 1, 2)]  # 1 glory >= round 1
    assert s.round == 2 and s.players[0].glory == 0
    # Round 2 draws the rest of pile 1 in pairs, then pile 2 up to its round tile.
    assert s.pairs[:2] == [starting[2:], ["N01", "N02"]]  # unchosen pairs stay
    assert s.pairs[2:4] == [["N05", "N07"], ["N08", "N10"]]
    assert s.pairs[-1][1] == "R"


def test_solitaire_glory_second_tile_and_title() -> None:
    # §11: below the round number but at least 1 glory -> the 2nd tile; titles by score.
    s = GAME.setup(1, "solo2")
    s.round = 4
    set_player(s, 0, glory=2)
    award_glory(CAT, s, [])
    assert s.players[0].glory_tiles == [(4, 2, 3)]
    s.phase = "over"
    set_player(s, 0, money=120)
    result = GAME.outcome(s)
    assert result is not None and result.notes == ("Title: Centurion (43 VP).",)


def test_determinize_reshuffles_only_the_hidden_stacks() -> None:
    # DESIGN: views unchanged, hidden stack order changed, pile shape kept.
    s = fresh(4)
    other = GAME.determinize(s, 0, "other")
    assert GAME.view(other, 0) == GAME.view(s, 0)
    assert other.deck != s.deck and sorted(other.deck) == sorted(s.deck)
    assert sorted(other.temple_stack) == sorted(s.temple_stack)
