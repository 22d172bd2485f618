"""Every writer shows every text of the tree it is given, for every game, in its languages.

A tree is built once per game and language; then each writer that should show
it writes it: the site's pages through the site writer (docutils nodes, as
Sphinx gets them), the printed documents (reference card, rulebook, step
cards, notes pages) and the errata sheet through the print writer (the HTML
WeasyPrint lays out), the changes page through both. Each text entry of the
tree (a text node, a term, a title …) must appear in the output, set as that
writer sets text (typography, controls), whitespace aside. A writer that
dropped a part, or decided a text of its own in place of the tree's, fails.

The scorer's report is a tree too (:mod:`rulepress.render.report_tree`): the
same tree of every worked example goes through the terminal writer, the site
writer and the print writer, and each shows every text of it; and the terminal
report shows every text of the result (notes, titles, steps).
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.utils import new_document

from rulepress.edition_reports import previous_edition
from rulepress.games.load import load_spec
from rulepress.i18n.runtime import LocaleNumbers, Localized, game_translator, localize
from rulepress.i18n.typography import typeset
from rulepress.render import print_trees, print_writer, text_writer, tree
from rulepress.render.changes import changes_page
from rulepress.render.context import RenderContext
from rulepress.render.errata_print import errata_sheet
from rulepress.render.html_tree import el, serialize
from rulepress.render.pages import game_pages
from rulepress.render.report_tree import report_tree
from rulepress.render.score_text import render_text, visible
from rulepress.scoring.examples import run_example
from rulepress.scoring.result import Note
from rulepress.sphinx_ext.doctree import PageParser, _text
from tests.conftest import LOCALES, PUBLISHED, SPEC_ROOT, loaded
from tests.site.test_pages import _nodes  # the pages tests' walk over every node

LANGS = ("en", "cs", "ja")
CREATED = "2026-01-01T00:00:00Z"
#: fields of the trees that are not shown as text: anchors, ids, the image, metadata, styles
NOT_SHOWN = frozenset(
    {"label", "src", "lang", "name", "kind", "head", "role", "classes", "url", "columns"}
)


@cache
def _localized(game: str, lang: str) -> Localized:
    """The real spec of ``game`` translated into ``lang``, once for the module's tests."""
    return localize(loaded(game), lang, LOCALES)


@cache
def _context(game: str, lang: str) -> RenderContext:
    local = _localized(game, lang)
    numbers = LocaleNumbers(lang) if lang != "en" else str
    return RenderContext(
        local.loaded.spec, lang, local.renderer.translate, numbers, local.renderer.plain.plural
    )


_ICON = "data:image/svg+xml;base64,PHN2Zy8+"


def _normal(value: str) -> str:
    return " ".join(value.split())


# ------------------------------------------------------------------ the entries


