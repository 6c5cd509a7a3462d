"""Vision speed: median milliseconds per 1280×720 frame on one CPU core.

    python -m bench.bench_vision

Frames are development webcam photos restored to 16:9 and scaled to 1280×720 (README
caveat 1), so the recogniser sees what a tablet camera sends. The first call (model load)
is timed separately. Target: median ≤ 150 ms.
"""

from __future__ import annotations

import statistics
import time

import cv2

from vision.labels import load_dev_set
from vision.reader import recognize


def frames(n: int = 12) -> list:
    items = [it for it in load_dev_set(("webcam_multi",))][:n]
    out = []
    for it in items:
        img = cv2.imread(str(it.path))
        if img is not None:
            out.append(cv2.resize(img, (1280, 720), interpolation=cv2.INTER_LINEAR))
    return out


def main() -> dict[str, float]:
    cv2.setNumThreads(1)
    imgs = frames()
    t0 = time.perf_counter()
    recognize(imgs[0])
    first_ms = (time.perf_counter() - t0) * 1000
    times = []
    for _round in range(3):
        for img in imgs:
            t = time.perf_counter()
            recognize(img)
            times.append((time.perf_counter() - t) * 1000)
    result = {
        "frames": float(len(times)),
        "first_call_ms": round(first_ms, 1),
        "median_ms": round(statistics.median(times), 1),
        "p90_ms": round(sorted(times)[int(len(times) * 0.9) - 1], 1),
        "target_ms": 150.0,
    }
    print("vision: 1280x720 frame, one core (cv2.setNumThreads(1))")
    for k, v in result.items():
        print(f"  {k:<14} {v}")
    return result


if __name__ == "__main__":
    main()
