"""Vision speed: median milliseconds per 1280×720 frame on one CPU core.

    python -m bench.bench_vision

Frames are development webcam photos restored to 16:9 and scaled to 1280×720 (README
caveat 1), so the recogniser sees what a tablet camera sends. The first call (model load)
is timed separately. Target: median ≤ 150 ms. The same photos as stored (640×640, narrower
than a camera frame) are timed too: those are read twice, as given and widened to 16:9
(`vision.reader.views`).
"""

from __future__ import annotations

import statistics
import time

import cv2

from vision.labels import load_dev_set
from vision.reader import recognize


def frames(n: int = 12, size: tuple[int, int] | None = (1280, 720)) -> list:
    """The first `n` webcam photos, scaled to `size` (None: as stored, 640x640)."""
    items = [it for it in load_dev_set(("webcam_multi",))][:n]
    out = []
    for it in items:
        img = cv2.imread(str(it.path))
        if img is not None:
            out.append(img if size is None else
                       cv2.resize(img, size, interpolation=cv2.INTER_LINEAR))
    return out


def timed(imgs: list, rounds: int = 3) -> list[float]:
    times = []
    for _round in range(rounds):
        for img in imgs:
            t = time.perf_counter()
            recognize(img)
            times.append((time.perf_counter() - t) * 1000)
    return times


def main() -> dict[str, float]:
    cv2.setNumThreads(1)
    imgs = frames()
    t0 = time.perf_counter()
    recognize(imgs[0])
    first_ms = (time.perf_counter() - t0) * 1000
    times = timed(imgs)
    square = timed(frames(size=None))
    result = {
        "frames": float(len(times)),
        "first_call_ms": round(first_ms, 1),
        "median_ms": round(statistics.median(times), 1),
        "p90_ms": round(sorted(times)[int(len(times) * 0.9) - 1], 1),
        "target_ms": 150.0,
        "stored_640_median_ms": round(statistics.median(square), 1),
    }
    print("vision: 1280x720 frame, one core (cv2.setNumThreads(1)); stored_640: the 640x640\n"
          "photos as stored, read as given and widened to 16:9")
    for k, v in result.items():
        print(f"  {k:<14} {v}")
    return result


if __name__ == "__main__":
    main()
