"""Full locale codes on the site: BCP 47 tags in the markup, and the reader's language picked well.

The site's folders are Babel's codes (``pt_BR``); HTML, sitemaps and browsers
speak BCP 47 (``pt-BR``). The root page picks the reader's language in the
browser, from ``navigator.languages``: the browser tests run its script in
Debian's Chromium over a root page written for a made-up list of languages
(no Sphinx build: the pages it leads to are stubs served by the test).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from rulepress.model.languages import language_tag
from rulepress.sphinx_ext import deploy, language_links
from rulepress.sphinx_ext.rootpage import root_page

SITES = ["en", "cs", "pt_BR", "zh_Hant_TW", "zh_Hans"]
ORIGIN = "http://site.test"  # answered by the test itself (page.route), never the network


@pytest.mark.parametrize(
    ("code", "tag"),
    [
        ("en", "en"),
        ("pt_BR", "pt-BR"),
        ("zh_Hant_TW", "zh-Hant-TW"),
        ("ca_ES_VALENCIA", "ca-ES-VALENCIA"),
    ],
)
def test_a_locale_code_becomes_its_bcp47_tag(code: str, tag: str) -> None:
    assert language_tag(code) == tag


def test_the_markup_names_languages_by_tag_and_folders_by_code(tmp_path: Path) -> None:
    page = root_page(["en", "pt_BR"])
    assert "<html lang='en'>" in page
    assert '<a href="pt_BR/index.html" hreflang="pt-BR" lang="pt-BR">' in page
    links = language_links("rules", "rules.html", "pt_BR", ["en", "pt_BR"], {}, [])
    assert [(link["code"], link["tag"]) for link in links] == [("en", "en"), ("pt_BR", "pt-BR")]
    assert links[1]["href"] == "../pt_BR/rules.html"
    for lang in ("en", "pt_BR"):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "index.html").write_text("<html></html>", encoding="utf-8")
    sitemap = ElementTree.fromstring(deploy.sitemap(tmp_path, ["en", "pt_BR"], "https://e.org/"))
    alternates = {
        link.get("hreflang"): link.get("href") for link in sitemap.iter() if link.get("hreflang")
    }
    assert alternates == {
        "en": "https://e.org/en/index.html",
        "pt-BR": "https://e.org/pt_BR/index.html",
    }
    missing = deploy.not_found_page(["en", "pt_BR"], {"en": str, "pt_BR": str}, None)
    assert '<section lang="pt-BR">' in missing


# ------------------------------------------------------------------ in the browser
# (the browser: tests/site/conftest.py's, one per test process)


def _serve(page: Any, languages: list[str]) -> None:
    """The root page for ``languages``, and a stub start page in each, at :data:`ORIGIN`."""
    root = root_page(languages)

    def answer(route: Any) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?", 1)[0].split("#", 1)[0]
        if path in ("/", "/index.html"):
            route.fulfill(body=root, content_type="text/html; charset=utf-8")
        elif path.endswith("/index.html") and path.split("/")[1] in languages:
            route.fulfill(body="<!doctype html><title>stub</title>", content_type="text/html")
        else:  # the icon
            route.fulfill(status=204)

    page.route(f"{ORIGIN}/**", answer)


def _tab(browser: Any, languages: list[str], locale: str | None = None) -> Any:
    context = browser.new_context(**({"locale": locale} if locale else {}))
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    _serve(page, languages)
    return page


#: (the site's languages, the reader's languages in order, where the reader is sent)
CASES = [
    (SITES, ["pt-BR"], "pt_BR"),  # the full tag, which two letters never found
    (SITES, ["pt"], "pt_BR"),  # CLDR's likely subtags: pt is Brazilian Portuguese
    (SITES, ["pt-PT", "en"], "pt_BR"),  # Portuguese, though another region's, before English
    (SITES, ["zh-TW"], "zh_Hant_TW"),  # the script a region implies
    (SITES, ["zh-HK"], "zh_Hant_TW"),  # the same script, another region
    (SITES, ["zh-CN"], "zh_Hans"),
    (SITES, ["zh"], "zh_Hans"),
    (SITES, ["zh-Hant"], "zh_Hant_TW"),
    (SITES, ["de-DE", "cs-CZ", "en"], "cs"),  # the reader's first language the site has
    (SITES, ["EN-gb"], "en"),  # tags are read case-blind
    (SITES, ["de", "fr"], "en"),  # none: the site's first language
    (SITES, [], "en"),
    (SITES, ["*", "x-private", "cs"], "cs"),  # what is no language tag is passed over
    (["en", "pt_BR", "pt"], ["pt-PT"], "pt"),  # the general locale before another region's
    (["en", "pt", "pt_BR"], ["pt-BR"], "pt_BR"),
    (["en", "pt_BR", "pt"], ["pt"], "pt"),
    (["en", "pt_BR", "pt"], ["pt-BR"], "pt_BR"),
    (["cs", "en"], ["en-US"], "en"),
]


@pytest.mark.slow
@pytest.mark.browser
def test_the_reader_gets_the_closest_language_the_site_has(browser: Any) -> None:
    wrong = []
    by_site: dict[tuple[str, ...], list[tuple[list[str], str]]] = {}
    for languages, wanted, expected in CASES:
        by_site.setdefault(tuple(languages), []).append((wanted, expected))
    for languages, cases in by_site.items():
        tab = _tab(browser, list(languages))
        tab.goto(f"{ORIGIN}/index.html?stay")  # the root page itself, not where it sends one
        for wanted, expected in cases:
            got = tab.evaluate("w => rulepressPick(sites, w)", wanted)
            if got != expected:
                wrong.append(f"{list(languages)} for {wanted}: {got}, not {expected}")
        assert tab.errors == []
        tab.context.close()
    assert wrong == []


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(
    ("languages", "locale", "expected"),
    [
        (SITES, "pt-BR", "pt_BR"),
        (SITES, "zh-TW", "zh_Hant_TW"),
        (["en", "pt_BR", "pt"], "pt-PT", "pt"),
    ],
)
def test_the_root_page_sends_a_browser_to_its_language(
    browser: Any, languages: list[str], locale: str, expected: str
) -> None:
    tab = _tab(browser, languages, locale)
    assert tab.evaluate("navigator.languages")[0] == locale
    tab.goto(f"{ORIGIN}/#rule-1")
    tab.wait_for_url(f"{ORIGIN}/{expected}/index.html#rule-1")
    assert tab.errors == []
    tab.context.close()
