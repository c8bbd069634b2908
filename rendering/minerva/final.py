"""Minerva's final scores: ranks and the score by the game's own categories, with the tie
rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from rendering.scoretable import score_table

TIE_RULE = ("Ties: more culture and glory tiles, then more temples, then earlier in the turn "
            "order.")


def final_table(view: Mapping[str, Any]) -> Image.Image:
    outcome = view["outcome"]
    keys = [k for k in outcome["breakdown"][0] if k != "total"][:7]
    columns = [(k.replace("_", " ")[:8].capitalize(), k) for k in keys]
    # "Temples" is 74 px wide in bold: 14 px more keeps it apart from "Money".
    return score_table("Minerva · final scores", outcome, columns, TIE_RULE, step=88.0)
