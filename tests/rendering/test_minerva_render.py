"""Minerva pictures: golden images of an early, a middle and a final position, plus size checks."""

from __future__ import annotations

from typing import Any

from rendering import alt_text, render, render_png
from rendering.minerva import render_city
from rules.core import Action, Rng
from rules.minerva import GAME
from rules.minerva.state import MinervaState
from tests.rendering.golden import assert_matches_golden


def _pick(rng: Rng, legal: list[Action]) -> Action:
    """Mostly builds, some activations, a pass now and then, so that rounds go by."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    roll = rng.randbelow(16)
    if "pass" in kinds and roll < 1:
        wanted = ["pass"]
    elif roll < 5:
        wanted = ["residence", "assistant"]
    else:
        wanted = ["build"]
    pool = [a for kind in wanted for a in kinds.get(kind, [])]
    if not pool:
        pool = [a for a in legal if a["type"] not in ("sell", "pass")] or legal
    return pool[rng.randbelow(len(pool))]


def played(players: int, steps: int, seed: str = "pic", until_direction: bool = False) -> Any:
    """A seeded game played by a building-minded random player for some steps."""
    state: MinervaState = GAME.setup(players, seed, {"start_seat": 0})
    rng = Rng(seed + "-moves")
    for step in range(2000):  # bounded
        active = GAME.active_seats(state)
        if not active:
            break
        pending = state.stack and state.stack[-1]["k"] == "dir"
        if step >= steps and (not until_direction or pending):
            break
        seat = min(active)
        state = GAME.apply(state, seat, _pick(rng, GAME.legal_actions(state, seat))).state
    return state


def _check_size(view: dict[str, Any]) -> None:
    image = render("minerva", view)
    assert 1200 <= image.width <= 1600
    assert len(render_png("minerva", view)) < 1_000_000


def test_early_game_picture() -> None:
    view = GAME.view(played(4, 3), None)
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_early")


def test_mid_game_picture_shows_the_activation_preview() -> None:
    state = played(3, 60, until_direction=True)
    view = GAME.view(state, state.current)
    assert view["pending"]["kind"] == "direction"
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_mid")
    city = render_city(view, state.current)
    assert city.width >= 300 and city.height >= 200


def test_end_of_game_picture_shows_the_scores() -> None:
    state = played(4, 10_000)
    view = GAME.view(state, None)
    assert view["outcome"] is not None
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_end")


def test_solitaire_picture_shows_pairs() -> None:
    view = GAME.view(played(1, 4, seed="solo"), None)
    _check_size(view)
    assert_matches_golden(render("minerva", view), "minerva_solo")


def test_alt_text_names_players_and_round() -> None:
    text = alt_text("minerva", GAME.view(played(2, 5), None))
    assert "round 1 of 6" in text and "Player 1" in text and "{p" not in text


def test_overview_and_final_table_read_at_preview_width() -> None:
    import rendering
    from rendering.minerva import final_table
    from rendering.minerva.overview import render_overview
    from tests.rendering.legibility import assert_legible

    view = GAME.view(played(3, 40), None)
    assert_legible(lambda: render_overview(view))
    images = rendering.render_all("minerva", view)
    # The overview, the three cities two to an image, the market.
    assert len(images) == 4 and images[0].width == 760 and images[-1].width == 1400
    assert all(image.width <= 600 for image in images[1:3])
    assert_matches_golden(images[0], "minerva_overview")
    end = GAME.view(played(4, 10_000), None)
    table = assert_legible(lambda: final_table(end))
    assert_matches_golden(table, "minerva_final_scores")
    board = rendering.render_all("minerva", end)[1]
    assert max(board.size) <= 1600


def test_solo_round_tile_says_which_move_takes_the_coins() -> None:
    from rendering.common import record_font_sizes
    from rendering.minerva.cards import round_tile_card

    round_tile_card.cache_clear()
    with record_font_sizes():
        image = round_tile_card(3)
    assert image.getbbox() is not None


def _buyer() -> MinervaState:
    from tests.rules.test_minerva_support import fresh, set_city, set_player

    s = fresh(4)
    set_city(s, 0, {(1, 1): "wheat_field", (2, 1): "markets", (1, 0): "R"})
    set_player(s, 0, res={"grain": 2, "wood": 1, "stone": 1}, money=4)
    return s


def test_private_view_marks_where_a_bought_tile_may_go() -> None:
    from rendering import render_all

    state = _buyer()
    view = GAME.view(state, 0)
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"] == "build"]
    assert view["private"]["build_cells"] == sorted(
        [list(c) for c in {(a["x"], a["y"]) for a in legal}])
    assert "private" not in GAME.view(state, None)
    assert GAME.view(state, 1)["private"]["build_cells"] == []  # not seat 1's turn
    images = render_all("minerva", view)
    assert images[1].width <= 600
    assert_matches_golden(images[1], "minerva_private_buyer")


def test_private_views_of_each_seat_at_mid_game() -> None:
    from rendering import render_all

    state = played(3, 40)
    for seat in range(3):
        images = render_all("minerva", GAME.view(state, seat))
        assert images[1].width <= 600
        assert_matches_golden(images[1], f"minerva_private_mid_seat{seat + 1}")


def test_each_seat_gets_its_own_city_that_reads_at_preview_size() -> None:
    import rendering
    from rendering.minerva import CITY_WIDTH, _cell_size
    from tests.rendering.legibility import PREVIEW_WIDTH, assert_legible
    from tests.rendering.textboxes import record_texts

    state = played(4, 60)
    names = ["Ada", "Bo", "Cy", "Di"]
    for seat in range(4):
        view = {**GAME.view(state, seat), "names": names}
        with record_texts() as texts:
            images = rendering.render_all("minerva", view)
        city = images[1]
        player = view["seats"][seat]
        cell = _cell_size(player)
        assert cell * PREVIEW_WIDTH / max(city.width, PREVIEW_WIDTH) >= 60
        assert city.width <= CITY_WIDTH + 60
        words = [t.text for t in texts]
        assert any(w.startswith("Your city") for w in words)
        assert not any(w == f"{names[seat]}'s city" for w in words)
        # Every free cell says where it is; the seat's own city says what a residence there
        # would activate.
        assert any("residence there activates" in w for w in words)
        assert_legible(lambda v=view: rendering.render_all("minerva", v)[1])
    public = {**GAME.view(state, None), "names": names}
    with record_texts() as texts:
        images = rendering.render_all("minerva", public)
    titles = [t.text for t in texts if t.text.endswith("'s city")]
    assert titles == [f"{n}'s city" for n in names]
    assert len(images) == 1 + 2 + 1  # overview, two images of two cities, the market
    assert images[-1].info["alt"].startswith("The market")


def test_reach_counts_tiles_up_to_a_gap_or_a_residence() -> None:
    from rendering.minerva.city import reach

    def tile(category: str) -> dict[str, str]:
        return {"category": category}

    cells = {(0, 0): tile("production"), (1, 0): tile("trade"), (2, 0): tile("residential"),
             (0, 1): tile("culture"), (0, 2): tile("culture")}
    assert reach(cells, (-1, 0)) == {"e": 2}  # stops at the residence on (2, 0)
    assert reach(cells, (0, -1)) == {"s": 3}
    assert reach(cells, (1, 1)) == {"n": 1, "w": 1}


def test_player_table_columns_never_collide_with_passed() -> None:
    from rendering.minerva.overview import render_overview
    from tests.rendering.textboxes import record_texts

    state = played(4, 60)
    view = {**GAME.view(state, None), "names": ["Maximiliana Ottoline"] * 4}
    for seat in view["seats"]:
        seat["passed"] = True
    with record_texts() as texts:
        render_overview(view)
    row_texts = [t for t in texts if t.text == "passed" or t.text.isdigit()]
    boxes = [t.box for t in row_texts]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
    assert sum(t.text == "passed" for t in texts) == 4
