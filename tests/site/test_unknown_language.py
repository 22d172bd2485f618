"""A language Babel knows and Sphinx does not: the site builds, says its language, and searches.

Sphinx ships translations of its own words and search stemmers for some
languages only. For any other locale a game lists, the site falls back on
Sphinx's English: its English chrome where rulepress's theme catalog has no
translation yet, English stemming in search. The smallest game is built in
such a language only (a few seconds), then read in Chromium.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DATA, run_cli
from tests.site.chromium import serving

#: a locale with a region, so that the folder (Babel's code) and the tag (BCP 47) differ
CODE, TAG = "ga_IE", "ga-IE"
GAME = "tiny"  # the smallest game there is: one page of rules, no worked examples

pytestmark = [pytest.mark.slow]


def test_sphinx_knows_neither_its_words_nor_its_search() -> None:
    """What makes the case: were Sphinx to learn Irish, pick another language here."""
    import sphinx
    from babel import Locale
    from sphinx.search import languages

    assert str(Locale.parse(CODE)) == CODE
    known = {p.name for p in (Path(sphinx.__file__).parent / "locale").iterdir() if p.is_dir()}
    for name in (CODE, CODE.split("_", maxsplit=1)[0]):
        assert name not in known
        assert name not in languages


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("unknown-language")
    shutil.copytree(DATA / "specs" / GAME, work / "rules_spec" / GAME)
    game_yaml = work / "rules_spec" / GAME / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "  languages: [en]\n" in text
    game_yaml.write_text(text.replace("  languages: [en]", f"  languages: [en, {CODE}]"), "utf-8")
    out = work / "site"
    built = run_cli("build", "site", "--lang", CODE, "--no-doctest", "--out", str(out), cwd=work)
    assert built.code == 0, built.err
    return out


def test_the_site_builds_and_says_its_language(site: Path) -> None:
    for page in ("index.html", f"{GAME}/index.html", f"{GAME}/rules.html", "search.html"):
        html = (site / CODE / page).read_text(encoding="utf-8")
        assert f'<html lang="{TAG}"' in html, page
    assert f"LANGUAGE: '{TAG}'" in (site / CODE / "_static" / "documentation_options.js").read_text(
        encoding="utf-8"
    )
    # Sphinx's English stemmer, as for any language it has none for
    assert (site / CODE / "_static" / "english-stemmer.js").is_file()
    index = (site / CODE / "searchindex.js").read_text(encoding="utf-8")
    assert index.startswith("Search.setIndex(")
    assert f"{GAME}/rules" in index
    root = (site / "index.html").read_text(encoding="utf-8")
    assert f"<html lang='{TAG}'>" in root
    assert f'<a href="{CODE}/index.html" hreflang="{TAG}" lang="{TAG}">' in root


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    with serving(site) as url:
        yield url


@pytest.mark.browser
def test_its_pages_load_and_search_finds_a_rule(base_url: str, tab: Any) -> None:
    tab.goto(f"{base_url}/")  # the root page sends the reader to the only language
    tab.wait_for_url(f"{base_url}/{CODE}/index.html")
    tab.goto(f"{base_url}/{CODE}/{GAME}/rules.html")
    # "winners": English stemming finds the rule titled "Winner"
    tab.goto(f"{base_url}/{CODE}/search.html?q=winners")
    results = tab.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=15000)
    hrefs = [results.nth(i).get_attribute("href") or "" for i in range(results.count())]
    assert any(h.startswith(f"{GAME}/rules.html") for h in hrefs), hrefs
    assert tab.errors == []
