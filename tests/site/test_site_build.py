"""The built site: pages in three languages, permalinks, switcher, search, doctests."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulepress.render.pages import PAGES
from rulepress.sphinx_ext.build import SiteBuild, SiteError
from tests.conftest import GAMES, ROOT, loaded
from tests.site.conftest import doctest_count, doctests, page

#: builds sites or PDFs, or drives a browser: left out of the quick run (-m 'not slow')
pytestmark = pytest.mark.slow

LANGS = ("en", "cs", "ja")


def test_every_page_in_every_language(site: SiteBuild) -> None:
    assert (site.out / "index.html").is_file()
    for lang in LANGS:
        assert (site.out / lang / "index.html").is_file()
        for game in GAMES:
            for name in PAGES:
                assert (site.out / lang / game / f"{name}.html").is_file(), (lang, game, name)
    assert (site.out / "en" / "guide" / "cli.html").is_file()
    assert "rulepress score" in (site.out / "en" / "guide" / "cli.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_rule_anchors_are_identical_in_every_language(site: SiteBuild, game: str) -> None:
    ids = {
        lang: set(re.findall(r'id="(rule-[0-9-]+)"', page(site, lang, game, "rules")))
        for lang in LANGS
    }
    assert ids["en"] == ids["cs"] == ids["ja"]
    assert len(ids["en"]) >= 9


def test_rule_references_are_links(site: SiteBuild) -> None:
    html = page(site, "cs", "stationfall", "rules")
    assert 'href="#rule-16-4-5"' in html or 'href="#rule-16-4-8"' in html
    sequences = page(site, "ja", "stationfall", "sequences")
    assert 'href="rules.html#rule-16-4-8"' in sequences


def test_pages_are_in_their_language(site: SiteBuild) -> None:
    assert (
        "Pravidla" in page(site, "cs", "stationfall", "rules")
        or "pravidla" in page(site, "cs", "stationfall", "rules").lower()
    )
    ja = page(site, "ja", "brink", "rules")
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]{20,}", ja)
    assert 'lang="ja"' in ja.split("<head>")[0]


def test_language_switcher_and_fonts_on_every_page(site: SiteBuild) -> None:
    html = page(site, "cs", "brink", "glossary")
    assert '<meta name="rulepress-language" content="cs">' in html
    assert "rulepress-lang.js" in html
    css = next((site.out / "cs" / "brink" / "_static").glob("rulepress.css")).read_text(
        encoding="utf-8"
    )
    assert css.index('"Noto Sans"') < css.index('"Noto Sans CJK JP"')
    assert "@media print" in css


def test_czech_search_folds_diacritics_and_stems(site: SiteBuild) -> None:
    index = (site.out / "cs" / "stationfall" / "searchindex.js").read_text(encoding="utf-8")
    assert '"zrad"' in index  # "zrady", "zradu" … (pole zrady)
    assert '"uplatk"' in index  # "úplatek", "úplatky" without the accent
    js = (site.out / "cs" / "stationfall" / "_static" / "language_data.js").read_text(
        encoding="utf-8"
    )
    assert 'normalize("NFD")' in js


def test_doctests_ran_in_every_language(site: SiteBuild) -> None:
    for lang in LANGS:
        for game in GAMES:
            blocks, statements = doctests(site, lang, game)
            # one doctest block per example, every statement of it run
            assert blocks == len(loaded(game).spec.examples)
            assert doctest_count(site, lang, game) == statements


def test_a_wrong_stated_result_fails_the_doctest_build(tmp_path: Path) -> None:
    import yaml

    specs = tmp_path / "rules_spec"
    shutil.copytree(ROOT / "rules_spec", specs)
    path = specs / "stationfall" / "examples.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    facts = next(iter(data["examples"][0]["expect"]["players"].values()))
    facts["total"] += 1
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    build = SiteBuild(tmp_path, specs, ROOT / "locales", tmp_path / "out", ("en",))
    with pytest.raises(SiteError) as info:
        build.build(doctest=True)
    assert "sphinx doctest (en)" in info.value.render()
    rendered = info.value.render()
    assert "result.fact('ada', 'total')\nExpected:\n    7\nGot:\n    6" in rendered
