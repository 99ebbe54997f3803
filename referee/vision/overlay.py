"""Draw what the referee sees onto a camera frame: detections, zones, seats, turn, direction, colour.

Pure drawing (``annotate(scene, ...) -> scene``): no state, no I/O. The pipeline encodes the result
as the JPEG behind ``/stream.mjpg``. Seats are labelled as people count them: the seat's name, else
"Player N" with N 1-based (the marker shows N too); cards in words ("Red 7"); every word in the match's
language (the setup's ``lang``, in the state), spelled without accents (the frame's font has none:
"Gruen 7", "Zeistapel"). A label near the frame's edge is moved inside it, never cut.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.live_status import PipelineStatus
from referee.phrases import phrase
from referee.vision.calibration import CalibrationProfile
from referee.vision.detections import Detections
from referee.words import card_words, colour_words, find_language, player_words

Image = npt.NDArray[np.uint8]

#: BGR swatches for the card colours (and black cards / unknown).
SWATCH: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 220),
    "green": (60, 170, 60),
    "blue": (200, 110, 30),
    "yellow": (30, 210, 240),
    "orange": (20, 140, 250),
    "violet": (170, 60, 140),
}
NEUTRAL = (200, 200, 200)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _colour_of(label: str) -> tuple[int, int, int]:
    return SWATCH.get(label.split("_", 1)[0], NEUTRAL)


#: How dark the outline around every label is: the cloth under it keeps this share of its light
#: (dark enough for light text on a white cloth, without reading as a black box).
HALO_KEEP = 0.15
_HALO_KERNELS: dict[int, Any] = {}
#: Each label's outline, as the share of light the cloth under it keeps (``_halo``), by what decides it.
#: The same labels come back frame after frame (seats, the panel); an overlay drawn ten times a second
#: makes each once. Emptied when full (counts and confidences make new ones).
_HALOS: dict[tuple[str, float, int, int, tuple[int, int], tuple[int, int]], Image] = {}
_HALOS_MAX = 256


@functools.lru_cache(maxsize=512)
def _text_size(text: str, scale: float, thickness: int) -> tuple[tuple[int, int], int]:
    """``cv2.getTextSize`` of ``text`` in the frame's font (the same labels are measured every frame)."""
    (tw, th), base = cv2.getTextSize(text, FONT, scale, thickness)
    return (tw, th), base


def _light(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """``colour`` halfway to white: a card's swatch as text that stays legible inside a dark outline
    (dark blue on black would not be)."""
    return (round((colour[0] + 255) / 2), round((colour[1] + 255) / 2), round((colour[2] + 255) / 2))


#: Letters the frame's font lacks, as German and Luxembourgish spell them without accents.
_PLAIN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "’": "'",
                        "‘": "'", "“": '"', "”": '"', "„": '"', "…": "...", "–": "-", "—": "-", "·": "-"})


@functools.lru_cache(maxsize=1024)
def plain(text: str) -> str:
    """``text`` in the letters OpenCV's font draws: umlauts spelled out, other accents dropped ("Gréng" ->
    "Greng"), anything else without a plain form left out."""
    spelled = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    return "".join(c for c in spelled if c.isascii() and not unicodedata.combining(c))


def _inside(image: Image, text: str, org: tuple[int, int], scale: float) -> tuple[int, int]:
    """Where ``text`` starts so that all of it is in the frame (moved in from an edge, not cut)."""
    thickness = max(1, round(scale * 2))
    pad = max(2, round(scale * 3)) + thickness + 1
    (tw, th), base = _text_size(text, scale, thickness)
    h, w = image.shape[:2]
    x = min(max(org[0], pad), max(pad, w - tw - pad))
    y = min(max(org[1], th + pad), max(th + pad, h - base - pad))
    return x, y


def _text(image: Image, text: str, org: tuple[int, int], scale: float, colour: tuple[int, int, int]) -> None:
    """``text`` in ``colour`` (light) with a dark outline, readable on any cloth, drawn into ``image``.

    The outline is the text's own anti-aliased glyphs grown by a few pixels (a dilated mask of the
    same ``putText``) darkening the cloth under it, then the text is drawn on top at the same size and
    thickness. Not a second, thicker ``putText``: OpenCV 5 draws thick text as a bolder font with wider
    glyphs, so a thick dark copy drifts off the thin one and leaves black blobs at the end of every
    label. Only the label's own patch is touched, in a few 8-bit OpenCV calls: cheap per frame.
    """
    thickness = max(1, round(scale * 2))
    radius = max(2, round(scale * 3))  # the outline's width, px
    text = plain(text)
    org = _inside(image, text, org, scale)
    (tw, th), base = _text_size(text, scale, thickness)
    pad = radius + thickness + 1
    h, w = image.shape[:2]
    x0, y0 = max(0, org[0] - pad), max(0, org[1] - th - pad)
    x1, y1 = min(w, org[0] + tw + pad), min(h, org[1] + base + pad)
    if x1 <= x0 or y1 <= y0:
        return
    roi = image[y0:y1, x0:x1]
    local = (org[0] - x0, org[1] - y0)
    keep = _halo(text, scale, thickness, radius, (x1 - x0, y1 - y0), local)
    roi[:] = cv2.multiply(roi, keep, scale=1 / 255)  # a view: copy back
    cv2.putText(roi, text, local, FONT, scale, colour, thickness, cv2.LINE_AA)


