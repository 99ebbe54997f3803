"""The game teaches the reader, under guards: what it learns, and every way it refuses to."""

from __future__ import annotations

import numpy as np

from referee.vision.matcher import DeckMatcher
from referee.vision.teaching import GameTeacher, TopCardLook

FACES = ("3", "8", "6", "9")


def _look(face: str, p: float, direction: np.ndarray, rng: np.random.Generator) -> TopCardLook:
    head = np.full((2, len(FACES)), (1 - p) / (len(FACES) - 1), np.float32)
    head[:, FACES.index(face)] = p
    embeddings = (direction + rng.normal(0, 0.05, (2, direction.size))).astype(np.float32)
    return TopCardLook(FACES, head, embeddings)


def _dirs() -> dict[str, np.ndarray]:
    basis = np.eye(8, dtype=np.float32)
    return {"3": basis[0], "8": basis[1], "6": basis[2], "9": basis[3]}


def test_a_sure_accepted_play_that_stands_is_learned_as_two_views() -> None:
    rng, d = np.random.default_rng(0), _dirs()
    teacher = GameTeacher()
    teacher.consider("red_3", 4.0, _look("3", 0.97, d["3"], rng), corrected=False, unsure=False)
    teacher.judged([])
    matcher = teacher.confirm(("red_3", 4.0))
    assert isinstance(matcher, DeckMatcher) and matcher.faces == ("3",)
    assert teacher.faces_learned == {"3": 2} and teacher.counts == {"learned": 1}
    # Faces are colour-blind: a blue 3 read closer to the red one's views than anything else.
    assert matcher.scores(d["3"])[0, 0] > 0.9


def test_every_guard_refuses() -> None:
    rng, d = np.random.default_rng(1), _dirs()
    teacher = GameTeacher()
    # 1. not sure (on either turn), put right on the way, or unsure frames
    teacher.consider("red_3", 1.0, _look("3", 0.6, d["3"], rng), corrected=False, unsure=False)
    assert teacher.confirm(("red_3", 1.0)) is None
    teacher.consider("red_3", 2.0, _look("3", 0.97, d["3"], rng), corrected=True, unsure=False)
    assert teacher.confirm(("red_3", 2.0)) is None
    teacher.consider("red_3", 3.0, _look("3", 0.97, d["3"], rng), corrected=False, unsure=True)
    assert teacher.confirm(("red_3", 3.0)) is None
    # 2. the referee raised an alert on the play
    teacher.consider("red_3", 4.0, _look("3", 0.97, d["3"], rng), corrected=False, unsure=False)
    teacher.judged(["illegal_card"])
    assert teacher.confirm(("red_3", 4.0)) is None
    # 3. corrected or undone before the next play: the newest play is not it any more
    teacher.consider("red_3", 5.0, _look("3", 0.97, d["3"], rng), corrected=False, unsure=False)
    teacher.judged([])
    assert teacher.confirm(("red_8", 5.0)) is None
    assert teacher.counts == {"not_sure": 3, "alerted": 1, "taken_back": 1}
    assert teacher.matcher() is None


def test_a_view_the_game_already_knows_as_another_face_is_refused() -> None:
    rng, d = np.random.default_rng(2), _dirs()
    teacher = GameTeacher()
    teacher.consider("red_8", 1.0, _look("8", 0.97, d["8"], rng), corrected=False, unsure=False)
    teacher.confirm(("red_8", 1.0))
    # A 3 whose crop looks like the 8s learned (a misread by a sure head) is not learned as a 3.
    teacher.consider("blue_3", 2.0, _look("3", 0.95, d["8"], rng), corrected=False, unsure=False)
    assert teacher.confirm(("blue_3", 2.0)) is None
    assert teacher.counts["inconsistent"] == 1 and teacher.faces_learned == {"8": 2}


def test_views_per_face_are_bounded_newest_kept() -> None:
    rng, d = np.random.default_rng(3), _dirs()
    teacher = GameTeacher(per_face=4)
    for t in range(6):
        teacher.consider("red_6", float(t), _look("6", 0.99, d["6"], rng), corrected=False, unsure=False)
        teacher.confirm(("red_6", float(t)))
    assert teacher.faces_learned == {"6": 4}


def test_the_classifier_splits_the_heads_share_by_the_games_views(tmp_path: object) -> None:
    from referee.vision.classify import load_classifier

    classifier = load_classifier()
    assert classifier is not None and classifier.has_embedding
    crop = np.full((classifier.side, classifier.side, 3), 128, np.uint8)
    before = classifier.probabilities([crop])[0]
    _, embedding = classifier.outputs([crop])
    assert embedding is not None
    # Views of "8" exactly where this crop lies, and of "3" elsewhere: the two faces' share goes to 8.
    other = np.roll(embedding[0], 7)
    classifier.game = DeckMatcher.enrol(["8", "3"], np.stack([embedding[0], other]))
    after = classifier.probabilities([crop])[0]
    i3, i8 = classifier.face_names.index("3"), classifier.face_names.index("8")
    assert after[i8] > before[i8] and after[i3] < before[i3]
    assert np.isclose(after[i3] + after[i8], before[i3] + before[i8], atol=1e-5)
    assert not classifier.taught  # the game's views never let the classifier speak alone
