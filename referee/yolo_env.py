"""Keep ultralytics offline, quiet and using both cores. Call :func:`prepare` before importing it.

ultralytics otherwise tries to download fonts, check for updates, auto-install packages and
pretrained weights, none of which can work (or should happen) on a table referee's machine.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _find_ttf() -> Path | None:
    candidates = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]
    try:
        import matplotlib

        candidates.append(Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf")
    except ImportError:
        pass
    return next((p for p in candidates if p.is_file()), None)


def prepare(threads: int | None = None) -> Path:
    """Set ultralytics' environment (offline, no auto-install, project-local config); return its dir."""
    config_dir = Path(os.environ.get("YOLO_CONFIG_DIR", PROJECT_ROOT / ".yolo"))
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "False")
    os.environ.setdefault("YOLO_VERBOSE", "False")
    n = threads or os.cpu_count() or 1
    os.environ.setdefault("OMP_NUM_THREADS", str(n))
    font = config_dir / "Arial.ttf"
    if not font.exists() and (ttf := _find_ttf()) is not None:
        shutil.copyfile(ttf, font)
        shutil.copyfile(ttf, config_dir / "Arial.Unicode.ttf")
    settings = config_dir / "settings.json"
    if not settings.exists():
        settings.write_text('{"sync": false, "hub": false}\n')
    return config_dir


def tune_threads(threads: int | None = None) -> None:
    """After importing ultralytics: let CPU training use every core (it keeps one free by default)."""
    import ultralytics.utils as uu
    import ultralytics.utils.torch_utils as tu

    n = threads or os.cpu_count() or 1
    uu.NUM_THREADS = n
    tu.NUM_THREADS = n
