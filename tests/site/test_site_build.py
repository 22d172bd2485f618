"""The built site: pages in three languages, permalinks, the theme and its switcher, search, doctests."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import all_rules
from rulepress.render.pages import PAGES as SPEC_PAGES
from rulepress.render.pages import page_names
from rulepress.render.sources import PAGES as SOURCE_PAGES
from rulepress.sphinx_ext import worker
from rulepress.sphinx_ext.build import GeneratedGame, SiteBuild, SiteError
from rulepress.sphinx_ext.theme import theme_msgids
from tests.conftest import (
    BASE_URL,
    GAME_LANGUAGES,
    GAMES,
    LANGUAGES,
    LOCALES,
    SPEC_ROOT,
    TRANSLATIONS,
    loaded,
)
from tests.site.conftest import doctest_count, doctests, page

#: builds sites or PDFs, or drives a browser: left out of the quick run (-m 'not slow')
pytestmark = pytest.mark.slow

LANGS = LANGUAGES
#: the pages of each of our games (both name their sources, so they have those pages too)
PAGES = (*SPEC_PAGES, *SOURCE_PAGES)


def game_pages_of(game: LoadedSpec) -> list[str]:
    """The pages the site gives ``game``: those of its spec, and those of its sources if it
    names any (rulepress.render.pages.game_pages)."""
    spec = game.spec
    sourced = [
        n for n, has in zip(SOURCE_PAGES, (spec.sources, spec.not_in_source), strict=True) if has
    ]
    return [*page_names(spec), *sourced]


def games_in(lang: str) -> list[str]:
    """The games published in ``lang`` (their game.languages), as the site builds them."""
    return [game for game in GAMES if lang in GAME_LANGUAGES[game]]


def test_every_page_in_every_language(site: SiteBuild) -> None:
    assert (site.out / "index.html").is_file()
    for lang in LANGS:
        assert (site.out / lang / "index.html").is_file()
        for game in GAMES:
            # a game's folder exists in its own languages only
            assert (site.out / lang / game).is_dir() == (lang in GAME_LANGUAGES[game])
        for game in games_in(lang):
            for name in game_pages_of(loaded(game)):
                assert (site.out / lang / game / f"{name}.html").is_file(), (lang, game, name)
            # and no empty page of what a game has none of (rulings, sources)
            for name in set(PAGES) - set(game_pages_of(loaded(game))):
                assert not (site.out / lang / game / f"{name}.html").exists(), (lang, game, name)
    assert (site.out / "en" / "guide" / "reference" / "cli.html").is_file()
    # (sphinx-click's usage lines are highlighted as shell: the words are apart in the HTML)
    cli = re.sub(
        r"<[^>]+>",
        "",
        (site.out / "en" / "guide" / "reference" / "cli.html").read_text(encoding="utf-8"),
    )
    assert "rulepress score [OPTIONS] GAME [STATE]" in cli
    # the author's reference, generated from the code, with its examples' reports
    reference = (site.out / "en" / "guide" / "reference" / "spec-reference.html").read_text(
        encoding="utf-8"
    )
    assert 'id="ref-names"' in reference
    assert "set of 3: Ruby, Jade, and joker as Onyx: 6" in reference


@pytest.mark.parametrize("game", GAMES)
def test_rule_anchors_are_identical_in_every_language(site: SiteBuild, game: str) -> None:
    ids = {
        lang: set(re.findall(r'id="(rule-[0-9-]+)"', page(site, lang, game, "rules")))
        for lang in GAME_LANGUAGES[game]
    }
    assert all(found == ids["en"] for found in ids.values())
    # one for every rule of the spec
    numbers = [rule.number for rule in all_rules(loaded(game).spec.rules)]
    assert ids["en"] == {"rule-" + n.replace(".", "-") for n in numbers}


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


class _Chrome(HTMLParser):
    """A page's landmarks, links, alternates, and every text or attribute a reader gets."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[str] = Counter()
        self.alternates: dict[str, str] = {}
        self.switcher: dict[str, dict[str, str]] = {}
        self.words: list[str] = []
        self.nav_links: list[str] = []
        self._in: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags[tag] += 1
        if tag == "link" and a.get("rel") == "alternate":
            self.alternates[a["hreflang"]] = a["href"]
        if tag == "nav":
            self._in.append(a.get("class", ""))
        if tag == "a" and self._in and self._in[-1] == "rp-langs":
            self.switcher[a["hreflang"]] = a
        if tag == "a" and self._in and self._in[-1] == "rp-nav":
            self.nav_links.append(a.get("href", ""))
        if tag in ("script", "style"):
            self._skip += 1
        self.words += [a[n] for n in ("aria-label", "title", "alt", "placeholder") if a.get(n)]
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.words.append(a["value"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav" and self._in:
            self._in.pop()
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.words.append(data)


def _chrome(path: Path) -> _Chrome:
    page = _Chrome()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _html_pages(site: SiteBuild, lang: str) -> list[Path]:
    return sorted(p for p in (site.out / lang).rglob("*.html") if "_static" not in p.parts)


#: furo's and Sphinx's English chrome (hard-coded in their templates or missing from their
#: cs/ja catalogs), besides the rulepress theme's own msgids: none may reach a cs/ja reader
CHROME_WORDS = {
    "Skip to content", "Back to top", "On this page", "Previous", "Next", "Contents",
    "Made with", "Sphinx", "Furo", "@pradyunsg", "Made with Sphinx and @pradyunsg's Furo",
    "Copyright", "Copyright ©", "Toggle site navigation sidebar",
    "Toggle table of contents sidebar", "Toggle Light / Dark / Auto color theme",
    "Light", "Dark", "Auto", "Search", "search", "Hide Search Matches", "Navigation",
    "Link to this heading", "Link to this term", "Link to this definition",
    "Link to this table", "Link to this code", "Created using", "Index", "All games",
    "Table of Contents", "Please activate JavaScript to enable the search functionality.",
    "Searching for multiple words only shows matches that contain all words.",
}  # fmt: skip


def test_every_page_has_the_theme_chrome(site: SiteBuild) -> None:
    for lang in LANGS:
        for path in _html_pages(site, lang):
            chrome = _chrome(path)
            # landmarks: one each, and the page's own title as the only h1
            for tag in ("header", "main", "footer"):
                assert chrome.tags[tag] == 1, (path, tag)
            assert chrome.tags["nav"] >= 2, path
            assert chrome.tags["h1"] == 1, path
            assert "rulepress-lang.js" not in path.read_text(encoding="utf-8")
    html = (site.out / "cs" / "brink" / "glossary.html").read_text(encoding="utf-8")
    assert 'class="rp-all"><a href="../index.html">Všechny hry</a>' in html
    game = loaded("brink").spec.game
    assert "<dt>Vydání</dt>" in html
    assert "rp-home" not in page(site, "en", "brink", "index")  # the link moved to the nav
    assert game.edition in page(site, "en", "brink", "index").split("<footer")[1]
    css = (site.out / "cs" / "_static" / "rulepress-theme.css").read_text(encoding="utf-8")
    assert css.index('"Noto Sans"') < css.index('"Noto Sans CJK JP"')
    assert "@media print" in css
    assert "prefers-color-scheme: dark" in css
    assert not (site.out / "cs" / "brink" / "_static" / "rulepress-lang.js").exists()
    assert not (site.out / "cs" / "brink" / "genindex.html").exists()


def test_every_page_links_to_itself_in_each_language_it_exists_in(site: SiteBuild) -> None:
    checked = 0
    for lang in LANGS:
        for path in _html_pages(site, lang):
            chrome = _chrome(path)
            parts = path.relative_to(site.out / lang).parts
            guide = "guide" in parts
            # a game's pages exist in its languages; the site's own pages in all
            expected = {"en"} if guide else set(GAME_LANGUAGES.get(parts[0], LANGS))
            assert set(chrome.alternates) == expected, path
            assert set(chrome.switcher) == (expected if len(expected) > 1 else set()), path
            for code, href in chrome.alternates.items():
                # an alternate is absolute (the build knows the site's address), the switcher's
                # link relative (the site works from any address): both lead to one page
                assert href.startswith(BASE_URL), (path, href)
                target = (site.out / href.removeprefix(BASE_URL)).resolve()
                # the same page, in that language, and it exists
                assert target == (site.out / code / path.relative_to(site.out / lang)).resolve()
                assert target.is_file(), (path, href)
                if chrome.switcher:
                    link = chrome.switcher[code]
                    assert (path.parent / link["href"]).resolve() == target
                    assert link["lang"] == code
                    assert ("aria-current" in link) == (code == lang)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_no_english_chrome_on_czech_and_japanese_pages(site: SiteBuild, lang: str) -> None:
    english = {w.casefold() for w in CHROME_WORDS | theme_msgids()}
    pages = _html_pages(site, lang)
    assert len(pages) >= 2 + 8 * len(games_in(lang))  # the landing page, the search, 8 a game
    for path in pages:
        found = {w.strip() for w in _chrome(path).words if w.strip().casefold() in english}
        assert not found, (path, found)


def test_czech_search_folds_diacritics_and_stems(site: SiteBuild) -> None:
    index = (site.out / "cs" / "searchindex.js").read_text(encoding="utf-8")
    assert '"zrad"' in index  # "zrady", "zradu" … (pole zrady)
    assert '"uplatk"' in index  # "úplatek", "úplatky" without the accent
    js = (site.out / "cs" / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert 'normalize("NFD")' in js


def test_doctests_ran_in_every_language(site: SiteBuild) -> None:
    for lang in LANGS:
        for game in games_in(lang):
            blocks, statements = doctests(site, lang, game)
            # one doctest block per example, every statement of it run
            assert blocks == len(loaded(game).spec.examples)
            assert doctest_count(site, lang, game) == statements


def test_a_wrong_stated_result_fails_the_doctest_build(tmp_path: Path) -> None:
    import yaml

    # the game whose example is wrong, alone: the other game's pages and doctests would
    # double the build and show nothing about this one's failure
    specs = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT / "stationfall", specs / "stationfall")
    path = specs / "stationfall" / "examples.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    facts = next(iter(data["examples"][0]["expect"]["players"].values()))
    facts["total"] += 1
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    build = SiteBuild(tmp_path, specs, LOCALES, tmp_path / "out", ("en",))
    with pytest.raises(SiteError) as info:
        build.build(doctest=True)
    assert "sphinx doctest (en)" in info.value.render()
    rendered = info.value.render()
    assert "result.fact('Ada', 'total')\nExpected:\n    7\nGot:\n    6" in rendered


def test_the_publication_gate_passes_on_every_page(site: SiteBuild) -> None:
    from rulepress.gate import English, RawIds, scan_site

    raw = RawIds.from_specs(SPEC_ROOT)
    assert scan_site(site.out, English.from_templates(LOCALES), raw) == []


def test_the_site_folder_holds_only_what_is_served(site: SiteBuild) -> None:
    internal = {"_sources", "_doctrees", "_doctest", ".doctrees", "rulepress-site.json", "conf.py"}
    found = [p for p in site.out.rglob("*") if p.name in internal or p.suffix == ".rptree"]
    assert found == []
    assert (site.sources / "en" / "stationfall" / "rules.rptree").is_file()  # kept beside it


@pytest.mark.parametrize("game", GAMES)
def test_every_anchor_of_an_english_page_exists_in_every_language(
    site: SiteBuild, game: str
) -> None:
    langs = GAME_LANGUAGES[game]
    # the pages the game has in English (a game without rulings may have no Rulings page)
    for name in (n for n in PAGES if (site.out / "en" / game / f"{n}.html").is_file()):
        ids = {
            lang: set(re.findall(r'\sid="([^"]+)"', page(site, lang, game, name))) for lang in langs
        }
        for lang in langs:
            assert ids["en"] <= ids[lang], (name, lang, sorted(ids["en"] - ids[lang])[:5])


class _Counting(SiteBuild):
    """A site build that counts the Sphinx runs it makes."""

    runs: list[tuple[str, str]]
    generated: list[tuple[str, str]]

    def sphinx_argv(self, builder: str, lang: str) -> list[str]:
        self.runs.append((builder, lang))
        return super().sphinx_argv(builder, lang)

    def _generate_game(
        self, project: Path, lang: str, loaded: LoadedSpec, inputs: str
    ) -> GeneratedGame:
        self.generated.append((lang, loaded.spec.game.id))
        return super()._generate_game(project, lang, loaded, inputs)


def test_a_build_with_nothing_changed_runs_no_sphinx_and_an_edit_rebuilds(tmp_path: Path) -> None:
    specs = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT, specs)
    # two languages are enough (English and a translation); the edit is Stationfall's
    two = LANGS[:2]
    both = sorted(("html", lang) for lang in two)
    other = next(game for game in GAMES if game != "stationfall")

    def build() -> _Counting:
        site = _Counting(tmp_path, specs, LOCALES, tmp_path / "out", two)
        site.runs, site.generated = [], []
        site.build(doctest=False)
        return site

    first = build()
    assert sorted(first.runs) == both
    # each game in each of the two languages it is published in
    assert len(first.generated) == sum(lang in GAME_LANGUAGES[g] for g in GAMES for lang in two)
    again = build()
    assert again.runs == []
    assert again.skipped == set(two)
    assert again.written == []  # nothing generated, nothing pruned
    # what the pages show in English is known without generating them (their stamps)
    assert again.record == first.record
    assert first.record.language(two[1]).fallbacks == []
    assert (again.out / two[1] / "stationfall" / "rules.html").is_file()
    # one rule's words change: both languages are generated and built again, by the
    # same build object as before (it reads its inputs anew each time it builds)
    rules = specs / "stationfall" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert "however many points they have" in text
    rules.write_text(text.replace("however many points they have", "whatever their score"))
    edited = again
    edited.runs, edited.generated = [], []
    edited.build(doctest=False)
    assert sorted(edited.runs) == both
    html = (edited.out / "en" / "stationfall" / "rules.html").read_text(encoding="utf-8")
    assert "whatever their score" in html
    # the changed English has no translation yet: recorded, as the build shows it
    shown = edited.record.language(two[1]).fallbacks
    assert shown, "the changed rule is shown in English"
    assert all(f.game == "stationfall" for f in shown)
    assert any("whatever their score" in f.msgid for f in shown)
    # only the edited game's page trees are made again; Brink's are kept as they were
    assert sorted(edited.generated) == sorted((lang, "stationfall") for lang in two)
    assert (edited.sources / two[1] / other / "rules.rptree") in edited.unchanged
    # what the build before kept is not this build's: the edited game's pages are written
    assert (edited.sources / two[1] / "stationfall" / "rules.rptree") in edited.written
    assert (edited.sources / two[1] / "stationfall" / "rules.rptree") not in edited.unchanged
    # a stamp from other inputs (or none: a failed build removes them) means build again
    (edited.work / "stamps" / "en.json").write_text('{"inputs": "stale"}', encoding="utf-8")
    assert sorted(build().runs) == [("html", "en")]


@pytest.mark.parametrize("lang", LANGS)
def test_every_game_links_its_pdfs_in_the_language(site: SiteBuild, lang: str) -> None:
    for game in games_in(lang):
        html = page(site, lang, game, "index")
        links = re.findall(r'href="(downloads/[^"]+)"', html)
        names = sorted(link.removeprefix("downloads/") for link in links)
        # the player's files of this language: rulebook, reference card, cards, print and play
        offered = sorted(p.name for p in site.downloads(lang, game))
        assert names == [n for n in offered if not n.endswith("-pdfx4.pdf")], names
        assert any(n.startswith("rulebook-") for n in names)
        assert any(n.startswith("reference-") for n in names)
        assert any(n.startswith("pnp-") for n in names)
        assert not [n for n in names if "pdfx4" in n]  # press files are for print shops
        # ... who find them, and only them, on the game's page for them
        press_html = page(site, lang, game, "press")
        press = sorted(
            link.removeprefix("downloads/")
            for link in re.findall(r'href="(downloads/[^"]+)"', press_html)
        )
        assert press == [n for n in offered if n.endswith("-pdfx4.pdf")], press
        assert {n.split("-")[0] for n in press} == {"rulebook", "reference", "cards"}
        for link in links + [f"downloads/{n}" for n in press]:
            served = site.out / lang / game / link
            assert served.read_bytes() == (site.pdfs / lang / game / served.name).read_bytes()
    words = {
        "en": "Rulebook (PDF, A4)",
        "cs": "Pravidla hry (PDF, A4)",
        "ja": "ルールブック（PDF・A4）",
    }
    assert words.get(lang, "(PDF, A4)") in html


def test_the_footer_shows_the_games_edition_and_copyright(site: SiteBuild) -> None:
    for game in GAMES:
        spec = loaded(game).spec
        for lang in GAME_LANGUAGES[game]:
            footer = page(site, lang, game, "rules").split('<footer class="rp-footer">')[1]
            if spec.game.copyright:
                assert f'<p class="rp-copyright">{spec.game.copyright}</p>' in footer
            else:  # a game that states none (a designer's, say) shows no empty line
                assert "rp-copyright" not in footer
    # the site's own pages belong to no game: no copyright line
    assert "rp-copyright" not in (site.out / "en" / "index.html").read_text(encoding="utf-8")


def test_a_sphinx_build_that_fails_in_a_worker_reports_its_output(tmp_path: Path) -> None:
    with worker.pool(1) as executor:
        code, output = executor.submit(
            worker.run, ["-b", "html", "-q", str(tmp_path / "absent"), str(tmp_path / "out")]
        ).result()
    assert code != 0
    assert "absent" in output  # Sphinx's own message, captured in the worker
    assert not (tmp_path / "out").exists()


def test_a_docs_folder_without_a_start_page_adds_no_guides(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# Notes\n", encoding="utf-8")
    site = SiteBuild(tmp_path, SPEC_ROOT, LOCALES, tmp_path / "out", docs=tmp_path)
    assert site.guides is None  # a project's own notes are not rulepress guides
    (tmp_path / "index.md").write_text("# Guides\n", encoding="utf-8")
    assert site.guides == tmp_path


def test_the_sitemap_lists_every_page_built_and_each_page_names_its_address(
    site: SiteBuild,
) -> None:
    from xml.etree import ElementTree

    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert site.base_url is not None
    root = ElementTree.parse(site.out / "sitemap.xml").getroot()
    listed = [loc.text or "" for loc in root.findall("s:url/s:loc", ns)]
    paths = sorted(url.removeprefix(site.base_url) for url in listed)
    built = sorted(
        p.relative_to(site.out).as_posix()
        for p in site.out.glob("*/**/*.html")
        if "_static" not in p.parts and p.name != "search.html"
    )
    assert paths == built
    html = page(site, "ja", "brink", "rules")
    assert f'<link rel="canonical" href="{site.base_url}ja/brink/rules.html" />' in html
    assert (
        (site.out / "robots.txt")
        .read_text(encoding="utf-8")
        .endswith(f"Sitemap: {site.base_url}sitemap.xml\n")
    )
    assert (site.out / "404.html").is_file()


@pytest.mark.parametrize("lang", LANGS)
def test_every_worked_example_folds_its_table_state_and_shows_its_results(
    site: SiteBuild, lang: str
) -> None:
    for game in games_in(lang):
        html = page(site, lang, game, "examples")
        examples = loaded(game).spec.examples
        assert html.count('<details class="sd-sphinx-override sd-dropdown') == len(examples)
        # the results stay in view, after the folded state
        assert html.count("</details>") == len(examples)
        assert html.rindex("</details>") < html.rindex("<ul")


def test_a_languages_doctest_build_waits_for_its_html_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They share the language's doctrees: run together, one would read what the other writes."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    events: list[tuple[str, str, str]] = []
    lock = threading.Lock()

    def fake_run(argv: list[str]) -> tuple[int, str]:
        task = (argv[1], Path(argv[-2]).name)  # (builder, language)
        with lock:
            events.append(("start", *task))
        time.sleep(0.05)
        with lock:
            events.append(("end", *task))
        return 0, ""

    monkeypatch.setattr(worker, "run", fake_run)
    site = SiteBuild(tmp_path, SPEC_ROOT, LOCALES, tmp_path / "out")
    tasks = [("html", lang) for lang in LANGS]
    tasks += [("doctest", lang) for lang in LANGS]
    with ThreadPoolExecutor(len(LANGS)) as executor:
        results = site._run(executor, tasks)
    assert sorted(task for task, _, _ in results) == sorted(tasks)
    for lang in LANGS:
        assert events.index(("end", "html", lang)) < events.index(("start", "doctest", lang))
    # the languages themselves ran side by side
    assert events.index(("start", "html", LANGS[-1])) < events.index(("end", "html", LANGS[0]))
