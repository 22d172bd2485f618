"""The rulepress theme's words: plain-text msgids, escaped where shown, compiled only when safe.

The theme catalog is untrusted like every other: a hostile msgstr for each
theme msgid (``"><script>``) must come out of a real Czech build as text, in
text nodes and in attributes alike, and the pages keep exactly the elements
they have with the real catalog.
"""

from __future__ import annotations

import gettext
import html
import io
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from rulepress.i18n.catalogs import CatalogError, find_catalog, render
from rulepress.i18n.extract import THEME_DIR
from rulepress.sphinx_ext.build import SiteBuild
from rulepress.sphinx_ext.theme import SPHINX_TEXTS, compile_theme, theme_msgids
from tests.conftest import GAMES, LOCALES, ROOT, SPEC_ROOT, TRANSLATIONS, one_game_root
from tests.site.conftest import ElementCounter

ATTACK = '"><script>alert(1)</script><b>'
#: the game of the hostile build
GAME = "stationfall"  # the smaller of our games
TEMPLATES = sorted((THEME_DIR / "rulepress").glob("*.html"))


def _theme_po(tmp_path: Path, lang: str, strings: dict[str, str]) -> Path:
    """A copy of locales/ whose ``lang`` theme catalog has ``strings`` as its msgstrs."""
    with find_catalog(LOCALES, lang, "theme").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for message in catalog:
        if message.id in strings:
            message.string = strings[message.id]
    # the games' catalogs too: without them the language would be a preview, with pages
    # other than the honest site's
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES, locales)
    target = locales / lang / "LC_MESSAGES" / "theme.po"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(render(catalog))
    return locales


def _mo(data: bytes | None) -> dict[str, str]:
    assert data is not None
    return {m.id: m.string for m in read_mo(io.BytesIO(data)) if m.id}


def test_theme_msgids_are_plain_text() -> None:
    ids = theme_msgids()
    assert len(ids) >= 10
    for msgid in ids:
        # Jinja2 inserts gettext output as it is: a msgid (and so its msgstr) is never markup
        assert not re.search(r"[<>&\"'{}%]", msgid), msgid
    assert set(SPHINX_TEXTS) <= ids


def test_every_word_a_template_shows_is_escaped() -> None:
    calls = 0
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        assert "{% trans" not in text, path  # a trans block is inserted unescaped
        for match in re.finditer(r"\{\{\s*_\((?:'[^']*'|\"[^\"]*\")\)(?P<after>[^}]*)\}\}", text):
            calls += 1
            assert match.group("after").strip().startswith("|e"), (path.name, match.group())
    assert calls >= 10


def test_the_template_words_and_sphinx_words_are_apart() -> None:
    # Sphinx's words are compiled escaped (Sphinx prints them raw); the templates' are
    # compiled as written (the templates escape them); so no msgid may be both
    in_templates = {
        m
        for path in TEMPLATES
        for m in re.findall(r"_\('([^']*)'\)", path.read_text(encoding="utf-8"))
    }
    assert in_templates
    assert not in_templates & set(SPHINX_TEXTS)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_the_compiled_catalog_holds_every_theme_word(lang: str) -> None:
    compiled = _mo(compile_theme(LOCALES, lang))
    assert set(compiled) == theme_msgids()
    assert all(compiled.values())


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_theme_word_is_translated_by_ours_or_sphinx(lang: str, tmp_path: Path) -> None:
    """As Sphinx looks words up: the project's sphinx.mo first, then Sphinx's own catalog."""
    import sphinx

    data = compile_theme(LOCALES, lang)
    assert data is not None
    folder = tmp_path / lang / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "sphinx.mo").write_bytes(data)
    ours = gettext.translation("sphinx", str(tmp_path), [lang])
    ours.add_fallback(
        gettext.translation("sphinx", str(Path(sphinx.__file__).parent / "locale"), [lang])
    )
    for msgid in theme_msgids():
        assert ours.gettext(msgid) != msgid, (lang, msgid)


def test_sphinx_words_are_escaped_and_stray_entries_left_out(tmp_path: Path) -> None:
    heading = SPHINX_TEXTS[0]
    locales = _theme_po(tmp_path, "cs", {heading: ATTACK, "Skip to content": ATTACK})
    po = locales / "cs" / "LC_MESSAGES" / "theme.po"
    # an entry the theme does not have: Sphinx prints some of its own words raw
    po.write_text(
        po.read_text(encoding="utf-8") + '\nmsgid "Previous topic"\nmsgstr "<script>"\n',
        encoding="utf-8",
    )
    compiled = _mo(compile_theme(locales, "cs"))
    assert compiled[heading] == "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;"
    assert compiled["Skip to content"] == ATTACK  # escaped by the template
    assert "Previous topic" not in compiled


