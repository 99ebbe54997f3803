"""The table's plane from a card lying on it (part of :mod:`referee.vision.table_finder`).

A card is a rectangle of known shape (:data:`CARD_ASPECT`): the four corners it shows in the camera's
picture give the homography from the table's plane to the picture. With a camera looking down the card
shows as a rectangle and the pile zone stays an upright square of camera pixels; a phone held at a steep
angle shows it as a trapezoid, and the pile zone becomes the square of the table around it as the camera
sees it (a trapezoid too), so the pile view the detector reads is the table seen from above.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.calibration import PILE_SIDE, Point, Quad

__all__ = ["CARD_ASPECT", "MIN_CONTRAST", "MIN_TILT", "card_height", "card_quad", "clamped_square", "pile_on_plane",
           "stock_seen", "tilt"]

#: A card's width over its height.
CARD_ASPECT = 200 / 310
#: Below this difference between opposite sides (a share), the card is seen from above: no plane is fitted.
MIN_TILT = 0.08
#: Grey levels by which the card must stand out from the table round it.
MIN_CONTRAST = 40.0
#: A card's sides as seen must differ by this share at least to tell its long sides from its short ones.
SIDES_APART = 0.12


def card_height(box: tuple[float, float, float, float]) -> float:
    """A card's height from its upright box (``x1, y1, x2, y2``) at an unknown turn: the box's sides
    add up to between one and 1.41 times the card's height plus width; taken at 1.15."""
    w, h = float(box[2] - box[0]), float(box[3] - box[1])
    return (w + h) / (1 + CARD_ASPECT) / 1.15


def clamped_square(centre: Point, half: float, size: tuple[int, int]) -> Quad:
    """An upright square around ``centre`` moved (not shrunk) to lie in the frame where it fits."""
    w, h = size
    cx = min(max(centre[0], half), w - half) if 2 * half <= w else w / 2
    cy = min(max(centre[1], half), h - half) if 2 * half <= h else h / 2
    return ((cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half))


def stock_seen(backs: list[tuple[float, float, float]], sightings: int) -> tuple[float, float, float] | None:
    """Where face-down cards were seen in one place ``sightings`` times at least, of ``backs`` (centre and box's
    long side, camera pixels): that place's centre and a card's height (a stock lies about square to its table:
    its box's long side); ``None`` when no place was."""
    if len(backs) < sightings:
        return None
    pts = np.array(backs, np.float64)
    best: tuple[int, int] = (0, -1)
    for i, (x, y, size) in enumerate(pts):
        best = max(best, (int((np.hypot(pts[:, 0] - x, pts[:, 1] - y) < 0.3 * size).sum()), i))
    near, i = best
    if near < sightings:
        return None
    x, y, size = pts[i]
    close = pts[np.hypot(pts[:, 0] - x, pts[:, 1] - y) < 0.3 * size]
    return float(np.median(close[:, 0])), float(np.median(close[:, 1])), float(np.median(close[:, 2]))


