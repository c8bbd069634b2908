"""Every pair of player colours stays distinct under simulated colour-vision deficiencies.

The simulation is Machado et al. (2009) at full severity (``coloraide``'s ``machado`` filters,
applied in linear sRGB); the distance is CIEDE2000. A ΔE2000 near 10 is a clear difference side
by side on large patches; pieces here are small and seen apart, so we ask for half again as much
(15) in every simulation, and for 10 between a player colour and the boards' main grounds.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from coloraide import Color
from PIL import Image, ImageDraw

from rendering.palette import (
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    PLAYER_SHAPES,
    draw_marker,
    shape_points,
)

PAIR_THRESHOLD = 15.0
GROUND_THRESHOLD = 10.0
VISIONS = ("normal", "protan", "deutan", "tritan")
# The large areas pieces sit on: Palatinus fields and springs, paper, Palermo streets and roofs.
GROUNDS = {
    "palatinus field": (196, 222, 164),
    "paper": (250, 246, 236),
    "palermo street": (222, 219, 212),
    "palermo roof": (178, 84, 52),
}


def seen(rgb: tuple[int, int, int], vision: str) -> Color:
    colour = Color("srgb", [v / 255 for v in rgb])
    if vision == "normal":
        return colour
    return colour.filter(vision, method="machado").convert("srgb")


def distance(a: tuple[int, int, int], b: tuple[int, int, int], vision: str) -> float:
    return float(seen(a, vision).delta_e(seen(b, vision), method="2000"))


@pytest.mark.parametrize("vision", VISIONS)
def test_every_pair_of_player_colours_is_distinct(vision: str) -> None:
    worst = min(
        (distance(a, b, vision), i, j)
        for (i, a), (j, b) in combinations(enumerate(PLAYER_COLOURS), 2)
    )
    assert worst[0] >= PAIR_THRESHOLD, (
        f"{PLAYER_COLOUR_NAMES[worst[1]]} and {PLAYER_COLOUR_NAMES[worst[2]]} are only "
        f"ΔE {worst[0]:.1f} apart under {vision}"
    )


def test_okabe_ito_orange_and_purple_would_fail() -> None:
    # The check has teeth: two Okabe-Ito colours that merge under tritanopia.
    assert distance((230, 159, 0), (204, 121, 167), "tritan") < PAIR_THRESHOLD


@pytest.mark.parametrize("vision", VISIONS)
def test_player_colours_stand_out_from_the_boards(vision: str) -> None:
    for name, ground in GROUNDS.items():
        for i, colour in enumerate(PLAYER_COLOURS[:5]):
            d = distance(colour, ground, vision)
            assert d >= GROUND_THRESHOLD, f"{PLAYER_COLOUR_NAMES[i]} on {name}: ΔE {d:.1f}"


def test_every_seat_has_its_own_shape() -> None:
    assert len(set(PLAYER_SHAPES)) == len(PLAYER_SHAPES) == len(PLAYER_COLOURS)
    assert len(set(PLAYER_COLOUR_NAMES)) == len(PLAYER_COLOURS)
    outlines = {tuple(shape_points(s, (50, 50), 20)) for s in PLAYER_SHAPES}
    assert len(outlines) == len(PLAYER_SHAPES)


def test_markers_stay_inside_their_radius_box() -> None:
    for seat in range(len(PLAYER_COLOURS)):
        image = Image.new("RGB", (100, 100), (255, 255, 255))
        draw_marker(ImageDraw.Draw(image), (50, 50), 20, seat)
        box = image.point(lambda v: 255 if v < 250 else 0).convert("L").getbbox()
        assert box is not None
        assert box[0] >= 25 and box[1] >= 25 and box[2] <= 75 and box[3] <= 75
