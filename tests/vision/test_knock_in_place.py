"""A view taken for knocked and then found where it was never moved: the stock's frames meanwhile showed hands, and are
given back (:attr:`CameraFollower.in_place`, ``MotionDetector.heard``'s ``in_place``, ``StockWatch.given_back``).

From game 15167 (dev, the set 15162-15173; no calibration, no bump): seat 3's hand came to the stock for the second
card of a penalty draw (9.9 s) and jolted the view's thumbnail; the corners tracked said the view had moved 8.9 px,
once, and a check 0.4 s later found it where it was. Meanwhile the camera was taken for moving: the visit going on
was held with one frame in the stock zone, the hand had left by the time the view was found in place, and the draw
(four frames in the zone at least) was lost, though no camera moved in the game at all.
"""

from __future__ import annotations

import numpy as np
import pytest

from referee.vision.camera_follower import CameraFollower
from tests.vision.test_knock_unsettled import _knocked
from tests.vision.test_motion_false_move import heard_through
from tests.vision.test_table_finder_bump import plain_table_with_cards

cv2 = pytest.importorskip("cv2")

#: Seat 3's hand: reaching half-way to the stock, there 6 frames (0.4 s), then gone.
HAND = [0.0] * 8 + [0.5] + [1.0] * 6 + [0.0] * 12
#: The frames (of :data:`HAND`) the camera is taken for moving in: from the hand's first at the stock, 0.4 s.
JOLT = set(range(9, 15))


def _heard(hand: list[float], moving_at: set[int], *, in_place: bool) -> list[int | None]:
    """Draws the pipeline hears: seat 3's hand reaching ``hand[k]`` of the way to the stock in frame k of a view that
    never moves, the table finder taking the camera for moving in the frames ``moving_at``, and then, when
    ``in_place``, finding the view where it was (else the spell only lapses: nothing measured)."""
    return heard_through(hand, lambda k: k in moving_at,
                         lambda k: in_place and k - 1 in moving_at and k not in moving_at)


def test_a_draw_through_a_jolt_the_view_is_found_in_place_after_is_heard() -> None:
    """The hand dwelt at the stock all through the spell: the view found where it was, its frames are watched as
    any others were, and the draw is heard once the hand has left."""
    assert _heard(HAND, set(), in_place=False) == [3]  # no jolt: the draw
    assert _heard(HAND, JOLT, in_place=True) == [3]


def test_a_draw_ending_within_the_spell_is_heard_once_the_view_is_found_in_place() -> None:
    """The visit ended while the camera was still taken for moving (dropped then): said with the frame that found
    the view in place."""
    assert _heard(HAND, set(range(9, 22)), in_place=True) == [3]


def test_a_spell_that_only_lapses_gives_nothing_back() -> None:
    """No check found the view where it was (nothing measured for sure): the stock's frames meanwhile may have shown
    the view moving, and stay unwatched, as before."""
    assert _heard(HAND, JOLT, in_place=False) == []


def test_a_spell_with_no_hand_at_the_stock_gives_no_draw() -> None:
    assert _heard([0.0] * 27, JOLT, in_place=True) == []


def test_the_follower_says_in_place_only_for_a_check_outside_a_jolt() -> None:
    """The thumbnail jolted for a frame, the view where it was: the check in the jolted frame says nothing of the
    view's place; the next one, not jolted, finds it in place and settles it."""
    image = plain_table_with_cards()
    follower = CameraFollower((1280, 720), every=3)
    for _ in range(4):
        follower.update(image)
    follower.update(_knocked(image, 0.4))
    assert follower.unsettled and not follower.in_place
    follower.update(image)  # jolted back
    assert not follower.in_place
    follower.update(image)
    assert not follower.unsettled and follower.in_place


def test_a_knocked_view_is_never_found_in_place() -> None:
    """A true knock, followed: no check on the way finds the view where it was."""
    image = plain_table_with_cards()
    follower = CameraFollower((1280, 720), every=3)
    for _ in range(4):
        follower.update(image)
    in_place, followed = [], None
    for k in range(1, 16):
        moved = follower.update(_knocked(image, min(k, 3) / 3))
        in_place.append(follower.in_place)
        if moved is not None:
            followed = np.asarray(moved)
            break
    assert followed is not None
    assert not any(in_place)
