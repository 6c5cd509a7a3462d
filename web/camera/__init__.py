"""Camera pre-fill (拍照录入): a photo of a trick in, the recognised cards out (JSON).

    POST /camera/recognize   multipart `image` (≤ 8 MB) [+ `expected`, `played`,
                             `bottom_seat`, `leader`] -> {"cards": [...], "per_seat": {...}}
    GET  /camera/            a stand-alone page to try the camera (and the e2e test's page)

Nothing is recorded here: the tablet pre-fills its card picker and the referee confirms.
"""

from web.camera.routes import bp

__all__ = ["bp"]
