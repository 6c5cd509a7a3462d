"""Camera pre-fill: recognise the cards of a trick from a photo (OpenCV + numpy, CPU).

    >>> from vision import recognize, Constraints
    >>> recognize("trick.jpg", Constraints(count=4, played={"AS": 1}))
    [Detection(card='AS', confidence=0.97, box=(412, 230, 38, 47), corners=2, ...), ...]

The model (`vision/models/corner_net.onnx`) reads corner indices (角标); `vision.reader`
turns them into cards. See docs/VISION.md.
"""

from vision.reader import Constraints, Detection, NotAnImageError, load_image, recognize

__all__ = ["Constraints", "Detection", "NotAnImageError", "load_image", "recognize"]