def test_an_unsafe_theme_catalog_stops_the_build(tmp_path: Path) -> None:
    locales = _theme_po(tmp_path, "cs", {})
    po = locales / "cs" / "LC_MESSAGES" / "theme.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace("charset=utf-8", "charset=latin-1"), encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        compile_theme(locales, "cs")
    assert "theme.po" in info.value.render()
    build = SiteBuild(ROOT, SPEC_ROOT, locales, tmp_path / "out", ("cs",))
    with pytest.raises(CatalogError):
        build.generate()


class _Page(HTMLParser, ElementCounter):
    """Elements (the language switcher aside), text, and the attributes that readers get."""

    def __init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)
        ElementCounter.__init__(self)
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count(tag, attrs)
        self.values += [v for n, v in attrs if v and n in ("title", "aria-label", "placeholder")]

    def handle_endtag(self, tag: str) -> None:
        self.uncount(tag)

    def handle_data(self, data: str) -> None:
        self.values.append(data)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.mark.slow
def test_a_hostile_theme_msgstr_is_shown_as_text(
    tmp_path: Path, site: SiteBuild, previous_specs: Path
) -> None:
    strings = {msgid: f"{msgid} {ATTACK}" for msgid in theme_msgids()}
    locales = _theme_po(tmp_path, "cs", strings)
    # English too, so that the pages have a language switcher (and its words)
    # against the honest site's previous edition, so that both have the same pages;
    # one game: every page of a game is made from the same templates, whichever game it
    # is (the other game doubled the build's time and showed no word this one does not)
    build = SiteBuild(
        ROOT,
        one_game_root(tmp_path, GAME),
        locales,
        tmp_path / "out",
        ("en", "cs"),
        pdfs=site.pdfs,
        since=str(previous_specs),
    )
    build.build(doctest=False)
    pages = sorted((build.out / "cs").rglob("*.html"))
    assert len(pages) >= 2 + 8  # the landing page, the search, 8 of the game
    shown: set[str] = set()
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert "<script>alert" not in html, path
        page = _read(path)
        # the game's pages have the honest site's elements; the landing and search pages
        # of a one-game site list one game, not every game (the payload checks above and
        # the words below still hold for them)
        if path.parent != build.out / "cs":
            honest = _read(site.out / "cs" / path.relative_to(build.out / "cs"))
            assert page.elements == honest.elements, path
        for value in page.values:
            for msgid in strings:
                if f"{msgid} {ATTACK}" in value:
                    shown.add(msgid)
    # the search's words arrive as JSON data in the search page, which its script shows
    # with textContent: whole, and unable to end the script element (tojson escapes "<")
    search = (build.out / "cs" / "search.html").read_text(encoding="utf-8")
    data = search.split('id="rp-search-data">', 1)[1].split("</script>", 1)[0]
    words = json.loads(data)["text"]
    for value in [*words["kinds"].values(), words["count"], words["none"]]:
        for msgid in strings:
            if f"{msgid} {ATTACK}" in value:
                shown.add(msgid)
    # the guides are English only: the Czech search page has no box to search them
    assert 'id="rp-search-guides"' not in search
    shown |= {msgid for msgid in strings if msgid.startswith("Search the guides")}
    # the kind of a rule in search results arrives in the index, which Sphinx's script sets
    # with innerHTML: escaped there, and shown whole
    index = (build.out / "cs" / "searchindex.js").read_text(encoding="utf-8")
    assert "rule &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "<script>alert" not in index
    shown.add("rule")
    # every word of the theme reached a reader, whole, as text
    assert shown == set(strings)


@pytest.mark.slow
def test_a_page_title_names_the_site_once(site: SiteBuild) -> None:
    for lang in sorted(p.name for p in site.out.iterdir() if p.is_dir() and len(p.name) == 2):
        home = (site.out / lang / "index.html").read_text(encoding="utf-8")
        (title,) = re.findall(r"<title>(.*?)</title>", home, re.S)
        assert " — " not in html.unescape(title), (lang, title)  # the site's front page: once
        rules = (site.out / lang / GAMES[0] / "rules.html").read_text(encoding="utf-8")
        (title,) = re.findall(r"<title>(.*?)</title>", rules, re.S)
        assert " — " in html.unescape(title)  # a page of a project: page — project
