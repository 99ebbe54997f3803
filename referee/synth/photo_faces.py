"""Card faces cut out of photos, so that game videos can be filmed with a real deck's cards.

The renderer's printings are drawn; a deck someone photographed is not. To measure the referee on real
card appearance (the print, the wear, the camera's colours) with the generator's hands, tables and
ground truth, each photo's card is cut out along its outline and flattened to an upright face, which
:class:`referee.synth.video.VideoConfig` ``faces`` then lays on the table in place of a drawn one.

Cutting a card out (:func:`card_outline`): the detector's box seeds a GrabCut segmentation of the card
from its background, the largest region's convex hull is reduced to four corners, and the outline is
kept only if it is a card's shape: the region fills the quadrilateral (a hand or another card merged
into it does not) and its sides are in a card's proportions (seen at a slant, a 2:3 card reads from
about 1.2 to 1.9). :func:`cut_face` warps those corners onto an upright ``CARD_W`` x ``CARD_H`` face
with the rounded corners of a card as its alpha. A face turned half a turn is the same UNO face, so an
outline's only orientation choice is which sides are the long ones.

Command: ``python -m referee.synth.photo_faces PHOTOS --out FACES`` (PHOTOS: folders named by card
label, as for ``referee learn-deck``), writes ``FACES/LABEL/NAME.png`` and ``FACES/faces.json``.
The faces are the photographer's cards: keep them beside the photos, outside the repository.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.synth.render import CARD_H, CARD_W

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float32]

FACES_FILE = "faces.json"
#: How the region found must fill its four corners' quadrilateral: a card's rounded corners make it a
#: little more than 1 (the corners found lie just inside the rounded ones); far from 1, something else
#: (a hand, another card, the table) was taken for part of the card.
FILL_RANGE = (0.97, 1.12)
#: A card's long side over its short side as a photo may show it (2:3 is 1.55; a slant changes it).
ASPECT_RANGE = (1.2, 1.9)
#: Corner radius of the face's alpha, a share of its width (printed UNO cards: about 6 %).
CORNER_RADIUS = 0.06


@dataclass(frozen=True)
class Outline:
    """A card's four corners in a photo, clockwise, the first two on a short side, and how card-like
    the outline is."""

    corners: Quad
    fill: float
    aspect: float

    @property
    def score(self) -> float:
        """How sure the outline is: 0 for a perfect card shape, growing as fill and proportions stray."""
        return abs(math.log(self.fill / 1.04)) + abs(math.log(self.aspect / (CARD_H / CARD_W)))


def _clockwise(points: npt.NDArray[np.float32]) -> Quad:
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered: Quad = points[np.argsort(angles)].astype(np.float32)  # clockwise on screen (y down)
    return ordered


def card_outline(image: Image, box: Sequence[float] | npt.NDArray[np.float32], *, iterations: int = 4
                 ) -> Outline | None:
    """The outline of the card boxed by ``box`` (x1, y1, x2, y2) in ``image``; ``None`` when what lies
    there is not a card's shape (see the module docstring)."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    bw, bh = x2 - x1, y2 - y1
    if bw < 8 or bh < 8:
        return None
    left, top = max(1, int(x1 - 0.04 * bw)), max(1, int(y1 - 0.04 * bh))
    right, bottom = min(w - 2, int(x2 + 0.04 * bw)), min(h - 2, int(y2 + 0.04 * bh))
    if right - left < 8 or bottom - top < 8:
        return None
    mask = np.zeros((h, w), np.uint8)
    background, foreground = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.grabCut(image, mask, (left, top, right - left, bottom - top), background, foreground, iterations,
                cv2.GC_INIT_WITH_RECT)
    region = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    region = cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for share in np.linspace(0.01, 0.1, 19):
        approx = cv2.approxPolyDP(hull, float(share) * perimeter, True)
        if len(approx) == 4:
            break
    else:
        return None
    corners = _clockwise(approx.reshape(4, 2).astype(np.float32))
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:  # start on a short side
        corners = np.roll(corners, -1, axis=0)
        sides = np.roll(sides, -1)
    area = float(cv2.contourArea(corners))
    if area <= 0:
        return None
    fill = float(cv2.contourArea(contour)) / area
    aspect = float((sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6))
    if not (FILL_RANGE[0] <= fill <= FILL_RANGE[1] and ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]):
        return None
    return Outline(corners, fill, aspect)


