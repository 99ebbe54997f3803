"""Every `referee run` ends with exit status 0 and every thread joined, on a loaded machine too (issue 48).

A thread still running native code when the process exits (the clip writer inside its encoder, the
capture inside its decoder, an onnxruntime pool) aborts it after its last frame: ``terminate called
without an active exception``, exit status -6 (SIGABRT), with a log that is otherwise whole. It showed
with two runs at once, and not alone: the load decides whether a thread is still busy at the end.

This runs ``referee run --source CLIP --no-serve`` (no calibration: the table finder on, instant replays
on, as shipped) ``--at-once`` times side by side, ``--rounds`` times over, on the bench's footage (a card
landing every second, so a clip to write every second), and prints one JSON line: the exit status of
every run, and the runs that failed (a status other than 0, or an abort's words on standard error).
Exit status 1 when any failed.

    python benchmarks/stress_exit.py                       # 3 rounds of 2 at once, 150 frames each
    python benchmarks/stress_exit.py --rounds 5 --at-once 3 --frames 300
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.bench import make_clip  # noqa: E402

#: What a process that died in native code at exit leaves on standard error.
ABORT_WORDS = ("terminate called", "Fatal Python error", "Segmentation fault", "core dumped", "Aborted")


def run_round(clip: Path, work: Path, at_once: int, round_no: int, timeout: float) -> list[dict[str, object]]:
    """``at_once`` runs started together; each one's status, seconds and any abort's words."""
    procs = []
    for i in range(at_once):
        cwd = work / f"r{round_no}-{i}"  # the table found is saved under the working folder
        cwd.mkdir()
        err = (cwd / "stderr.txt").open("w")
        cmd = [sys.executable, "-m", "referee.cli", "run", "--source", str(clip), "--no-serve",
               "--log", str(cwd / "log.jsonl")]
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        procs.append((cwd, err, time.monotonic(),
                      subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env=env)))
    results: list[dict[str, object]] = []
    for cwd, err, start, proc in procs:
        try:
            status: int | None = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            status = None
        err.close()
        text = (cwd / "stderr.txt").read_text(errors="replace")
        aborts = [w for w in ABORT_WORDS if w in text]
        results.append({"round": round_no, "run": cwd.name, "status": status,
                        "seconds": round(time.monotonic() - start, 1), "abort": aborts,
                        "log_lines": sum(1 for _ in (cwd / "log.jsonl").open()) if (cwd / "log.jsonl").is_file()
                        else 0})
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--at-once", type=int, default=2)
    parser.add_argument("--frames", type=int, default=150, help="frames of bench footage (a card a second)")
    parser.add_argument("--size", default="1280x720", help="the footage's size, WxH")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a run may take")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory(prefix="referee-stress-") as tmp:
        work = Path(tmp)
        clip = work / "clip.avi"
        make_clip(clip, args.frames, (w, h))
        runs = [r for n in range(args.rounds) for r in run_round(clip, work, args.at_once, n, args.timeout)]
    failed = [r for r in runs if r["status"] != 0 or r["abort"]]
    print(json.dumps({"runs": len(runs), "at_once": args.at_once, "frames": args.frames,
                      "load_avg_1m": round(os.getloadavg()[0], 1),
                      "statuses": [r["status"] for r in runs], "failed": failed,
                      "seconds": [r["seconds"] for r in runs]}))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
