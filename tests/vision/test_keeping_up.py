"""Keeping up: the share of the source's frames judged, counted in footage time."""

from __future__ import annotations

from referee.vision.keeping_up import KeepingUp


def _feed(keeping: KeepingUp, fps: float, seconds: float, start: float = 0.0) -> list[str]:
    said = []
    for k in range(round(fps * seconds)):
        change = keeping.update(start + k / fps)
        if change is not None:
            said.append(change)
    return said


def test_every_frame_judged_is_never_behind() -> None:
    keeping = KeepingUp(30.0)
    assert _feed(keeping, 30.0, 10.0) == []
    assert keeping.rate is not None and abs(keeping.rate - 30.0) < 0.01 and keeping.warning is None


def test_a_third_of_the_frames_is_falling_behind_and_said_once() -> None:
    keeping = KeepingUp(30.0)
    said = _feed(keeping, 10.0, 5.0)
    assert said == ["falling behind: 10 fps processed of 30, verdicts may be wrong"]
    assert keeping.behind and keeping.warning == said[0]


def test_catching_up_is_said_and_clears_the_warning() -> None:
    keeping = KeepingUp(30.0)
    _feed(keeping, 10.0, 3.0)
    said = _feed(keeping, 30.0, 3.0, start=3.0)
    assert len(said) == 1 and said[0].startswith("caught up: ") and said[0].endswith(" fps processed of 30")
    assert not keeping.behind and keeping.warning is None


def test_a_little_under_the_rate_does_not_flicker() -> None:
    keeping = KeepingUp(30.0)
    assert _feed(keeping, 24.0, 10.0) == []  # 80 %: above the bar to fall behind


def test_nothing_is_said_before_half_a_second_of_footage() -> None:
    keeping = KeepingUp(30.0)
    assert _feed(keeping, 5.0, 0.4) == [] and keeping.rate is None


def test_footage_that_starts_again_is_counted_afresh() -> None:
    keeping = KeepingUp(30.0)
    _feed(keeping, 30.0, 3.0)
    assert keeping.update(0.0) is None and keeping.rate is None
