#!/bin/bash
# Train a round of the detector on a lent GPU machine (round 7: one H100, 16 cores, no network).
#
#   bash models/train_on_gpu.sh start [WAIT_S]   install carried wheels, generate data, train in the background
#   bash models/train_on_gpu.sh wait WAIT_S      wait (at most WAIT_S), then copy the run's files to $OUT
#
# The machine has torch but not ultralytics: carry ultralytics and what it needs as wheels in .whl/
# (see models/MODEL_CARD.md, round 7). Settings come from the environment; the defaults are round 7's.
# Training runs detached (setsid), so it outlives one call; each `wait` call brings back results.csv and
# the weights so far, so nothing is lost if the machine goes back early.
set -u
NAME=${NAME:-gpu7} SEED=${SEED:-12} IMAGES=${IMAGES:-70000} HOURS=${HOURS:-0.34}
LR0=${LR0:-0.008} LRF=${LRF:-0.02} MODEL=${MODEL:-models/detector.pt} OUT=${OUT:-/tmp/out}
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
referee() { python3 -c "from referee.cli import main; raise SystemExit(main())" "$@"; }
running() { pgrep -f "referee.cli import main" >/dev/null; }

if [ "${1:-}" = start ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
  nvidia-smi -L
  python3 -c "import ultralytics, torch; print('ultralytics', ultralytics.__version__, 'torch', torch.__version__, torch.cuda.is_available())" || exit 1
  t0=$(date +%s)
  referee synth --out "datasets/$NAME" --train "$IMAGES" --val 500 --imgsz 320 --workers "$(nproc)" --seed "$SEED" 2>&1 | tail -1
  echo "synth: $(( $(date +%s) - t0 )) s"
  mkdir -p runs  # ignored by git, so it survives the tree being copied again for the next call
  setsid nohup python3 -c "from referee.cli import main; raise SystemExit(main())" train --data "datasets/$NAME/data.yaml" \
    --model "$MODEL" --epochs 400 --imgsz 320 --batch 128 --device 0 --hours "$HOURS" --cache --name "$NAME" \
    --set workers=$(( $(nproc) - 1 )) --set amp=true --set optimizer=SGD --set lr0="$LR0" --set lrf="$LRF" \
    --set warmup_epochs=1 --set close_mosaic=5 > "runs/$NAME.log" 2>&1 < /dev/null &
  set -- wait "${2:-300}"
fi
if [ "${1:-}" = wait ]; then
  end=$(( $(date +%s) + ${2:-300} ))
  while [ "$(date +%s)" -lt $end ] && running; do sleep 10; done
  echo "--- $(date): training $(running && echo running || echo finished)"
  mkdir -p "$OUT"
  tr '\r' '\n' < "runs/$NAME.log" | grep -v '^\s*$' | tail -5
  cut -d, -f1-9 "runs/$NAME/results.csv" 2>/dev/null
  for f in results.csv args.yaml weights/best.pt weights/last.pt; do [ -f "runs/$NAME/$f" ] && cp "runs/$NAME/$f" "$OUT/"; done
  ls -la "$OUT"
fi
