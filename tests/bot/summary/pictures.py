"""What the chart tests read of a picture: its size, as an image library reads it."""

from __future__ import annotations

import io

from PIL import Image


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG (ValueError for anything else)."""
    with Image.open(io.BytesIO(png)) as image:
        if image.format != "PNG":
            raise ValueError(f"not a PNG: {image.format}")
        return image.size
