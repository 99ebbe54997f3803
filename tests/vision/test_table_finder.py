"""The table found from the footage: seats from arms and the game's turns, a knocked camera followed, and a
generated game judged with no calibration (the pile found, every play seen from the right seat)."""

from __future__ import annotations

import importlib
import json
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from referee.synth.filming import bump
from referee.synth.game_plan import Geometry, VideoConfig, layout
from referee.synth.video import sidecar, write_video
from referee.vision.calibration import CalibrationProfile
from referee.vision.table_finder import CameraFollower, SeatFinder, TableFinder

PILE = (500.0, 300.0)


def arm(angle_deg: float, reach: float = 700.0) -> tuple[float, float]:
    """Where an arm from direction ``angle_deg`` (seen from the pile) comes into a 1280x720 view."""
    a = math.radians(angle_deg)
    x, y = PILE[0] + reach * math.cos(a), PILE[1] + reach * math.sin(a)
    return min(max(x, 0.0), 1280.0), min(max(y, 0.0), 720.0)


#: Four players turned from the default: seat 0 at the upper left, then clockwise.
SEATS = {0: -150.0, 1: -60.0, 2: 20.0, 3: 120.0}


def test_seats_come_from_the_dealers_side_and_go_round_clockwise() -> None:
    finder = SeatFinder(4)
    finder.add(PILE, arm(SEATS[2]), 2, start=True)  # the dealer (seat 2) turns the start card
    assert finder.solve() is None and "1 of 4" in finder.why
    assert finder.plainly(PILE, arm(SEATS[2] + 3)) == 2  # the dealer's side again
    assert finder.plainly(PILE, arm(SEATS[3])) == 3  # about one even step clockwise: the dealer's left
    assert finder.plainly(PILE, arm(SEATS[2] + 45)) is None  # half a step: not plain
    for seat in (3, 0, 1):
        finder.add(PILE, arm(SEATS[seat] + 4), seat)
    seats = finder.solve()
    assert seats is not None
    for seat, point in enumerate(seats):
        x, y = arm(SEATS[seat])
        assert abs(math.remainder(math.atan2(point[1] - PILE[1], point[0] - PILE[0])
                                  - math.atan2(y - PILE[1], x - PILE[0]), 2 * math.pi)) < math.radians(8)


def test_an_out_of_turn_play_among_the_first_does_not_misplace_the_seats() -> None:
    finder = SeatFinder(4)
    finder.add(PILE, arm(SEATS[0]), 0, start=True)
    finder.add(PILE, arm(SEATS[1]), 1)
    finder.add(PILE, arm(SEATS[3]), 2)  # seat 3 played out of turn, judged as seat 2's turn
    finder.add(PILE, arm(SEATS[0]), 0)
    finder.add(PILE, arm(SEATS[1]), 1)
    finder.add(PILE, arm(SEATS[2]), 2)
    seats = finder.solve()
    assert seats is not None
    assert finder.plainly(PILE, arm(SEATS[3])) == 3
    assert math.hypot(*np.subtract(seats[3], arm(SEATS[3]))) < 1.0


def test_too_many_plays_from_the_wrong_side_leave_the_seats_unsure() -> None:
    finder = SeatFinder(4)
    for seat, judged in ((0, 0), (1, 3), (2, 2), (3, 1), (1, 3)):  # no start seen: the judged seats vote
        finder.add(PILE, arm(SEATS[seat]), judged)
    assert finder.solve() is None and "turn's side" in finder.why


