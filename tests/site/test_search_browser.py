"""The site's search as a player uses it: real queries typed into the search page in Chromium.

Results are rules, terms, examples and rulings named with their kind and game; a
rule number or a term comes first; the passage under a result is that rule's own
text; the number of results shows in every language; the developer guides are
found only when asked for; and axe finds nothing serious on a page of results.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import GAME_LANGUAGES
from tests.site.chromium import watched_page

pytestmark = [pytest.mark.slow, pytest.mark.browser]

pytest.importorskip("playwright.sync_api")

#: each language's words for the kinds of results (theme.po)
KINDS = {
    "en": {
        "rule": "Rule",
        "term": "Term",
        "example": "Worked example",
        "ruling": "Ruling",
        "page": "Page",
    },
    "cs": {
        "rule": "Pravidlo",
        "term": "Pojem",
        "example": "Řešený příklad",
        "ruling": "Výklad",
        "page": "Stránka",
    },
    "ja": {
        "rule": "ルール",
        "term": "用語",
        "example": "計算例",
        "ruling": "裁定",
        "page": "ページ",
    },
}


#: a game's title in its pages' header
BRAND = re.compile(r'<a class="rp-brand" href="[^"]*">([^<]*)</a>')


def _games(site: SiteBuild, lang: str) -> dict[str, str]:
    """Each game's title in ``lang``, as its own pages' header shows it (its text, read
    from the built page: a browser would show the same words)."""
    titles = {}
    for game in (g for g, langs in GAME_LANGUAGES.items() if lang in langs):
        found = BRAND.search((site.out / lang / game / "index.html").read_text(encoding="utf-8"))
        assert found is not None, (lang, game)
        titles[game] = html.unescape(found.group(1)).strip()
    return titles


def _search(
    tab: Any, base: str, lang: str, query: str, guides: bool = False
) -> list[dict[str, str]]:
    """Type ``query`` into the language's search page, wait for every result, read them."""
    tab.goto(f"{base}/{lang}/search.html")
    tab.locator("#search-results")  # the page is there before anything is typed
    box = tab.locator("form.rp-search input[name=q]")
    box.fill(query)
    if guides:
        tab.locator("#rp-search-guides").check()
    box.press("Enter")
    tab.wait_for_url(re.compile(r".*[?&]q=.*"))
    # Sphinx titles the results "Search Results" (in the language) once the last is listed
    tab.wait_for_function(
        "() => { const h = document.querySelector('#search-results h2');"
        " return h !== null && h.querySelector('span') === null; }",
        timeout=30000,
    )
    items = tab.locator("#search-results ul.search > li")
    # every passage fetched: each result has its kind line
    tab.wait_for_function(
        "() => [...document.querySelectorAll('#search-results ul.search > li')]"
        ".every(li => li.querySelector('.rp-result-kind'))",
        timeout=30000,
    )
    out = []
    for i in range(items.count()):
        item = items.nth(i)
        context = item.locator("p.context")
        out.append(
            {
                "title": item.locator("a").first.inner_text().strip(),
                "href": item.locator("a").first.get_attribute("href") or "",
                "kind": item.locator(".rp-result-kind").inner_text().strip(),
                "game": " ".join(item.locator(".rp-result-game").all_inner_texts()),
                "text": context.inner_text().strip() if context.count() else "",
            }
        )
    return out


def _status(tab: Any) -> str:
    return str(tab.locator("#search-results .search-summary").inner_text())


@dataclass
class _Searched:
    """A search as :func:`_search` typed it, and what its page of results shows."""

    results: list[dict[str, str]]
    #: the line that says how many results there are
    status: str
    #: spans beside a result's title other than its kind line (Sphinx's "(rule, in Rules)")
    asides: int
    #: what the language's separator between a result's kind and game is (CSS content)
    separator: str | None
    #: script errors and console errors while it ran
    errors: list[str]
    #: passages and highlighted words on the page of results
    passages: int
    highlights: int
    #: for a search of :data:`AXE_READ`, axe-core's serious and critical violations on its
    #: page of results in each colour scheme: (rule, impact, elements)
    violations: dict[str, list[tuple[str, str, int]]]


#: the searches whose page of results axe-core reads (highlights, passages, kind lines)
AXE_READ = [("en", "bribe"), ("cs", "úplatek"), ("ja", "名声")]
SCHEMES = ("light", "dark")


def _violations(tab: Any) -> list[tuple[str, str, int]]:
    from axe_playwright_python.sync_playwright import Axe

    return [
        (v["id"], v["impact"], len(v["nodes"]))
        for v in Axe().run(tab).response["violations"]
        if v["impact"] in ("critical", "serious")
    ]


