"""A view seen in a mirror: a webcam app's selfie view, a front camera, a capture flipped for the screen.

No deck prints a card mirrored, so a mirrored view shows faces the reader never met: a 2 turns into a glyph it
reads as a 5, a 7 into a 1, a 9 into a 6, a draw two's cards and a reverse's arrows into each other, while a 0,
an 8 or a skip read the same either way. Mirrored, the shared single cards read 0.71 as the pipeline names them,
the second printing's close-ups 0.57 and its table photos 0.44.

The card at a box is read both ways round (:meth:`~referee.vision.classify.FaceClassifier.read` of its crop
as it is and flipped): where the mirror image's surest face is surer, the view looks mirrored
(:func:`mirror_evidence`, the log ratio, summed over a view's cards). One card says little: a clean photo's
draw two may read a reverse mirrored at 0.72 against 0.53 as it lies. A camera mirrors all its views or none,
so photos from one camera (a folder of them) are read the way their summed evidence says
(:func:`camera_mirrored`), and one photo the other way only where it alone says so surely (:data:`ALONE`):
then the three sets read as they do unmirrored. A live camera is judged from the cards the referee reads
(:class:`MirrorWatch`) and said to be mirrored, not flipped mid-game; ``referee run --mirror`` flips its frames.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

from referee.vision.classify import CROP_PAD, FaceClassifier

Image = npt.NDArray[np.uint8]
Boxes = npt.NDArray[np.float32] | Sequence[Sequence[float]]

#: How much surer (in log probability of the surest face, summed over a view's cards or a camera's photos) the
#: mirror image must read for the view or the camera to be taken as mirrored.
MARGIN = 0.1
#: How much surer one photo must read the other way round than its camera's photos do to be read that way (a
#: folder whose photos came from two cameras): far more than a clean photo's card ever read mirrored (0.31).
ALONE = 1.0


def mirror_evidence(classifier: FaceClassifier, image: Image, boxes: Boxes, *,
                    view_to_image: npt.NDArray[np.float64] | None = None, pad: float = CROP_PAD,
                    allowed: Collection[str] | None = None) -> float:
    """How much surer the cards at ``boxes`` (xyxy; in a view ``view_to_image`` maps onto ``image``, as the
    pipeline reads its pile view) read mirrored than as they lie: the sum over the cards of the log ratio of the
    surest face's probability each way, the crop read as it is and flipped (among the ``allowed`` faces, when
    given); positive where the view looks mirrored, 0 for no card."""
    total = 0.0
    for box in np.asarray(boxes, np.float32).reshape(-1, 4):
        as_is = classifier.read(image, box, view_to_image=view_to_image, pad=pad, allowed=allowed)
        mirrored = classifier.read(image, box, view_to_image=view_to_image, pad=pad, allowed=allowed, mirrored=True)
        if as_is and mirrored:
            total += math.log(max(mirrored[0][1], 1e-9) / max(as_is[0][1], 1e-9))
    return total


def looks_mirrored(classifier: FaceClassifier, image: Image, boxes: Boxes, *, pad: float = CROP_PAD,
                   allowed: Collection[str] | None = None) -> bool:
    """Whether the view ``image`` is mirrored, by the cards at ``boxes`` (:func:`mirror_evidence` over
    :data:`MARGIN`)."""
    return mirror_evidence(classifier, image, boxes, pad=pad, allowed=allowed) > MARGIN


def camera_mirrored(evidence: Sequence[float]) -> bool:
    """Whether the camera the photos of ``evidence`` (:func:`mirror_evidence`, one a photo) came from mirrors
    its views: their sum over :data:`MARGIN`."""
    return sum(evidence) > MARGIN


def read_mirrored(evidence: float, camera: bool) -> bool:
    """Whether a photo whose card reads mirrored by ``evidence`` is read flipped, its ``camera`` mirroring or not:
    the camera's way, unless the photo alone says the other surely (:data:`ALONE`)."""
    return evidence > (-ALONE if camera else ALONE)


#: A live camera is taken as mirrored once the cards it showed sum to this much evidence, and as it lies at minus
#: this (a card as it lies averages about -0.5: some six cards' worth); then no more looks are taken.
WATCH_SURE = 3.0
#: What the referee says once its camera looks mirrored (in the log and the dashboard's status).
MIRRORED_WARNING = ("the camera's view looks mirrored (its cards read surer flipped): a selfie view or a flipped "
                    "capture? Start again with --mirror")


class MirrorWatch:
    """Whether a live camera mirrors its view, from the cards it showed (:func:`mirror_evidence` of each card the
    referee read): undecided (``None``) until their evidence sums past :data:`WATCH_SURE` either way. The view
    is not flipped mid-game (the calibration and the seats were found in it): the referee says so."""

    def __init__(self, sure: float = WATCH_SURE) -> None:
        self.sure = sure
        self.evidence = 0.0
        self.cards = 0

    @property
    def verdict(self) -> bool | None:
        """``True``: mirrored; ``False``: as it lies; ``None``: not sure yet."""
        if self.evidence >= self.sure:
            return True
        return False if self.evidence <= -self.sure else None

    def add(self, evidence: float) -> bool:
        """One card's evidence (ignored once decided); whether it made the view mirrored."""
        if self.verdict is not None:
            return False
        self.evidence += evidence
        self.cards += 1
        return self.verdict is True


def mirror_image(image: Image) -> Image:
    """``image`` flipped left to right (a mirrored view seen as the cards lie)."""
    out: Image = np.ascontiguousarray(image[:, ::-1])
    return out


def mirror_boxes(boxes: npt.NDArray[np.float32], width: int) -> npt.NDArray[np.float32]:
    """Boxes (N x 4 xyxy) of an image ``width`` pixels wide, in the image flipped left to right."""
    out = np.asarray(boxes, np.float32).reshape(-1, 4).copy()
    out[:, [0, 2]] = width - out[:, [2, 0]]
    return out
