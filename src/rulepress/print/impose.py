"""Print-and-play imposition: cards n-up on a sheet, crop marks, duplex backs.

Cards sit edge to edge in a grid centred on the sheet, so one straight cut
separates two cards; crop marks run outside the grid along every cut line.
The sheet has no margin at all (the page's nor the body's), so positions are
measured from the paper's edge.

Each back is placed where its front lands after the sheet is turned over: for
a long-edge flip (the printer's default duplex) a card at ``x`` from the left
has its back at ``x`` from the right; for a short-edge flip, at ``y`` from the
bottom. The position is mirrored, not the column, so the backs register even
for a grid that is not centred. Sheets are :mod:`rulepress.render.html_tree`
elements around the card faces, never HTML strings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from rulepress.errors import UsageError
from rulepress.print.formats import Format
from rulepress.print.styles import BASE, CARD_FACES, FONTS, INK, TINT, color_profile
from rulepress.render.html_tree import Element, el

MARK_LENGTH = 3.5  # mm
MARK_GAP = 1.0  # mm between the card edge and the mark
# mm the marks keep from the sheet edge: small enough for 3 x 3 poker cards on A4 and
# US letter, which home printers expect; a printer's own margin may clip the mark ends
MIN_MARGIN = 3.0


#: how the sheet is turned over between its two sides
Flip = Literal["long", "short"]
FLIPS: tuple[Flip, ...] = ("long", "short")


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    x0: float
    y0: float
    card: Format
    sheet: Format

    def positions(self, back: Flip | None = None) -> Iterator[tuple[float, float]]:
        """Each card's top-left corner in mm; for ``back``, where its back goes for that flip."""
        w, h = self.card.width_mm, self.card.height_mm
        for row in range(self.rows):
            for col in range(self.cols):
                x, y = self.x0 + col * w, self.y0 + row * h
                if back == "long":
                    x = self.sheet.width_mm - x - w
                elif back == "short":
                    y = self.sheet.height_mm - y - h
                yield x, y

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
    return Grid(cols, rows, x0, y0, card, sheet)


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


def _sheet(g: Grid, faces: list[Element], back: Flip | None) -> Element:
    slots = [
        el("div", face, cls="slot", style=f"left:{x:.3f}mm;top:{y:.3f}mm")
        for (x, y), face in zip(g.positions(back), faces, strict=False)
    ]
    return el("div", slots, _marks(g), cls="sheet")


def sheets(
    fronts: list[Element], backs: list[Element], g: Grid, flip: Flip = "long"
) -> list[Element]:
    """The body of a print-and-play document: a sheet of fronts, then its sheet of backs."""
    out = []
    for start in range(0, len(fronts), g.per_sheet):
        out.append(_sheet(g, fronts[start : start + g.per_sheet], None))
        out.append(_sheet(g, backs[start : start + g.per_sheet], flip))
    return out


def sheet_css(sheet: Format, card: Format, profile: object) -> str:
    return (
        color_profile(profile)  # type: ignore[arg-type]
        + f"@page {{ size: {sheet.css}; margin: 0; }}\n"
        + BASE
        # a browser's default body margin (8 px) would shift every card off its place
        + "html, body { margin: 0; padding: 0; }\n"
        + ".slug { display: none; }\n"  # print-and-play sheets have no slug line
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
