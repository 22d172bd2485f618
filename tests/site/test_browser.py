"""The built site in a real browser: Debian's Chromium driven by Playwright over HTTP.

A local server on 127.0.0.1 serves the session's site build. Checked as a
player would: follow a rule link to its anchor, switch language (with and
without JavaScript) and land on the same page, search a Japanese and a Czech
term, tap targets of at least 24 px on a phone and a desktop, no console
errors; and screenshots of a Czech and a Japanese page, for a person to look at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import TRANSLATED, loaded
from tests.site.chromium import watched_page

#: drives a browser over a site build: left out of the quick run (-m 'not slow')
pytestmark = [pytest.mark.slow, pytest.mark.browser]

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $RULEPRESS_TEST_ARTIFACTS/site (git-ignored), else a temporary folder."""
    chosen = os.environ.get("RULEPRESS_TEST_ARTIFACTS")
    folder = Path(chosen) / "site" if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_rule_link_leads_to_its_anchor(tab: object, base_url: str) -> None:
    tab.goto(f"{base_url}/en/stationfall/sequences.html")  # type: ignore[attr-defined]
    tab.locator('a[href="rules.html#rule-16-4-8"]').first.click()  # type: ignore[attr-defined]
    tab.wait_for_url("**/en/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    assert tab.locator("#rule-16-4-8").is_visible()  # type: ignore[attr-defined]
    assert tab.errors == []  # type: ignore[attr-defined]


def test_a_rules_source_marker_opens_on_its_ruling(tab: object, base_url: str) -> None:
    tab.goto(f"{base_url}/en/brink/rules.html#rule-11-6-2")  # type: ignore[attr-defined]
    marker = tab.locator("#rule-11-6-2 > details.rp-source")  # type: ignore[attr-defined]
    link = marker.locator('a[href="rulings.html#ruling-rider-slot"]')
    assert not link.is_visible()  # closed until the reader opens it
    marker.locator("summary").click()
    assert link.is_visible()
    link.click()
    tab.wait_for_url("**/en/brink/rulings.html#ruling-rider-slot")  # type: ignore[attr-defined]
    assert tab.locator("#ruling-rider-slot").is_visible()  # type: ignore[attr-defined]
    assert tab.errors == []  # type: ignore[attr-defined]


def test_language_switch_keeps_the_page(tab: object, base_url: str) -> None:
    tab.goto(f"{base_url}/en/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    tab.locator('.rp-langs a[hreflang="cs"]').click()  # type: ignore[attr-defined]
    # the page and the rule the reader was at (tests/site/test_phone.py: the anchor on a phone)
    tab.wait_for_url("**/cs/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    assert tab.locator("#rule-16-4-8").count() == 1  # type: ignore[attr-defined]
    tab.locator('.rp-langs a[hreflang="ja"]').click()  # type: ignore[attr-defined]
    tab.wait_for_url("**/ja/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    assert tab.evaluate("document.documentElement.lang") == "ja"  # type: ignore[attr-defined]
    assert tab.errors == []  # type: ignore[attr-defined]


def test_the_switcher_and_the_menu_work_without_javascript(browser: object, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/ja/brink/scoring.html")
        tab.locator('.rp-langs a[hreflang="cs"]').click()
        tab.wait_for_url("**/cs/brink/scoring.html")
        assert tab.locator("html").get_attribute("lang") == "cs"
        assert tab.locator('.rp-langs a[aria-current="page"]').inner_text() == "Čeština"
        tab.locator(".rp-pages a", has_text="Slovníček pojmů").click()
        tab.wait_for_url("**/cs/brink/glossary.html")
        tab.locator(".rp-all a").click()
        tab.wait_for_url("**/cs/index.html")
        tab.locator('.rp-langs a[hreflang="en"]').click()
        tab.wait_for_url("**/en/index.html")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("lang", "number", "landing"),
    [
        ("cs", "16.4.8", "stationfall/rules.html#rule-16-4-8"),
        ("ja", "14.4.4", "brink/rules.html#rule-14-4-4"),
        ("en", "16.3", None),  # both games have a rule 16.3: the results list both
    ],
)
def test_a_rule_number_goes_to_its_rule(
    tab: object, base_url: str, lang: str, number: str, landing: str | None
) -> None:
    tab.goto(f"{base_url}/{lang}/search.html?q={number}")  # type: ignore[attr-defined]
    if landing is not None:
        tab.wait_for_url(f"**/{lang}/{landing}", timeout=15000)  # type: ignore[attr-defined]
        # the rule is where the page opened
        assert tab.evaluate("location.hash") == "#" + landing.split("#")[1]  # type: ignore[attr-defined]
    else:
        results = tab.locator("#search-results ul.search li a")  # type: ignore[attr-defined]
        results.first.wait_for(timeout=15000)
        hrefs = [results.nth(i).get_attribute("href") or "" for i in range(results.count())]
        # results of a rule land on its anchor, in each game that has it
        assert any(h.endswith("stationfall/rules.html#rule-16-3") for h in hrefs), hrefs
        assert any(h.endswith("brink/rules.html#rule-16-3") for h in hrefs), hrefs
    assert tab.errors == []  # type: ignore[attr-defined]


def test_every_page_searches_its_language_across_games(site: SiteBuild) -> None:
    html = (site.out / "cs" / "brink" / "rules.html").read_text(encoding="utf-8")
    assert '<form class="rp-search" action="../search.html"' in html
    assert not (site.out / "cs" / "brink" / "search.html").exists()


#: a phone and a desktop window
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}

#: each game's source language: its pages in it are the ones read in that language
SOURCE_LANGUAGE = {"stationfall": "cs", "brink": "ja"}
#: pages a person looks at in screenshots (RULEPRESS_TEST_ARTIFACTS keeps them), by name
SCREENSHOTS = {
    "cs/stationfall/rules.html": "cs-stationfall-rules",
    "ja/brink/scoring.html": "ja-brink-scoring",
}
#: an address the site does not have: the walk reads the page a host answers it with
MISSING = "en/stationfall/no-such-page.html"
#: the page whose controls are measured: the longest page list (a game's rules), in Czech
TAP_PAGE = "cs/stationfall/rules.html"
#: every control a reader taps in the header, menu, pager and contents list
CONTROLS = (
    ".rp-langs a, .rp-menu-link:visible, .rp-pages a, .rp-all a, .rp-pager a,"
    " .rp-search input, .rp-search button, .rp-contents a, .rp-to-contents a"
)


def _walked_pages(site: SiteBuild, viewport: str) -> list[str]:
    """The pages the walk reads (see :func:`walk`): each kind of page once, and each
    language's own pages.

    A game's pages are of a dozen kinds (its rules, sequences, scoring, glossary,
    examples …); each kind is made by the same code from the same document tree in
    every language and for every game, and laid out by one template: they differ in
    their words and numbers. So each kind is read once on each screen, in a language
    that turns from kind to kind (and is another on the phone than on the desktop),
    from the game whose source is in that language where there is one (Stationfall's
    Czech card, Brink's Japanese rulebook: quotes and text share a language there).
    What only a language changes (its ``lang``, its words in the header, the menu and
    the search) is read on its landing and search pages, and on the kinds it gets.
    The root page and the page for a missing address are read once; the pages of
    :data:`SCREENSHOTS` and :data:`TAP_PAGE` are among the pages read.
    """
    out = ["index.html?stay"]  # the root page itself, not where it sends a browser
    out.append(MISSING)  # the page for a missing address
    langs = sorted(p.name for p in site.out.iterdir() if p.is_dir() and len(p.name) == 2)
    kinds: dict[str, dict[str, list[str]]] = {}  # language -> kind -> its pages
    own: dict[str, bool] = {}  # whether a game's source is in the language
    for lang in langs:
        out += [f"{lang}/index.html", f"{lang}/search.html"]
        games = sorted(p for p in (site.out / lang).iterdir() if (p / "rules.html").is_file())
        games.sort(key=lambda game: SOURCE_LANGUAGE.get(game.name) != lang)  # its own first
        own[lang] = any(SOURCE_LANGUAGE.get(game.name) == lang for game in games)
        kinds[lang] = {}
        for game in games:
            for page in sorted(game.glob("*.html")):
                kinds[lang].setdefault(page.name, []).append(f"{lang}/{game.name}/{page.name}")
    turn = list(VIEWPORTS).index(viewport)
    for i, kind in enumerate(sorted({kind for found in kinds.values() for kind in found})):
        # the kind's turn of language, or the next language that has it
        order = [langs[(i + turn + step) % len(langs)] for step in range(len(langs))]
        lang = next(lang for lang in order if kind in kinds[lang])
        pages = kinds[lang][kind]  # its own game's first; else the games in turn
        out.append(pages[0] if own[lang] else pages[i % len(pages)])
    return list(dict.fromkeys([*out, *SCREENSHOTS, TAP_PAGE]))


@dataclass
class Seen:
    """What the walk saw of one page."""

    #: axe-core's serious and critical violations: (rule, impact, elements)
    violations: list[tuple[str, str, int]]
    #: <main> elements, <h1> elements, and the document's language
    landmarks: tuple[int, int, str]
    #: the body's font stack
    fonts: str
    #: script errors and console errors while the page was read
    errors: list[str]
    #: the screenshot taken of it, for a page of SCREENSHOTS
    screenshot: Path | None = None
    #: the size of each control (width, height), for TAP_PAGE: none measured elsewhere
    controls: list[tuple[float, float]] = field(default_factory=list)


@pytest.fixture(scope="module", params=list(VIEWPORTS))
def walk(
    request: pytest.FixtureRequest, browser: Any, base_url: str, site: SiteBuild, artifacts: Path
) -> tuple[str, dict[str, Seen]]:
    """Every page of :func:`_walked_pages` loaded once, in a window of each size, and read.

    The checks that need a page in a browser and change nothing on it share its one
    load (the tests below read what was seen): axe-core, the landmarks, the fonts and
    the script errors of every page, the screenshots, and last, since it opens the
    phone's menu, the size of the controls.
    """
    from axe_playwright_python.sync_playwright import Axe

    viewport = request.param
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height})
    axe = Axe()
    seen: dict[str, Seen] = {}
    try:
        tab = watched_page(context)
        for url in _walked_pages(site, viewport):
            tab.errors.clear()
            tab.goto(f"{base_url}/{url}")
            violations = [
                (v["id"], v["impact"], len(v["nodes"]))
                for v in axe.run(tab).response["violations"]
                if v["impact"] in ("critical", "serious")
            ]
            landmarks = (
                tab.locator("main").count(),
                tab.locator("h1").count(),
                tab.evaluate("document.documentElement.lang"),
            )
            fonts = tab.evaluate("getComputedStyle(document.body).fontFamily")
            page = Seen(violations, landmarks, fonts, [])
            if url in SCREENSHOTS:
                page.screenshot = artifacts / f"{SCREENSHOTS[url]}-{viewport}.png"
                tab.screenshot(path=str(page.screenshot))
            if url == TAP_PAGE:
                menu = tab.locator(".rp-menu-link")
                if menu.is_visible():  # a phone: the page list and search open from "Menu"
                    menu.click()
                controls = tab.locator(CONTROLS)
                for i in range(controls.count()):
                    box = controls.nth(i).bounding_box()  # None: not shown, so no size
                    page.controls.append((box["width"], box["height"]) if box else (0.0, 0.0))
            # a script's error may come once the page has nothing left to load
            tab.wait_for_load_state("networkidle")
            page.errors = list(tab.errors)
            seen[url] = page
    finally:
        context.close()
    return viewport, seen


def test_no_serious_accessibility_violations(walk: tuple[str, dict[str, Seen]]) -> None:
    """axe-core over every kind of page in every language, on a desktop and on a phone."""
    _, seen = walk
    assert len(seen) >= 20
    assert {url: page.violations for url, page in seen.items() if page.violations} == {}
    # landmarks, a heading and a language on every page
    for url, page in seen.items():
        mains, headings, lang = page.landmarks
        assert (mains, headings >= 1, bool(lang)) == (1, True, True), (url, page.landmarks)


def test_pages_have_no_console_errors(walk: tuple[str, dict[str, Seen]]) -> None:
    _, seen = walk
    # (Chromium reports the answer to a missing address, a 404, as a console error)
    errors = {url: page.errors for url, page in seen.items() if page.errors and url != MISSING}
    assert errors == {}


def test_screenshots(walk: tuple[str, dict[str, Seen]]) -> None:
    """Screenshots for a person to look at (RULEPRESS_TEST_ARTIFACTS=test-artifacts keeps them)."""
    _, seen = walk
    for url in SCREENSHOTS:
        shot = seen[url].screenshot
        assert shot is not None
        assert shot.stat().st_size > 10_000, url
    # every page of a language's site in a font that has its letters (the Latin font first)
    # (the root page and the page for a missing address are styled on their own)
    for url, page in seen.items():
        if url != MISSING and "/" in url:
            assert page.fonts.index("Noto Sans") < page.fonts.index("Noto Sans CJK JP"), url


def test_controls_are_big_enough_to_tap(walk: tuple[str, dict[str, Seen]]) -> None:
    _, seen = walk
    controls = seen[TAP_PAGE].controls
    assert len(controls) >= 12
    assert [box for box in controls if min(box) < 24] == []


@pytest.mark.parametrize(("game", "lang"), TRANSLATED)
def test_an_examples_table_state_opens_without_javascript(
    browser: object, base_url: str, game: str, lang: str
) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/{lang}/{game}/examples.html")
        folds = tab.locator("details.rp-fold")
        assert folds.count() == len(loaded(game).spec.examples)  # one per example, all closed
        assert tab.locator("details.rp-fold[open]").count() == 0
        first = folds.first
        assert not first.locator("li").first.is_visible()  # the players' facts are folded
        first.locator("summary").click()
        assert first.get_attribute("open") is not None
        assert first.locator("li").first.is_visible()
    finally:
        context.close()


def test_a_missing_address_gets_a_page_in_every_language_that_leads_home(
    tab: object, base_url: str, site: SiteBuild
) -> None:
    # deep in a game's folder: its links still lead to the site's languages
    response = tab.goto(f"{base_url}/cs/stationfall/old/rule-16.html")  # type: ignore[attr-defined]
    assert response.status == 404
    assert tab.locator("h1").count() == 1  # type: ignore[attr-defined]
    sections = tab.locator("main section")  # type: ignore[attr-defined]
    assert [sections.nth(i).get_attribute("lang") for i in range(sections.count())] == list(
        site.languages
    )
    tab.locator('section[lang="cs"] a').click()  # type: ignore[attr-defined]
    tab.wait_for_url(f"{base_url}/cs/index.html")  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "lang"), TRANSLATED)
