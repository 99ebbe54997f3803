"""Glyph masks for card symbols: a real bold TrueType font through Pillow when one is installed,
OpenCV's Hershey stroke fonts otherwise.

Every function returns a tight ``uint8`` mask (255 = ink) so callers can scale, shear and colour it.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["available_fonts", "display_font", "text_mask"]

log = logging.getLogger(__name__)

Mask = NDArray[np.uint8]

# Bold (italic) sans faces look most like printed UNO numerals; the first ones found are used.
_WANTED = (
    "DejaVuSans-BoldOblique.ttf",
    "LiberationSans-BoldItalic.ttf",
    "DejaVuSansCondensed-BoldOblique.ttf",
    "LiberationSansNarrow-BoldItalic.ttf",
    "DejaVuSans-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "FreeSansBoldOblique.ttf",
    "FreeSansBold.ttf",
)
_HERSHEY = ("hershey:duplex", "hershey:triplex", "hershey:simplex")

#: Heavier and rounder display faces, from the ``font-*`` packages of the ``train`` extra (each a
#: typeface's files under ``<package>/files``): printed UNO numerals are a heavy, round, slightly
#: italic face that none of the system fonts above resembles, and a reader that has seen a dozen
#: type designs reads a thirteenth better than one that has seen six. Designs name them by file.
_FONT_PACKAGES = (
    "font_fredoka_one",
    "font_lato",
    "font_rhd",
    "font_manrope",
    "font_source_sans_pro",
    "font_fjallaone",
    "font_hanken_grotesk",
)


def _font_dirs() -> list[Path]:
    dirs = [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts"]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            dirs.append(Path(loc) / "mpl-data" / "fonts" / "ttf")
    return [d for d in dirs if d.is_dir()]


@functools.cache
def available_fonts() -> tuple[str, ...]:
    """Font keys usable by :func:`text_mask`: TrueType paths found on this machine, then Hershey."""
    found: dict[str, str] = {}
    try:
        import PIL.ImageFont  # noqa: F401
    except ImportError:  # pragma: no cover - pillow ships with the project's deps
        log.warning("Pillow missing: card symbols fall back to Hershey stroke fonts")
        return _HERSHEY
    for directory in _font_dirs():
        for path in directory.rglob("*.ttf"):
            if path.name in _WANTED and path.name not in found:
                found[path.name] = str(path)
    ordered = tuple(found[name] for name in _WANTED if name in found)
    if not ordered:
        log.warning("no TrueType font found: card symbols use Hershey stroke fonts")
    return ordered + _HERSHEY


@functools.cache
def _display_fonts() -> dict[str, str]:
    found: dict[str, str] = {}
    for package in _FONT_PACKAGES:
        spec = importlib.util.find_spec(package)
        for loc in (spec.submodule_search_locations or []) if spec is not None else []:
            for path in sorted(Path(loc, "files").glob("*.[to]tf")):
                found.setdefault(path.name, str(path))
    return found


def display_font(name: str) -> str | None:
    """The path of the display typeface file ``name`` (e.g. ``"Lato-Black.ttf"``), or None when its
    package is not installed (``pip install -e ".[train]"`` installs them); says so once."""
    path = _display_fonts().get(name)
    if path is None and name not in _missing:
        _missing.add(name)
        log.warning("typeface %s not installed (the train extra's font packages): its designs use a system font",
                    name)
    return path


_missing: set[str] = set()


def _crop(mask: Mask) -> Mask:
    ys, xs = np.nonzero(mask > 32)
    if len(xs) == 0:
        return mask[:1, :1]
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


@functools.lru_cache(maxsize=512)
def _raw_text(text: str, font: str, size: int) -> Mask:
    if font.startswith("hershey:"):
        face = {
            "hershey:duplex": cv2.FONT_HERSHEY_DUPLEX,
            "hershey:triplex": cv2.FONT_HERSHEY_TRIPLEX,
            "hershey:simplex": cv2.FONT_HERSHEY_SIMPLEX,
        }[font]
        scale = size / 22.0
        thick = max(2, round(size / 7))
        (w, h), base = cv2.getTextSize(text, face, scale, thick)
        canvas = np.zeros((h + base + 4 * thick, w + 4 * thick), np.uint8)
        cv2.putText(canvas, text, (2 * thick, h + 2 * thick), face, scale, 255, thick, cv2.LINE_AA)
        return _crop(canvas)
    from PIL import Image, ImageDraw, ImageFont

    pil_font = ImageFont.truetype(font, size)
    left, top, right, bottom = (int(v) for v in pil_font.getbbox(text))
    image = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(image).text((4 - left, 4 - top), text, font=pil_font, fill=255)
    return _crop(np.asarray(image, dtype=np.uint8).copy())


def text_mask(text: str, font: str, height: int, *, shear: float = 0.0, width_scale: float = 1.0) -> Mask:
    """A tight mask of ``text`` whose ink is ``height`` pixels tall, sheared right by ``shear``."""
    raw = _raw_text(text, font, max(8, int(height * 1.3)))
    h, w = raw.shape
    new_w = max(1, round(w * height / h * width_scale))
    mask: Mask = cv2.resize(raw, (new_w, height), interpolation=cv2.INTER_AREA)
    if shear:
        pad = int(abs(shear) * height) + 2
        m = np.array([[1.0, -shear, shear * height if shear > 0 else 0.0], [0.0, 1.0, 0.0]])
        mask = cv2.warpAffine(mask, m, (new_w + pad, height), flags=cv2.INTER_LINEAR)
    return mask
