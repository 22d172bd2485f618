"""The files beside the pages: sitemap.xml, robots.txt and the 404 page."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from rulepress.cli import cli
from rulepress.sphinx_ext import deploy

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>\r# heading"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://rules.example.org", "https://rules.example.org/"),
        ("https://example.org/rules", "https://example.org/rules/"),
        (" http://localhost:8000/ ", "http://localhost:8000/"),
    ],
)
def test_a_base_url_is_an_http_folder(given: str, expected: str) -> None:
    assert deploy.checked_base_url(given) == expected


@pytest.mark.parametrize(
    "bad", ["rules.example.org", "ftp://example.org/", "https://", "https://e.org/?a=1", "/rules/"]
)
def test_anything_else_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"address|query"):
        deploy.checked_base_url(bad)


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("https://user:secret@rules.example.org/", "user name or password"),
        ("https://rules.example.org//evil.example/", "not a plain folder"),
        ("https://rules.example.org/\\evil.example/", "not a plain folder"),
        ("https://rules.example.org/a/../b/", "not a plain folder"),
        ("https://rules.example.org/<x>/", "not a plain folder"),
        ("https://rules.example.org/a b/", "not a plain folder"),
        ("https://rules.example.org/?", "query or a fragment"),
        ("https://rules.example.org/#top", "query or a fragment"),
        ("https://rules.example.org:99999/", "port"),
        ("https://rules example.org/", "does not name a host"),
        ("https://-x.example.org/", "does not name a host"),
    ],
)
def test_a_base_url_must_be_a_plain_site_folder(bad: str, why: str) -> None:
    """What reaches sitemap.xml and the 404 page's <base> is an address on the site."""
    with pytest.raises(ValueError, match=why):
        deploy.checked_base_url(bad)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("HTTPS://rules.example.org:8443/a%20b", "https://rules.example.org:8443/a%20b/"),
        ("http://[::1]:8000/rules/", "http://[::1]:8000/rules/"),
        ("http://127.0.0.1/", "http://127.0.0.1/"),
    ],
)
def test_plain_addresses_are_kept(given: str, expected: str) -> None:
    assert deploy.checked_base_url(given) == expected


def test_the_404_page_links_stay_on_the_site() -> None:
    """The root of the 404 page's links is the base URL's path: never another host's."""
    with pytest.raises(ValueError, match="not a plain folder"):
        deploy.checked_base_url("https://rules.example.org//evil.example/")
    page = deploy.not_found_page(["en"], {"en": str}, "https://rules.example.org/rules/")
    assert '<base href="/rules/"' in page


def test_the_command_line_refuses_a_base_url_with_credentials() -> None:
    result = CliRunner().invoke(
        cli, ["build", "site", "--base-url", "https://u:p@rules.example.org/"]
    )
    assert result.exit_code == 2
    assert "user name or password" in result.output
    assert "Traceback" not in result.output


def test_the_command_line_refuses_a_bad_base_url() -> None:
    result = CliRunner().invoke(cli, ["build", "site", "--base-url", "ftp://example.org/"])
    assert result.exit_code == 2
    assert "not an http:// or https:// address" in result.output
    assert "Traceback" not in result.output


def _site(root: Path) -> None:
    for page in ("index.html", "game/rules.html", "search.html", "_static/x.html"):
        for lang in ("en", "cs"):
            (root / lang / page).parent.mkdir(parents=True, exist_ok=True)
            (root / lang / page).write_text("<html></html>", encoding="utf-8")
    (root / "en" / "guide").mkdir()
    (root / "en" / "guide" / "intro.html").write_text("<html></html>", encoding="utf-8")


def test_the_sitemap_lists_every_page_with_its_other_languages(tmp_path: Path) -> None:
    _site(tmp_path)
    root = ElementTree.fromstring(deploy.sitemap(tmp_path, ["en", "cs"], "https://e.org/r/"))
    entries = {
        url.findtext("s:loc", namespaces=NS): [
            (link.get("hreflang"), link.get("href")) for link in url.findall("x:link", NS)
        ]
        for url in root.findall("s:url", NS)
    }
    assert sorted(entries) == [
        "https://e.org/r/cs/game/rules.html",
        "https://e.org/r/cs/index.html",
        "https://e.org/r/en/game/rules.html",
        "https://e.org/r/en/guide/intro.html",
        "https://e.org/r/en/index.html",
    ]  # no search page, nothing under _static
    assert entries["https://e.org/r/cs/game/rules.html"] == [
        ("en", "https://e.org/r/en/game/rules.html"),
        ("cs", "https://e.org/r/cs/game/rules.html"),
    ]
    assert entries["https://e.org/r/en/guide/intro.html"] == []  # English only: no alternates
    assert deploy.robots("https://e.org/r/").endswith("Sitemap: https://e.org/r/sitemap.xml\n")


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.langs: list[str] = []
        self.base: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "section":
            self.langs.append(a.get("lang") or "")
        if tag == "base":
            self.base.append(a.get("href") or "")


def test_the_404_page_speaks_every_language_and_keeps_translations_as_text() -> None:
    translators = {"en": str, "xx": lambda text: HOSTILE}
    html = deploy.not_found_page(["en", "xx"], translators, "https://e.org/rules/")
    parser = _Elements()
    parser.feed(html)
    assert parser.langs == ["en", "xx"]
    assert parser.base == ["/rules/"]  # its links resolve from the site's folder, at any depth
    assert "script" not in parser.tags
    assert "img" not in parser.tags
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\r" not in html
    assert parser.tags.count("h1") == 1
    # without the site's address, from the server's root
    parser = _Elements()
    parser.feed(deploy.not_found_page(["en"], {"en": str}, None))
    assert parser.base == ["/"]
