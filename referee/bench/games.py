"""``referee bench --games N`` / ``referee bench VIDEO...``: the pipeline on generated games, scored against
their truth (plays, cards, seats, draws, alerts per code), with the ground-truth detector or the model, and a
detector's typical faults on demand (:class:`NoisyDetector`).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.cards import CLASSIC_COLOURS
from referee.contract import Line
from referee.pipeline import Pipeline
from referee.readers import open_classifier
from referee.vision.capture import DEFAULT_FPS, Capture
from referee.vision.detections import Detections, Detector

Image = npt.NDArray[np.uint8]


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile of ``values``, rounded to 0.1 (``None`` for none)."""
    return None if not values else round(float(np.percentile(np.asarray(values), q)), 1)


class NoisyDetector:
    """Wraps a detector (the ground-truth oracle) with a detector's typical faults, for the tracker's
    robustness: boxes lost (``drop``), jittered (``jitter`` px), colours misread with low colour
    confidence (``misread``), faces misread with a lower score, and ghost boxes (``ghost``)."""

    def __init__(self, inner: Any, *, seed: int = 0, drop: float = 0.1, jitter: float = 3.0,
                 misread: float = 0.05, ghost: float = 0.02) -> None:
        self.inner = inner
        self.rng = np.random.default_rng(seed)
        self.drop, self.jitter, self.misread, self.ghost = drop, jitter, misread, ghost

    @property
    def face_names(self) -> tuple[str, ...]:
        return tuple(self.inner.face_names)

    @property
    def frame_index(self) -> int | None:
        return getattr(self.inner, "frame_index", None)

    @frame_index.setter
    def frame_index(self, value: int | None) -> None:
        self.inner.frame_index = value

    def detect(self, image: Image) -> Detections:
        from referee.cards import Card

        d = self.inner.detect(image)
        rng = self.rng
        boxes, conf, labels, cconf = [], [], [], []
        for i in range(len(d)):
            if rng.random() < self.drop:
                continue
            box = d.xyxy[i] + rng.normal(0, self.jitter, 4).astype(np.float32)
            label, c, cc = d.labels[i], float(d.confidence[i]), float(d.colour_confidence[i])
            if rng.random() < self.misread:
                card = Card.from_label(label)
                if card.colour is None:  # the two black cards look alike
                    label, c = ("wild_draw4" if card.value == "wild" else "wild"), 0.5
                elif rng.random() < 0.7:
                    other = [x for x in CLASSIC_COLOURS if x != card.colour]
                    label, cc = card.with_colour(other[int(rng.integers(0, len(other)))]).label, 0.45
                else:
                    label, c = f"{card.colour.value}_{'7' if card.value != '7' else '1'}", 0.5
            boxes.append(box)
            conf.append(c)
            labels.append(label)
            cconf.append(cc)
        if rng.random() < self.ghost:
            h, w = image.shape[:2]
            x, y = rng.uniform(0, w - 60), rng.uniform(0, h - 90)
            boxes.append(np.array([x, y, x + 60, y + 90], np.float32))
            conf.append(0.4)
            labels.append("blue_3")
            cconf.append(0.9)
        if not boxes:
            return Detections.empty()
        n = len(boxes)
        return Detections(np.asarray(boxes, np.float32), np.asarray(conf, np.float32), np.zeros(n, np.int64),
                          tuple(labels), np.asarray(cconf, np.float32))


