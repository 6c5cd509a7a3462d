"""The corner-index networks: small fully convolutional CenterNet-style detectors.

`CornerNetFast` is the shipped one; `CornerNet` is the first version (twice the time in
`cv2.dnn`), kept to compare against (`train.py --arch base`).

Input: a BGR image scaled to 0..1 (any size divisible by 32). Outputs at stride 4:
`heat` (1 channel, logit of "a corner index is centred here"), `cls` (len(CLASSES)
logits: which card) and `size` (log of the box width and height in stride-4 cells).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from vision.labels import CLASSES


def cbr(i: int, o: int, s: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(True))


def dws(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
    """Depthwise-separable 3x3 block."""
    return nn.Sequential(
        nn.Conv2d(i, i, 3, s, d, dilation=d, groups=i, bias=False),
        nn.BatchNorm2d(i),
        nn.ReLU(True),
        nn.Conv2d(i, o, 1, bias=False),
        nn.BatchNorm2d(o),
        nn.ReLU(True),
    )


class CornerNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 2))
        self.s8 = nn.Sequential(dws(32, 64, 2), dws(64, 64))
        self.s16 = nn.Sequential(dws(64, 128, 2), dws(128, 128), dws(128, 128, d=2))
        self.s32 = nn.Sequential(dws(128, 160, 2), dws(160, 160), dws(160, 160, d=2))
        self.u16 = dws(160 + 128, 128)
        self.u8 = dws(128 + 64, 64)
        self.u4 = dws(64 + 32, 48)
        self.heat = nn.Conv2d(48, 1, 3, 1, 1)
        self.cls = nn.Conv2d(48, len(CLASSES), 1)
        self.size = nn.Conv2d(48, 2, 1)
        nn.init.constant_(self.heat.bias, -4.0)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x4 = self.s4(x)
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        y = self.u16(torch.cat([F.interpolate(x32, scale_factor=2.0, mode="nearest"), x16], 1))
        y = self.u8(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x8], 1))
        y = self.u4(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x4], 1))
        return self.heat(y), self.cls(y), self.size(y)


class CornerNetFast(nn.Module):
    """About a third of CornerNet's time in `cv2.dnn`: a 4x4 stride-4 stem instead of two
    stride-2 convolutions, narrower stages, additive skips at strides 8 and 4, and 1x1
    heads (`train.py --arch fast`). Same outputs as CornerNet."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 24, 4, 4, 0, bias=False), nn.BatchNorm2d(24),
                                  nn.ReLU(True))
        self.s4 = dws(24, 24)
        self.s8 = nn.Sequential(dws(24, 48, 2), dws(48, 48))
        self.s16 = nn.Sequential(dws(48, 96, 2), dws(96, 96), dws(96, 96, d=2))
        self.s32 = nn.Sequential(dws(96, 128, 2), dws(128, 128), dws(128, 128, d=2))
        self.u16 = dws(128 + 96, 96)
        self.u8 = dws(96 + 48, 48)
        self.to4 = nn.Sequential(nn.Conv2d(48, 24, 1, bias=False), nn.BatchNorm2d(24))
        self.u4 = dws(24, 24)
        self.heat = nn.Conv2d(24, 1, 1)
        self.cls = nn.Conv2d(24, len(CLASSES), 1)
        self.size = nn.Conv2d(24, 2, 1)
        nn.init.constant_(self.heat.bias, -4.0)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x4 = self.s4(self.stem(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        y = self.u16(torch.cat([F.interpolate(x32, scale_factor=2.0, mode="nearest"), x16], 1))
        y = self.u8(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x8], 1))
        # to4 (a 1x1 convolution and its batch norm) commutes with the nearest upsampling:
        # applied first, at stride 8, it costs a quarter (and the upsampling half) in
        # cv2.dnn, with the same result
        y = self.u4(F.relu(F.interpolate(self.to4(y), scale_factor=2.0, mode="nearest") + x4))
        return self.heat(y), self.cls(y), self.size(y)
