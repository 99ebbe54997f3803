#!/bin/bash
# Train a round of the face classifier on a lent GPU machine (one H100, 16 cores, no network), in one call:
#
#   bash models/train_classifier_on_gpu.sh        generate crops on every core, fine-tune on the GPU, export
#
# The machine has torch, onnx, cv2 and numpy but not the train extra's font packages (the display typefaces
# of the fourth design generator): carry them as wheels in .whl/ (`pip download --no-deps -d .whl font-lato
# font-fredoka-one font-rhd font-manrope font-source-sans-pro font-fjallaone font-hanken-grotesk`).
# It calls the two steps' modules, not `referee`'s command line (that would import the web server's
# packages, which the machine lacks). Settings come from the environment; the defaults are round 4's.
set -u
NAME=${NAME:-crops4} SEED=${SEED:-70} SCENES=${SCENES:-80000} VAL=${VAL:-1500} EPOCHS=${EPOCHS:-14}
LR=${LR:-1.5e-3} BATCH=${BATCH:-512} DEVICE=${DEVICE:-cuda} WEIGHTS=${WEIGHTS:-models/classifier.pt} OUT=${OUT:-/tmp/out}
RECIPE=${RECIPE:-datasets/crops-recipe.json}
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/font_*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi -L
mkdir -p "$OUT"
t0=$(date +%s)
python3 - <<PY 2>&1 | tr '\r' '\n' | grep -v '^crops:' | tail -3
import argparse, logging, os
from pathlib import Path
from referee.synth.fonts import display_font
from referee.synth.render import _TYPEFACES
missing = [t for t in _TYPEFACES if display_font(t) is None]
assert not missing, f"typefaces missing: {missing}"
from referee.synth.command import main
logging.basicConfig(level=logging.INFO)
raise SystemExit(main(argparse.Namespace(out=Path("datasets/$NAME"), train=$SCENES, val=$VAL, seed=$SEED, imgsz=384,
                                         workers=os.cpu_count(), recipe=Path("$RECIPE"), crops=True)))
PY
echo "synth: $(( $(date +%s) - t0 )) s"
python3 - <<PY 2>&1 | grep -v -i warning | tail -25
import argparse, logging
from pathlib import Path
from referee.train_classifier import main
logging.basicConfig(level=logging.INFO)
raise SystemExit(main(argparse.Namespace(data=Path("datasets/$NAME"), epochs=$EPOCHS, batch=$BATCH, lr=$LR,
                                         weights=Path("$WEIGHTS"), out=Path("$OUT/classifier.onnx"), seed=0,
                                         device="$DEVICE", log=Path("$OUT/classifier.train.json"))))
PY
cp "datasets/$NAME/crops.json" "$OUT/crops.json" 2>/dev/null
echo "total: $(( $(date +%s) - t0 )) s"
ls -la "$OUT"
