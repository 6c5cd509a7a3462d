#!/bin/sh
# The recipe's fully honest figures, by cross-validation: for each fifth N of FOLDS
# (default all five), rebuild.sh with ALL=0 VISION_HELD_BACK=N (the detector, its size
# gain, the mining and both classifiers, none of them seeing fifth N) in a git worktree of
# HEAD of its own (the shipped models in vision/models are not touched), its held-back
# photos scored and saved (`python -m vision evaluate --split held-back --save`), then every
# fold saved so far pooled (`python -m vision pool`). With the five fifths, every
# development photo is read once by models that never saw it: the figure the F1 target is
# judged on (docs/VISION.md, "Where it stands"). About 70 min a fold on a 2 vCPU machine.
#   PY=.venv-train/bin/python sh vision/training/crossval.sh
#   FOLDS="3 4" PY=.venv-train/bin/python sh vision/training/crossval.sh
#   STEPS_DIV=100 FOLDS=2 PY=.venv-train/bin/python sh vision/training/crossval.sh  # smoke run
# OUT (default vision/training/cache/crossval, git-ignored) gets foldN.log and foldN.json;
# a fold's file is replaced when the fold is run again, so the pool holds one run of each
# fifth. KEEP=1 keeps each fold's worktree (OUT/treeN, its models in vision/models).
# PARALLEL (default 1) and STEPS_DIV are rebuild.sh's. The folds train what HEAD holds:
# commit first. A training run on another kind of processor differs (docs/VISION.md).
set -e
PY=${PY:-python}
case $PY in */*) PY=$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY") ;; esac
FOLDS=${FOLDS:-"0 1 2 3 4"}
# a fold reads both classifiers of its own run: rebuild.sh's CHAINS (one chain alone) would
# leave the shipped other classifier, which saw every photo, in the fold's reading
case ${CHAINS:-ab} in ab) ;; *) echo "CHAINS=$CHAINS: crossval.sh trains both classifiers; unset it"; exit 2 ;; esac
OUT=${OUT:-vision/training/cache/crossval}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CARDDATA_DIR=${CARDDATA_DIR:-$(PYTHONPATH=. $PY -c 'from vision.labels import carddata_dir; print(carddata_dir().resolve())')}
export CARDDATA_DIR
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "note: uncommitted changes are not in the folds, which train HEAD $(git rev-parse --short HEAD)"
fi
for N in $FOLDS; do
  case $N in 0|1|2|3|4) ;; *) echo "FOLDS: $N is not a fifth (0-4)"; exit 2 ;; esac
  W=$OUT/tree$N
  rm -f "$OUT/fold$N.json"
  if [ -e "$W" ]; then git worktree remove --force "$W"; fi
  git worktree add --detach "$W" HEAD > /dev/null
  echo "fifth $N: training in $W from $(date -u +%H:%M) UTC, log $OUT/fold$N.log"
  if (cd "$W" && ALL=0 VISION_HELD_BACK=$N PARALLEL=${PARALLEL:-1} PY=$PY \
        sh vision/training/rebuild.sh > "$OUT/fold$N.log" 2>&1 &&
      VISION_HELD_BACK=$N PYTHONPATH=. $PY -m vision evaluate --split held-back \
        --save "$OUT/fold$N.json" >> "$OUT/fold$N.log" 2>&1); then
    echo "fifth $N: done $(date -u +%H:%M) UTC"
  else
    echo "fifth $N: failed, the end of its log:"; tail -n 20 "$OUT/fold$N.log"; exit 1
  fi
  if [ "${KEEP:-0}" != 1 ]; then git worktree remove --force "$W"; fi
done
PYTHONPATH=. $PY -m vision pool "$OUT"/fold*.json
