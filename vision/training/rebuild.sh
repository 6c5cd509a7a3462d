#!/bin/sh
# Rebuild the shipped models from the data we have (about 1.3 h of a 2-core machine).
# This is the sequence that produced vision/models/*.onnx; each stage starts from the
# previous stage's weights (vision/training/cache/, git-ignored). Differences from the
# runs that made the shipped files (docs/VISION.md): the first two classifier stages were
# trained on candidates mined with the previous detector (CornerNet), the first of them
# with a crop-side spread of 0.1 on mined crops; a rebuild is close to, not bit-identical
# with, the shipped files.
#   python -m venv .venv-train && .venv-train/bin/pip install -r requirements-vision-train.txt
#   PY=.venv-train/bin/python sh vision/training/rebuild.sh
set -e
PY=${PY:-python}
C=vision/training/cache
export PYTHONPATH=.
mkdir -p $C
# corner-index detector (CornerNetFast, net.py); the size head's gain (detector.SIZE_GAIN)
# is the median labelled/predicted index size on the training split
$PY -m vision.training.train --arch fast --steps 3500 --batch 12 --lr 3e-3 --synth 0.2 --eval-every 700 --out $C/fast1.onnx
cp $C/last.pt $C/fast1.pt
$PY -m vision.training.train --arch fast --init $C/fast1.pt --steps 4500 --batch 12 --lr 1.5e-3 --synth 0.2 --seed 1 --eval-every 1500 --out vision/models/corner_net.onnx
cp $C/last.pt $C/fast2.pt
# the detector's candidates on the training photos, labelled (cache/mined.npz)
$PY -m vision.training.mine
# corner classifier on 32 px crops: labelled boxes (half class-balanced), mined candidates,
# synthetic scenes; then two fine-tuning stages with a wider spread of crop sizes
$PY -m vision.training.train_crops --px 32 --steps 20000 --lr 3e-3 --mined 0.35 --balanced --synth 0.1 --jpeg --any-angle 0.3 --eval-every 2000 --out $C/c32a.onnx --save $C/c32a.pt
$PY -m vision.training.train_crops --px 32 --init $C/c32a.pt --steps 12000 --lr 1.2e-3 --side-jitter 0.2 --mined 0.35 --balanced --synth 0.05 --jpeg --any-angle 0.3 --eval-every 3000 --seed 2 --out $C/c32b.onnx --save $C/c32b.pt
$PY -m vision.training.train_crops --px 32 --init $C/c32b.pt --steps 6000 --lr 8e-4 --side-jitter 0.2 --mined 0.4 --balanced --synth 0.05 --jpeg --any-angle 0.3 --eval-every 2000 --seed 3 --out vision/models/corner_cls.onnx --save $C/c32c.pt
$PY -m vision evaluate
