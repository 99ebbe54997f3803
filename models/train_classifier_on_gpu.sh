#!/bin/bash
# Train a round of the face classifier on a lent GPU machine (one H100 or H200, 16 cores, no network), in one call:
#
#   bash models/train_classifier_on_gpu.sh        generate crops on every core, fine-tune on the GPU, export
#
# The machine has torch, onnx, cv2 and numpy but not the train extra's font packages (the display typefaces
# of the fourth design generator): carry them as wheels in .whl/ (`pip download --no-deps -d .whl font-lato
# font-fredoka-one font-rhd font-manrope font-source-sans-pro font-fjallaone font-hanken-grotesk`).
# It calls the two steps' modules, not `referee`'s command line (that would import the web server's
# packages, which the machine lacks). Settings come from the environment; the defaults are round 5's.
# VARIANTS trains one model per word on the same crops, side by side on the one GPU: `plain` (round 4's
# augmentation) and `camera` (`referee train-classifier --camera`: tilt, blur, sensor noise, a stronger
# cast); each comes back as $OUT/<variant>.onnx, .pt and .train.json. A training past TRAIN_S seconds is
# stopped; its best epoch so far is already in <variant>.pt (export it with `referee train-classifier`'s
# export_onnx).
set -u
NAME=${NAME:-crops5} SEED=${SEED:-72} SCENES=${SCENES:-52000} VAL=${VAL:-3000} EPOCHS=${EPOCHS:-20}
LR=${LR:-1.5e-3} BATCH=${BATCH:-512} DEVICE=${DEVICE:-cuda} WEIGHTS=${WEIGHTS:-models/classifier.pt} OUT=${OUT:-/tmp/out}
RECIPE=${RECIPE:-datasets/crops5-recipe.json} VARIANTS=${VARIANTS:-plain camera} TRAIN_S=${TRAIN_S:-300}
CUT_SHARE=${CUT_SHARE:-0.0}  # `referee synth --cut-share`: cards also cut by a frame edge across them
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/font_*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi -L
mkdir -p "$OUT"
t0=$(date +%s)
# The generator's worker processes start from a fresh interpreter (forkserver), which re-imports the main
# script: it must be a file (not stdin) whose work sits under a __main__ guard.
cat > /tmp/synth_crops.py <<PY
import argparse, logging, os
from pathlib import Path
from referee.synth.command import main
if __name__ == "__main__":
    from referee.synth.fonts import display_font
    from referee.synth.render import _TYPEFACES
    missing = [t for t in _TYPEFACES if display_font(t) is None]
    assert not missing, f"typefaces missing: {missing}"
    logging.basicConfig(level=logging.INFO)
    raise SystemExit(main(argparse.Namespace(out=Path("datasets/$NAME"), train=$SCENES, val=$VAL, seed=$SEED,
                                             imgsz=384, workers=os.cpu_count(), recipe=Path("$RECIPE"), crops=True,
                                             cut_share=$CUT_SHARE)))
PY
python3 /tmp/synth_crops.py 2>&1 | tr '\r' '\n' | grep -v '^crops:' | tail -3
echo "synth: $(( $(date +%s) - t0 )) s"
cp "datasets/$NAME/crops.json" "$OUT/crops.json" 2>/dev/null
for variant in $VARIANTS; do
  camera=False; [ "$variant" = camera ] && camera=True
  timeout "$TRAIN_S" python3 - > "/tmp/$variant.log" 2>&1 <<PY &
import argparse, logging
from pathlib import Path
from referee.train_classifier import main
logging.basicConfig(level=logging.INFO)
raise SystemExit(main(argparse.Namespace(data=Path("datasets/$NAME"), epochs=$EPOCHS, batch=$BATCH, lr=$LR,
                                         weights=Path("$WEIGHTS"), out=Path("$OUT/$variant.onnx"), seed=0,
                                         device="$DEVICE", camera=$camera, log=Path("$OUT/$variant.train.json"))))
PY
done
wait
for variant in $VARIANTS; do echo "--- $variant"; grep -v -i warning "/tmp/$variant.log" | tail -4 | cut -c1-400; done
echo "total: $(( $(date +%s) - t0 )) s"
ls -la "$OUT"
