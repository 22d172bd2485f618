"""The built site's page "Changes in this edition", in every language (issue 16 point 3).

From the session's site build, made with ``since`` = the session's previous
edition (tests/conftest.py: a project folder whose Stationfall had another
winners table and another title of rule 16.4.8, in its catalogs too; Brink
is as it was): every game has the page in
each language it is published in, listed on its start page, its changed rule
linked to the rule's permalink on the rules page, and its errata sheet among
the downloads.
"""

from __future__ import annotations

import re

import pytest

from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import OLD_TITLE, PUBLISHED
from tests.site.conftest import page

#: the page's title in each language
TITLES = {
    "en": "Changes in this edition",
    "cs": "Změny v\u00a0tomto vydání",
    "ja": "この版の変更点",
}


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_game_has_the_page_in_every_language(site: SiteBuild, game: str, lang: str) -> None:
    changes = page(site, lang, game, "changes")
    assert f'lang="{lang}"' in changes
    assert f"<h1>{TITLES[lang]}" in changes
    assert 'href="changes.html"' in page(site, lang, game, "index")
    # the errata sheet is offered beside the rulebook
    assert re.search(r'href="downloads/errata-a4\.pdf"', page(site, lang, game, "index"))
    assert (site.out / lang / game / "downloads" / "errata-a4.pdf").is_file()


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_the_changed_rule_links_its_permalink_and_the_cell_is_shown(
    site: SiteBuild, lang: str
) -> None:
    changes = page(site, lang, "stationfall", "changes")
    assert re.search(r'href="rules\.html#rule-16-4-8"', changes)
    assert 'id="rule-16-4-8"' in page(site, lang, "stationfall", "rules")
    # the old title as the previous edition's catalog had it, beside today's
    assert OLD_TITLE[lang] in changes
    assert {"en": "Winning", "cs": "Vítězství", "ja": "勝利"}[lang] in changes
    assert 'id="changes-tables"' in changes
    # the changed cell names the rule its table belongs to, linked to its permalink
    tables = changes.split('id="changes-tables"', 1)[1].split("<section", 1)[0]
    assert re.search(r'href="rules\.html#rule-16-4-8"', tables)
    assert 'id="changes-consequences"' in changes


def test_an_unchanged_game_says_so(site: SiteBuild) -> None:
    changes = page(site, "cs", "brink", "changes")
    assert "zůstávají stejné jako v\u00a0předchozím vydání" in changes
    assert 'id="changes-rules"' not in changes
