"""A real site build (Sphinx, all languages, doctests), made once per test session; the browser."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulepress.render import tree
from rulepress.sphinx_ext.build import SiteBuild
from rulepress.sphinx_ext.doctree import doctest_source
from tests.site.chromium import launched, serving, watched_page


@pytest.fixture(scope="session")
def site(built_site: tuple[SiteBuild, object]) -> SiteBuild:
    return built_site[0]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for every browser test of this process (each test takes a context of it)."""
    with launched() as instance:
        yield instance


@pytest.fixture(scope="session")
def base_url(site: SiteBuild) -> Iterator[str]:
    """The session's site, served over HTTP once for every module that reads it."""
    with serving(site.out) as url:
        yield url


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    """A page of a context of its own (cookies, storage), recording script errors (``errors``)."""
    context = browser.new_context()
    yield watched_page(context)
    context.close()


def page(site: SiteBuild, lang: str, game: str, name: str) -> str:
    return (site.out / lang / game / f"{name}.html").read_text(encoding="utf-8")


def out_dir(site: SiteBuild) -> Path:
    return site.out


def doctests(site: SiteBuild, lang: str, game: str) -> tuple[int, int]:
    """(doctest blocks, statements) on a game's generated examples page."""
    path = site.sources / lang / game / "examples.rptree"
    page = tree.Page.from_json(path.read_text(encoding="utf-8"))
    found: list[tree.Doctest] = []

    def walk(value: object) -> None:
        if isinstance(value, tree.Doctest):
            found.append(value)
        elif isinstance(value, tree.Node):
            for name in type(value).model_fields:
                walk(getattr(value, name))
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(page)
    statements = sum(
        line.startswith(">>> ") for test in found for line in doctest_source(test).splitlines()
    )
    return len(found), statements


def doctest_count(site: SiteBuild, lang: str, game: str) -> int:
    """How many doctest statements Sphinx ran for a game (from its language's report)."""
    report = (site.doctest_reports / lang / "output.txt").read_text(encoding="utf-8")
    assert "0 failures in tests" in report
    section = report.split(f"Document: {game}/examples\n", 1)[1].split("\nDocument: ", 1)[0]
    match = re.search(r"(\d+) passed and 0 failed", section)
    assert match is not None, report
    return int(match.group(1))


def language_only(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """An element that exists because of the build's options, not the page's text.

    The hostile builds have Czech only and no site address, so their pages have one
    alternate link, no switcher and no canonical link; their elements are compared
    with the real three-language build's without these.
    """
    a = dict(attrs)
    return (tag == "link" and a.get("rel") in ("alternate", "canonical")) or (
        tag == "nav" and a.get("class") == "rp-langs"
    )


class ElementCounter:
    """Counts (tag, attribute names) outside the language switcher; mixed into HTMLParsers."""

    def __init__(self) -> None:
        self.elements: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self._switcher = 0

    def count(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._switcher:
            self._switcher += tag == "nav"
            return
        if language_only(tag, attrs):
            self._switcher += tag == "nav"
            return
        self.elements[(tag, tuple(sorted(name for name, _ in attrs)))] += 1

    def uncount(self, tag: str) -> None:
        if self._switcher and tag == "nav":
            self._switcher -= 1
