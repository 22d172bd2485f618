"""Print-and-play imposition: cards n-up on a sheet, crop marks, duplex backs.

Cards sit edge to edge in a grid centred on the sheet, so one straight cut
separates two cards; crop marks run outside the grid along every cut line.
Backs are laid out mirrored left to right, so that with long-edge duplex each
back lands behind its front. Sheets are :mod:`rulepress.render.html_tree`
elements around the card faces, never HTML strings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rulepress.errors import UsageError
from rulepress.print.formats import Format
from rulepress.print.styles import BASE, CARD_FACES, FONTS, INK, TINT, color_profile
from rulepress.render.html_tree import Element, el

MARK_LENGTH = 3.5  # mm
MARK_GAP = 1.0  # mm between the card edge and the mark
# mm the marks keep from the sheet edge: small enough for 3 x 3 poker cards on A4 and
# US letter, which home printers expect; a printer's own margin may clip the mark ends
MIN_MARGIN = 3.0


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    x0: float
    y0: float
    card: Format

    def positions(self, mirrored: bool) -> Iterator[tuple[float, float]]:
        for row in range(self.rows):
            for col in range(self.cols):
                c = self.cols - 1 - col if mirrored else col
                yield self.x0 + c * self.card.width_mm, self.y0 + row * self.card.height_mm

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def grid(card: Format, sheet: Format) -> Grid:
    room = MIN_MARGIN + MARK_GAP + MARK_LENGTH
    cols = int((sheet.width_mm - 2 * room) // card.width_mm)
    rows = int((sheet.height_mm - 2 * room) // card.height_mm)
    if cols < 1 or rows < 1:
        raise UsageError(f"a {card.name} card does not fit on a {sheet.name} sheet with crop marks")
    x0 = (sheet.width_mm - cols * card.width_mm) / 2
    y0 = (sheet.height_mm - rows * card.height_mm) / 2
    return Grid(cols, rows, x0, y0, card)


def _marks(g: Grid) -> list[Element]:
    lines = []
    w, h = g.card.width_mm, g.card.height_mm
    top, bottom = g.y0, g.y0 + g.rows * h
    left, right = g.x0, g.x0 + g.cols * w
    for i in range(g.cols + 1):
        x = g.x0 + i * w
        lines.append(_line(x, top - MARK_GAP - MARK_LENGTH, 0, MARK_LENGTH))
        lines.append(_line(x, bottom + MARK_GAP, 0, MARK_LENGTH))
    for j in range(g.rows + 1):
        y = g.y0 + j * h
        lines.append(_line(left - MARK_GAP - MARK_LENGTH, y, MARK_LENGTH, 0))
        lines.append(_line(right + MARK_GAP, y, MARK_LENGTH, 0))
    return lines


def _line(x: float, y: float, w: float, h: float) -> Element:
    # the style is made from numbers only; the tree escapes it like any attribute
    if w:
        return el("i", cls="mark", style=f"left:{x:.3f}mm;top:{y:.3f}mm;width:{w:.3f}mm;height:0")
    return el("i", cls="mark", style=f"left:{x:.3f}mm;top:{y:.3f}mm;width:0;height:{h:.3f}mm")


def _sheet(g: Grid, faces: list[Element], mirrored: bool) -> Element:
    slots = [
        el("div", face, cls="slot", style=f"left:{x:.3f}mm;top:{y:.3f}mm")
        for (x, y), face in zip(g.positions(mirrored), faces, strict=False)
    ]
    return el("div", slots, _marks(g), cls="sheet")


def sheets(fronts: list[Element], backs: list[Element], g: Grid) -> list[Element]:
    """The body of a print-and-play document: a sheet of fronts, then its sheet of backs."""
    out = []
    for start in range(0, len(fronts), g.per_sheet):
        out.append(_sheet(g, fronts[start : start + g.per_sheet], mirrored=False))
        out.append(_sheet(g, backs[start : start + g.per_sheet], mirrored=True))
    return out


def sheet_css(sheet: Format, card: Format, profile: object) -> str:
    return (
        color_profile(profile)  # type: ignore[arg-type]
        + f"@page {{ size: {sheet.css}; margin: 0; }}\n"
        + BASE
        + CARD_FACES
        + f"""
html {{ font-family: {FONTS}; }}
.sheet {{ position: relative; width: {sheet.width_mm:g}mm; height: {sheet.height_mm:g}mm;
  break-after: page; overflow: hidden; }}
.slot {{ position: absolute; width: {card.width_mm:g}mm; height: {card.height_mm:g}mm;
  box-sizing: border-box; padding: 4mm; overflow: hidden; background: {TINT}; }}
.mark {{ position: absolute; display: block; border-left: 0.25pt solid {INK};
  border-top: 0.25pt solid {INK}; }}
"""
    )