def _clockwise(quad: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The quad's corners clockwise on screen (y down), the top-most-left first."""
    x, y = quad[:, 0], quad[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    if area < 0:
        quad = quad[::-1]
    first = int(np.argmin(quad[:, 0] + quad[:, 1]))
    return np.roll(quad, -first, axis=0)


def card_quad(image: npt.NDArray[np.uint8], box: tuple[float, float, float, float]) -> Quad | None:
    """The four corners (camera pixels, clockwise) of the card lying alone in ``box`` (``x1, y1, x2, y2``,
    camera pixels) of ``image``: the bright card against the table around it. ``None`` when no four-sided
    shape stands out there (a card under a hand, on other cards, or as dark as the table)."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    mx, my = 0.25 * (x2 - x1), 0.25 * (y2 - y1)
    ax, ay = max(0, int(x1 - mx)), max(0, int(y1 - my))
    bx, by = min(w, math.ceil(x2 + mx)), min(h, math.ceil(y2 + my))
    if bx - ax < 16 or by - ay < 16:
        return None
    crop = image[ay:by, ax:bx]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright, dark = grey[mask > 0], grey[mask == 0]
    if not bright.size or not dark.size or float(bright.mean()) - float(dark.mean()) < MIN_CONTRAST:
        return None  # nothing stands out: the table's grain split in two
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))  # the face's print filled in
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre = ((x1 + x2) / 2 - ax, (y1 + y2) / 2 - ay)
    inside = [c for c in contours if cv2.pointPolygonTest(c, centre, False) >= 0]
    if not inside:
        return None
    contour = max(inside, key=cv2.contourArea)
    cx, cy, cw, ch = cv2.boundingRect(contour)
    if cv2.contourArea(contour) < 0.25 * (x2 - x1) * (y2 - y1) or cx == 0 or cy == 0 \
            or cx + cw >= bx - ax or cy + ch >= by - ay:
        return None  # too small, or running on out of the crop: no card lying alone
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(approx) != 4:
        return None
    quad = _clockwise(approx.astype(np.float64) + np.array([ax, ay], np.float64))
    return tuple((float(x), float(y)) for x, y in quad)  # type: ignore[return-value]


def _sides(quad: npt.NDArray[np.float64]) -> list[float]:
    return [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]


def tilt(quad: Quad) -> float:
    """How far from a rectangle the card shows (the larger share by which opposite sides differ): 0 seen
    from straight above."""
    s = _sides(np.asarray(quad, np.float64))
    return max(abs(s[0] - s[2]) / max(s[0], s[2]), abs(s[1] - s[3]) / max(s[1], s[3]))


def _homography(quad: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
    """Table (card heights, the card's corner at the origin) -> camera pixels, from the card's quad; ``None``
    when its long sides cannot be told from its short ones."""
    s = _sides(quad)
    across, along = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    if abs(across - along) < SIDES_APART * max(across, along):
        return None
    if across > along:  # the first side is a long one: start from the next corner
        quad = np.roll(quad, -1, axis=0)
    a = CARD_ASPECT
    rect = np.array([(0, 0), (a, 0), (a, 1), (0, 1)], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(rect, quad.astype(np.float32)), np.float64)


def _apply(matrix: npt.NDArray[np.float64], points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), matrix)
    return np.asarray(out.reshape(-1, 2), np.float64)


def pile_on_plane(quad: Quad, half: float, size: tuple[int, int]) -> tuple[Quad, tuple[int, int]] | None:
    """The pile zone on the table's plane: the square ``half`` card heights each way around the card that
    shows as ``quad`` (camera pixels), turned so that its top runs along the picture's rows at the card, as
    the camera sees it (a trapezoid), with the square view size (pixels) it is read at. ``None`` when the
    card is seen from above (:data:`MIN_TILT`), its shape is unclear, or the zone leaves the picture."""
    corners = np.asarray(quad, np.float64)
    if tilt(quad) < MIN_TILT:
        return None
    matrix = _homography(_clockwise(corners))
    if matrix is None:
        return None
    inverse: npt.NDArray[np.float64] = np.asarray(np.linalg.inv(matrix), np.float64)
    mx, my = (float(v) for v in corners.mean(axis=0))
    step = max(4.0, float(np.ptp(corners[:, 0])) / 4)
    (cx, cy), (rx, ry) = _apply(inverse, np.array([(mx, my), (mx + step, my)], np.float64))
    theta = math.atan2(ry - cy, rx - cx)
    c, s = math.cos(theta), math.sin(theta)
    square = np.array([(-half, -half), (half, -half), (half, half), (-half, half)], np.float64)
    table = square @ np.array([[c, s], [-s, c]]) + (cx, cy)
    zone = _apply(matrix, table)
    w, h = size
    if not np.isfinite(zone).all() or (zone < 0).any() or (zone[:, 0] > w).any() or (zone[:, 1] > h).any():
        return None
    side = min(PILE_SIDE, max(32, round(max(_sides(zone)))))
    return tuple((float(x), float(y)) for x, y in zone), (side, side)  # type: ignore[return-value]
