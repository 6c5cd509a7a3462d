#!/bin/sh
# Rebuild the shipped models from the data we have (about 1.8 h of one CPU core).
# This is the sequence that produced vision/models/*.onnx; each stage starts from the
# previous stage's weights (vision/training/cache/, git-ignored).
#   python -m venv .venv-train && .venv-train/bin/pip install -r requirements-vision-train.txt
#   PY=.venv-train/bin/python sh vision/training/rebuild.sh
set -e
PY=${PY:-python}
C=vision/training/cache
export PYTHONPATH=.
mkdir -p $C
# corner-index detector (train.py: CROP is 192 for every stage but the first, which used 320)
CROP=320 $PY -m vision.training.train --steps 500 --batch 16 --out $C/run1.onnx
cp $C/last.pt $C/run1_500.pt
$PY -m vision.training.train --steps 1400 --synth 0.2 --init $C/run1_500.pt --eval-every 200 --out $C/run4.onnx
cp $C/last.pt $C/run4_final.pt
$PY -m vision.training.train --steps 800 --lr 1.5e-3 --synth 0.2 --init $C/run4_final.pt --eval-every 200 --out $C/run5.onnx
cp $C/last.pt $C/run5_final.pt
$PY -m vision.training.train --steps 1000 --lr 1e-3 --synth 0.2 --init $C/run5_final.pt --eval-every 250 --out vision/models/corner_net.onnx
# corner classifier
$PY -m vision.training.train_crops --steps 2200 --lr 4e-3 --out $C/cls2.onnx
cp $C/cls_last.pt $C/cls2_final.pt
$PY -m vision.training.train_crops --steps 2500 --lr 2e-3 --init $C/cls2_final.pt --out $C/cls3.onnx
cp $C/cls_last.pt $C/cls3_final.pt
$PY -m vision.training.train_crops --steps 3000 --lr 1.5e-3 --init $C/cls3_final.pt --out $C/cls4.onnx
cp $C/cls_last.pt $C/cls4_final.pt
# fine-tuning on real crops: less synthetic data, JPEG re-encoding, lower learning rate
$PY -m vision.training.train_crops --steps 2600 --lr 8e-4 --synth 0.05 --jpeg --init $C/cls4_final.pt --eval-every 300 --out $C/cls6.onnx
cp $C/cls_last.pt $C/cls6_final.pt
$PY -m vision.training.train_crops --steps 3200 --lr 5e-4 --synth 0.05 --jpeg --init $C/cls6_final.pt --eval-every 400 --out vision/models/corner_cls.onnx
$PY -m vision evaluate
