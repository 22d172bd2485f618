"""The page "Changes in this edition" on the two editions of Harbourmasters, in en, cs and ja.

The fixture project is a git repository: the first edition and its catalogs
tagged ``v1``, then the second edition with its catalogs as translators
left them. The page reads the old wording from the catalogs at ``v1`` and
the new from today's, links every rule this edition still has to its
permalink and shows each kind of change the diff finds.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress.checks.base import DECIDED_SPECIAL
from rulepress.cli import main
from rulepress.edition_reports import PreviousEdition, previous_edition
from rulepress.editions.sources import has_edition
from rulepress.games.load import load_spec
from rulepress.i18n.runtime import LocaleNumbers, game_translator, localize
from rulepress.render import tree
from rulepress.render.changes import PAGE, changes_page
from rulepress.render.contents import with_contents
from rulepress.render.context import RenderContext
from rulepress.render.errata_print import errata_sheet
from rulepress.render.pages import DECIDED, game_pages
from rulepress.render.pages import T as PAGE_TITLES
from tests.conftest import DATA, edit
from tests.editions.test_git_editions import _git
from tests.site.test_pages import _nodes

EDITIONS = DATA / "editions"
LANGS = ("en", "cs", "ja")
#: the page's headers (what changed, before, now) in each language
HEADERS = {
    "en": ["What changed", "Before", "Now"],
    "cs": ["Co se změnilo", "Dříve", "Nyní"],
    "ja": ["変更箇所", "変更前", "変更後"],
}


def _edition(side: str, project: Path) -> None:
    """The edition ``side`` in the project, its catalogs merged and translated in full."""
    game = project / "rules_spec" / "harbour"
    if game.exists():
        shutil.rmtree(game)
    shutil.copytree(EDITIONS / side / "harbour", game, copy_function=shutil.copy)
    edit(game / "game.yaml", "languages: [en]", "languages: [en, cs, ja]")
    where = ["--spec-root", str(project / "rules_spec"), "--locales", str(project / "locales")]
    assert main(["i18n", "extract", *where]) == 0
    assert main(["i18n", "update", *where]) == 0
    for lang in LANGS[1:]:
        po = project / "locales" / lang / "LC_MESSAGES" / "harbour.po"
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        for message in catalog:
            if message.id:
                # every message says which edition's catalog it was read from
                # (a message with a count is a plural entry: each form says so too)
                forms = message.id if isinstance(message.id, tuple) else None
                message.string = (
                    tuple(f"[{lang} {side}] {forms[min(i, 1)]}" for i in range(catalog.num_plurals))
                    if forms
                    else f"[{lang} {side}] {message.id}"
                )
                message.flags.discard("fuzzy")
        with po.open("wb") as f:
            write_po(f, catalog)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once for the module: the tests read it (one adds an untracked folder)."""
    root = tmp_path_factory.mktemp("changes") / "project"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    _edition("first", root)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first edition")
    _git(root, "tag", "v1")
    _edition("second", root)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "second edition")
    return root


def _previous(project: Path) -> PreviousEdition:
    game = project / "rules_spec" / "harbour"
    return previous_edition(game, load_spec(game), "v1", project / "locales", LANGS)


def _ctx(project: Path, lang: str) -> RenderContext:
    local = localize(load_spec(project / "rules_spec" / "harbour"), lang, project / "locales")
    numbers = LocaleNumbers(lang) if lang != "en" else str
    return RenderContext(
        local.loaded.spec, lang, local.renderer.translate, numbers, local.renderer.plain.plural
    )


def _page(project: Path, lang: str, previous: PreviousEdition) -> tree.Page:
    new_text = game_translator(project / "locales", lang, "harbour")
    ctx = _ctx(project, lang)
    return changes_page(ctx, previous.diff, previous.spec, previous.old_text[lang], new_text)


def _sections(page: tree.Page) -> dict[str, tree.Section]:
    return {n.label: n for n in _nodes(page) if isinstance(n, tree.Section)}


def _rows(section: tree.Section) -> list[list[str]]:
    (table,) = [n for n in _nodes(section) if isinstance(n, tree.Table)]
    return [[tree.plain_text(cell) for cell in row] for row in table.rows]


