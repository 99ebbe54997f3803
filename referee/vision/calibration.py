"""Table calibration: where the discard pile, the stock and the seats are in the camera's view.

A :class:`CalibrationProfile` (a small JSON file in ``calibration/``) holds, in camera pixels, the
pile zone and the stock zone (four corners each, clockwise from top-left) and one point per seat
(seats ``0..N-1`` clockwise). It comes from OpenCV's own ArUco markers laid on the table
(:func:`profile_from_markers`; print :func:`write_marker_sheet`) or from four corners given by hand.
The pile zone is warped top-down before detection (:meth:`CalibrationProfile.warp_pile`). Without a
profile, :meth:`CalibrationProfile.whole_frame` makes the whole frame the pile zone with the seats
spread around its edges.

White balance (:mod:`referee.vision.white_balance`, its names importable from here too): a profile keeps
the channel gains measured at calibration, which make the cards' white borders read neutral.

Marker ids (dictionary ``DICT_4X4_50``): 0-3 the pile zone's corners (top-left, top-right,
bottom-right, bottom-left as seen by the camera), 4-7 the stock zone's corners, 10 + s seat s.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.vision.colour import white_balance_gains
from referee.vision.white_balance import WhiteBalance as WhiteBalance  # re-exported: the pipeline reads it here
from referee.vision.white_balance import apply_gains as apply_gains

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]

PROFILE_VERSION = 1
ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
PILE_MARKERS = (0, 1, 2, 3)
STOCK_MARKERS = (4, 5, 6, 7)
SEAT_MARKER_BASE = 10
MAX_SEATS = 10
#: Longest side of the top-down pile image handed to the detector.
PILE_SIDE = 640
#: The longest camera frame side a profile may name (pixels).
MAX_IMAGE_SIDE = 20_000
#: The largest profile file read (bytes): a profile is about a kilobyte.
MAX_PROFILE_BYTES = 1_000_000


class CalibrationError(ValueError):
    """A profile, corner list or calibration image that cannot be used."""


def _quad(points: Any, what: str) -> Quad:
    try:
        pts = [(float(p[0]), float(p[1])) for p in points]
    except (TypeError, ValueError, IndexError) as exc:
        raise CalibrationError(f"{what}: expected four [x, y] points, got {_short(repr(points))}") from exc
    if len(pts) != 4 or not all(math.isfinite(v) for p in pts for v in p):
        raise CalibrationError(f"{what}: expected four finite [x, y] points, got {_short(repr(points))}")
    if abs(_signed_area(pts)) < 1.0:
        raise CalibrationError(f"{what}: the four corners enclose no area: {pts}")
    return (pts[0], pts[1], pts[2], pts[3])


def _short(value: object, limit: int = 200) -> str:
    """``str(value)`` (an error's message, a value read) on one line, cut to ``limit`` characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[:limit] + "..."


def _signed_area(pts: Sequence[Point]) -> float:
    return 0.5 * sum(
        pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
        for i in range(len(pts))
    )


def order_clockwise(points: Sequence[Point]) -> Quad:
    """Four points ordered top-left, top-right, bottom-right, bottom-left (image coordinates)."""
    pts = np.asarray(points, np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ordered = pts[np.argsort(angles)]  # increasing angle = clockwise on screen (y points down)
    start = int(np.argmin(ordered.sum(axis=1)))  # top-left: smallest x + y
    ordered = np.roll(ordered, -start, axis=0)
    return _quad(ordered.tolist(), "corners")


def parse_corners(text: str) -> Quad:
    """``"x1,y1,x2,y2,x3,y3,x4,y4"`` (clockwise from top-left) -> four points."""
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise CalibrationError(f"corners must be 8 numbers x1,y1,...,x4,y4: {text!r}") from None
    if len(values) != 8:
        raise CalibrationError(f"corners must be 8 numbers x1,y1,...,x4,y4, got {len(values)}: {text!r}")
    return _quad([(values[i], values[i + 1]) for i in range(0, 8, 2)], "corners")


def default_seats(centre: Point, radius: Point, players: int) -> list[Point]:
    """Seats spread clockwise around ``centre``, seat 0 at the bottom (nearest the camera's foot)."""
    if not 2 <= players <= MAX_SEATS:
        raise CalibrationError(f"players must be 2..{MAX_SEATS}, got {players}")
    seats = []
    for s in range(players):
        # In image coordinates (y down) a growing angle turns clockwise on screen.
        a = math.pi / 2 + 2 * math.pi * s / players
        seats.append((centre[0] + radius[0] * math.cos(a), centre[1] + radius[1] * math.sin(a)))
    return seats


@dataclass(frozen=True)
class CalibrationProfile:
    """The table as the camera sees it; every coordinate is in pixels of ``image_size`` frames."""

    image_size: tuple[int, int]
    pile: Quad
    seats: tuple[Point, ...]
    stock: Quad | None = None
    white_balance: tuple[float, float, float] | None = None
    method: str = "corners"
    pile_size: tuple[int, int] = field(default=(0, 0))

    def __post_init__(self) -> None:
        w, h = self.image_size
        if not (0 < w <= MAX_IMAGE_SIDE and 0 < h <= MAX_IMAGE_SIDE):
            raise CalibrationError(f"image_size must be 1..{MAX_IMAGE_SIDE} pixels a side, got "
                                   f"{_short(self.image_size, 60)}")
        # A point may lie off the frame (a seat beyond its edge), but not further than one frame out.
        for what, points in (("pile", self.pile), ("stock", self.stock or ()), ("seats", self.seats)):
            for x, y in points:
                if not (math.isfinite(x) and math.isfinite(y) and -w <= x <= 2 * w and -h <= y <= 2 * h):
                    raise CalibrationError(f"{what}: point ({x:.6g}, {y:.6g}) lies far outside the "
                                           f"{w}x{h} frame")
        if not 2 <= len(self.seats) <= MAX_SEATS:
            raise CalibrationError(f"a profile needs 2..{MAX_SEATS} seats, got {len(self.seats)}")
        if self.white_balance is not None and (
            len(self.white_balance) != 3 or not all(0.2 <= g <= 5.0 for g in self.white_balance)
        ):
            raise CalibrationError(f"white_balance must be three gains in 0.2..5, got {self.white_balance}")
        if self.pile_size == (0, 0):
            object.__setattr__(self, "pile_size", self._natural_pile_size())

    # Construction.
    @classmethod
    def whole_frame(cls, width: int, height: int, players: int = 4) -> CalibrationProfile:
        """No calibration: the whole frame is the pile zone, the seats around its edges."""
        pile: Quad = ((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height)))
        seats = default_seats((width / 2, height / 2), (width / 2, height / 2), players)
        return cls((width, height), pile, tuple(seats), method="whole_frame")

    @classmethod
    def from_corners(
        cls, corners: Quad, width: int, height: int, players: int = 4, stock: Quad | None = None
    ) -> CalibrationProfile:
        """The pile zone from four corners by hand; seats spread around the frame."""
        seats = default_seats((width / 2, height / 2), (width / 2, height / 2), players)
        return cls((width, height), _quad(corners, "pile"), tuple(seats), stock=stock, method="corners")

    def _natural_pile_size(self) -> tuple[int, int]:
        p = np.asarray(self.pile, np.float64)
        width = float(max(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[3])))
        height = float(max(np.linalg.norm(p[3] - p[0]), np.linalg.norm(p[2] - p[1])))
        scale = min(1.0, PILE_SIDE / max(width, height, 1.0))
        return max(round(width * scale), 32), max(round(height * scale), 32)

    # JSON.
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": PROFILE_VERSION,
            "method": self.method,
            "image_size": list(self.image_size),
            "pile": [list(p) for p in self.pile],
            "stock": None if self.stock is None else [list(p) for p in self.stock],
            "seats": [list(p) for p in self.seats],
            "pile_size": list(self.pile_size),
            "white_balance": None if self.white_balance is None else list(self.white_balance),
        }

    @classmethod
    def from_dict(cls, data: Any) -> CalibrationProfile:
        if not isinstance(data, dict):
            raise CalibrationError(f"a calibration profile is a JSON object, got {type(data).__name__}")
        try:
            version = int(data.get("version", PROFILE_VERSION))
            if version != PROFILE_VERSION:
                raise CalibrationError(f"unsupported profile version {version}")
            size = data["image_size"]
            seats = tuple((float(x), float(y)) for x, y in data["seats"])
            wb = data.get("white_balance")
            pile_size = data.get("pile_size") or (0, 0)
            return cls(
                image_size=(int(size[0]), int(size[1])),
                pile=_quad(data["pile"], "pile"),
                seats=seats,
                stock=None if data.get("stock") is None else _quad(data["stock"], "stock"),
                white_balance=None if wb is None else (float(wb[0]), float(wb[1]), float(wb[2])),
                method=str(data.get("method", "corners")),
                pile_size=(int(pile_size[0]), int(pile_size[1])),
            )
        except KeyError as exc:
            raise CalibrationError(f"calibration profile lacks {exc.args[0]!r}") from None
        except (TypeError, ValueError, IndexError, OverflowError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"malformed calibration profile: {_short(exc)}") from None

    def save(self, path: Path) -> None:
        """Write the profile to ``path`` atomically (a temporary file beside it, then renamed): a run
        loading it meanwhile reads the old profile or the new one, never half of one."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(self.to_dict(), indent=2) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(partial, 0o644)  # as a plain write would leave it (a temporary file is private)
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> CalibrationProfile:
        """The profile saved at ``path``; CalibrationError (one line) for anything else."""
        try:
            with Path(path).open("rb") as handle:
                raw = handle.read(MAX_PROFILE_BYTES + 1)
            if len(raw) > MAX_PROFILE_BYTES:
                raise CalibrationError(f"{path}: not a calibration profile (over {MAX_PROFILE_BYTES} bytes)")
            data = json.loads(raw.decode("utf-8"))
        except FileNotFoundError:
            raise CalibrationError(f"no calibration profile at {path}") from None
        except RecursionError:
            raise CalibrationError(f"cannot read calibration profile {path}: nested too deeply") from None
        except (OSError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"cannot read calibration profile {path}: {_short(exc)}") from None
        try:
            return cls.from_dict(data)
        except CalibrationError as exc:
            raise CalibrationError(f"{path}: {exc}") from None

    # Geometry.
    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def is_whole_frame(self) -> bool:
        w, h = self.image_size
        return self.pile == ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))

    @property
    def pile_centre(self) -> Point:
        p = np.asarray(self.pile, np.float64).mean(axis=0)
        return float(p[0]), float(p[1])

    def fitted(self, width: int, height: int) -> CalibrationProfile:
        """This profile for frames of another resolution (every point scaled)."""
        if (width, height) == self.image_size:
            return self
        sx, sy = width / self.image_size[0], height / self.image_size[1]

        def sc(points: Sequence[Point]) -> list[Point]:
            return [(x * sx, y * sy) for x, y in points]

        natural = self.is_whole_frame or self.pile_size == self._natural_pile_size()
        return replace(
            self,
            image_size=(width, height),
            pile=_quad(sc(self.pile), "pile"),
            stock=None if self.stock is None else _quad(sc(self.stock), "stock"),
            seats=tuple(sc(self.seats)),
            pile_size=(0, 0) if natural else self.pile_size,
        )

    def pile_homography(self) -> npt.NDArray[np.float64]:
        """Camera pixels -> top-down pile image pixels (a copy: the caller may change it)."""
        return self._pile_matrix.copy()

    @cached_property
    def _pile_matrix(self) -> npt.NDArray[np.float64]:
        """:meth:`pile_homography`, solved once per profile (the pipeline warps every frame by it)."""
        w, h = self.pile_size
        dst = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
        m: npt.NDArray[np.float64] = cv2.getPerspectiveTransform(np.asarray(self.pile, np.float32), dst)
        return m

    def warp_pile(self, image: Image) -> Image:
        """The pile zone seen top-down, at most :data:`PILE_SIDE` px (the detector needs no more)."""
        if self.is_whole_frame and image.shape[1::-1] == self.image_size:
            if self.pile_size == self.image_size:
                return image
            resized: Image = cv2.resize(image, self.pile_size, interpolation=cv2.INTER_AREA)
            return resized
        warped: Image = cv2.warpPerspective(
            image, self.pile_homography(), self.pile_size, flags=cv2.INTER_LINEAR
        )
        return warped

    def pile_to_image(self, points: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Top-down pile pixels -> camera pixels (to draw detections on the camera frame)."""
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        inv = np.linalg.inv(self.pile_homography())
        out: npt.NDArray[np.float32] = cv2.perspectiveTransform(pts, inv).reshape(-1, 2)
        return out

    def seat_towards(self, point: Point, origin: Point | None = None) -> int:
        """The seat whose direction from ``origin`` (the pile's centre) is nearest ``point``'s."""
        ox, oy = origin if origin is not None else self.pile_centre
        a = math.atan2(point[1] - oy, point[0] - ox)
        best, best_d = 0, math.inf
        for s, (sx, sy) in enumerate(self.seats):
            d = abs(math.remainder(math.atan2(sy - oy, sx - ox) - a, 2 * math.pi))
            if d < best_d:
                best, best_d = s, d
        return best

    def nearest_seat(self, point: Point) -> int:
        """The seat whose position is nearest ``point`` (camera pixels)."""
        return min(range(len(self.seats)),
                   key=lambda s: math.hypot(point[0] - self.seats[s][0], point[1] - self.seats[s][1]))

    def mask(self, quad: Quad | None, shape: tuple[int, int], scale: float = 1.0) -> npt.NDArray[np.bool_]:
        """Boolean mask of ``quad`` (in profile pixels) on an image of ``shape`` (h, w)."""
        out = np.zeros(shape, np.uint8)
        if quad is not None:
            sx, sy = shape[1] / self.image_size[0], shape[0] / self.image_size[1]
            c = np.asarray(quad, np.float64).mean(axis=0)
            pts = (c + (np.asarray(quad) - c) * scale) * (sx, sy)
            cv2.fillConvexPoly(out, np.round(pts).astype(np.int32), 1)
        return out.astype(bool)