def evaluate_games(videos: Sequence[Path], detector: Detector | None, *, noise: bool = False) -> dict[str, Any]:
    """:func:`evaluate_game` over several videos, pooled (counts summed before the ratios)."""
    per_game = [evaluate_game(v, detector, noise=noise, noise_seed=i) for i, v in enumerate(videos)]
    pooled: dict[str, Any] = {"games": len(per_game), "detector": per_game[0]["detector"] if per_game else None}
    plays = sum(g["plays"] for g in per_game)
    found = sum(round((g["play_recall"] or 0) * g["plays"]) for g in per_game)
    extra = sum(len([x for x in g["extra"] if x.get("type") in ("start", "play")]) for g in per_game)
    wrong_cards = sum(1 for g in per_game for w, s in g["wrong"] if w.get("card") != s.get("card"))
    wrong_seats = sum(1 for g in per_game for w, s in g["wrong"]
                      if w.get("type") == "play" and w.get("seat") != s.get("seat"))
    draws = sum(g["draws"] for g in per_game)
    draws_found = sum(round((g["draw_recall"] or 0) * g["draws"]) for g in per_game)
    extra_draws = sum(len([x for x in g["extra"] if x.get("type") == "draw"]) for g in per_game)
    pooled.update({
        "plays": plays,
        "play_recall": _ratio(found, plays),
        "play_precision": _ratio(found, found + extra),
        "false_plays": extra,
        "card_accuracy": _ratio(found - wrong_cards, found),
        "seat_accuracy": _ratio(found - wrong_seats, found),
        "draws": draws,
        "draw_recall": _ratio(draws_found, draws),
        "draw_precision": _ratio(draws_found, draws_found + extra_draws),
    })
    alerts: dict[str, dict[str, int]] = {}
    for g in per_game:
        for code, a in g["alerts"].items():
            slot = alerts.setdefault(code, {"expected": 0, "raised": 0, "hit": 0})
            slot["expected"] += a["expected"]
            slot["raised"] += a["raised"]
            slot["hit"] += round((a["recall"] or 0) * a["expected"])
    delays = [d for g in per_game for d in g["confirm_delays_ms"]]
    pooled["confirm_delay_ms_p50"] = percentile(delays, 50)
    pooled["confirm_delay_ms_p95"] = percentile(delays, 95)
    pooled["alerts"] = {
        code: {"expected": a["expected"], "raised": a["raised"], "recall": _ratio(a["hit"], a["expected"]),
               "precision": _ratio(a["hit"], a["raised"])}
        for code, a in sorted(alerts.items())
    }
    return pooled


def main_games(args: argparse.Namespace, detector: Detector | None) -> int:
    from referee.synth.video import VideoConfig, write_video

    videos = list(args.videos)
    with tempfile.TemporaryDirectory() as tmp:
        # Seeds from 1000 up: never the games the tracker was tuned on (seeds < 100).
        for i in range(args.games):
            config = VideoConfig(seconds=args.seconds)
            videos.append(write_video(Path(tmp) / f"game{1000 + i}.mp4", 1000 + i, config).video)
        missing = [v for v in videos if not v.is_file()]
        if missing:
            print(f"referee bench: no such video: {missing[0]}", file=sys.stderr)
            return 2
        print(json.dumps(evaluate_games(videos, detector, noise=getattr(args, "noise", False))))
    return 0



def _match(
    truth: Sequence[Line], seen: Sequence[Line], kinds: tuple[str, ...], before: float = 0.5, after: float = 2.0
) -> list[tuple[Line, Line | None]]:
    """Pair each truth line of ``kinds`` with the first unpaired seen line of the same type within
    ``[t - before, t + after]`` (the same card preferred)."""
    used: set[int] = set()
    pairs: list[tuple[Line, Line | None]] = []
    for want in (x for x in truth if x.get("type") in kinds):
        t = float(want.get("t") or 0.0)
        window = [
            (i, x) for i, x in enumerate(seen)
            if i not in used and x.get("type") == want["type"] and t - before <= float(x.get("t") or 0.0) <= t + after
        ]
        same = [(i, x) for i, x in window if x.get("card") == want.get("card") and x.get("code") == want.get("code")]
        candidates = same or window
        if not candidates:
            pairs.append((want, None))
        else:
            used.add(candidates[0][0])
            pairs.append((want, candidates[0][1]))
    return pairs


def _ratio(num: int, den: int) -> float | None:
    return None if den == 0 else round(num / den, 4)


