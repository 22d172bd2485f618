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
from collections.abc import Iterator
from typing import Any

import pytest
from defusedxml import ElementTree

from rulepress.i18n.runtime import interface_translator, localize
from rulepress.i18n.typography import quote, typeset
from rulepress.render.context import option_title
from rulepress.render.impact_lines import T
from rulepress.render.patterns import fill_text
from tests.conftest import LOCALES, loaded
from tests.site.test_browser import base_url, browser, watched_page  # noqa: F401 - the shared fixtures
from tests.site.test_impact_site import WEIGHED
from tests.site.test_phone import PHONE, _context

pytestmark = [pytest.mark.slow, pytest.mark.browser]

#: the smallest text a phone reader is asked to read in a chart (CSS px)
MIN_TEXT = 9.0
WHITE = "rgb(255, 255, 255)"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = _context(browser, PHONE["width"], PHONE["height"])
    yield watched_page(context)
    context.close()


@pytest.fixture
def dark(browser: Any) -> Iterator[Any]:  # noqa: F811
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
    phone: Any,
    base_url: str,  # noqa: F811
    game: str,
    lang: str,
) -> None:
    phone.goto(f"{base_url}/{lang}/{game}/rulings.html")
    charts = phone.locator("img.rp-chart")
    assert charts.count(), "some option of each game moves a player's points"
    sideways = phone.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"the page scrolls {sideways} px sideways"
    window = phone.evaluate("() => document.documentElement.clientWidth")
    for i in range(charts.count()):
        chart = charts.nth(i)
        box = chart.evaluate(
            """(img) => { const r = img.getBoundingClientRect(); const s = getComputedStyle(img);
            return {left: r.left, right: r.right,
                    content: img.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)}; }"""
        )
        assert box["left"] >= 0, box
        assert box["right"] <= window, box
        size, width = _smallest_text(_svg(chart.get_attribute("src")))
        shown = size * box["content"] / width
        assert shown >= MIN_TEXT, f"chart {i}: its smallest text is {shown:.1f} px on a phone"
    assert phone.errors == []


@pytest.mark.parametrize(("game", "lang"), WEIGHED)
def test_the_charts_alternative_text_is_in_the_pages_language(
    phone: Any,
    base_url: str,  # noqa: F811
    game: str,
    lang: str,
) -> None:
    phone.goto(f"{base_url}/{lang}/{game}/rulings.html")
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
    alts = phone.locator("img.rp-chart").evaluate_all("(imgs) => imgs.map(i => i.alt)")
    assert alts
    shown = [" ".join(a.split()) for a in alts]
    assert set(shown) <= expected
    assert len(set(shown)) == len(shown), "no two charts are described alike"


@pytest.mark.parametrize(("game", "lang"), WEIGHED[:1])
def test_in_dark_mode_a_chart_keeps_the_white_ground_its_text_was_drawn_on(
    dark: Any,
    base_url: str,  # noqa: F811
    game: str,
    lang: str,
) -> None:
    dark.goto(f"{base_url}/{lang}/{game}/rulings.html")
    page = dark.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert page != WHITE, "the page is dark"
    chart = dark.locator("img.rp-chart").first
    assert chart.evaluate("(img) => getComputedStyle(img).backgroundColor") == WHITE