@pytest.fixture(scope="module")
def searched(browser: Any, base_url: str) -> Iterator[Callable[[str, str], _Searched]]:
    """Each search typed once for the tests that read its results (a search fetches the
    language's index and every result's passage: the costliest page of the site)."""
    context = browser.new_context()
    tab = watched_page(context)
    done: dict[tuple[str, str], _Searched] = {}

    def search(lang: str, query: str) -> _Searched:
        if (lang, query) not in done:
            tab.errors.clear()
            results = _search(tab, base_url, lang, query)
            done[lang, query] = _Searched(
                results,
                _status(tab),
                tab.locator("#search-results li > span:not(.rp-result-about)").count(),
                tab.evaluate(
                    "() => { const game = document.querySelector('.rp-result-game');"
                    " return game && getComputedStyle(game, '::before').content; }"
                ),
                list(tab.errors),
                tab.locator("#search-results p.context").count(),
                tab.locator("#search-results span.highlighted").count(),
                {},
            )
            if (lang, query) in AXE_READ:
                for scheme in SCHEMES:  # the same page in each scheme: its colours change
                    tab.emulate_media(color_scheme=scheme)
                    done[lang, query].violations[scheme] = _violations(tab)
                tab.emulate_media(color_scheme="light")
        return done[lang, query]

    yield search
    context.close()


def _about(lang: str, kind: str, game: str) -> tuple[str, str]:
    return KINDS[lang][kind], game


@pytest.mark.parametrize(
    ("lang", "query", "expected_page"),
    [
        ("ja", "名声", "brink/rules.html"),
        ("cs", "uplatek", "stationfall/rules.html"),  # úplatek, typed without the accent
        ("cs", "zrady", "stationfall/glossary.html"),
        # one search per language covers every game (and the guides): "tie" is in both
        ("en", "tie", "stationfall/"),
        ("en", "tie", "brink/"),
    ],
)
def test_one_search_finds_the_right_page_of_any_game(
    searched: Callable[[str, str], _Searched],
    lang: str,
    query: str,
    expected_page: str,
) -> None:
    # every result read once the last is listed: Sphinx lists them one by one
    search = searched(lang, query)
    hrefs = [r["href"] for r in search.results]
    assert any(expected_page in h for h in hrefs), hrefs
    assert search.errors == []


@pytest.mark.parametrize(
    ("lang", "query", "title", "kind", "game", "anchor"),
    [
        ("en", "bribe", "Bribe", "term", "Stationfall", "glossary.html#term-bribe"),
        ("cs", "uplatek", "Úplatek", "term", "Stationfall", "glossary.html#term-bribe"),
        ("ja", "名声", "名声", "term", "Brink", "glossary.html#term-prestige"),
        ("en", "16.4.8", "16.4.8 Winning", "rule", "Stationfall", "rules.html#rule-16-4-8"),
        (
            "cs",
            "pole zrady",
            "Pole zrady",
            "term",
            "Stationfall",
            "glossary.html#term-betrayal-box",
        ),
    ],
)
def test_a_term_or_a_rule_number_ranks_its_definition_or_rule_first(
    searched: Callable[[str, str], _Searched],
    site: SiteBuild,
    lang: str,
    query: str,
    title: str,
    kind: str,
    game: str,
    anchor: str,
) -> None:
    if query == "16.4.8":
        # a number one rule has opens that rule (rulepress-rulejump.js): "16.4.8 Winning"
        # typed in full is a search, and its rule still comes first
        query = "16.4.8 Winning"
    search = searched(lang, query)
    results = search.results
    game = _games(site, lang)[game.lower()]
    first = results[0]
    assert first["href"].endswith(anchor), results[:3]
    assert first["title"] == title
    assert (first["kind"], first["game"]) == _about(lang, kind, game)
    assert search.errors == []


def test_a_rule_number_two_games_share_lists_both_rules_first(
    searched: Callable[[str, str], _Searched],
) -> None:
    results = searched("en", "16.3").results
    assert {r["href"] for r in results[:2]} == {
        "brink/rules.html#rule-16-3",
        "stationfall/rules.html#rule-16-3",
    }
    assert all(r["title"].startswith("16.3 ") for r in results[:2])


