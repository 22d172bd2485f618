"""Provenance as readers see it: the marker on each rule, the sources pages, the appendix.

Built from the real specs in every language they publish (the document trees
and the print HTML, no Sphinx, no WeasyPrint): every rule carries a closed
"Source" marker whose links lead to its rulings; the page "Not in this
edition's source" lists every item the spec gives, naming the table-state
fields the scorer reads instead; the rulebook's appendix and the reference
card say the same. Under each ruling's question, the rulings page and the
rulebook quote what the sources say, in the sources' own language (issue 30).
Spec text stays text: a hostile document title is escaped.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rulepress.checks.sources import entries
from rulepress.games.load import load_spec
from rulepress.i18n.runtime import localize
from rulepress.model.provenance import Passage
from rulepress.model.spec_model import all_rules, all_steps
from rulepress.render import print_trees, print_writer, tree
from rulepress.render.context import RenderContext
from rulepress.render.markup import ruling_label
from rulepress.render.pages import PAGES, game_pages
from rulepress.render.source_entries import KIND_TITLES, source_entries, step_label
from rulepress.render.sources import SAYS, source_marker, source_says, table_marker
from tests.conftest import DATA, LOCALES, SPEC_ROOT, game_dirs
from tests.site.test_pages import _nodes as every_node


def _nodes(value: object, kind: type[tree.Node]) -> list[tree.Node]:
    """Every node of ``kind`` in a tree, depth first (the pages tests' walk)."""
    return [node for node in every_node(value) if isinstance(node, kind)]


def _ctx(game_dir: Path) -> RenderContext:
    return RenderContext(load_spec(game_dir).spec, "en", str, str)


def _shows_no_provenance(ctx: RenderContext) -> bool:
    """Whether ``ctx``'s game names no source document; if so, check that nothing shows one.

    A game written straight into a spec (``rulepress new``, a designer's own game) has no
    sources: the tests of how sources show check, for it, that no page and no print
    document has a source marker, a Sources page or an appendix about them.
    """
    if ctx.spec.sources:
        return False
    pages = game_pages(ctx)
    assert not {"sources", "not-in-source"} & set(pages)
    assert [d for d in _nodes(list(pages.values()), tree.Details) if "rp-source" in d.classes] == []
    rulebook = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
    assert 'id="sources"' not in rulebook
    assert 'class="source"' not in rulebook
    return True


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_every_rule_has_a_closed_source_marker(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    if _shows_no_provenance(ctx):
        return
    page = game_pages(ctx)["rules"]
    sections = {s.label: s for s in _nodes(page, tree.Section) if isinstance(s, tree.Section)}
    for rule in all_rules(ctx.spec.rules):
        section = sections["rule-" + rule.number.replace(".", "-")]
        # the marker is the section's own, not a sub-rule's
        own = [c for c in section.children if isinstance(c, tree.Details)]
        assert len(own) == 1, rule.number
        assert [t.text for t in own[0].summary if isinstance(t, tree.Text)] == ["Source"]
        assert rule.source is not None
        refs = {r.label for r in _nodes(own[0], tree.Ref) if isinstance(r, tree.Ref)}
        # its rulings, and the components it comes from (their items of "Not in this
        # edition's source")
        assert refs == {"ruling-" + r.replace("_", "-") for r in rule.source.rulings} | {
            "missing-" + c for c in rule.source.components
        }


def test_the_marker_names_the_passage_the_rulings_and_the_table_state() -> None:
    ctx = _ctx(SPEC_ROOT / "brink")
    rule = next(r for r in all_rules(ctx.spec.rules) if r.number == "14.6")
    [marker] = source_marker(ctx, rule.source)
    words = "".join(t.text for t in _nodes(marker, tree.Text) if isinstance(t, tree.Text))
    assert "Japanese fan translation of the Brink rulebook" in words
    assert "line 270" in words
    assert "Prestige of the council track slots" in words  # the ruling, by its title
    assert "From the table state: Council track" in words
    assert source_marker(ctx, None) == []


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_the_page_not_in_this_editions_source(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    pages = game_pages(ctx)
    # the page is there when the spec names something its source lacks, and only then
    assert ("not-in-source" in pages) == bool(ctx.spec.not_in_source)
    if _shows_no_provenance(ctx) or not ctx.spec.not_in_source:
        return
    page = pages["not-in-source"]
    labels = {s.label for s in _nodes(page, tree.Section) if isinstance(s, tree.Section)}
    assert {"missing-" + item.id for item in ctx.spec.not_in_source} <= labels
    words = "".join(t.text for t in _nodes(page, tree.Text) if isinstance(t, tree.Text))
    for item in ctx.spec.not_in_source:
        assert item.title in words


def test_the_sources_page_lists_every_ruled_rule() -> None:
    ctx = _ctx(SPEC_ROOT / "brink")
    page = game_pages(ctx)["sources"]
    [listing] = [s for s in _nodes(page, tree.Section) if s.label == "ruled"]
    refs = {r.label for r in _nodes(listing, tree.Ref) if isinstance(r, tree.Ref)}
    ruled = [r for r in all_rules(ctx.spec.rules) if r.source and r.source.kind == "inferred"]
    assert ruled
    for rule in ruled:
        assert "rule-" + rule.number.replace(".", "-") in refs
    assert "rule-14-2-1" not in refs  # stated by the rulebook, not ruled


def _own_markers(blocks: list[tree.Block]) -> list[tree.Details]:
    return [b for b in blocks if isinstance(b, tree.Details) and "rp-source" in b.classes]


def _words(node: object) -> str:
    return "".join(t.text for t in _nodes(node, tree.Text) if isinstance(t, tree.Text))


def _anchors(pages: dict[str, tree.Page]) -> set[str]:
    """Every permanent anchor of a game's pages: sections, step cards, parameters, terms."""
    out: set[str] = set()
    for node in every_node(list(pages.values())):
        label = getattr(node, "label", None)
        if (
            isinstance(node, (tree.Section, tree.Card, tree.Paragraph, tree.GlossaryEntry))
            and label
        ):
            out.add(label)
    return out


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_every_kind_of_entry_has_its_marker(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    if _shows_no_provenance(ctx):
        return
    spec = ctx.spec
    pages = game_pages(ctx)
    # each step's card holds one marker of its own (a sub-step's is in the sub-card)
    cards = [c for c in _nodes(pages["sequences"], tree.Card) if isinstance(c, tree.Card)]
    steps = [(seq, s) for seq in spec.sequences for s in all_steps(seq.steps)]
    assert sorted(c.label or "" for c in cards) == sorted(step_label(q, s) for q, s in steps)
    for card in cards:
        assert len(_own_markers(card.body)) == 1, card.label
    # each glossary entry, under its definition
    [glossary] = _nodes(pages["glossary"], tree.Glossary)
    assert isinstance(glossary, tree.Glossary)
    assert len(glossary.entries) == len(spec.glossary)
    for entry in glossary.entries:
        assert len(_own_markers(entry.details)) == 1, entry.label
    # each table, once under its rows
    sections = {s.label: s for s in _nodes(pages["scoring"], tree.Section)}
    for table in spec.tables:
        section = sections["table-" + table.id]
        assert isinstance(section, tree.Section)
        assert len(_own_markers(section.children)) == 1, table.id
    # each parameter (no page shows them as entries but the Sources page), after its line
    [params] = [s for s in _nodes(pages["sources"], tree.Section) if s.label == "parameters"]
    assert isinstance(params, tree.Section)
    [listing] = params.children
    assert isinstance(listing, tree.BulletList)
    assert [item[0].label for item in listing.items if isinstance(item[0], tree.Paragraph)] == [
        "parameter-" + name.replace("_", "-") for name in spec.parameters
    ]
    for item in listing.items:
        assert len(_own_markers(item)) == 1


def test_a_tables_marker_names_each_source_its_rows_share_once() -> None:
    ctx = _ctx(SPEC_ROOT / "stationfall")
    [table] = ctx.spec.tables
    assert len(table.rows) == 3
    [marker] = table_marker(ctx, table)
    assert isinstance(marker, tree.Details)
    # the first row has a passage of its own, the others share one: a paragraph per
    # source, led by its rows
    led = [_words(p.children[0]) for p in marker.children if isinstance(p, tree.Paragraph)]
    assert led == ["Rows 1\u20135", "Rows 6\u20138, 9"]
    assert "lines 3, 58" in _words(marker.children[0])
    # then the words of line 58 the rows rely on, in the card's Czech
    assert "line 58: “" in _words(marker.children[1])
    quotes = [n for n in _nodes(marker.children[1], tree.Quote) if isinstance(n, tree.Quote)]
    assert [(q.text, q.lang) for q in quotes] == [
        ("Ve hře s 6+ hráči mohou zvítězit 2 hráči s nejvíce body (3 hráči při 9 hráčích)", "cs")
    ]
    # Brink's tables take each their rows from one passage: named once, led by nothing
    brink = _ctx(SPEC_ROOT / "brink")
    for table in brink.spec.tables:
        [marker] = table_marker(brink, table)
        assert isinstance(marker, tree.Details)
        [paragraph] = marker.children
        assert isinstance(paragraph, tree.Paragraph)
        assert not isinstance(paragraph.children[0], tree.Strong)
        assert "Japanese fan translation of the Brink rulebook" in _words(paragraph)


def test_a_steps_marker_names_its_passage_and_its_rulings() -> None:
    ctx = _ctx(SPEC_ROOT / "stationfall")
    pages = game_pages(ctx)
    cards = {c.label: c for c in _nodes(pages["sequences"], tree.Card)}
    card = cards["step-stationfall-sequence-4b"]
    assert isinstance(card, tree.Card)
    [marker] = _own_markers(card.body)
    words = _words(marker)
    assert "Czech reference card for the end of the game" in words
    assert "lines 35\u201339" in words
    assert "Does an Annihilated Grudge score" in words
    refs = {r.label for r in _nodes(marker, tree.Ref) if isinstance(r, tree.Ref)}
    step = next(s for s in all_steps(ctx.spec.sequences[0].steps) if s.number == "4b")
    assert step.source is not None
    assert refs == {"ruling-" + r.replace("_", "-") for r in step.source.rulings}


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_the_editors_list_holds_every_ruled_entry_of_every_kind(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    if _shows_no_provenance(ctx):
        return
    pages = game_pages(ctx)
    anchors = _anchors(pages)
    [ruled] = [s for s in _nodes(pages["sources"], tree.Section) if s.label == "ruled"]
    assert isinstance(ruled, tree.Section)
    listed: dict[str, list[set[str]]] = {}
    for sub in ruled.children:
        assert isinstance(sub, tree.Section)
        [items] = sub.children
        assert isinstance(items, tree.BulletList)
        listed[sub.label] = [
            {r.label for r in _nodes(item, tree.Ref) if isinstance(r, tree.Ref)}
            for item in items.items
        ]
    expected: dict[str, list[set[str]]] = {}
    for kind, of_kind in source_entries(ctx).items():
        rows = [
            {e.anchor, *("ruling-" + r.replace("_", "-") for r in e.source.rulings)}
            for e in of_kind
            if e.source.kind == "inferred"
        ]
        if rows:
            expected["ruled-" + kind] = rows
    # every kind the game rules something of is there, each entry once, linked to its
    # place and its rulings, and nothing stated plainly by the source
    assert listed == expected
    for refs in (r for rows in listed.values() for r in rows):
        assert refs <= anchors, refs - anchors


def test_a_ruled_table_row_is_listed_with_its_table(tmp_path: Path) -> None:
    import shutil

    game = tmp_path / "stationfall"
    shutil.copytree(SPEC_ROOT / "stationfall", game)
    path = game / "tables.yaml"
    text = path.read_text(encoding="utf-8")
    ruling = _ctx(SPEC_ROOT / "stationfall").spec.rulings[0].id
    # the last row's source becomes a ruling
    head, sep, tail = text.rpartition("source: {document:")
    assert sep, "tables.yaml gives its rows' sources inline"
    rest = tail.split("}", 1)[1]
    path.write_text(head + "source: {rulings: [" + ruling + "]" + "}" + rest, encoding="utf-8")
    ctx = _ctx(game)
    [table] = ctx.spec.tables
    assert table.rows[-1].source is not None
    assert table.rows[-1].source.kind == "inferred"
    page = game_pages(ctx)["sources"]
    [section] = [s for s in _nodes(page, tree.Section) if s.label == "ruled-row"]
    words = _words(section)
    assert table.title in words
    assert "Rows 9" in words
    refs = {r.label for r in _nodes(section, tree.Ref) if isinstance(r, tree.Ref)}
    assert refs == {"table-" + table.id, "ruling-" + ruling.replace("_", "-")}


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_the_rulebook_has_a_sources_appendix_and_the_card_points_to_it(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    if _shows_no_provenance(ctx):
        return
    html = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
    appendix = html.split('id="sources"', 1)[1]
    assert 'href="#sources"' in html.split('id="sources"', 1)[0]  # in the contents
    for item in ctx.spec.not_in_source:
        assert item.title.replace("'", "\u2019") in appendix
    # a paragraph per entry of every kind, under the kind's heading
    rows = appendix.count('<p class="source">')
    assert rows == len(list(entries(ctx.spec)))
    for kind, listed in source_entries(ctx).items():
        # a kind no entry has gets no heading (Brink's cards make no exception)
        assert (f"<h4>{KIND_TITLES[kind]}</h4>" in appendix) == bool(listed), kind
        assert listed or kind == "card"
    pub = ctx.spec.publishing
    assert pub is not None
    card = print_writer.write(
        print_trees.reference_card(ctx, pub.reference_card.sequences), "2026-01-01"
    )
    assert "listed under Sources in the rulebook" in card


def test_a_hostile_document_title_stays_text(tmp_path: Path) -> None:
    import shutil

    game = tmp_path / "brink"
    shutil.copytree(SPEC_ROOT / "brink", game)
    path = game / "sources.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "title: Japanese fan translation of the Brink rulebook, as it stood in July 2024",
            "title: <script>alert(1)</script> translation",
        ),
        encoding="utf-8",
    )
    ctx = _ctx(game)
    html = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; translation" in html


def test_a_passage_of_one_line_says_line() -> None:
    """Rule 16 comes from line 3 of the card: 'line 3', where a range says 'lines 35–39'."""
    pages = game_pages(_ctx(SPEC_ROOT / "stationfall"))
    words = " ".join(_words(m) for m in _nodes(pages["rules"], tree.Details))
    assert 'bodů", line 3: ' in words  # then its quote
    assert "lines 3" not in words.replace("lines 35", "")


def test_a_game_without_sources_has_no_pages_about_them() -> None:
    """A game written straight into a spec (rulepress new, the fixtures) names no source:
    no empty Sources page, no empty list of what the source lacks, none in the contents."""
    pages = game_pages(_ctx(DATA / "specs" / "tiny"))
    assert not {"sources", "not-in-source"} & set(pages)
    # nor a Rulings page: the tiny game has no rulings either (tests/render/test_no_rulings.py)
    assert set(pages) == set(PAGES) - {"rulings"}
    toc = [n for n in _nodes(pages["index"], tree.TocTree) if isinstance(n, tree.TocTree)]
    assert [e for t in toc for e in t.entries] == [
        p for p in PAGES if p not in ("index", "rulings")
    ]


def _with_quotes(node: object) -> str:
    """The text of a tree with its quotes, in order (:func:`_words` leaves quotes out)."""
    found = _nodes(node, tree.Node)
    return "".join(n.text for n in found if isinstance(n, tree.Text | tree.Quote))


def _paragraph_of(blocks: list[tree.Block], words: str) -> int:
    """The place among ``blocks`` of the first paragraph whose text begins with ``words``."""
    return next(
        i
        for i, b in enumerate(blocks)
        if isinstance(b, tree.Paragraph) and _words(b).startswith(words)
    )


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_every_ruling_quotes_what_the_source_says_under_its_question(game_dir: Path) -> None:
    """The rulings page and the rulebook show each quote of a ruling's ``says``, as a Quote
    in its document's language, between the question and the decision (one tree for both)."""
    ctx = _ctx(game_dir)
    if _shows_no_provenance(ctx) or not ctx.spec.rulings:
        return
    languages = {doc.id: doc.language for doc in ctx.spec.sources}
    titles = {doc.id: doc.title for doc in ctx.spec.sources}
    page = game_pages(ctx)["rulings"]
    sections = {s.label: s for s in _nodes(page, tree.Section) if isinstance(s, tree.Section)}
    book = {part.label: part for part in print_trees.rulebook(ctx).rulings}
    for ruling in ctx.spec.rulings:
        expected = [(q, languages[p.document]) for p in ruling.says for q in p.quotes()]
        section = sections[ruling_label(ruling.id)]
        assert isinstance(section, tree.Section)
        for children in (section.children, book[ruling_label(ruling.id)].children):
            quotes = [q for q in _nodes(children, tree.Quote) if isinstance(q, tree.Quote)]
            assert [(q.text, q.lang) for q in quotes] == expected, ruling.id
            if not expected:  # a ruling that quotes nothing shows no empty label
                assert not any(_words(b).startswith(SAYS) for b in children)
                continue
            says = _paragraph_of(children, SAYS)
            assert _paragraph_of(children, "What is unclear") < says
            assert says < _paragraph_of(children, "Decision")
            # the document by its title, its lines, each quote in the page's marks
            shown = _with_quotes(children[says])
            assert titles[ruling.says[0].document] in shown
            assert re.search(r", lines? [0-9]", shown)
            for words, _ in expected:
                assert f"\u201c{words}\u201d" in shown, words


def test_the_rulebooks_quotes_carry_their_language_in_print() -> None:
    """Brink's rulebook, as WeasyPrint gets it: each ruling's quotes in spans marked ``ja``."""
    ctx = _ctx(SPEC_ROOT / "brink")
    markup = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
    rulings = markup.split('id="rulings"', 1)[1].split('id="examples"', 1)[0]
    for ruling in ctx.spec.rulings:
        start = rulings.index(f'id="{ruling_label(ruling.id)}"')
        end = rulings.find('id="ruling-', start + 1)
        section = rulings[start : end if end != -1 else len(rulings)]
        spans = re.findall(r'<span class="quote" lang="([^"]+)"[^>]*>(.*?)</span>', section)
        shown = [(lang, html.unescape(words)) for lang, words in spans]
        assert shown == [("ja", q) for p in ruling.says for q in p.quotes()], ruling.id


def test_several_passages_are_a_list_under_the_label_and_none_is_nothing() -> None:
    ctx = _ctx(SPEC_ROOT / "brink")
    first = Passage(document="rulebook", lines="84", quote="one")
    second = Passage(document="rulebook", lines="20, 270", quote=["two", "three"])
    [label, listing] = source_says(ctx, [first, second])
    assert isinstance(label, tree.Paragraph)
    assert _words(label) == "What the source says:"
    assert isinstance(listing, tree.BulletList)
    assert [_with_quotes(item) for item in listing.items] == [
        "Japanese fan translation of the Brink rulebook, as it stood in July 2024, line 84: “one”",
        "Japanese fan translation of the Brink rulebook, as it stood in July 2024,"
        " lines 20, 270: “two”, “three”",
    ]
    quotes = [(q.text, q.lang) for q in _nodes(listing, tree.Quote) if isinstance(q, tree.Quote)]
    assert quotes == [("one", "ja"), ("two", "ja"), ("three", "ja")]
    assert source_says(ctx, []) == []


def _cells(table: tree.Table) -> list[list[str]]:
    return [[_words(cell) for cell in row] for row in table.rows]


def test_the_card_exceptions_are_a_table_on_the_scoring_page() -> None:
    ctx = _ctx(SPEC_ROOT / "stationfall")
    pages = game_pages(ctx)
    [section] = [s for s in _nodes(pages["scoring"], tree.Section) if s.label == "card-exceptions"]
    assert isinstance(section, tree.Section)
    assert _words(section.title) == "Exceptions on the cards"
    [table] = _nodes(section, tree.Table)
    assert isinstance(table, tree.Table)
    assert [_words(cell) for cell in table.header] == [
        "Card",
        "Exception",
        "Rules",
        "Worked examples",
    ]
    engineer, billionaire = _cells(table)
    assert engineer == [
        "Engineer",
        "Its player may win even while Guilty.",
        "16.4.8",
        "The Engineer may win while Guilty",
    ]
    # the Billionaire's exception is recorded, and the table says the scorer leaves it out
    assert billionaire[0] == "Billionaire"
    assert "The scorer does not apply this exception" in billionaire[1]
    assert billionaire[3] == ""
    refs = {r.label for r in _nodes(table, tree.Ref) if isinstance(r, tree.Ref)}
    assert refs == {"rule-16-4-8", "rule-16-4-6", "example-engineer-wins-while-guilty"}
    # one marker, a paragraph per card, naming the component each comes from
    [marker] = _own_markers(section.children)
    lines = [_words(p) for p in marker.children]
    assert lines == [
        "Engineer: From the components: The Engineer's exception",
        "Billionaire: From the components: The Billionaire's exception",
    ]
    # each a link to its item on the page "Not in this edition's source"
    links = [r.label for r in _nodes(marker, tree.Ref) if isinstance(r, tree.Ref)]
    assert links == ["missing-engineer-card", "missing-billionaire-card"]


def test_the_card_exceptions_table_is_in_the_rulebook_in_every_language() -> None:
    game_dir = SPEC_ROOT / "stationfall"
    for lang, card, exception in [
        ("en", "Card", "Its player may win even while Guilty."),
        ("cs", "Karta", "Hráč s touto kartou smí vyhrát, i když je vinen."),
        ("ja", "カード", "このカードのプレイヤーは、有罪でも勝利できます。"),
    ]:
        ctx = RenderContext.of(localize(load_spec(game_dir), lang, LOCALES), lang)
        html = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
        # (Czech typesetting binds a one-letter word to the next with a no-break space)
        appendix = html.split('id="sources"', 1)[1].replace("\xa0", " ")
        assert f"<th>{card}</th>" in appendix, lang
        assert f"<td>{exception}</td>" in appendix, lang
        # the same rows the site shows: the card names stay as printed
        assert "<td>Engineer</td>" in appendix
        assert "<td>Billionaire</td>" in appendix


def test_a_game_whose_cards_make_no_exception_shows_no_table() -> None:
    ctx = _ctx(SPEC_ROOT / "brink")
    labels = {s.label for s in _nodes(game_pages(ctx)["scoring"], tree.Section)}
    assert "card-exceptions" not in labels
    html = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
    assert "Exceptions on the cards" not in html