def test_a_cited_rule_shows_its_text_on_focus_and_on_hover(
    tab: object, base_url: str, lang: str, game: str
) -> None:
    t: Any = tab
    t.goto(f"{base_url}/{lang}/{game}/sequences.html")
    link = t.locator(".rp-rule a[href*='#rule-']").first
    href = link.get_attribute("href")
    t.keyboard.press("Tab")  # the page is reachable by keyboard: focus the link itself
    link.focus()
    popover = t.locator("#rp-popover")
    popover.wait_for(state="visible", timeout=10000)
    # the rule's own heading and text, as the rules page has them
    rules = t.context.new_page()
    rules.goto(f"{base_url}/{lang}/{game}/{href}")
    anchor = href.split("#")[1]
    heading = rules.locator(f"[id='{anchor}'] > :is(h2, h3, h4, h5, h6)").first.inner_text()
    # (a chapter may have no text of its own, only its sub-rules)
    texts = [p.strip() for p in rules.locator(f"[id='{anchor}'] > p").all_inner_texts()]
    rules.close()
    shown = popover.inner_text()
    assert heading.rstrip("¶").strip() in shown
    assert all(text in shown for text in texts)
    assert link.get_attribute("aria-describedby") == "rp-popover"
    t.keyboard.press("Escape")
    popover.wait_for(state="detached", timeout=5000)
    # pointing at it shows it too, and moving away hides it
    link.hover()
    popover.wait_for(state="visible", timeout=10000)
    t.mouse.move(0, 0)
    popover.wait_for(state="detached", timeout=5000)
    assert t.errors == []