@pytest.mark.parametrize(("lang", "query"), [("en", "tie"), ("cs", "remíza"), ("ja", "同点")])
def test_results_are_rules_terms_examples_and_rulings_of_a_named_game(
    searched: Callable[[str, str], _Searched],
    site: SiteBuild,
    lang: str,
    query: str,
) -> None:
    search = searched(lang, query)
    results = search.results
    assert len(results) >= 5
    objects = [r for r in results if re.search(r"#(rule|term|example|ruling)-", r["href"])]
    # the results are rules, terms, examples and rulings, the best first; a page is
    # listed when the words are in none of them (a sequence, a scoring table)
    assert len(objects) >= 0.6 * len(results), results
    assert results[:5] == objects[:5]
    games = _games(site, lang)
    for result in results:
        if result not in objects:
            game = games[result["href"].split("/")[0]]
            assert (result["kind"], result["game"]) == _about(lang, "page", game), result
    for result in objects:
        kind = re.search(r"#(rule|term|example|ruling)-", result["href"])
        assert kind is not None
        game = games[result["href"].split("/")[0]]
        assert (result["kind"], result["game"]) == _about(lang, kind.group(1), game), result
    # Sphinx's "(rule, in Rules)" beside a title is gone: the kind line says it instead
    assert search.asides == 0
    # the language's separator between kind and game
    assert search.separator == ('"・"' if lang == "ja" else '" · "')
    assert search.errors == []


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_a_results_passage_is_the_rules_own_text(
    searched: Callable[[str, str], _Searched],
    tab: Any,
    base_url: str,
    lang: str,
) -> None:
    query = {"en": "fewest", "cs": "nejméně", "ja": "勝利"}[lang]
    results = searched(lang, query).results
    rule = next(r for r in results if r["href"] == "stationfall/rules.html#rule-16-4-8")
    rules = tab
    rules.goto(f"{base_url}/{lang}/stationfall/rules.html")
    # the rule's own paragraphs and list, not its heading, Source note or sub-rules
    own = rules.evaluate(
        "() => [...document.getElementById('rule-16-4-8').children]"
        ".filter(e => !/^(H[1-6]|SECTION|DETAILS)$/.test(e.tagName))"
        ".map(e => e.textContent).join(' ')"
    )
    source = rules.evaluate(
        "() => document.querySelector('#rule-16-4-8 > details.rp-source .sd-summary-content')"
        ".textContent"
    )
    passage = rule["text"].strip("\u2026")
    flat = " ".join(own.split())
    assert passage
    assert " ".join(passage.split()) in flat
    # nothing of where the rule comes from
    assert " ".join(source.split())[:20] not in passage
    # it starts at a word: the first word is a whole word of the rule's text
    if lang != "ja":
        first = passage.split()[0]
        assert re.search(rf"(^|\s){re.escape(first)}", flat), (first, flat)


@pytest.mark.parametrize(
    ("lang", "query", "line"),
    [
        ("en", "bribe", "Results found: {n}"),
        ("cs", "uplatek", "Počet výsledků: {n}"),
        ("ja", "名声", "検索結果の件数：{n}"),
    ],
)
def test_the_number_of_results_shows_in_every_language(
    searched: Callable[[str, str], _Searched],
    lang: str,
    query: str,
    line: str,
) -> None:
    search = searched(lang, query)
    assert len(search.results) > 1
    assert search.status == line.format(n=len(search.results))


def test_nothing_found_says_so(searched: Callable[[str, str], _Searched]) -> None:
    search = searched("cs", "xyzzyqq")
    assert search.results == []
    assert search.status.startswith("Nic nenalezeno.")


def test_the_developer_guides_are_searched_only_when_asked_for(
    tab: Any,
    base_url: str,
    site: SiteBuild,
) -> None:
    assert (site.out / "en" / "guide" / "translators.html").is_file()
    players = _search(tab, base_url, "en", "translators")
    assert players, "a player's search finds the games' pages"
    assert not [r for r in players if r["href"].startswith("guide/")]
    guides = _search(tab, base_url, "en", "translators", guides=True)
    assert guides
    assert all(r["href"].startswith("guide/") for r in guides)
    assert "guides=1" in tab.url
    # the check box says what is searched after the page reloads
    assert tab.locator("#rp-search-guides").is_checked()
    # the games' languages have no guides, so no such box
    tab.goto(f"{base_url}/cs/search.html")
    assert tab.locator("#rp-search-guides").count() == 0


@pytest.mark.parametrize(("lang", "query"), AXE_READ)
def test_a_page_of_results_has_no_serious_accessibility_violations(
    searched: Callable[[str, str], _Searched], lang: str, query: str
) -> None:
    """axe-core over a results page with a query typed in (highlights, passages, kind
    lines), in the light and in the dark colour scheme."""
    search = searched(lang, query)
    assert len(search.results) > 1
    assert search.passages > 1
    assert search.highlights > 0
    assert search.violations == {scheme: [] for scheme in SCHEMES}
