"""The built Rulings and changes pages show how much each ruling option and the edition weigh.

From the session's site build: under every option other than its ruling's
default, a line with the share of drawn tables whose winner changes, the
sample's size and seed, in the page's language and numbers, and the chart
beside it as an embedded SVG image (never a fetched file, never inline
markup), whose labels are in the page's language; the default option has
none. The changes page gives the same line for the edition.
"""

from __future__ import annotations

import base64
import re

import pytest
from babel.numbers import format_decimal
from defusedxml import ElementTree

from rulepress.i18n.runtime import interface_translator
from rulepress.i18n.typography import typeset
from rulepress.render.impact_chart import LABELS
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import LOCALES, PUBLISHED, loaded
from tests.site.conftest import page

#: each language's words of the line, beside its numbers
WORDS = {
    "en": r"Changes the winner at \d+\.\d% of {size} drawn tables \(seed {seed}\)\.",
    "cs": r"Mění vítěze u \d+,\d\s%\s?z {size} náhodně vylosovaných partií \(semínko {seed}\)\.",
    "ja": r"無作為に抽出した{size}卓のうち\d+\.\d%で勝者が変わります（シード{seed}）。",
}


def _options(game: str) -> list[str]:
    """The options of ``game``'s rulings other than their defaults: the ones weighed."""
    spec = loaded(game).spec
    return [o.id for r in spec.rulings for o in r.options if o.id != r.default]


#: the published (game, language) pairs whose Rulings page weighs an option (a game
#: without rulings, such as a designer's first, has no such page)
WEIGHED = [(game, lang) for game, lang in PUBLISHED if _options(game)]


def _weights(html: str) -> list[str]:
    """The text of each weight line of a page."""
    found = re.findall(r'<p class="rp-weight">(.*?)</p>', html, flags=re.S)
    return [re.sub(r"<[^>]+>", "", line) for line in found]


def _charts(html: str) -> list[bytes]:
    """The SVG of each chart image of a page, decoded from its data: URI."""
    sources = re.findall(r'<img[^>]*class="rp-chart"[^>]*>', html)
    out = []
    for tag in sources:
        (data,) = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]*)"', tag)
        out.append(base64.b64decode(data))
    return out


@pytest.mark.parametrize(("game", "lang"), WEIGHED)
def test_each_option_shows_its_weight(site: SiteBuild, game: str, lang: str) -> None:
    others = _options(game)
    html = page(site, lang, game, "rulings")
    lines = _weights(html)
    assert len(lines) == len(others)
    size = re.escape(str(format_decimal(site.impact_tables, locale=lang)))
    pattern = WORDS[lang].format(size=size, seed=site.impact_seed)
    for line in lines:
        assert re.fullmatch(pattern, " ".join(line.split())), line


@pytest.mark.parametrize(("game", "lang"), WEIGHED)
def test_the_charts_are_embedded_svg_in_the_pages_language(
    site: SiteBuild, game: str, lang: str
) -> None:
    charts = _charts(page(site, lang, game, "rulings"))
    assert charts, "some option of each game moves a player's points"
    # as the language sets it (a Czech one-letter word binds to the next, ’ for ')
    title = typeset(interface_translator(LOCALES, lang)(LABELS["title"]), lang)
    for svg in charts:
        root = ElementTree.fromstring(svg)
        texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert title in texts


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_changes_page_weighs_the_edition(site: SiteBuild, game: str, lang: str) -> None:
    (line,) = _weights(page(site, lang, game, "changes"))
    assert str(site.impact_tables) in line.replace("\xa0", "").replace(",", "")
