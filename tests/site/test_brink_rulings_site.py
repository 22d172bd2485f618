"""Brink's rulings page offers every reading of the rulebook its audit found (issue 30).

The audit of Brink's provenance (``rules_spec/brink/audit.yaml``) records, for every
ruling, each reading of the rulebook a player could hold. The published rulings page,
in every language, must list an option for each, the default first: a reading that
loses its option disappears from the page a player reads, which is what these tests
catch. The council track's cube from an empty supply is the case the audit changed:
line 126 of the rulebook makes it a revolt, so that is the default the page names first.
"""

from __future__ import annotations

import re

import pytest

from rulepress.render.markup import ruling_label
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import PUBLISHED, loaded
from tests.site.conftest import page

BRINK = [(game, lang) for game, lang in PUBLISHED if game == "brink"]


def _section(html: str, ruling_id: str) -> str:
    """The HTML of one ruling's section, up to the next ruling's."""
    start = html.index(f'id="{ruling_label(ruling_id)}"')
    after = html.find('id="ruling-', start + 1)
    return html[start : after if after != -1 else len(html)]


def _options(section: str) -> list[str]:
    """The options' list items of a ruling's section, as text, in page order."""
    lists = re.findall(r"<ul[^>]*>(.*?)</ul>", section, flags=re.S)
    assert lists, "a ruling's section lists its options"
    items = re.findall(r"<li[^>]*>(.*?)</li>", lists[-1], flags=re.S)
    return [re.sub(r"<[^>]+>", "", item) for item in items]


@pytest.mark.parametrize(("game", "lang"), BRINK)
def test_each_reading_the_audit_found_has_an_option_on_the_page(
    site: SiteBuild, game: str, lang: str
) -> None:
    spec = loaded(game).spec
    assert spec.audit is not None, "Brink keeps the record of its audit"
    html = page(site, lang, game, "rulings")
    for found in spec.audit.rulings:
        shown = _options(_section(html, found.ruling))
        assert len(shown) >= len(found.readings), (found.ruling, found.readings, shown)


@pytest.mark.parametrize(("game", "lang"), BRINK)
def test_a_council_track_cube_from_an_empty_supply_is_a_revolt_first(
    site: SiteBuild, game: str, lang: str
) -> None:
    html = page(site, lang, game, "rulings")
    shown = _options(_section(html, "council_track_cube_missing"))
    assert len(shown) == 2
    # the default first: the revolt's title, not the other option's (in Japanese the
    # other's title begins with the revolt's word, 反乱なしで…)
    revolt = {"en": "A revolt", "cs": "Vzpoura", "ja": "反乱"}
    no_revolt = {"en": "Record the win", "cs": "Zaznamenat vítězství", "ja": "反乱なし"}
    first = shown[0].lstrip()
    assert first.startswith(revolt[lang]), shown
    assert not first.startswith(no_revolt[lang]), shown
