"""A game without rulings has no Rulings page, no entry for one, and no empty chapter in print.

The tiny test game has no rulings; the same game with one ruling added has the
page and the chapter, so each test below can tell the two apart.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulepress.games.load import load_spec
from rulepress.model.spec_model import Spec
from rulepress.render import print_trees, print_writer, tree
from rulepress.render.context import RenderContext
from rulepress.render.pages import game_pages
from tests.conftest import DATA, ROOT, run_main
from tests.site.test_pages import _nodes

A_RULING = """\
rulings:
  - id: close_calls
    title: Close calls
    rules: ["1"]
    question: What if two players claim the same point?
    decision: The one who claimed it first keeps it.
    reason: The rules say nothing; first come is the usual table custom.
    default: first
    options:
      - id: first
        title: First claim
        description: The first player to claim the point keeps it.
      - id: none
        title: Nobody
        description: Nobody scores the point.
"""


def _tiny(tmp_path: Path, *, ruling: bool) -> Spec:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    assert not list(game.glob("rulings*"))  # the fixture has none of its own
    if ruling:
        (game / "rulings.yaml").write_text(A_RULING, encoding="utf-8")
    return load_spec(game).spec


def _ctx(spec: Spec) -> RenderContext:
    return RenderContext(spec, "en", str, str)


def _everything_linked(pages: dict[str, tree.Page]) -> list[str]:
    """Every page a toctree names, and every label a contents list or a link points to."""
    found: list[str] = []
    for page in pages.values():
        for node in _nodes(page):
            if isinstance(node, tree.TocTree):
                found += node.entries
            elif isinstance(node, tree.Contents):
                found += [entry.label for entry in node.entries]
    return found


@pytest.mark.parametrize("ruling", [False, True], ids=["no-rulings", "one-ruling"])
def test_the_rulings_page_exists_only_with_rulings(tmp_path: Path, ruling: bool) -> None:
    pages = game_pages(_ctx(_tiny(tmp_path, ruling=ruling)))
    assert ("rulings" in pages) is ruling
    assert ("rulings" in _everything_linked(pages)) is ruling
    # the game's start page lists its pages: the navigation Sphinx builds from it
    toc = next(n for n in _nodes(pages["index"]) if isinstance(n, tree.TocTree))
    assert toc.entries[:3] == ["rules", "sequences", "scoring"]
    assert ("rulings" in toc.entries) is ruling


@pytest.mark.parametrize("ruling", [False, True], ids=["no-rulings", "one-ruling"])
def test_the_rulebook_has_a_rulings_chapter_only_with_rulings(tmp_path: Path, ruling: bool) -> None:
    book = print_trees.rulebook(_ctx(_tiny(tmp_path, ruling=ruling)))
    assert ("rulings" in [entry.label for entry in book.contents]) is ruling
    markup = print_writer.write(book, "2026-01-01T00:00:00Z")
    assert ('id="rulings"' in markup) is ruling
    assert bool(re.search(r"<h2[^>]*>Rulings</h2>", markup)) is ruling
    # the rules are there either way (the tiny game has no glossary and no examples, so
    # neither has a chapter)
    rules = [entry.label for entry in book.contents if entry.number]
    assert rules
    assert all(f'href="#{label}"' in markup for label in rules)
    assert 'id="examples"' not in markup


@pytest.mark.slow  # a real site build (Sphinx), English only, of the tiny game and the guides
def test_a_site_of_a_game_without_rulings_has_no_rulings_page_or_link(tmp_path: Path) -> None:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    out = tmp_path / "site"
    built = run_main(
        *("build", "site", "--spec-root", str(game.parent), "--docs", str(ROOT / "docs")),
        *("--lang", "en", "--no-doctest", "--quiet", "--out", str(out)),
        cwd=tmp_path,
    )
    assert built.code == 0, built.err
    pages = {p.name: p.read_text(encoding="utf-8") for p in (out / "en" / "tiny").glob("*.html")}
    assert "rules.html" in pages
    assert "rulings.html" not in pages
    for name, html in pages.items():
        # the navigation (built from the start page's toctree) and every link on the page
        assert "rulings.html" not in html, name
        assert ">Rulings<" not in html, name
    # the guides carry the generated references where docs/reference/ keeps them
    reference = out / "en" / "guide" / "reference"
    assert 'id="ref-values"' in (reference / "spec-reference.html").read_text(encoding="utf-8")
    guide = (out / "en" / "guide" / "spec-authors.html").read_text(encoding="utf-8")
    assert 'href="reference/spec-reference.html"' in guide
    assert re.search(r'href="\.\./_downloads/[0-9a-f]+/spec\.schema\.json"', guide)