def _halo(text: str, scale: float, thickness: int, radius: int, size: tuple[int, int],
          local: tuple[int, int]) -> Image:
    """The share of light (of 255, in 3 channels) the cloth keeps under ``text``'s outline, on a patch of
    ``size`` (w, h) with the text starting at ``local``: the glyphs' coverage grown by ``radius``."""
    key = (text, scale, thickness, radius, size, local)
    keep = _HALOS.get(key)
    if keep is None:
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.putText(mask, text, local, FONT, scale, 255, thickness, cv2.LINE_AA)
        kernel = _HALO_KERNELS.get(radius)
        if kernel is None:
            kernel = _HALO_KERNELS[radius] = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2)
        # The cloth under the outline keeps 1 - (1 - HALO_KEEP) * coverage of its light (soft edges).
        grey = cv2.convertScaleAbs(cv2.dilate(mask, kernel), alpha=HALO_KEEP - 1, beta=255)
        keep = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
        if len(_HALOS) >= _HALOS_MAX:
            _HALOS.clear()
        _HALOS[key] = keep
    return keep


def annotate(
    image: Image,
    *,
    profile: CalibrationProfile | None = None,
    detections: Detections | None = None,
    state: Mapping[str, Any] | None = None,
    status: PipelineStatus | None = None,
) -> Image:
    """A copy of ``image`` with the overlay drawn on it.

    ``detections`` are in top-down pile pixels (what the detector saw) and are mapped back onto the
    camera frame through ``profile``; ``state`` is a referee snapshot (turn, direction, colour, top
    card); ``status`` the pipeline's health (fps, camera state).
    """
    scene = image.copy()
    h, w = scene.shape[:2]
    scale = max(0.5, w / 1280)  # the stream is often 960 px wide: labels stay legible there
    # Detections are in the pile view of the profile they were made with; the frame drawn on may be
    # scaled down from that profile's camera frame (a smaller stream).
    given = profile or CalibrationProfile.whole_frame(w, h)
    fitted = given.fitted(w, h)
    lang = find_language(str(state.get("lang") or "")) if state else "en"
    _draw_zones(scene, fitted, scale, lang)
    if detections is not None and len(detections):
        _draw_detections(scene, detections, given, scale, lang)
    _draw_seats(scene, fitted, state, seats_guessed(status), scale, lang)
    if state:
        _draw_panel(scene, state, scale, lang)
        direction = state.get("direction")
        if direction in (1, -1) and fitted.seats:
            _draw_direction(scene, fitted, int(direction))
    if status:
        fps = status.get("fps")
        camera = status.get("camera")
        parts = [f"{fps:.1f} fps" if isinstance(fps, (int, float)) else "", str(camera or "")]
        _text(scene, "  ".join(p for p in parts if p), (8, h - 10), scale * 0.6, (230, 230, 230))
    return scene


def _draw_zones(scene: Image, profile: CalibrationProfile, scale: float, lang: str) -> None:
    """The pile zone's outline (none for the whole frame) and the stock's, named."""
    if not profile.is_whole_frame:
        cv2.polylines(scene, [np.round(profile.pile).astype(np.int32)], True, (255, 255, 255), 2, cv2.LINE_AA)
    if profile.stock is not None:
        cv2.polylines(scene, [np.round(profile.stock).astype(np.int32)], True, (180, 180, 180), 1, cv2.LINE_AA)
        sx, sy = np.min(profile.stock, axis=0)
        _text(scene, phrase("view_stock", lang), (int(sx), int(sy) - 6), scale * 0.6, (220, 220, 220))