def textured(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base: npt.NDArray[np.uint8] = cv2.GaussianBlur(rng.integers(60, 200, (720, 1280, 3)).astype(np.uint8), (0, 0), 3)
    for _ in range(12):  # a few cards
        x, y = int(rng.integers(100, 1100)), int(rng.integers(100, 600))
        cv2.rectangle(base, (x, y), (x + 80, y + 120), (240, 240, 240), -1)
    return base


def test_a_knocked_camera_is_followed_once_it_holds_still() -> None:
    image = textured()
    follower = CameraFollower((1280, 720), every=1)
    assert follower.update(image) is None  # the reference
    for _ in range(3):
        assert follower.update(image) is None and not follower.moving  # still: nothing
    truth = cv2.getRotationMatrix2D((640.0, 360.0), 2.0, 1.0)
    truth[:, 2] += (30.0, -20.0)
    knocked = cv2.warpAffine(image, truth, (1280, 720), borderMode=cv2.BORDER_REFLECT)
    found = None
    for _ in range(5):
        found = follower.update(knocked)
        if found is not None:
            break
        assert follower.moving
    assert found is not None
    corners = np.array([(0, 0), (1280, 0), (1280, 720), (0, 720)], np.float64)
    error = corners @ (found - truth)[:, :2].T + (found - truth)[:, 2]
    assert float(np.abs(error).max()) < 3.0
    assert follower.update(knocked) is None and not follower.moving  # the new view is the reference


def test_the_finder_moves_a_given_profile_with_the_camera() -> None:
    profile = CalibrationProfile((1280, 720), ((400.0, 200.0), (700.0, 200.0), (700.0, 500.0), (400.0, 500.0)),
                                 ((640.0, 720.0), (0.0, 360.0), (640.0, 0.0), (1280.0, 360.0)))
    finder = TableFinder(4, given=profile, fps=15.0)
    image = textured(2)
    fg = np.zeros((135, 240), bool)
    from referee.vision.detections import Detections

    for i in range(4):
        finder.observe(image, i / 15, profile, Detections.empty(), fg)
    assert finder.take() is None and finder.unsure is None
    shifted = cv2.warpAffine(image, np.array([[1, 0, 40], [0, 1, 25]], np.float64), (1280, 720),
                             borderMode=cv2.BORDER_REFLECT)
    change = None
    for i in range(4, 20):
        finder.observe(shifted, i / 15, profile, Detections.empty(), fg)
        if (change := finder.take()) is not None:
            break
    assert change is not None and change.camera is not None
    assert change.profile.pile[0] == pytest.approx((440.0, 225.0), abs=2.0)


# -- the generated footage's options ------------------------------------------------------------------
def test_the_fixed_layout_is_the_table_every_hour_so_far_was_filmed_on() -> None:
    config = VideoConfig()
    for seed in (0, 185, 2000):
        assert layout(config, seed) == Geometry(1280, 720, 4, 120.0)
        assert bump(config, seed, 60.0) is None


def test_anywhere_puts_the_pile_in_view_and_the_seats_in_order() -> None:
    config = replace(VideoConfig(), layout="anywhere", players=5)
    piles = set()
    for seed in range(20):
        geo = layout(config, seed)
        assert geo == layout(config, seed)  # by seed
        half = geo.pile_half
        x, y = geo.pile_centre
        assert half <= x <= 1280 - half and half <= y <= 720 - half
        sx, sy = geo.stock_centre
        assert 0 <= sx <= 1280 and 0 <= sy <= 720 and math.hypot(sx - x, sy - y) > 2.5 * geo.card_height
        assert geo.seat_angles is not None
        steps = [math.remainder(geo.seat_angles[(s + 1) % 5] - geo.seat_angles[s], 2 * math.pi) for s in range(5)]
        assert all(step > 0 for step in steps)  # clockwise in seat order
        piles.add((round(x), round(y)))
    assert len(piles) == 20
    with pytest.raises(ValueError, match="layout"):
        replace(VideoConfig(), layout="sideways")


@pytest.fixture(scope="module")
def turned_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("turned") / "game.mp4"
    return write_video(out, 2004, VideoConfig(seconds=16.0, fps=15.0, layout="anywhere", bump=True)).video


def test_a_turned_table_with_a_knocked_camera_is_found_from_the_footage(turned_game: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    e2e_eval = importlib.import_module("e2e_eval")  # a script of benchmarks/ (no package), found on the path

    meta = json.loads(sidecar(turned_game, "meta").read_text())
    assert "bump" in meta and meta["config"]["layout"] == "anywhere"
    result = e2e_eval.run_game(turned_game, None, oracle=True, calibrated=False)
    scored = e2e_eval.score([result], 2.0)
    assert result.table is not None and "pile" in result.table["found_at"] and result.table["bumps"]
    truth = CalibrationProfile.load(sidecar(turned_game, "calibration"))
    found = result.table["profile"]
    xs, ys = zip(*found["pile"], strict=True)
    tx, ty = truth.pile_centre
    assert min(xs) < tx + meta["bump"]["shift"][0] + 60 and max(xs) > tx and min(ys) < ty + 60 and max(ys) > ty - 60
    assert scored["play_recall"] == 1.0 and scored["play_precision"] == 1.0
    assert scored["seat_accuracy"] == 1.0
    assert scored["false_alerts"] == 0 and scored["false_confident_alerts"] == 0
