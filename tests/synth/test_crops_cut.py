"""The classifier's crops of a card held up to a camera: the frame's edge across the card (``cut_share``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from referee.synth.crops import CUT_KEPT, cut_by_frame, write_crops


def test_a_frame_edge_leaves_part_of_the_box_and_greys_what_lies_past_it() -> None:
    image = np.full((200, 200, 3), 200, np.uint8)
    image[40:160, 50:130] = (0, 0, 255)  # a red card, 80 x 120
    rng = np.random.default_rng(3)
    for _ in range(40):
        cut, (x1, y1, x2, y2) = cut_by_frame(image, (50.0, 40.0, 130.0, 160.0), rng)
        kept = (x2 - x1) * (y2 - y1) / (80 * 120)
        assert CUT_KEPT[0] - 0.01 <= kept <= CUT_KEPT[1] + 0.01
        assert 50 <= x1 < x2 <= 130 and 40 <= y1 < y2 <= 160
        # Inside what is left the card is untouched; past the edge the frame is grey, card or not.
        inside = cut[int(y1) + 2:int(y2) - 2, int(x1) + 2:int(x2) - 2]
        assert (inside == (0, 0, 255)).all()
        grey = (cut == 114).all(axis=2)
        assert grey.any() and not grey[int(y1) + 2:int(y2) - 2, int(x1) + 2:int(x2) - 2].any()
    assert (image[40:160, 50:130] == (0, 0, 255)).all()  # the scene itself is left as it was


def test_cut_crops_are_written_beside_the_whole_ones_and_counted(tmp_path: Path) -> None:
    plain = write_crops(tmp_path / "plain", train=6, val=0, seed=5, size=192, workers=1, progress=False)
    cut = write_crops(tmp_path / "cut", train=6, val=0, seed=5, size=192, workers=1, cut_share=1.0,
                      progress=False)
    whole = {p.name for p in (tmp_path / "cut").rglob("*.jpg") if not p.stem.endswith("c")}
    cuts = {p.name for p in (tmp_path / "cut").rglob("*c.jpg")}
    # Every card a plain run cuts is cut the same way, and each has its cut twin.
    assert whole == {p.name for p in (tmp_path / "plain").rglob("*.jpg")}
    assert cuts and {name.replace("c.jpg", ".jpg") for name in cuts} == whole
    assert cut["crops"]["train"] == 2 * plain["crops"]["train"]
    assert json.loads((tmp_path / "cut" / "crops.json").read_text())["cut_share"] == 1.0
    with pytest.raises(ValueError, match="cut_share"):
        write_crops(tmp_path / "bad", train=1, val=0, cut_share=1.5, progress=False)
