"""Output-intent profiles: checked before any layout, and named in every PDF.

A press file's output intent tells the printer which printing condition its
CMYK values were meant for. rulepress takes the profile from ``--icc-profile``
(all languages), else from the spec (``publishing.output_profiles``, per
language: a Czech printer expects FOGRA39 or PSO Coated v3, a Japanese one
Japan Color 2011), else Ghostscript's free SWOP profile, the one Debian ships.

Whatever the source, the file must be an ICC profile for a CMYK output device
(a printer profile), or the build stops before it writes anything: an RGB
monitor profile or a file that is no profile at all would give PDF/X-4 files
with a wrong output intent, or none. Pillow's ImageCms (LittleCMS) reads the
header, so no ICC parsing is written here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
#: the bleed a press file may have, in mm (more is no bleed a printer asks for)
BLEED_RANGE = (0.0, 10.0)


@dataclass(frozen=True)
class Profile:
    """A checked CMYK output profile: its file and the name it gives itself."""

    path: Path
    description: str


def read_profile(path: Path) -> Profile:
    """The profile at ``path``; ValueError, saying what is wrong, if it is no CMYK output profile."""
    from PIL import ImageCms  # noqa: PLC0415 - Pillow comes with WeasyPrint; print only

    if not path.is_file():
        raise ValueError(f"no ICC profile at {path}")
    try:
        header = ImageCms.getOpenProfile(str(path)).profile
    except (ImageCms.PyCMSError, OSError):
        raise ValueError(f"{path} is not an ICC profile") from None
    device, space = header.device_class.strip(), header.xcolor_space.strip()
    if device != "prtr":
        raise ValueError(f"{path} is a {device!r} profile, not an output (printer) profile")
    if space != "CMYK":
        raise ValueError(f"{path} is a profile for {space}, not for CMYK")
    description = " ".join((header.profile_description or path.stem).split())
    return Profile(path, description or path.stem)


def checked_bleed(value: float) -> float:
    """``value`` if it is a finite bleed in range; else ValueError."""
    low, high = BLEED_RANGE
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"the bleed must be a number from {low:g} to {high:g} mm, not {value}")
    return value
