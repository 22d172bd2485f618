"""The weight of each ruling option as a reader sees it, in Chromium: phone and desktop, light and dark.

The Rulings page of each game shows, under each option other than its ruling's
default, a line with the share of drawn tables whose winner changes and a chart.
Checked in the browser, in every published language:

- on a phone (390 px), the page does not scroll sideways, every chart lies inside
  the window, and the chart's smallest text, shrunk with it to the column, is still
  at least 9 CSS pixels (the chart was once drawn 614 px wide with 9 pt text, and a
  phone showed it at 6 px);
- each chart's alternative text is the page's language's sentence naming its option;
- in dark mode the chart keeps the white ground its dark text was drawn on.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from defusedxml import ElementTree

from rulepress.i18n.runtime import interface_translator, localize
from rulepress.i18n.typography import quote, typeset
from rulepress.render.context import option_title
from rulepress.render.impact_lines import T
from rulepress.render.patterns import fill_text
from tests.conftest import LOCALES, loaded
from tests.site.chromium import watched_page
from tests.site.test_impact_site import WEIGHED
from tests.site.test_phone import PHONE, _context

pytestmark = [pytest.mark.slow, pytest.mark.browser]

#: the smallest text a phone reader is asked to read in a chart (CSS px)
MIN_TEXT = 9.0
WHITE = "rgb(255, 255, 255)"


@dataclass
class _Rulings:
    """A Rulings page as a phone shows it: what the tests of its charts read."""

    #: how far the page scrolls sideways, and the window's width (CSS px)
    sideways: float
    window: float
    #: each chart's left and right edge and the width of its content (CSS px)
    boxes: list[dict[str, float]]
    #: each chart's image (a data: address) and alternative text
    sources: list[str]
    alts: list[str]
    #: script errors and console errors while it was read
    errors: list[str]


_BOXES = """(imgs) => imgs.map((img) => { const r = img.getBoundingClientRect();
  const s = getComputedStyle(img);
  return {left: r.left, right: r.right,
          content: img.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)}; })"""


@pytest.fixture(scope="module")
def on_a_phone(browser: Any, base_url: str) -> Iterator[Callable[[str, str], _Rulings]]:
    """A game's Rulings page in a language, opened once on a phone for the tests that read it."""
    context = _context(browser, PHONE["width"], PHONE["height"])
    tab = watched_page(context)
    read: dict[tuple[str, str], _Rulings] = {}

    def rulings(game: str, lang: str) -> _Rulings:
        if (game, lang) not in read:
            tab.errors.clear()
            tab.goto(f"{base_url}/{lang}/{game}/rulings.html")
            charts = tab.locator("img.rp-chart")
            read[game, lang] = _Rulings(
                tab.evaluate(
                    "() => document.documentElement.scrollWidth"
                    " - document.documentElement.clientWidth"
                ),
                tab.evaluate("() => document.documentElement.clientWidth"),
                charts.evaluate_all(_BOXES),
                charts.evaluate_all("(imgs) => imgs.map(i => i.getAttribute('src'))"),
                charts.evaluate_all("(imgs) => imgs.map(i => i.alt)"),
                list(tab.errors),
            )
        return read[game, lang]

    yield rulings
    context.close()


@pytest.fixture
def dark(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    yield watched_page(context)
    context.close()


def _smallest_text(svg: bytes) -> tuple[float, float]:
    """The smallest font size of a chart's SVG, and its width, both in the SVG's own units."""
    root = ElementTree.fromstring(svg)
    width = float(root.get("viewBox", "").split()[2])
    sizes = [
        float(size)
        for element in root.iter()
        for size in re.findall(r"font-size:\s*([\d.]+)px", element.get("style") or "")
    ]
    assert sizes, "the chart has text"
    return min(sizes), width


def _svg(src: str) -> bytes:
    prefix = "data:image/svg+xml;base64,"
    assert src.startswith(prefix)
    return base64.b64decode(src[len(prefix) :])


@pytest.mark.parametrize(("game", "lang"), WEIGHED)
def test_on_a_phone_the_charts_fit_and_their_text_stays_legible(
    on_a_phone: Callable[[str, str], _Rulings],
    game: str,
    lang: str,
) -> None:
    page = on_a_phone(game, lang)
    assert page.boxes, "some option of each game moves a player's points"
    assert page.sideways <= 0, f"the page scrolls {page.sideways} px sideways"
    for i, (box, src) in enumerate(zip(page.boxes, page.sources, strict=True)):
        assert box["left"] >= 0, box
        assert box["right"] <= page.window, box
        size, width = _smallest_text(_svg(src))
        shown = size * box["content"] / width
        assert shown >= MIN_TEXT, f"chart {i}: its smallest text is {shown:.1f} px on a phone"
    assert page.errors == []


@pytest.mark.parametrize(("game", "lang"), WEIGHED)
def test_the_charts_alternative_text_is_in_the_pages_language(
    on_a_phone: Callable[[str, str], _Rulings],
    game: str,
    lang: str,
) -> None:
    local = localize(loaded(game), lang, LOCALES).loaded.spec
    translated = interface_translator(LOCALES, lang)(T["alt"])
    if lang != "en":
        assert translated != T["alt"], "the sentence is translated"
    # each option's sentence names it, in the page's words
    expected = {
        " ".join(
            typeset(
                fill_text(
                    translated,
                    ruling=quote(str(r.title), lang),
                    option=quote(option_title(local, o.id), lang),
                ),
                lang,
            ).split()
        )
        for r in local.rulings
        for o in r.options
    }
    alts = on_a_phone(game, lang).alts
    assert alts
    shown = [" ".join(a.split()) for a in alts]
    assert set(shown) <= expected
    assert len(set(shown)) == len(shown), "no two charts are described alike"


@pytest.mark.parametrize(("game", "lang"), WEIGHED[:1])
def test_in_dark_mode_a_chart_keeps_the_white_ground_its_text_was_drawn_on(
    dark: Any,
    base_url: str,
    game: str,
    lang: str,
) -> None:
    dark.goto(f"{base_url}/{lang}/{game}/rulings.html")
    page = dark.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert page != WHITE, "the page is dark"
    chart = dark.locator("img.rp-chart").first
    assert chart.evaluate("(img) => getComputedStyle(img).backgroundColor") == WHITE