def _entries(value: object) -> Iterator[str]:
    """Every text a reader is to see in a tree: its text nodes and its titles, terms, numbers."""
    if isinstance(value, tree.Text | tree.Code | tree.CodeBlock):
        yield value.text
    elif isinstance(value, tree.TocTree | tree.Doctest):
        return  # page names: the pages' own titles are what the reader sees
    elif isinstance(value, tree.Quote):
        return  # a source's own words, never typeset: _quotes() looks for them as they are
    elif isinstance(value, tree.Node):
        for name in type(value).model_fields:
            if name in NOT_SHOWN:
                continue
            yield from _entries(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _entries(item)
    elif isinstance(value, str):
        yield value


def _quotes(value: object) -> Iterator[str]:
    """The words every Quote node of a tree quotes from a source document."""
    if isinstance(value, tree.Quote):
        yield value.text
    elif isinstance(value, tree.Node):
        for name in type(value).model_fields:
            yield from _quotes(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _quotes(item)


def _missing(
    entries: Iterator[str], shown: str, as_written: Any, quotes: Iterable[str] = ()
) -> list[str]:
    """The entries ``shown`` lacks as ``as_written`` sets them, and the quotes it lacks as
    they are (a writer shows a source's words exactly)."""
    out = _normal(shown)
    missing = [e for e in entries if e.strip() and _normal(as_written(e)) not in out]
    return missing + [q for q in quotes if _normal(q) not in out]


# ---------------------------------------------------------------- the site writer


def _site_text(page: tree.Page, lang: str, docname: str) -> str:
    """What the site writer makes of ``page``: the text of its docutils nodes."""
    settings: Any = get_default_settings()
    std = SimpleNamespace(note_object=lambda *a, **k: None, note_term=lambda *a, **k: None)
    settings.env = SimpleNamespace(
        config=SimpleNamespace(language=lang, rulepress_games={}),
        current_document=SimpleNamespace(docname=docname),
        domains=SimpleNamespace(standard_domain=std),
    )
    document = new_document(docname, settings)
    PageParser().parse(page.to_json(), document)
    return " ".join(node.astext() for node in document.findall(nodes.Text))


def _site_missing(page: tree.Page, lang: str, docname: str) -> list[str]:
    shown = _site_text(page, lang, docname)
    return _missing(_entries(page), shown, lambda e: _text(e, lang).astext(), _quotes(page))


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_site_writer_shows_every_text_of_every_page(game: str, lang: str) -> None:
    pages = game_pages(_context(game, lang))
    for name, page in pages.items():
        assert _site_missing(page, lang, f"{game}/{name}") == [], name


@pytest.mark.parametrize("lang", LANGS)
def test_the_site_writer_shows_the_nodes_print_added_too(lang: str) -> None:
    """Steps, tie-break orders, captioned tables, spans: nodes the site may use as print does."""
    ctx = _context("brink", lang)
    pub = ctx.spec.publishing
    assert pub is not None
    card = print_trees.reference_card(ctx, pub.reference_card.sequences, pub.reference_card.tables)
    blocks: list[tree.Block] = [seq.steps for seq in card.sequences]
    blocks += [block for part in card.tiebreaks for block in part.children]
    blocks += card.tables
    assert {type(b) for b in blocks} >= {tree.StepList, tree.Paragraph, tree.TieBreakOrder}
    page = tree.Page(blocks=[tree.Section(label="card", title=card.footer, children=blocks)])
    assert _site_missing(page, lang, "brink/card") == []


# --------------------------------------------------------------- the print writer


def _print_text(markup: str) -> str:
    """The text of print HTML: the head left out, tags removed, entities read."""
    body = re.sub(r"<head>.*?</head>", "", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def _as_printed(lang: str) -> Any:
    return lambda entry: _print_text(serialize(el("span", entry), lang))


def _print_missing(tree_: tree.Node, markup: str, lang: str) -> list[str]:
    return _missing(_entries(tree_), _print_text(markup), _as_printed(lang), _quotes(tree_))


def _documents(ctx: RenderContext) -> Iterator[tuple[str, tree.Node, str]]:
    """Each printed document's tree and its HTML."""
    pub = ctx.spec.publishing
    assert pub is not None
    card = print_trees.reference_card(ctx, pub.reference_card.sequences, pub.reference_card.tables)
    yield "reference", card, print_writer.write(card, CREATED)
    book = print_trees.rulebook(ctx)
    yield "rulebook", book, print_writer.write(book, CREATED)
    notes = print_trees.notes_pages(ctx, 2)
    yield "notes", notes, print_writer.write(notes, CREATED)
    if pub.step_cards is not None:
        deck = print_trees.step_cards(ctx, pub.step_cards.sequences)
        faces = [face for c in print_writer.cards(deck) for face in (c.front, c.back)]
        yield "cards", deck, print_writer.card_document(deck, faces, CREATED)


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_print_writer_shows_every_text_of_every_document(game: str, lang: str) -> None:
    ctx = _context(game, lang)
    for name, document, markup in _documents(ctx):
        assert _print_missing(document, markup, lang) == [], name
        head = document.head  # type: ignore[attr-defined]
        # the head's title is the PDF's; the slug line is in the body
        assert f"<title>{html.escape(head.title, quote=False)}</title>" in markup or name == "cards"
        assert _normal(" · ".join(head.slug)) in _normal(_print_text(markup)), name


def test_icons_and_page_numbers_reach_print_and_not_the_site_text() -> None:
    ctx = _context("stationfall", "en")
    term = ctx.spec.glossary[0].id
    with_icon = RenderContext(ctx.spec, "en", ctx.t, str, ctx.plural, {term: _ICON})
    book = print_trees.rulebook(with_icon)
    markup = print_writer.write(book, CREATED)
    assert f'<img src="{_ICON}" alt="" class="icon">' in markup
    pages = [n for n in _nodes(book) if isinstance(n, tree.PageNumber)]
    assert pages, "the rulebook's cross-references say their page"
    for page in pages:
        # an empty link (the serialiser spaces it) whose page number CSS fills in
        assert re.search(f'<a href="#{page.label}" class="pageref"> ?</a>', markup), page


# ----------------------------------------------- one page, two writers: the changes


@pytest.fixture(scope="module")
def changes(previous_specs: Path) -> dict[str, tree.Page]:
    """The changes page of Stationfall in each language, against the session's previous edition."""
    game = SPEC_ROOT / "stationfall"
    since = str(previous_specs / "rules_spec")
    previous = previous_edition(game, load_spec(game), since, LOCALES, LANGS)
    out = {}
    for lang in LANGS:
        ctx = _context("stationfall", lang)
        new_text = game_translator(LOCALES, lang, "stationfall")
        out[lang] = changes_page(
            ctx, previous.diff, previous.spec, previous.old_text[lang], new_text
        )
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_changes_page_and_the_errata_sheet_show_the_same_texts(
    changes: dict[str, tree.Page], lang: str
) -> None:
    page = changes[lang]
    entries = list(_entries(page))
    assert len(entries) > 20  # a page with changes in it, not an empty one
    assert _site_missing(page, lang, "stationfall/changes") == []
    markup = errata_sheet(_context("stationfall", lang), page, CREATED)
    assert _print_missing(page, markup, lang) == []


# --------------------------------------------------------- the scorer's text report


def _result_texts(value: object) -> Iterator[str]:
    """The texts of a score result: every note, and every step's and line's title."""
    if isinstance(value, Note):
        yield value.text
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name in ("title", "step") and isinstance(getattr(value, f.name), str):
                yield getattr(value, f.name)
            else:
                yield from _result_texts(getattr(value, f.name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _result_texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _result_texts(item)


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_score_report_shows_every_text_of_the_result(game: str, lang: str) -> None:
    local = _localized(game, lang)
    spec = local.loaded.spec
    for i in range(len(spec.examples)):
        result = run_example(local.loaded, i, renderer=local.renderer)
        report = render_text(result, spec, local.renderer.translate)
        texts = list(_result_texts(result))
        assert texts
        missing = _missing(iter(texts), report, lambda t: visible(typeset(t, lang)))
        assert missing == [], spec.examples[i].id


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_writer_shows_every_text_of_the_score_report_tree(game: str, lang: str) -> None:
    """The report's tree of each worked example: as terminal text, docutils nodes and print HTML."""
    local = _localized(game, lang)
    spec = local.loaded.spec
    for i, example in enumerate(spec.examples):
        result = run_example(local.loaded, i, renderer=local.renderer, cite_rulings=True)
        page = report_tree(result, spec, local.renderer.translate)
        # the report's nodes are made without validation: each must be one the tree allows
        assert tree.Page.from_json(page.to_json()) == page, example.id
        assert len(list(_entries(page))) > 10, example.id
        report = text_writer.write(page, lang)
        missing = _missing(_entries(page), report, lambda e: visible(typeset(e, lang)))
        assert missing == [], example.id
        assert _site_missing(page, lang, f"{game}/score") == [], example.id
        markup = serialize(el("div", print_writer.blocks(page.blocks)), lang)
        assert _print_missing(page, markup, lang) == [], example.id
