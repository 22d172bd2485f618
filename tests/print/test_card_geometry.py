"""Cards that fit, measured from the PDFs: text inside its panel and the safe area, backs used.

Read with pdfplumber from the player's files (cut to the trim, so a page's
coordinates are the card's): the reference card of every game in every
language, and every step card.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from rulepress.print import styles
from tests.conftest import PUBLISHED

pytestmark = [pytest.mark.slow, pytest.mark.print]

MM = 72 / 25.4
#: how far a glyph's box may reach past a line it should stay inside (its side bearing)
SLACK = 0.2 * MM
#: the panels' tints, as pdfplumber reads a DeviceCMYK fill
TINTS = {
    tuple(float(v) for v in zone.removeprefix("device-cmyk(").rstrip(")").split())
    for zone in styles.ZONES
}


@pytest.fixture(scope="module")
def printed(built_print: tuple[Path, object]) -> Path:
    return built_print[0]


def _panels(page: Any) -> list[dict[str, Any]]:
    """The tinted panels of a page: its filled rectangles in one of the zones' tints."""
    return [
        r
        for r in page.rects
        if r["fill"] and tuple(float(v) for v in r["non_stroking_color"] or ()) in TINTS
    ]


def _crossing(page: Any, panel: dict[str, Any]) -> list[str]:
    """The text and rules level with ``panel`` that reach past its left or right edge."""
    out = []
    for item in [*page.chars, *page.lines, *page.rects]:
        if item is panel or item.get("non_stroking_color") == (0.0, 0.0, 0.0, 0.0):
            continue
        middle = (item["top"] + item["bottom"]) / 2
        if not panel["top"] < middle < panel["bottom"]:
            continue
        if item["x0"] < panel["x0"] - SLACK or item["x1"] > panel["x1"] + SLACK:
            out.append(f"{item.get('text', item['object_type'])} at x {item['x0']:.1f}")
    return out


def _outside(page: Any, margin_mm: float) -> list[str]:
    """The characters that reach into the page's margin (outside the safe area)."""
    inset = margin_mm * MM - SLACK
    x0, top, x1, bottom = page.bbox
    return [
        f"{c['text']} at ({c['x0']:.1f}, {c['top']:.1f})"
        for c in page.chars
        if c["x0"] < x0 + inset
        or c["x1"] > x1 - inset
        or c["top"] < top + inset
        or c["bottom"] > bottom - inset
    ]


def _empty_share(page: Any, margin_mm: float) -> float:
    """How much of the page's safe area is empty below the last thing printed on it."""
    x0, top, x1, bottom = page.bbox
    inset = margin_mm * MM
    drawn = [c["bottom"] for c in page.chars] + [
        r["bottom"] for r in page.rects if (r["x1"] - r["x0"]) < (x1 - x0) - 1
    ]
    lowest = max(drawn)
    return max(0.0, (bottom - inset - lowest) / (bottom - top - 2 * inset))


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_reference_card_text_stays_inside_its_panels_and_the_safe_area(
    printed: Path, game: str, lang: str
) -> None:
    with pdfplumber.open(printed / lang / game / "reference-a5.pdf") as doc:
        front = doc.pages[0]
        panels = _panels(front)
        assert panels, "no tinted panel found on the front"
        for panel in panels:
            assert not _crossing(front, panel), _crossing(front, panel)
        for page in doc.pages:
            assert not _outside(page, styles.REFERENCE_MARGIN_MM), _outside(
                page, styles.REFERENCE_MARGIN_MM
            )


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_step_card_keeps_its_text_in_the_safe_area(
    printed: Path, game: str, lang: str
) -> None:
    with pdfplumber.open(printed / lang / game / "cards-poker.pdf") as doc:
        assert len(doc.pages) >= 2
        for number, page in enumerate(doc.pages, 1):
            found = _outside(page, styles.CARD_MARGIN_MM)
            assert not found, (number, found)


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_a_two_sided_reference_card_uses_its_back(printed: Path, game: str, lang: str) -> None:
    with pdfplumber.open(printed / lang / game / "reference-a5.pdf") as doc:
        # one side when everything fits on it; else the back is at most a third empty,
        # unless its type is already the largest the back takes (a small game's winner
        # and tie-breaks cannot fill a card)
        if len(doc.pages) == 2:
            back = doc.pages[1]
            empty = _empty_share(back, styles.REFERENCE_MARGIN_MM)
            if empty > 1 / 3:
                sizes = Counter(round(c["size"], 1) for c in back.chars if c["text"].strip())
                body = sizes.most_common(1)[0][0]
                assert body == styles.REFERENCE_BACK_PT, f"the back is {empty:.0%} empty"