def evaluate_game(
    video: Path, detector: Detector | None = None, *, noise: bool = False, noise_seed: int = 0
) -> dict[str, Any]:
    """Run the pipeline over a generated game (its calibration and operator script) and score it
    against the truth: plays, cards, seats, draws, alerts per code. ``detector``: the model; without
    one, the generator's :class:`~referee.synth.oracle.OracleDetector` (tracker and wiring only)."""
    from referee.commands import read_script
    from referee.synth.video import sidecar

    truth = read_script(sidecar(video, "truth"))
    expected = read_script(sidecar(video, "expected"))
    fps = float(json.loads(sidecar(video, "meta").read_text()).get("fps", DEFAULT_FPS))
    seen, outputs = _judge(video, fps, detector, noise=noise, noise_seed=noise_seed)
    cards = _match(truth, seen, ("start", "play"))
    hits = [(w, s) for w, s in cards if s is not None]
    plays = [(w, s) for w, s in hits if w["type"] == "play"]
    draws = _match(truth, seen, ("draw",), before=1.0, after=2.5)
    draw_hits = [(w, s) for w, s in draws if s is not None]
    alerts = _score_alerts(expected, outputs)
    n_seen = sum(1 for x in seen if x.get("type") in ("start", "play"))
    # Video time from a card settling (truth) to the frame on which the tracker believed it.
    delays = [max(0.0, int(s["frame_index"]) / fps - float(w.get("t") or 0.0)) * 1000 for w, s in hits
              if "frame_index" in s]
    return {
        "video": str(video),
        "detector": ("oracle" if detector is None else type(detector).__name__) + ("+noise" if noise else ""),
        "plays": sum(1 for x in truth if x.get("type") in ("start", "play")),
        "play_recall": _ratio(len(hits), len(cards)),
        "play_precision": _ratio(len(hits), n_seen),
        "card_accuracy": _ratio(sum(w.get("card") == s.get("card") for w, s in hits), len(hits)),
        "seat_accuracy": _ratio(sum(w.get("seat") == s.get("seat") for w, s in plays), len(plays)),
        "draws": len(draws),
        "draw_recall": _ratio(len(draw_hits), len(draws)),
        "draw_precision": _ratio(len(draw_hits), sum(1 for x in seen if x.get("type") == "draw")),
        "draw_seat_accuracy": _ratio(sum(w.get("seat") == s.get("seat") for w, s in draw_hits), len(draw_hits)),
        "alerts": alerts,
        "confirm_delays_ms": [round(d, 1) for d in delays],
        "missed": [w for w, s in [*cards, *draws] if s is None],
        "extra": [x for x in seen if x.get("type") in ("start", "play", "draw")
                  and not any(s is x for _, s in [*hits, *draw_hits])],
        "wrong": [(w, s) for w, s in [*hits, *draw_hits]
                  if w.get("card") != s.get("card") or w.get("seat") != s.get("seat")],
    }


def _judge(video: Path, fps: float, detector: Detector | None, *, noise: bool, noise_seed: int
           ) -> tuple[list[Line], list[Line]]:
    """The game through the pipeline with its calibration and operator script: the camera's observations
    and the referee's outputs (each with its observation's ``t``)."""
    from referee.commands import read_script
    from referee.synth.oracle import OracleDetector
    from referee.synth.video import load_boxes, sidecar
    from referee.vision.calibration import CalibrationProfile

    profile = CalibrationProfile.load(sidecar(video, "calibration"))
    script = read_script(sidecar(video, "operator"))
    setup = script.pop(0) if script and script[0].get("type") == "setup" else {"players": profile.players}
    session = _session_for(setup)
    det: Any = detector if detector is not None else OracleDetector(load_boxes(video), profile)
    if noise:
        det = NoisyDetector(det, seed=noise_seed)
    seen: list[Line] = []
    outputs: list[Line] = []

    def listen(event: dict[str, Any]) -> None:
        obs = event.get("observation") or {}
        if event.get("kind") == "observation" and event.get("source") == "camera":
            seen.append(dict(obs))
        outputs.extend(dict(o, t=o.get("t", obs.get("t"))) for o in event.get("outputs") or ())

    session.add_listener(listen)
    pipeline = Pipeline(det, session, profile=profile, players=int(setup.get("players", 4)), fps=fps,
                        script=script, classifier=open_classifier(None, det))
    pipeline.run(Capture(video, realtime=False))
    return seen, outputs


def _score_alerts(expected: Sequence[Line], outputs: Sequence[Line]) -> dict[str, Any]:
    """Per alert code: how many the truth expects, how many were raised, and recall and precision (same code
    and seat, from 1 s before to 3 s after)."""
    alerts: dict[str, Any] = {}
    seen_alerts = [o for o in outputs if o.get("type") == "alert"]
    for code in sorted({str(a.get("code")) for a in [*expected, *seen_alerts] if a.get("type") == "alert"}):
        want = [a for a in expected if a.get("type") == "alert" and a.get("code") == code]
        got = [a for a in seen_alerts if a.get("code") == code]
        paired = [
            (w, s) for w, s in _match(want, got, ("alert",), before=1.0, after=3.0)
            if s is not None and s.get("seat") == w.get("seat")
        ]
        alerts[code] = {"expected": len(want), "raised": len(got), "recall": _ratio(len(paired), len(want)),
                        "precision": _ratio(len(paired), len(got))}
    return alerts


def _session_for(setup: Mapping[str, Any]) -> Any:
    from referee.session import MatchSession
    from referee.store import Store

    return MatchSession(Store(":memory:"), rules=str(setup.get("rules") or "official"),
                        players=int(setup.get("players", 4)), dealer=int(setup.get("dealer") or 0),
                        options=dict(setup.get("options") or {}), hand_size=setup.get("hand_size"))
