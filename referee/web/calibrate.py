"""The dashboard's "Calibrate the table" page: calibration without a printer, by clicking on the camera's view.

``/calibrate`` shows the camera's last frame as it came (no overlay, ``GET /api/calibration/frame.jpg``);
the operator clicks the pile's four corners, drags a rectangle over the stock and clicks where each
player sits. ``PUT /api/calibration/profile`` (a control: the admin token) checks the clicks, saves them
as a calibration profile (:class:`~referee.vision.calibration.CalibrationProfile`, method ``clicked``)
atomically to the calibration file, and hands the profile to the live pipeline, which applies it between
two frames (:meth:`referee.pipeline.Pipeline.set_profile`). ``referee run --calibration FILE`` loads
the same file later. ``GET /api/calibration`` says where it stands: the frame's size, the profile in
use in camera pixels, the file, and a suggested pile zone around the cards that have landed so far
(:func:`~referee.vision.recalibration.suggest_pile_zone`), which the page adopts in one click.

The markers (``referee calibrate``, ArUco) stay the precise way; clicks are the way without a printer.

The calibration file is the run's ``--calibration`` path (``referee run`` passes
``calibration/table.json`` when none was given: :func:`referee.commands.calibration_file`); an app
made without one keeps it beside the match record (``referee.db`` -> ``referee-calibration.json``), or in
a temporary folder for an in-memory record.
"""

from __future__ import annotations

import logging
import math
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt
from fastapi import FastAPI, HTTPException
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from referee.vision.calibration import (
    MAX_SEATS,
    CalibrationError,
    CalibrationProfile,
    Point,
    Quad,
    default_seats,
    order_clockwise,
)
from referee.vision.recalibration import MIN_LANDED, suggest_pile_zone

if TYPE_CHECKING:
    from referee.session import MatchSession

__all__ = ["CALIBRATION_PATH", "CalibrationIn", "LiveTable", "calibration_file_for", "profile_from_clicks",
           "register_calibrate"]

log = logging.getLogger(__name__)

#: Where the page saves (the profile in camera pixels, contract of ``--calibration``).
CALIBRATION_PATH = "/api/calibration/profile"
#: The smallest pile zone accepted, as a share of the frame: a few cards must fit in it.
MIN_PILE_SHARE = 0.01
#: The smallest stock zone accepted, as a share of the frame.
MIN_STOCK_SHARE = 0.002
#: The shortest side of a zone, in camera pixels.
MIN_SIDE_PX = 12.0
#: Two seats closer than this (camera pixels) are one spot clicked twice.
MIN_SEAT_GAP_PX = 8.0
#: How far a click may lie outside the frame (camera pixels): a corner dragged onto the frame's edge.
EDGE_SLACK_PX = 1.0
#: The frame's JPEG quality on the page (the clicks need sharp edges, not a small file).
FRAME_QUALITY = 85

Image = npt.NDArray[np.uint8]


class LiveTable(Protocol):
    """What the page needs of the running pipeline (:class:`referee.pipeline.Pipeline` is one)."""

    players: int

    def set_profile(self, profile: CalibrationProfile) -> None: ...
    def current_profile(self) -> CalibrationProfile | None: ...
    def camera_frame(self) -> Image | None: ...
    def landed_cards(self, image_size: tuple[int, int]) -> list[Quad]: ...


# Request body.
Coordinate = Annotated[float, Field(ge=-100_000, le=100_000, allow_inf_nan=False)]
PointIn = Annotated[list[Coordinate], Field(min_length=2, max_length=2)]
QuadIn = Annotated[list[PointIn], Field(min_length=4, max_length=4)]
Side = Annotated[int, Field(ge=16, le=20_000)]


