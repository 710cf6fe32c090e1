"""Join QR codes, drawn as SVG by :mod:`qrcode` (no image library needed)."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def qr_svg(data: str) -> bytes:
    """An SVG QR code of ``data`` (a join address), scaled by the page."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()
