"""The built site shows where each rule comes from, in every language (issue 17).

From the session's site build: every rules page carries one closed source
marker per rule, and every game has the pages "Sources" and "Not in this
edition's source" in each language it is published in, with an anchor for
every item the spec lists.
"""

from __future__ import annotations

import re

import pytest

from rulepress.spec.model import all_rules
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import PUBLISHED, loaded
from tests.site.conftest import page


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_rule_has_a_closed_marker_and_the_source_pages_exist(
    site: SiteBuild, game: str, lang: str
) -> None:
    spec = loaded(game).spec
    rules = page(site, lang, game, "rules")
    markers = re.findall(r"<details[^>]*rp-source[^>]*>", rules)
    assert len(markers) == len(list(all_rules(spec.rules)))
    assert not any(re.search(r"\bopen\b", m) for m in markers)
    missing = page(site, lang, game, "not-in-source")
    assert f'lang="{lang}"' in missing
    for item in spec.not_in_source:
        assert f'id="missing-{item.id}"' in missing
    sources = page(site, lang, game, "sources")
    assert 'id="source-documents"' in sources