class CalibrationIn(BaseModel):
    """The clicks, in pixels of an ``image_size`` frame (the one ``GET /api/calibration`` gave): the
    pile's four corners in any order, the stock zone's four corners (the dragged rectangle; ``null``:
    no stock zone) and one point per seat, seat 0 (Player 1) first, going clockwise (none: spread
    around the frame)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    image_size: Annotated[list[Side], Field(min_length=2, max_length=2)]
    pile: QuadIn
    stock: QuadIn | None = None
    seats: Annotated[list[PointIn], Field(max_length=MAX_SEATS)] = Field(default_factory=list)


def _points(raw: Sequence[Sequence[float]]) -> list[Point]:
    return [(float(p[0]), float(p[1])) for p in raw]


def _px(point: Point) -> str:
    return f"({point[0]:.0f}, {point[1]:.0f})"


def _zone(raw: Sequence[Sequence[float]], what: str, size: tuple[int, int], min_share: float) -> Quad:
    """Four clicked corners (any order) as a convex quadrilateral inside the frame, clockwise from
    top-left, of at least ``min_share`` of the frame; :class:`CalibrationError` saying what is wrong."""
    w, h = size
    points = _points(raw)
    for k, (x, y) in enumerate(points):
        if not (-EDGE_SLACK_PX <= x <= w + EDGE_SLACK_PX and -EDGE_SLACK_PX <= y <= h + EDGE_SLACK_PX):
            raise CalibrationError(f"{what} corner {k + 1} {_px((x, y))} lies outside the {w}x{h} frame")
    points = [(min(max(x, 0.0), float(w)), min(max(y, 0.0), float(h))) for x, y in points]
    quad = order_clockwise(points) if _spread(points) else None
    if quad is None:
        raise CalibrationError(f"the {what} corners lie on one spot or one line: click the {what}'s four corners")
    turns = [_cross(quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]) for i in range(4)]
    if not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        raise CalibrationError(f"the {what} corners do not make a convex quadrilateral (one lies inside the "
                               f"other three): click the {what}'s four outer corners")
    sides = [math.dist(quad[i], quad[(i + 1) % 4]) for i in range(4)]
    if min(sides) < MIN_SIDE_PX:
        raise CalibrationError(f"the {what} zone has a side of {min(sides):.0f} px: at least {MIN_SIDE_PX:.0f} px")
    area = abs(_area(quad))
    if area < min_share * w * h:
        raise CalibrationError(f"the {what} zone covers {100 * area / (w * h):.1f}% of the frame: too small "
                               f"(at least {100 * min_share:g}%)")
    return quad


def _spread(points: Sequence[Point]) -> bool:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return max(xs) - min(xs) >= 1.0 and max(ys) - min(ys) >= 1.0


def _cross(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])


def _area(pts: Sequence[Point]) -> float:
    return 0.5 * sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
                     for i in range(len(pts)))


def _seats(raw: Sequence[Sequence[float]], players: int, size: tuple[int, int]) -> list[Point] | None:
    """One clicked point per player inside the frame (``None``: none clicked); else :class:`CalibrationError`."""
    if not raw:
        return None
    w, h = size
    if len(raw) != players:
        raise CalibrationError(f"click where each of the {players} players sits ({len(raw)} clicked), or clear "
                               "the seats to spread them around the frame")
    seats = _points(raw)
    for k, (x, y) in enumerate(seats):
        if not (-EDGE_SLACK_PX <= x <= w + EDGE_SLACK_PX and -EDGE_SLACK_PX <= y <= h + EDGE_SLACK_PX):
            raise CalibrationError(f"Player {k + 1}'s seat {_px((x, y))} lies outside the {w}x{h} frame")
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if math.dist(seats[i], seats[j]) < MIN_SEAT_GAP_PX:
                raise CalibrationError(f"Player {i + 1} and Player {j + 1} sit at the same spot: click one seat "
                                       "for each player")
    return [(min(max(x, 0.0), float(w)), min(max(y, 0.0), float(h))) for x, y in seats]


def clockwise(seats: Sequence[Point], centre: Point) -> bool:
    """Whether ``seats`` go clockwise around ``centre`` on the screen (image ``y`` points down), once round."""
    if len(seats) < 3:
        return True
    angles = [math.atan2(y - centre[1], x - centre[0]) for x, y in seats]
    turn = sum((angles[(i + 1) % len(angles)] - angles[i]) % (2 * math.pi) for i in range(len(angles)))
    return abs(turn - 2 * math.pi) < 1e-6


def profile_from_clicks(body: CalibrationIn, *, players: int, frame_size: tuple[int, int] | None,
                        white_balance: tuple[float, float, float] | None = None
                        ) -> tuple[CalibrationProfile, list[str]]:
    """The profile the clicks make, and warnings (seats that go round the wrong way); a
    :class:`CalibrationError` with one line saying what to fix. ``frame_size``: the camera's frames now
    (the clicks must be in pixels of one); ``white_balance``: the gains in use, kept."""
    size = (int(body.image_size[0]), int(body.image_size[1]))
    if frame_size is not None and size != frame_size:
        raise CalibrationError(f"the clicks are in a {size[0]}x{size[1]} frame, the camera gives "
                               f"{frame_size[0]}x{frame_size[1]}: reload the page")
    pile = _zone(body.pile, "pile", size, MIN_PILE_SHARE)
    stock = None if body.stock is None else _zone(body.stock, "stock", size, MIN_STOCK_SHARE)
    clicked = _seats(body.seats, players, size)
    w, h = size
    seats = clicked if clicked is not None else default_seats((w / 2, h / 2), (w / 2, h / 2), players)
    profile = CalibrationProfile(size, pile, tuple(seats), stock=stock, white_balance=white_balance,
                                 method="clicked")
    warnings = []
    if clicked is not None and not clockwise(clicked, profile.pile_centre):
        warnings.append("the seats do not go clockwise around the pile (Player 1, then the player on their "
                        "left, and so on): check the order you clicked them in")
    return profile, warnings


def calibration_file_for(db: Path | str | None) -> Path | None:
    """The calibration file beside the match record ``db`` (``referee.db`` -> ``referee-calibration.json``);
    ``None`` for an in-memory record (a temporary folder then)."""
    if db is None or str(db) in ("", ":memory:") or str(db).startswith("file:"):
        return None
    path = Path(db)
    return path.with_name(path.stem + "-calibration.json")


def _rounded(points: Sequence[Point]) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]


def profile_out(profile: CalibrationProfile) -> dict[str, Any]:
    """A profile for the page: camera pixels rounded to 0.1 px."""
    return {
        "image_size": list(profile.image_size),
        "method": profile.method,
        "whole_frame": profile.is_whole_frame,
        "pile": _rounded(profile.pile),
        "stock": None if profile.stock is None else _rounded(profile.stock),
        "seats": _rounded(profile.seats),
    }


class _CalibrationFile:
    """The file the page saves to, made on first use (a temporary folder when none was given)."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._lock = threading.Lock()

    @property
    def known(self) -> Path | None:
        """The file, if decided yet (no temporary folder is made to say where it would be)."""
        with self._lock:
            return self._path

    @property
    def path(self) -> Path:
        with self._lock:
            if self._path is None:
                self._path = Path(tempfile.mkdtemp(prefix="referee-calibration-")) / "table.json"
            return self._path

    def load(self) -> tuple[CalibrationProfile | None, str | None]:
        """The saved profile (``None`` when there is none) and why it cannot be read (``None``: fine)."""
        with self._lock:
            path = self._path
        if path is None or not path.is_file():
            return None, None
        try:
            return CalibrationProfile.load(path), None
        except CalibrationError as exc:
            return None, str(exc)


