"""How wide text is in the print fonts, and how many lines it takes in a box (no layout engine).

text + style + box width → lines. Used by the translators' length budgets
(:mod:`rulepress.print.budgets`) before any PDF is built, so it imports no
WeasyPrint: the fonts are the ones the print stylesheet names
(:data:`rulepress.print.styles.FONTS`), found as WeasyPrint finds them, through
fontconfig (``fc-match``, the same library Pango asks), and read with
fontTools (installed with WeasyPrint).

What this approximates, and why it is close enough for a budget:

- each character takes its font's advance width (the first font of the stack
  whose character map has it, as Pango falls back per character); kerning and
  ligatures are left out (they narrow Latin text by a percent or two, so the
  count errs on the long side);
- lines break greedily at spaces (U+00A0, the Czech no-break space after a
  one-letter word, does not break), and before and after any East Asian wide
  character (Japanese breaks between characters); the print stylesheet asks
  for no hyphenation, so none is assumed. Japanese line-breaking rules
  (no "。" at a line start) move a character at most, not a line.

A budget written for English and measured this way was checked against a real
WeasyPrint render (tests/print/test_budgets.py, marked ``slow``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from functools import cache

from fontTools.ttLib import TTFont

from rulepress.print.styles import FONTS

#: 1 pt in mm
PT_MM = 25.4 / 72
#: kerning, left out of the widths, narrows Latin text by a percent or so: a line may
#: measure this much wider than its box and still be counted as fitting (checked
#: against WeasyPrint: see tests/print/test_budgets.py)
KERNING_ALLOWANCE = 1.005
#: the generic families at the end of a CSS stack, which name no font
_GENERIC = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"}


class FontError(Exception):
    """A font the print stylesheet names is not installed (so no width can be measured)."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a text is set: its size and face, and the CSS that changes its width."""

    pt: float
    bold: bool = False
    italic: bool = False
    #: text-transform: uppercase
    upper: bool = False
    #: letter-spacing, in em
    spacing_em: float = 0.0


@dataclass(frozen=True, slots=True)
class _Face:
    family: str
    advances: dict[int, float]  # code point → advance in em


def stack() -> list[str]:
    """The font families of the print stylesheet, in order (generic names left out)."""
    names = [name.strip().strip('"') for name in FONTS.split(",")]
    return [name for name in names if name and name not in _GENERIC]


@cache
def _face(family: str, bold: bool, italic: bool) -> _Face:
    """One family's face in that weight and slant, as fontconfig resolves it for WeasyPrint."""
    if shutil.which("fc-match") is None:
        raise FontError("fontconfig's fc-match is not installed (package fontconfig)")
    pattern = f"{family}:weight={200 if bold else 80}:slant={100 if italic else 0}"
    found = subprocess.run(
        ["fc-match", "--format=%{family}\t%{file}\t%{index}", pattern],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split("\t")
    # fc-match always answers; another family means the one asked for is missing
    if len(found) != 3 or family not in found[0].split(","):
        raise FontError(
            f"the print font {family!r} is not installed (fonts-noto-core, fonts-noto-cjk)"
        )
    font = TTFont(found[1], fontNumber=int(found[2] or 0), lazy=True)
    upem = font["head"].unitsPerEm
    metrics = font["hmtx"].metrics
    cmap = font.getBestCmap()
    advances = {code: metrics[glyph][0] / upem for code, glyph in cmap.items()}
    font.close()
    return _Face(family, advances)


def char_em(char: str, style: Style) -> float:
    """One character's advance in em: the first face that has it (a missing one: its East Asian width)."""
    code = ord(char)
    # each face is read only when a character needs it: English text never opens the CJK font
    for family in stack():
        face = _face(family, style.bold, style.italic)
        if code in face.advances:
            return face.advances[code] + style.spacing_em
    wide = unicodedata.east_asian_width(char) in "WF"
    return (1.0 if wide else 0.5) + style.spacing_em


def width_em(text: str, style: Style) -> float:
    """How wide ``text`` is set on one line, in em."""
    shown = text.upper() if style.upper else text
    return sum(char_em(c, style) for c in shown)


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


#: characters a Japanese line may not start with (the common ones of UAX #14's
#: classes CL, NS and EX: closing brackets and marks, small kana, the long vowel mark)
NO_LINE_START = frozenset(
    "、。，．・：；！？）」』】〕〉》ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
)
_SPACES = re.compile(r"[ \t\n\r]+")
#: characters a line may not end with (UAX #14's class OP: opening brackets)
NO_LINE_END = frozenset("（「『【〔〈《［｛")
#: a piece between two places a line may break: a run of spaces, one wide character,
#: or a run of anything else
_PIECES = re.compile(
    r" +|[\u1100-\uffef\U00020000-\U0003ffff]|[^ \u1100-\uffef\U00020000-\U0003ffff]+"
)


def lines(text: str, width_mm: float, style: Style, first_offset_mm: float = 0.0) -> int:
    """How many lines ``text`` takes in a box ``width_mm`` wide, broken greedily.

    ``first_offset_mm``: what stands before it on its first line (a label, a
    step's number). A word wider than the box takes a line of its own (it
    overflows sideways, as in the PDF).
    """
    em_mm = style.pt * PT_MM
    room = width_mm / em_mm
    # runs of ASCII white space only: str.split() would also break at U+00A0
    shown = _SPACES.sub(" ", text.upper() if style.upper else text).strip(" ")
    if not shown:
        return 0
    count, x = 1, first_offset_mm / em_mm
    pending = 0.0  # the spaces before the next piece, set only if it stays on the line
    last_em, last_wide, last_opens = 0.0, False, False
    for piece in _PIECES.findall(shown):
        if piece.startswith(" "):
            pending = sum(char_em(c, style) for c in piece)
            continue
        # a wide character is a piece of its own; a narrow run stays whole
        if not _wide(piece[0]):
            piece_em = sum(char_em(c, style) for c in piece)
        else:
            piece_em = char_em(piece, style)
        if x > 0 and x + pending + piece_em > room * KERNING_ALLOWANCE:
            # a closing mark or a small kana may not start a line, an opening bracket
            # may not end one: the character before goes down too (UAX #14, as Pango)
            carried = last_em if last_wide and (piece in NO_LINE_START or last_opens) else 0.0
            count, x = count + 1, carried + piece_em
        else:
            x += pending + piece_em
        pending = 0.0
        last_em, last_wide, last_opens = piece_em, _wide(piece[0]), piece in NO_LINE_END
    return count
