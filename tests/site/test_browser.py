"""The built site in a real browser: Debian's Chromium driven by Playwright over HTTP.

A local server on 127.0.0.1 serves the session's site build. Checked as a
player would: follow a rule link to its anchor, switch language (with and
without JavaScript) and land on the same page, search a Japanese and a Czech
term, tap targets of at least 24 px on a phone and a desktop, no console
errors; and screenshots of a Czech and a Japanese page, for a person to look at.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import TRANSLATED, loaded

#: drives a browser over a site build: left out of the quick run (-m 'not slow')
pytestmark = [pytest.mark.slow, pytest.mark.browser]

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """A static server that answers a missing address with the site's 404.html, as hosts do."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base_url(site: SiteBuild) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site.out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $RULEPRESS_TEST_ARTIFACTS/site (git-ignored), else a temporary folder."""
    chosen = os.environ.get("RULEPRESS_TEST_ARTIFACTS")
    folder = Path(chosen) / "site" if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield instance
        instance.close()


def watched_page(context: Any) -> Any:
    """A new page of ``context`` that records every script error in ``page.errors``."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


@pytest.fixture
def tab(browser: object) -> Iterator[object]:
    context = browser.new_context()  # type: ignore[attr-defined]
    yield watched_page(context)
    context.close()


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


#: a phone and a desktop window
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_controls_are_big_enough_to_tap(browser: object, base_url: str, viewport: str) -> None:
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/cs/stationfall/rules.html")
        menu = tab.locator(".rp-menu-link")
        if menu.is_visible():  # a phone: the page list and search open from "Menu"
            menu.click()
        controls = tab.locator(
            ".rp-langs a, .rp-menu-link:visible, .rp-pages a, .rp-all a, .rp-pager a,"
            " .rp-search input, .rp-search button, .rp-contents a, .rp-to-contents a"
        )
        assert controls.count() >= 12
        for i in range(controls.count()):
            box = controls.nth(i).bounding_box()
            assert box is not None
            assert min(box["width"], box["height"]) >= 24, (i, box)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("cs/stationfall/rules.html", "cs-stationfall-rules"),
        ("ja/brink/scoring.html", "ja-brink-scoring"),
    ],
)
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_screenshots(
    browser: object, base_url: str, artifacts: Path, url: str, name: str, viewport: str
) -> None:
    """Screenshots for a person to look at (RULEPRESS_TEST_ARTIFACTS=test-artifacts keeps them)."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/{url}")
        tab.wait_for_load_state("networkidle")
        path = artifacts / f"{name}-{viewport}.png"
        tab.screenshot(path=str(path))
        assert path.stat().st_size > 10_000
        # the page's own language, in a font that has its letters (the Latin font first)
        family = tab.evaluate("getComputedStyle(document.body).fontFamily")
        assert family.index("Noto Sans") < family.index("Noto Sans CJK JP")
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


def test_pages_have_no_console_errors(tab: object, base_url: str) -> None:
    for url in (
        "en/index.html",
        "cs/brink/examples.html",
        "ja/stationfall/glossary.html",
        "index.html?stay",
    ):
        tab.goto(f"{base_url}/{url}")  # type: ignore[attr-defined]
        tab.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    assert tab.errors == []  # type: ignore[attr-defined]


#: each game's source language: its pages in it are read in full on a desktop
SOURCE_LANGUAGE = {"stationfall": "cs", "brink": "ja"}


def _page_types(site: SiteBuild) -> list[str]:
    """Every kind of page, in every language: landing pages, each game's pages, search."""
    out = ["index.html?stay"]  # the root page itself, not where it sends a browser
    out.append("en/stationfall/no-such-page.html")  # the page for a missing address
    for lang_dir in sorted(p for p in site.out.iterdir() if p.is_dir() and len(p.name) == 2):
        lang = lang_dir.name
        out += [f"{lang}/index.html", f"{lang}/search.html"]
        for game in sorted(p for p in lang_dir.iterdir() if (p / "rules.html").is_file()):
            out += [f"{lang}/{game.name}/{page.name}" for page in sorted(game.glob("*.html"))]
    return out


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_serious_accessibility_violations(
    browser: object, base_url: str, site: SiteBuild, viewport: str
) -> None:
    """axe-core over every kind of page in every language, on a desktop and on a phone.

    The languages' pages are the same tree with other words, and the games' pages the
    same kinds: every page of every game in English; in each other language, its
    landing and search pages and, on a desktop, every page of the game whose source
    is in that language (Stationfall's Czech card, Brink's Japanese rulebook), where
    quotes and text share a language. What a narrow screen changes (the menu folded,
    the tables scrolled) is seen on the English pages and on each language's landing
    and search pages.
    """
    from axe_playwright_python.sync_playwright import Axe

    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    axe = Axe()
    found: list[tuple[str, str, str, int]] = []
    pages = _page_types(site)
    assert len(pages) >= 40
    own = tuple(f"{lang}/{game}/" for game, lang in SOURCE_LANGUAGE.items())
    if viewport == "phone":
        pages = [p for p in pages if p.startswith(("en/", "index")) or p.count("/") == 1]
        assert len(pages) >= 15
    else:
        pages = [p for p in pages if p.startswith(("en/", "index", *own)) or p.count("/") == 1]
        assert len(pages) >= 40
    try:
        tab = context.new_page()
        for page in pages:
            tab.goto(f"{base_url}/{page}")
            for v in axe.run(tab).response["violations"]:
                if v["impact"] in ("critical", "serious"):
                    found.append((page, v["id"], v["impact"], len(v["nodes"])))
            # landmarks, a heading and a language on every page
            assert tab.locator("main").count() == 1, page
            assert tab.locator("h1").count() >= 1, page
            assert tab.evaluate("document.documentElement.lang"), page
    finally:
        context.close()
    assert found == []


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
