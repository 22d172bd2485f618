"""The built site in a real browser: Debian's Chromium driven by Playwright over HTTP.

A local server on 127.0.0.1 serves the session's site build. Checked as a
player would: follow a rule link to its anchor, switch language and land on
the same rule, search a Japanese and a Czech term, and no console errors.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator

import pytest

from rulepress.sphinx_ext.build import SiteBuild

#: builds sites or PDFs, or drives a browser: left out of the quick run (-m 'not slow')
pytestmark = pytest.mark.slow

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
    def log_message(self, format: str, *args: object) -> None:
        pass


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
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield instance
        instance.close()


@pytest.fixture
def tab(browser: object) -> Iterator[object]:
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    yield page
    context.close()


def test_rule_link_leads_to_its_anchor(tab: object, base_url: str) -> None:
    tab.goto(f"{base_url}/en/stationfall/sequences.html")  # type: ignore[attr-defined]
    tab.locator('a[href="rules.html#rule-16-4-8"]').first.click()  # type: ignore[attr-defined]
    tab.wait_for_url("**/en/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    assert tab.locator("#rule-16-4-8").is_visible()  # type: ignore[attr-defined]
    assert tab.errors == []  # type: ignore[attr-defined]


def test_language_switch_keeps_page_and_rule(tab: object, base_url: str) -> None:
    tab.goto(f"{base_url}/en/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    tab.locator('.rp-lang a[data-lang="cs"]').click()  # type: ignore[attr-defined]
    tab.wait_for_url("**/cs/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    assert tab.locator("#rule-16-4-8").count() == 1  # type: ignore[attr-defined]
    tab.locator('.rp-lang a[data-lang="ja"]').click()  # type: ignore[attr-defined]
    tab.wait_for_url("**/ja/stationfall/rules.html#rule-16-4-8")  # type: ignore[attr-defined]
    assert tab.evaluate("document.documentElement.lang") == "ja"  # type: ignore[attr-defined]
    assert tab.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("path", "query", "expected_page"),
    [
        ("ja/brink", "名声", "rules.html"),
        ("cs/stationfall", "uplatek", "rules.html"),  # úplatek, typed without the accent
        ("cs/stationfall", "zrady", "glossary.html"),
    ],
)
def test_search_finds_the_right_page(
    tab: object, base_url: str, path: str, query: str, expected_page: str
) -> None:
    tab.goto(f"{base_url}/{path}/search.html?q={query}")  # type: ignore[attr-defined]
    results = tab.locator("#search-results ul.search li a")  # type: ignore[attr-defined]
    results.first.wait_for(timeout=15000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any(expected_page in (h or "") for h in hrefs), hrefs
    assert tab.errors == []  # type: ignore[attr-defined]


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
