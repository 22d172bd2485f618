"""Page and card formats: presets by name, or a custom size such as ``100x150mm``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulepress.errors import UsageError

MM_PER_INCH = 25.4


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    width_mm: float
    height_mm: float

    @property
    def css(self) -> str:
        return f"{self.width_mm:g}mm {self.height_mm:g}mm"


PRESETS = {
    "a4": Format("a4", 210, 297),
    "a5": Format("a5", 148, 210),
    "letter": Format("letter", 215.9, 279.4),
    "poker": Format("poker", 63, 88),
    "tarot": Format("tarot", 70, 120),
}

_CUSTOM = re.compile(r"^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(mm|in)$")


def parse_format(text: str) -> Format:
    """A preset name (a4, a5, letter, poker, tarot) or ``<width>x<height>mm|in``."""
    key = text.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    match = _CUSTOM.match(key)
    if match is None:
        known = ", ".join(PRESETS)
        raise UsageError(f"unknown format {text!r} (presets: {known}; or e.g. 100x150mm, 4x6in)")
    scale = MM_PER_INCH if match.group(3) == "in" else 1.0
    width, height = float(match.group(1)) * scale, float(match.group(2)) * scale
    if not (20 <= width <= 1000 and 20 <= height <= 1000):
        raise UsageError(f"format {text!r} is outside 20–1000 mm")
    return Format(key, round(width, 3), round(height, 3))
