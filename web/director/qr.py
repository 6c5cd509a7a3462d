"""QR codes for the tables' referee links, as SVG (qrcode's SVG factory needs no Pillow)."""

from __future__ import annotations

import qrcode
import qrcode.image.svg


def qr_svg(data: str) -> str:
    """An SVG QR code of `data` (a path drawing that scales to any size)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    text = image.to_string(encoding="unicode")
    return text if isinstance(text, str) else text.decode()