def _refs(node: object) -> dict[str, str]:
    return {n.label: tree.plain_text(n.children) for n in _nodes(node) if isinstance(n, tree.Ref)}


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_of_change_side_by_side(project: Path, lang: str) -> None:
    previous = _previous(project)
    page = _page(project, lang, previous)
    sections = _sections(page)
    assert set(sections) == {
        PAGE,
        *(
            f"changes-{key}"
            for key in (
                "changelog",
                "rules",
                "parameters",
                "tables",
                "orders",
                "rulings",
                "examples",
                "texts",
                "consequences",
            )
        ),
    }
    for key in ("rules", "parameters", "tables", "orders", "rulings", "examples", "consequences"):
        (table,) = [n for n in _nodes(sections[f"changes-{key}"]) if isinstance(n, tree.Table)]
        assert [tree.plain_text(cell) for cell in table.header] == HEADERS[lang]
    old, new = ("", "") if lang == "en" else (f"[{lang} first] ", f"[{lang} second] ")
    rules = {row[1]: row[2] for row in _rows(sections["changes-rules"])}
    # rule 3's text: the old wording from the catalog at v1 (9 goods), the new from today's (8)
    assert rules[
        f"{old}Group your goods into sets of different kinds (at most 9 of one kind)."
        " Each set scores by its size."
    ] == (
        f"{new}Group your goods into sets of different kinds (at most 8 of one kind). Each set"
        " scores by its size, and cargo is scored before the harbours."
    )
    # a rule that went: its old text, and nothing now
    assert (
        rules[f"{old}A player alone scores as usual and tries to beat their own best score."] == "—"
    )
    numbers = {r[0]: r[1:] for r in _rows(sections["changes-parameters"])}
    assert ["9", "8"] in numbers.values()
    (cell,) = _rows(sections["changes-tables"])
    assert cell[1:] == ["15", "16"]
    # the cell names the rule its table belongs to (3), before its keys
    assert re.search(r"[(（]3[;；、]", cell[0]), cell[0]
    orders = _rows(sections["changes-orders"])
    assert len(orders) == 2
    assert all(row[1] != row[2] for row in orders)
    # other texts are named by the page that shows them, never by their catalog context
    others = _rows(sections["changes-texts"])
    assert all("/" not in row[0] for row in others)
    # and by what they belong to: here a sequence, by its title
    sequences = {"en": "Reference sequences: Final Scoring", "cs": None, "ja": None}[lang]
    assert sequences is None or others[0][0] == sequences
    assert all(row[0] for row in others)  # no empty "what changed" cell
    rulings = _rows(sections["changes-rulings"])
    assert len(rulings) == 2
    consequences = tree.plain_text(
        [
            i
            for n in _nodes(sections["changes-consequences"])
            if isinstance(n, tree.Paragraph)
            for i in n.children
        ]
    )
    assert "7" in consequences
    # the page opens with the two editions, each by its version and date
    first = next(n for n in _nodes(page) if isinstance(n, tree.Paragraph))
    assert tree.plain_text(first.children) == SINCE[lang]


#: the first line of the page: the versions 1 and 2 differ, so both are named
SINCE = {
    "en": "What changed from version 1 (January 15, 2026) to version 2 (December 1, 2026).",
    "cs": "Změny od verze 1 (15. ledna 2026) k\u00a0verzi 2 (1. prosince 2026).",
    "ja": "バージョン1（2026年1月15日）からバージョン2（2026年12月1日）への変更点です。",
}


def test_changed_rules_link_their_permalinks(project: Path) -> None:
    page = _page(project, "en", _previous(project))
    sections = _sections(page)
    refs = _refs(sections["changes-rules"])
    # added, renumbered (to its new number) and changed rules link; the removed one cannot
    assert {"rule-2-2", "rule-2-3", "rule-3", "rule-4"} <= set(refs)
    assert refs["rule-2-3"] == "2.3 Ties in a harbour"
    assert not any(label.startswith("rule-5") for label in refs)
    assert "5 Solo games" in tree.plain_text(_rows_cells(sections["changes-rules"]))
    # the changelog names its rules by number, each a link; a ruling and examples link theirs
    assert {"rule-2-2", "rule-2-3", "rule-3", "rule-4"} <= set(_refs(sections["changes-changelog"]))
    assert any(label.startswith("ruling-") for label in _refs(sections["changes-rulings"]))
    assert any(label.startswith("example-") for label in _refs(sections["changes-examples"]))


def _rows_cells(section: tree.Section) -> list[tree.Inline]:
    (table,) = [n for n in _nodes(section) if isinstance(n, tree.Table)]
    return [inline for row in table.rows for cell in row for inline in cell]


