"""Golden-image comparison with a tolerance.

A golden image lives in ``tests/rendering/golden/NAME.png``. Set ``TABULA_UPDATE_GOLDEN=1`` to
write the current rendering as the new golden (then look at it before committing it).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN_DIR = Path(__file__).with_name("golden")


def assert_matches_golden(image: Image.Image, name: str, tolerance: float = 2.0) -> None:
    """Mean absolute difference per channel (0-255) must stay within ``tolerance``; sizes equal."""
    path = GOLDEN_DIR / f"{name}.png"
    rgb = image.convert("RGB")
    if os.environ.get("TABULA_UPDATE_GOLDEN") == "1" or not path.exists():
        if not path.exists() and os.environ.get("CI"):
            raise AssertionError(f"missing golden image {path.name}; generate it and commit it")
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        rgb.save(path, format="PNG")
        return
    golden = Image.open(io.BytesIO(path.read_bytes())).convert("RGB")
    assert golden.size == rgb.size, f"{name}: size {rgb.size} != golden {golden.size}"
    diff = ImageChops.difference(golden, rgb)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    assert mean <= tolerance, f"{name}: mean difference {mean:.2f} > {tolerance}"
