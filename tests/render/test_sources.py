"""Provenance as readers see it: the marker on each rule, the sources pages, the appendix.

Built from the real specs in every language they publish (the document trees
and the print HTML, no Sphinx, no WeasyPrint): every rule carries a closed
"Source" marker whose links lead to its rulings; the page "Not in this
edition's source" lists every item the spec gives, naming the table-state
fields the scorer reads instead; the rulebook's appendix and the reference
card say the same. Spec text stays text: a hostile document title is escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.render import tree
from rulepress.render.context import RenderContext
from rulepress.render.pages import PAGES, game_pages
from rulepress.render.print_html import reference_card, rulebook
from rulepress.render.sources import source_marker
from rulepress.spec.load import load_spec
from rulepress.spec.model import all_rules
from tests.conftest import SPEC_ROOT, game_dirs
from tests.site.test_pages import _nodes as every_node


def _nodes(value: object, kind: type[tree.Node]) -> list[tree.Node]:
    """Every node of ``kind`` in a tree, depth first (the pages tests' walk)."""
    return [node for node in every_node(value) if isinstance(node, kind)]


def _ctx(game_dir: Path) -> RenderContext:
    return RenderContext(load_spec(game_dir).spec, "en", str, str)


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_every_rule_has_a_closed_source_marker(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
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
        assert refs == {"ruling-" + r.replace("_", "-") for r in rule.source.rulings}


def test_the_marker_names_the_passage_the_rulings_and_the_table_state() -> None:
    ctx = _ctx(SPEC_ROOT / "brink")
    rule = next(r for r in all_rules(ctx.spec.rules) if r.number == "14.6")
    [marker] = source_marker(ctx, rule.source)
    words = "".join(t.text for t in _nodes(marker, tree.Text) if isinstance(t, tree.Text))
    assert "Japanese fan translation of the Brink rulebook" in words
    assert "lines 270" in words
    assert "Prestige of the council track slots" in words  # the ruling, by its title
    assert "From the table state: Council track" in words
    assert source_marker(ctx, None) == []


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_the_page_not_in_this_editions_source(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    pages = game_pages(ctx)
    assert "not-in-source" in PAGES
    assert "sources" in PAGES
    page = pages["not-in-source"]
    labels = {s.label for s in _nodes(page, tree.Section) if isinstance(s, tree.Section)}
    assert ctx.spec.not_in_source
    assert {"missing-" + item.id for item in ctx.spec.not_in_source} <= labels
    words = "".join(t.text for t in _nodes(page, tree.Text) if isinstance(t, tree.Text))
    for item in ctx.spec.not_in_source:
        assert item.title in words
    if game_dir.name == "brink":
        # values the scorer needs but the source lacks are named as table-state inputs
        assert "From the table state: Council track" in words
        assert "From the table state: Left in the common supply" in words


def test_the_sources_page_lists_every_ruled_rule() -> None:
    ctx = _ctx(SPEC_ROOT / "brink")
    page = game_pages(ctx)["sources"]
    refs = {r.label for r in _nodes(page, tree.Ref) if isinstance(r, tree.Ref)}
    ruled = [r for r in all_rules(ctx.spec.rules) if r.source and r.source.kind == "ruling"]
    assert ruled
    for rule in ruled:
        assert "rule-" + rule.number.replace(".", "-") in refs
    assert "rule-14-2-1" not in refs  # stated by the rulebook, not ruled


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_the_rulebook_has_a_sources_appendix_and_the_card_points_to_it(game_dir: Path) -> None:
    ctx = _ctx(game_dir)
    html = rulebook(ctx, "2026-01-01")
    appendix = html.split('id="sources"', 1)[1]
    assert 'href="#sources"' in html.split('id="sources"', 1)[0]  # in the contents
    for item in ctx.spec.not_in_source:
        assert item.title.replace("'", "\u2019") in appendix
    rows = appendix.count('<p class="source">')
    assert rows == len(list(all_rules(ctx.spec.rules)))
    pub = ctx.spec.publishing
    assert pub is not None
    card = reference_card(ctx, pub.reference_card.sequences, "2026-01-01")
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
    html = rulebook(ctx, "2026-01-01")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; translation" in html