def _standing(table: LiveTable | None, saved: _CalibrationFile, players: Callable[[], int],
              size: tuple[int, int] | None) -> dict[str, Any]:
    """What ``GET /api/calibration`` answers: the frame (``size``), the profile in use fitted to it, the file,
    and a suggested pile zone from the cards that have landed."""
    profile = table.current_profile() if table is not None else None
    file_profile, file_error = saved.load()
    if profile is None:
        profile = file_profile
    if profile is not None and size is not None and profile.image_size != size:
        try:
            profile = profile.fitted(*size)
        except CalibrationError:  # a zone that scales to nothing: shown as not calibrated
            profile = None
    landed = table.landed_cards(size) if table is not None and size is not None else []
    suggested = suggest_pile_zone(landed, size) if size is not None else None
    path = saved.known
    return {
        "live": table is not None,
        "frame": None if size is None else {"width": size[0], "height": size[1]},
        "players": players(),
        "profile": None if profile is None else profile_out(profile),
        "file": None if path is None else str(path),
        "saved": path is not None and path.is_file(),
        "file_error": file_error,
        "landed": len(landed),
        "min_landed": MIN_LANDED,
        "suggested_pile": None if suggested is None else _rounded(suggested),
    }


def register_calibrate(
    app: FastAPI,
    session: MatchSession,
    *,
    admin: Sequence[Any],
    page: Callable[[], HTMLResponse],
    table: LiveTable | None = None,
    calibration_file: Path | None = None,
) -> None:
    """Add the calibration page and its API to ``app`` (``admin``: the controls' dependencies; ``table``:
    the live pipeline, ``None`` without one: the page then only saves the file)."""
    db = getattr(session.store, "path", None)
    saved = _CalibrationFile(calibration_file if calibration_file is not None else calibration_file_for(db))
    saving = threading.Lock()

    def players() -> int:
        if table is not None:
            return int(table.players)
        return int(session.snapshot().get("players") or 4)

    def frame() -> Image | None:
        return table.camera_frame() if table is not None else None

    def frame_size() -> tuple[int, int] | None:
        image = frame()
        return None if image is None else (int(image.shape[1]), int(image.shape[0]))

    @app.get("/calibrate", response_class=HTMLResponse)
    def calibrate_page() -> HTMLResponse:
        return page()

    @app.get("/api/calibration")
    def calibration() -> dict[str, Any]:
        """Where the calibration stands: the frame, the profile in use (camera pixels), the file, and a
        suggested pile zone from the cards that have landed."""
        return _standing(table, saved, players, frame_size())

    @app.get("/api/calibration/frame.jpg")
    def calibration_frame() -> Response:
        """The camera's last frame as it came, no overlay drawn (404 before the first frame)."""
        image = frame()
        if image is None:
            raise HTTPException(status_code=404, detail="no camera frame yet: the camera has sent none "
                                "(or no camera runs with this server)")
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, FRAME_QUALITY])
        if not ok:
            raise HTTPException(status_code=503, detail="the camera frame cannot be encoded")
        return Response(bytes(data), media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.put(CALIBRATION_PATH, dependencies=list(admin))
    def save(body: CalibrationIn) -> dict[str, Any]:
        """Check the clicks, save the profile atomically to the calibration file and apply it live."""
        return _save(body, table, saved, saving, players, frame_size)


def _save(body: CalibrationIn, table: LiveTable | None, saved: _CalibrationFile, saving: threading.Lock,
          players: Callable[[], int], frame_size: Callable[[], tuple[int, int] | None]) -> dict[str, Any]:
    """What ``PUT`` of a calibration does: check the clicks, save the profile atomically to the calibration
    file and apply it to the live ``table``."""
    current = table.current_profile() if table is not None else saved.load()[0]
    try:
        profile, warnings = profile_from_clicks(
            body, players=players(), frame_size=frame_size(),
            white_balance=current.white_balance if current is not None else None)
    except CalibrationError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None
    path = saved.path
    with saving:
        try:
            profile.save(path)
        except OSError as exc:
            log.error("calibration not saved to %s: %s", path, exc)
            raise HTTPException(status_code=503, detail=f"the calibration cannot be saved to {path}: "
                                f"{exc.strerror or exc}") from None
        if table is not None:
            table.set_profile(profile)
    log.info("calibration saved to %s%s", path, " and applied to the live camera" if table is not None else "")
    return {"file": str(path), "applied": table is not None, "profile": profile_out(profile),
            "warnings": warnings, "command": f"referee run --calibration {path}"}
