#!/bin/sh
# Rebuild the models from the data we have (1 to 3 h of a 2-core machine, by the
# machine: the two classifiers 18-60 min each, the detector 17-40 min, the mining a
# minute). Each
# stage starts from the previous stage's weights (vision/training/cache/, git-ignored).
#   python -m venv .venv-train && .venv-train/bin/pip install -r requirements-vision-train.txt
#   PY=.venv-train/bin/python sh vision/training/rebuild.sh
# Every stage below trains on four fifths of the development photos (never on the
# held-back fifth, vision.labels.is_held_back), and `python -m vision evaluate --split
# held-back` then prints the recipe's honest figures. ALL=1 (the default) then adds a last
# classifier stage on every development photo, candidates mined on all of them too: those
# are the shipped files (with them the held-back rows are training figures). ALL=0 stops
# before it. DETECTOR=keep keeps the detector in vision/models and runs the mining and
# classifier stages only. The detector is trained on four fifths either way (its held-back
# recall stays measurable; detector runs differ by several points of recall from one to
# the next). A rebuild is close to, not bit-identical with, the shipped files.
# VISION_HELD_BACK=N holds back fifth N instead of fifth 0 (vision.labels.held_back_fold;
# crossval.sh runs a fold so, in a worktree of its own). PARALLEL=1 trains the two
# classifiers side by side, one thread each (40-46 min on a 2 vCPU machine, where
# one after the other takes about 1 h 30 min).
# STEPS_DIV=K divides every stage's steps by K: a smoke run that checks the stages chain
# (minutes; its models are worthless).
set -e
PY=${PY:-python}
C=vision/training/cache
ALL=${ALL:-1}
D=${STEPS_DIV:-1}
# CHAINS=a trains the first classifier only, CHAINS=b the second only (default ab, both):
# a paired trial trains one chain in a worktree of its own and reads it beside the other
# worktree's. With one chain the other classifier in vision/models is whatever is there
# (the shipped one saw every photo), so the held-back reading and ALL=1 are skipped.
CHAINS=${CHAINS:-ab}
case $CHAINS in a|b|ab) ;; *) echo "CHAINS: $CHAINS is not a, b or ab"; exit 2 ;; esac
export PYTHONPATH=.
mkdir -p $C
steps() { echo $(( ($1 + D - 1) / D )); }  # a stage's steps, divided by STEPS_DIV
if [ "${DETECTOR:-train}" != keep ]; then
# corner-index detector (CornerNetFast, net.py)
DET="--arch fast --batch 12"
$PY -m vision.training.train $DET --steps $(steps 3500) --lr 3e-3 --synth 0.2 --eval-every $(steps 700) --out $C/fast1.onnx
cp $C/last.pt $C/fast1.pt
$PY -m vision.training.train $DET --init $C/fast1.pt --steps $(steps 4500) --lr 1.5e-3 --synth 0.2 --seed 1 --eval-every $(steps 1500) --out $C/fast2.onnx
cp $C/last.pt $C/fast2.pt
# two fine-tuning stages with the blackgold photos (gold print on black cards, the indices
# the detector found least) drawn three times as often; each starts from the exported
# network (--init an .onnx: batch norms folded, their statistics kept, train.load_onnx)
# DET_SOUP=K (default 1, as shipped) runs these two stages K times from the same start,
# seeds shifted by 100 each time, and ships the mean of the K networks' weights (a model
# soup, vision/training/soup.py: one network, the cost of one at run time;
# docs/VISION_TRIALS.md, "A soup of detector fine-tunes")
K=0
MEMBERS=
while [ $K -lt "${DET_SOUP:-1}" ]; do
$PY -m vision.training.train $DET --init $C/fast2.onnx --steps $(steps 4000) --lr 1.5e-3 --synth 0.15 --seed $((6 + 100 * K)) --repeat phone_blackgold=3 --eval-every $(steps 4000) --out $C/fast3.onnx
$PY -m vision.training.train $DET --init $C/fast3.onnx --steps $(steps 4000) --lr 1e-3 --synth 0.15 --seed $((7 + 100 * K)) --repeat phone_blackgold=3 --eval-every $(steps 4000) --out $C/fast4_$K.onnx
MEMBERS="$MEMBERS $C/fast4_$K.onnx"
K=$((K + 1))
done
if [ "${DET_SOUP:-1}" = 1 ]; then cp $C/fast4_0.onnx vision/models/corner_net.onnx
else $PY -m vision.training.soup --eval $MEMBERS --out vision/models/corner_net.onnx; fi
# the size head's gain: vision.detector.SIZE_GAIN set to the median this measures
# (--write), before the mining and the classifiers cut their crops with it (each stage
# below is a new process, so it reads the new value); tests/vision/test_detector.py checks
# it. A size-dependent gain (SIZE_GAIN_SLOPE / SIZE_GAIN_REF from the fit it prints) is
# set by hand: docs/VISION_TRIALS.md. A smoke run's detector reads no sizes worth a gain
# (its median is refused as out of range), so it keeps the gain there is.
if [ "$D" = 1 ]; then $PY -m vision.training.size_gain --write; else $PY -m vision.training.size_gain; fi
fi
# the detector's candidates on the training photos, labelled (cache/mined.npz)
$PY -m vision.training.mine
# corner classifier on 48 px crops (at 32 px the suit of a gold-on-black index is a few
# pixels wide): labelled boxes (half class-balanced), mined candidates, synthetic scenes,
# turned by any angle 70 % of the time (trick cards lie at every angle), phone photos
# also squeezed to 0.56 of their width (as narrow as the stored webcam photos), a quarter
# of the labelled crops cut at up to 2x off their side for the framing head (how far a
# crop is off its index: vision.detector.REFRAME); then two fine-tuning stages with a
# wider spread of crop sizes (about 50-60 min on 2 cores); the lite trunk, about half the
# time of the wide one in cv2.dnn (train_crops.lite_features; --arch wide: the four
# double-convolution blocks shipped before 2026-12-03 evening)
CLS="--arch lite --balanced --jpeg --any-angle 0.7 --squeeze 0.56 --frame-wide 0.25"
# CLS_EXTRA adds options to every classifier stage (a trial of a recipe change, e.g.
# CLS_EXTRA="--lowres 0.2" through crossval.sh; the shipped files were built without one)
CLS="$CLS ${CLS_EXTRA:-}"
# SEED=K shifts the classifier stages' seeds (8, 9, 10) by K: another run of the same
# recipe, to measure how far two runs differ (docs/VISION_TRIALS.md)
SEED=${SEED:-0}
echo "classifier options: $CLS"
# the second classifier, the same recipe with ten times the weight decay: its .json is
# named under the first's `members`, and it reads only the crops the first reads below
# 0.6 (vision.detector.members_below; docs/VISION_TRIALS.md, "A second classifier for the
# unsure crops")
PAIR="--members corner_cls_wd.onnx --members-below 0.6"
# WD_PX=P (default 48, as shipped) trains the second classifier on P px crops (the
# runtime cuts a member's crops at its own size, vision.detector.Detector.read_spots;
# docs/VISION_TRIALS.md, "A 64 px second classifier")
WD_PX=${WD_PX:-48}
# CLS_PX=P (default 48, as shipped) the same for the first classifier (docs/VISION_TRIALS.md,
# "A 64 px first classifier"); the runtime reads the crop size from its .json
CLS_PX=${CLS_PX:-48}
pick() {  # set one classifier's names and options: $1 a for the first, b for the second (ten times the weight decay)
if [ "$1" = a ]; then WD=; N=c48; OUT=vision/models/corner_cls.onnx; MEM=$PAIR; PX=$CLS_PX
else WD="--weight-decay 5e-3"; N=c48wd; OUT=vision/models/corner_cls_wd.onnx; MEM=; PX=$WD_PX; fi
O="$WD $CLS --px $PX"  # this classifier's options in every stage
}
chain() {  # one classifier's three stages (pick's $1)
pick "$1"
$PY -m vision.training.train_crops $O --steps $(steps 10000) --lr 3e-3 --mined 0.35 --synth 0.1 --eval-every $(steps 2500) --seed $((SEED + 8)) --out $C/${N}a.onnx --save $C/${N}a.pt
$PY -m vision.training.train_crops $O --init $C/${N}a.pt --steps $(steps 6000) --lr 1.2e-3 --side-jitter 0.2 --mined 0.35 --synth 0.05 --eval-every $(steps 3000) --seed $((SEED + 9)) --out $C/${N}b.onnx --save $C/${N}b.pt
$PY -m vision.training.train_crops $O --init $C/${N}b.pt --steps $(steps 6000) --lr 8e-4 --side-jitter 0.2 --mined 0.4 --synth 0.05 --eval-every $(steps 3000) --seed $((SEED + 10)) $MEM --out $OUT --save $C/${N}c.pt
}
if [ "$CHAINS" != ab ]; then
chain "$CHAINS"
echo "CHAINS=$CHAINS: one classifier trained; no held-back reading (the other classifier is not this run's)"
exit 0
fi
if [ "${PARALLEL:-0}" = 1 ]; then
OMP_NUM_THREADS=1 chain a > $C/chain_a.log 2>&1 &
A=$!
OMP_NUM_THREADS=1 chain b > $C/chain_b.log 2>&1 &
B=$!
wait $A || { tail -n 20 $C/chain_a.log; exit 1; }
wait $B || { tail -n 20 $C/chain_b.log; exit 1; }
else
chain a
chain b
fi
# the recipe's honest figures (models that never saw the held-back fifth)
$PY -m vision evaluate --split held-back
if [ "$ALL" = 1 ]; then
# the shipped classifier: one more stage on every development photo, candidates mined on
# every photo too (cache/mined_all.npz)
$PY -m vision.training.mine --all --out $C/mined_all.npz
for K in a b; do
pick $K
$PY -m vision.training.train_crops $O --init $C/${N}c.pt --steps $(steps 6000) --lr 8e-4 --side-jitter 0.2 --mined 0.4 --mined-file $C/mined_all.npz --synth 0.05 --eval-every $(steps 2000) --seed 4 --all $MEM --out $OUT --save $C/${N}all.pt
done
$PY -m vision evaluate
fi