# ArUco.
def _dictionary() -> Any:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)


def detect_markers(image: Image) -> dict[int, Point]:
    """Centre of every ArUco marker (``DICT_4X4_50``) in ``image``, by id."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, Point] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        c = np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0)
        found[int(marker_id)] = (float(c[0]), float(c[1]))
    return found


def profile_from_markers(image: Image, players: int | None = None) -> CalibrationProfile:
    """A profile from the markers in ``image``; raises :class:`CalibrationError` naming what is missing.

    The pile zone needs its four corner markers; the stock zone is taken when all four of its markers
    show; seats come from seat markers (all of ``players`` when given) or are spread around the frame.
    """
    h, w = image.shape[:2]
    found = detect_markers(image)
    missing = [i for i in PILE_MARKERS if i not in found]
    if missing:
        raise CalibrationError(
            f"pile corner markers {missing} not found (saw {sorted(found) or 'none'}); "
            "lay markers 0-3 at the pile zone's corners"
        )
    pile = _quad([found[i] for i in PILE_MARKERS], "pile")
    stock = _quad([found[i] for i in STOCK_MARKERS], "stock") if all(i in found for i in STOCK_MARKERS) else None
    seat_ids = sorted(i - SEAT_MARKER_BASE for i in found if SEAT_MARKER_BASE <= i < SEAT_MARKER_BASE + MAX_SEATS)
    if players is not None:
        absent = [s for s in range(players) if s not in seat_ids]
        if seat_ids and absent:
            raise CalibrationError(f"seat markers for seats {absent} not found (ids {SEAT_MARKER_BASE}+seat)")
    if seat_ids and seat_ids == list(range(len(seat_ids))) and len(seat_ids) >= 2:
        seats = [found[SEAT_MARKER_BASE + s] for s in seat_ids]
    else:
        seats = default_seats((w / 2, h / 2), (w / 2, h / 2), players or 4)
    return CalibrationProfile((w, h), pile, tuple(seats), stock=stock, method="aruco")


def marker_image(marker_id: int, side: int) -> Image:
    out: Image = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
    return out


def write_marker_sheet(path: Path, players: int = MAX_SEATS, dpi: int = 150) -> Path:
    """A printable A4 sheet (PNG) of every marker with its role, 4 cm per marker at ``dpi``."""
    page_w, page_h = int(8.27 * dpi), int(11.69 * dpi)
    sheet = np.full((page_h, page_w), 255, np.uint8)
    side = int(4 / 2.54 * dpi)
    cell_w, cell_h = page_w // 4, side + int(0.6 * dpi)
    corners = ("top-left", "top-right", "bottom-right", "bottom-left")
    roles = [(i, f"pile {n}") for i, n in zip(PILE_MARKERS, corners, strict=True)]
    roles += [(i, f"stock {n}") for i, n in zip(STOCK_MARKERS, corners, strict=True)]
    roles += [(SEAT_MARKER_BASE + s, f"seat {s}") for s in range(players)]
    top = int(0.7 * dpi)
    cv2.putText(sheet, "UNO referee calibration markers (ArUco DICT_4X4_50) - cut out, lay flat",
                (int(0.3 * dpi), int(0.4 * dpi)), cv2.FONT_HERSHEY_SIMPLEX, dpi / 250, 0, max(1, dpi // 100))
    for k, (marker_id, role) in enumerate(roles):
        row, col = divmod(k, 4)
        x = col * cell_w + (cell_w - side) // 2
        y = top + row * cell_h
        if y + cell_h > page_h:
            raise CalibrationError(f"{len(roles)} markers do not fit one sheet at {dpi} dpi")
        sheet[y:y + side, x:x + side] = marker_image(marker_id, side)
        cv2.putText(sheet, f"{marker_id}: {role}", (x, y + side + int(0.25 * dpi)),
                    cv2.FONT_HERSHEY_SIMPLEX, dpi / 300, 0, max(1, dpi // 150))
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".pdf":
        try:
            from PIL import Image as PILImage
        except ImportError:
            raise CalibrationError("writing a PDF needs Pillow; write a .png instead") from None
        PILImage.fromarray(sheet).save(path, "PDF", resolution=float(dpi))
    elif not cv2.imwrite(str(path), sheet):
        raise CalibrationError(f"cannot write {path}")
    return path


def grab_frame(source: str) -> Image:
    """One frame from an image file, a video or a camera (a few frames in, to let exposure settle)."""
    path = Path(source)
    if path.is_file() and path.suffix.lower() in {".jpg", ".jpeg", ".png", ".bmp", ".webp"}:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CalibrationError(f"cannot read image {path}")
        return np.ascontiguousarray(image, dtype=np.uint8)
    from referee.vision.capture import Capture

    capture = Capture(source, realtime=False, max_reconnects=2)
    frame = None
    try:
        for i, f in enumerate(capture):
            frame = f
            if i >= 10:
                break
    finally:
        capture.stop()
    if frame is None:
        raise CalibrationError(f"no frame from {source}: {capture.status().message}")
    return frame.image


def main(args: argparse.Namespace) -> int:
    """``referee calibrate``: marker sheet, or a profile from markers / hand corners."""
    try:
        if args.marker_sheet is not None:
            path = write_marker_sheet(args.marker_sheet, players=MAX_SEATS)
            print(f"marker sheet written to {path} (print at 100%, markers 4 cm)")
            return 0
        image = grab_frame(args.source) if args.source is not None else None
        if args.corners is not None:
            corners = parse_corners(args.corners)
            if image is not None:
                h, w = image.shape[:2]
            else:
                w = int(max(x for x, _ in corners)) + 1
                h = int(max(y for _, y in corners)) + 1
                log.warning("no --source: frame size assumed %dx%d from the corners", w, h)
            profile = CalibrationProfile.from_corners(corners, w, h, players=args.players)
        elif image is not None:
            profile = profile_from_markers(image, players=args.players)
        else:
            raise CalibrationError("give --source (an image or camera with the markers), --corners, or --marker-sheet")
        if image is not None:
            gains = white_balance_gains(profile.warp_pile(image))
            profile = replace(profile, white_balance=(float(gains[0]), float(gains[1]), float(gains[2])))
        profile.save(args.out)
    except CalibrationError as exc:
        print(f"referee calibrate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"profile": str(args.out), "method": profile.method, "players": profile.players,
                      "stock": profile.stock is not None, "white_balance": profile.white_balance}))
    return 0