@pytest.mark.parametrize("lang", LANGS[1:])
def test_the_old_titles_and_the_changelog_come_from_each_editions_catalog(
    project: Path, lang: str
) -> None:
    page = _page(project, lang, _previous(project))
    sections = _sections(page)
    rows = tree.plain_text(_rows_cells(sections["changes-rules"]))
    # the removed rule's title is in the old catalog only; the added rule's in the new one
    assert f"5 [{lang} first] Solo games" in rows
    assert f"2.2 [{lang} second] Empty harbours" in rows
    changelog = tree.plain_text(
        [
            i
            for n in _nodes(sections["changes-changelog"])
            if isinstance(n, tree.Paragraph)
            for i in n.children
        ]
    )
    assert (
        f"[{lang} second] A new rule says that nobody scores a harbour without ships." in changelog
    )
    title = tree.plain_text(page.blocks[0].title)  # type: ignore[union-attr]
    assert title == {"cs": "Změny v\u00a0tomto vydání", "ja": "この版の変更点"}[lang]


def test_the_work_tree_stays_as_it_was(project: Path) -> None:
    status = _git(project, "status", "--porcelain", "--untracked-files=all")
    head = _git(project, "rev-parse", "HEAD")
    _previous(project)
    assert _git(project, "status", "--porcelain", "--untracked-files=all") == status
    assert _git(project, "rev-parse", "HEAD") == head


def test_an_edition_against_itself_says_only_that(project: Path) -> None:
    game = project / "rules_spec" / "harbour"
    previous = previous_edition(game, load_spec(game), "HEAD", project / "locales", LANGS)
    page = _page(project, "cs", previous)
    text = tree.plain_text(
        [i for n in _nodes(page) if isinstance(n, tree.Paragraph) for i in n.children]
    )
    assert "Pravidla, čísla a\u00a0řešené příklady zůstávají stejné" in text
    assert "changes-rules" not in _sections(page)


def test_the_index_lists_the_page_only_when_there_is_one(project: Path) -> None:
    ctx = _ctx(project, "en")
    page = _page(project, "en", _previous(project))
    with_page = game_pages(ctx, (), {PAGE: page})
    toc = [n for n in _nodes(with_page["index"]) if isinstance(n, tree.TocTree)]
    assert PAGE in toc[0].entries
    # the page given, with a contents list when it is long (as every page of a game)
    assert with_page[PAGE] == with_contents(page, ctx.t(PAGE_TITLES["contents"]))
    without = game_pages(ctx)
    assert PAGE not in without
    toc = [n for n in _nodes(without["index"]) if isinstance(n, tree.TocTree)]
    assert PAGE not in toc[0].entries


def test_the_errata_sheet_prints_the_same_tree_as_text(project: Path) -> None:
    ctx = _ctx(project, "ja")
    page = _page(project, "ja", _previous(project))
    html = errata_sheet(ctx, page, "2026-12-02T00:00:00Z")
    assert '<table class="changes">' in html
    assert "[ja second] Group your goods" in html
    assert "<h1>この版の変更点</h1>" in html
    assert "{param:" not in html
    assert "<a " not in html


def test_a_game_new_since_the_previous_edition_has_no_changes(project: Path) -> None:
    new_game = project / "rules_spec" / "newgame"
    new_game.mkdir()
    assert has_edition("v1", project / "rules_spec" / "harbour")
    assert not has_edition("v1", new_game)
    assert not has_edition(str(project / "locales"), new_game)  # a folder without it


@pytest.mark.parametrize("command", ["site", "print"])
def test_a_since_that_is_not_there_is_refused_before_any_work(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    out = tmp_path / "out"
    where = ["--spec-root", str(project / "rules_spec"), "--out", str(out)]
    code = main(["build", command, *where, "--since", "no-such-rev", "-q"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no-such-rev: no such folder, and no such revision in project" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_an_old_texts_references_are_named_in_the_old_editions_words() -> None:
    # an old rule text cites a ruling (and a term) this edition may have dropped: its
    # title comes from the old edition's catalog, never in English to a Czech reader
    from rulepress.render.changes import _old_links
    from rulepress.render.diff_text import DiffWords
    from tests.conftest import loaded

    spec = loaded("stationfall").spec
    ruling, term = spec.rulings[0], spec.glossary[0]
    old_words = {
        f"rulings/{ruling.id}/title": "Starý výklad",
        f"glossary/{term.id}/term": "starý pojem",
    }
    words = DiffWords("cs", str, lambda context, text: text, lambda c, e: old_words.get(c))
    ctx = RenderContext(spec, "cs", str, str)
    links = _old_links(ctx, spec, words)
    assert links.rulings[ruling.id] == "„Starý výklad“"
    assert links.terms[term.id] == "starý pojem"
    assert not links.linked


def test_every_way_a_game_is_decided_other_than_by_a_criterion_has_words() -> None:
    """A worked example or an edition's change may say it ended in a tie the rules leave
    unbroken ("unresolved"): the page and the diff report say so in words, never the id."""
    assert set(DECIDED) == set(DECIDED_SPECIAL)