@functools.cache
def _corner_alpha(h: int, w: int) -> Image:
    """A card's outline, ``h`` x ``w``, with rounded corners."""
    alpha = np.zeros((h, w), np.uint8)
    r = max(1, round(CORNER_RADIUS * w))
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def cut_face(image: Image, outline: Outline, *, height: int = CARD_H) -> Image:
    """The card inside ``outline`` as an upright BGRA face ``height`` tall (a card's 2:3 proportions),
    its corners rounded in the alpha."""
    width = round(height * CARD_W / CARD_H)
    # The corners found lie just inside the rounded ones: reach out by a share of the card to meet them.
    centre = outline.corners.mean(axis=0)
    corners = centre + (outline.corners - centre) * 1.01
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    face = cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    out: Image = np.dstack([face, _corner_alpha(height, width)])
    return out


def cut_faces(photos: Path, out: Path, detector: Any, *, per_label: int = 3,
              progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None) -> dict[str, Any]:
    """Cut the card out of the photos in ``photos`` (class-named folders) into ``out``: the ``per_label``
    most card-like outlines of each label. Returns (and writes as ``faces.json``) what was cut and what
    was not."""
    from referee.vision.deck import photo_card, photo_folders

    folders = photo_folders(photos)
    cut: dict[str, list[str]] = {}
    rejected: list[str] = []
    items = list(folders.items())
    for label, paths in (progress(items) if progress else items):
        found: list[tuple[float, Path, Image]] = []
        for path in paths:
            image = cv2.imread(str(path))
            if image is None:
                rejected.append(f"{path} (unreadable)")
                continue
            box = photo_card(image, detector)
            outline = None if box is None else card_outline(image, box)
            if outline is None:
                rejected.append(f"{path} ({'no card found' if box is None else 'no card-shaped outline'})")
                continue
            found.append((outline.score, path, cut_face(image, outline)))
        found.sort(key=lambda item: item[0])
        for _, path, face in found[:per_label]:
            folder = out / label
            folder.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / f"{path.stem}.png"), face)
            cut.setdefault(label, []).append(str(path))
    summary = {"photos": str(photos), "faces": str(out), "labels": len(cut), "cut": cut,
               "missing": sorted(set(folders) - set(cut)), "rejected": rejected}
    out.mkdir(parents=True, exist_ok=True)
    (out / FACES_FILE).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


@functools.cache
def load_faces(root: str) -> dict[str, tuple[Image, ...]]:
    """The faces under ``root`` (``LABEL/*.png``, BGRA), by card label; cached per process."""
    from referee.cards import Card, CardError

    faces: dict[str, tuple[Image, ...]] = {}
    folder = Path(root)
    if not folder.is_dir():
        raise ValueError(f"faces folder {root} does not exist")
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            label = Card.from_label(sub.name).label
        except CardError:
            raise ValueError(f"faces folder {sub}: {sub.name!r} is not a card label") from None
        images = [cv2.imread(str(p), cv2.IMREAD_UNCHANGED) for p in sorted(sub.glob("*.png"))]
        usable = tuple(im for im in images if im is not None and im.ndim == 3 and im.shape[2] == 4)
        if usable:
            faces[label] = usable
    if not faces:
        raise ValueError(f"faces folder {root}: no LABEL/*.png faces (cut them with python -m {__name__})")
    return faces


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m {__name__}", description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, help="folders named by card label (red_7/, wild/, ...) of photos")
    parser.add_argument("--out", type=Path, required=True, help="folder to write LABEL/NAME.png faces into")
    parser.add_argument("--per-label", type=int, default=3, help="faces kept per label (the most card-like)")
    parser.add_argument("--model", type=Path, default=Path("models/detector.onnx"), help="detector that finds the card")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    from tqdm import tqdm

    from referee.vision.deck import DeckError
    from referee.vision.detect import load_detector

    try:
        detector = load_detector(args.model)
        summary = cut_faces(args.photos, args.out, detector, per_label=args.per_label,
                            progress=lambda items: tqdm(items, desc="cutting faces", unit="label",
                                                             file=sys.stderr))
    except (ValueError, OSError, DeckError) as exc:
        print(f"photo_faces: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({k: summary[k] for k in ("faces", "labels", "missing")} | {"rejected": len(summary["rejected"])}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