def _draw_detections(scene: Image, detections: Detections, given: CalibrationProfile, scale: float,
                     lang: str) -> None:
    """Each card's box (top-down pile pixels of ``given``, mapped onto ``scene``), in its colour and words."""
    h, w = scene.shape[:2]
    scale_xy = np.array([w / given.image_size[0], h / given.image_size[1]], np.float32)
    for i in range(len(detections)):
        x1, y1, x2, y2 = (float(v) for v in detections.xyxy[i])
        corners = np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], np.float32)
        pts = given.pile_to_image(corners) * scale_xy
        label = detections.labels[i] if detections.labels else str(int(detections.class_id[i]))
        colour = _colour_of(label)
        cv2.polylines(scene, [np.round(pts).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        tx, ty = (int(v) for v in pts.min(axis=0))
        _text(scene, f"{card_words(label, lang)} {float(detections.confidence[i]):.2f}", (tx, max(ty - 6, 12)),
              scale * 0.6, _light(colour))


def _draw_seats(scene: Image, profile: CalibrationProfile, state: Mapping[str, Any] | None, guessed: bool,
                scale: float, lang: str) -> None:
    """A marker at each seat (lit for the player whose turn it is; a broken ring where seats are
    ``guessed``), its number in it, the player's name and hand size above it."""
    h, w = scene.shape[:2]
    turn = state.get("turn") if state else None
    names = list(state.get("names") or []) if state else []
    counts = list(state.get("hand_counts") or []) if state else []
    radius = max(12, round(18 * scale))
    for seat, (px, py) in enumerate(profile.seats):
        x = int(min(max(px, radius + 4), w - radius - 4))  # the whole marker, its outline too, in the frame
        y = int(min(max(py, radius + 4), h - radius - 4))
        active = seat == turn
        if guessed:  # where the seats are not found yet: a broken ring, and the number asks
            _dashed_circle(scene, (x, y), radius, (0, 215, 255) if active else (150, 150, 150))
        else:
            cv2.circle(scene, (x, y), radius, (0, 215, 255) if active else (90, 90, 90), -1 if active else 2,
                       cv2.LINE_AA)
        name = player_words(seat, lang, names)  # as people count seats: Player 1 is seat 0
        if seat < len(counts) and counts[seat] is not None:
            name += f" ({counts[seat]})"
        mark = f"{seat + 1}?" if guessed else str(seat + 1)
        _text(scene, mark, (x - radius // 3 - (radius // 4 if guessed else 0), y + radius // 3), scale * 0.6,
              (255, 255, 255))
        # Above the marker, or below it when the marker is at the frame's top; inside the frame either way.
        (tw, th), _ = _text_size(plain(name), scale * 0.7, max(1, round(scale * 1.4)))
        above = y - radius - 6
        _text(scene, name, (x - tw // 2, above if above - th > 0 else y + radius + th + 6), scale * 0.7,
              (255, 255, 255))


def seats_guessed(status: PipelineStatus | None) -> bool:
    """The pipeline is finding the table from the footage and has not found the seats yet (its status's
    ``table`` is why, else ``"found"``): the seats drawn are guesses."""
    table = status.get("table") if status else None
    return isinstance(table, str) and table != "found"


def _dashed_circle(scene: Image, centre: tuple[int, int], radius: int, colour: tuple[int, int, int]) -> None:
    """A ring of 8 dashes: a seat drawn where it is guessed, not found."""
    for k in range(8):
        start = k * 45
        cv2.ellipse(scene, centre, (radius, radius), 0, start, start + 24, colour, 2, cv2.LINE_AA)


def _draw_panel(scene: Image, state: Mapping[str, Any], scale: float, lang: str = "en") -> None:
    top = state.get("top_card")
    colour = state.get("colour")
    turn = state.get("turn")
    names = list(state.get("names") or [])
    lines = [phrase("view_top", lang, card=card_words(str(top), lang) if top else "-"),
             phrase("view_colour", lang, colour=colour_words(str(colour), lang) if colour else "-"),
             phrase("view_turn", lang, player=player_words(turn, lang, names) if isinstance(turn, int) else "-")]
    if state.get("round_over"):
        lines[2] = phrase("turn_round_over", lang)
    if state.get("pending_draw"):
        lines.append(phrase("view_to_draw", lang, n=state["pending_draw"]))
    x, y = 10, int(30 * scale) + 6
    swatch = SWATCH.get(str(colour), NEUTRAL)
    cv2.rectangle(scene, (x, y - int(20 * scale)), (x + int(24 * scale), y + int(4 * scale)), swatch, -1)
    for k, line in enumerate(lines):
        _text(scene, line, (x + int(32 * scale), y + k * int(28 * scale)), scale * 0.7, (255, 255, 255))


def _draw_direction(scene: Image, profile: CalibrationProfile, direction: int) -> None:
    """An arc around the pile with an arrow head: clockwise (1) or counter-clockwise (-1)."""
    cx, cy = profile.pile_centre
    w = profile.image_size[0]
    r = int(min(w, profile.image_size[1]) * 0.12)
    start, end = (200, 340) if direction == 1 else (340, 200)
    cv2.ellipse(scene, (int(cx), int(cy)), (r, r), 0, min(start, end), max(start, end), (0, 215, 255), 2, cv2.LINE_AA)
    a = math.radians(end)
    tip = (int(cx + r * math.cos(a)), int(cy + r * math.sin(a)))
    back = math.radians(end - 12 * direction)
    tail = (int(cx + r * math.cos(back)), int(cy + r * math.sin(back)))
    cv2.arrowedLine(scene, tail, tip, (0, 215, 255), 2, cv2.LINE_AA, tipLength=1.0)


def encode_jpeg(image: Image, quality: int = 75) -> bytes:
    """JPEG bytes for ``session.set_frame``."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return bytes(buf.tobytes())
