"""The page trees built from the spec, without Sphinx: anchors, links, text that stays text."""

from __future__ import annotations

from collections.abc import Iterator

import pydantic
import pytest

from rulepress.model.spec_model import Rule
from rulepress.render import tree
from rulepress.render.context import RenderContext
from rulepress.render.markup import Links, blocks, inline
from rulepress.render.pages import doctest, game_pages
from rulepress.sphinx_ext.doctree import doctest_source
from tests.conftest import GAMES, loaded


def _numbers(rules: list[Rule]) -> list[str]:
    out = []
    for rule in rules:
        out.append(rule.number)
        out.extend(_numbers(rule.rules))
    return out


def _nodes(value: object) -> Iterator[tree.Node]:
    """Every node of a tree, depth first."""
    if isinstance(value, tree.Node):
        yield value
        for name in type(value).model_fields:
            yield from _nodes(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _nodes(item)


def _pages(game: str) -> dict[str, tree.Page]:
    return game_pages(RenderContext(loaded(game).spec, "en", str, str))


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_has_its_permalink_label(game: str) -> None:
    spec = loaded(game).spec
    pages = _pages(game)
    labels = {n.label for n in _nodes(pages["rules"]) if isinstance(n, tree.Section)}
    wanted = {"rule-" + n.replace(".", "-") for n in _numbers(spec.rules)}
    assert wanted <= labels
    refs = {n.label for n in _nodes(pages["rules-index"]) if isinstance(n, tree.Ref)}
    assert refs == wanted


@pytest.mark.parametrize("game", GAMES)
def test_every_label_is_unique_and_every_reference_resolves(game: str) -> None:
    pages = _pages(game)
    # every anchor: headings, glossary terms, step cards, parameters' lines
    labels = [
        n.label
        for page in pages.values()
        for n in _nodes(page)
        if isinstance(n, tree.Section | tree.GlossaryEntry | tree.Card | tree.Paragraph)
        and n.label is not None
    ]
    assert len(labels) == len(set(labels))
    refs = {n.label for page in pages.values() for n in _nodes(page) if isinstance(n, tree.Ref)}
    assert refs <= set(labels)


def test_examples_carry_one_doctest_each_written_from_their_data() -> None:
    spec = loaded("stationfall").spec
    tests = [n for n in _nodes(_pages("stationfall")["examples"]) if isinstance(n, tree.Doctest)]
    assert [t.example for t in tests] == [ex.id for ex in spec.examples]
    example = spec.examples[0]
    source = doctest_source(tests[0])
    assert f">>> result = run_example('stationfall', {example.id!r})" in source
    pid, facts = next(iter(example.expect.players.items()))
    key, value = next(iter(facts.items()))
    assert f">>> result.fact({pid!r}, {key!r})\n{value!r}" in source


def test_a_doctest_value_is_a_literal_whatever_its_characters() -> None:
    example = loaded("stationfall").spec.examples[0]
    hostile = "x'\n>>> import os\n>>> os.system('true')"
    forged = example.model_copy(
        update={
            "expect": example.expect.model_copy(update={"players": {hostile: {"total": hostile}}})
        }
    )
    test = doctest("stationfall", forged)
    source = doctest_source(test)
    # the import, the run and one statement per fact: not one line more from the data
    lines = source.splitlines()
    assert sum(line.startswith(">>> ") for line in lines) == 2 + len(test.facts)
    assert len(lines) == 2 + 2 * len(test.facts)
    assert repr(hostile) in source
    with pytest.raises(TypeError, match="not plain data"):
        doctest_source(
            tree.Doctest(game="g", example="e", facts=[tree.Fact(ask="winners", value=[1.5])])
        )


LINKS = Links(frozenset({"16.4.8"}), {"cubes": "8"}, {"betrayal-box": "Betrayal Box"}, {})

HOSTILE = [
    "```{eval-rst}\n.. raw:: html\n\n   <script>alert(1)</script>\n```",
    "{raw}`<b>x</b>` and {doctest}`1+1`",
    ">>> import os; os.system('true')",
    ":::{danger}\nboom\n:::",
    "<script>alert(1)</script><img src=x onerror=alert(1)>",
    "[click](javascript:alert(1)) ![img](x.png) $$x$$ | a | b |",
    "{0.__class__} %s %(x)d",
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_translated_text_is_text(hostile: str) -> None:
    nodes = inline(hostile, LINKS)
    assert all(isinstance(n, tree.Text) for n in nodes)
    assert tree.plain_text(nodes) == hostile


@pytest.mark.parametrize("brk", ["\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\x1e"])
def test_only_a_line_feed_breaks_lines(brk: str) -> None:
    text = f"A rule.{brk}# not a heading{brk}- not an item{brk}{brk}not a paragraph"
    out = blocks(text, LINKS)
    assert len(out) == 1
    assert isinstance(out[0], tree.Paragraph)
    assert "# not a heading" in tree.plain_text(out[0].children)
    # a real blank line and "- " are the spec's own structure
    assert [type(b) for b in blocks("One.\r\n\r\n- a\n- b", LINKS)] == [
        tree.Paragraph,
        tree.BulletList,
    ]


def test_links_become_references_and_numbers_are_filled_in() -> None:
    text = "See {rule:16.4.8} and {rule:7.3.2}: {param:cubes} cubes in the [pole zrady](term:betrayal-box)."
    nodes = inline(text, LINKS)
    assert nodes == [
        tree.Text(text="See "),
        tree.Ref(label="rule-16-4-8", children=tree.text("16.4.8"), classes=["rp-rule"]),
        tree.Text(text=" and 7.3.2: 8 cubes in the "),
        tree.Ref(label="term-betrayal-box", children=tree.text("pole zrady"), classes=["rp-term"]),
        tree.Text(text="."),
    ]


def test_a_page_reads_back_from_json_and_nothing_else_does() -> None:
    page = _pages("brink")["rules"]
    assert tree.Page.from_json(page.to_json()) == page
    with pytest.raises(pydantic.ValidationError):
        tree.Page.from_json('{"blocks": [{"kind": "raw", "text": "<script>"}]}')
    with pytest.raises(pydantic.ValidationError):
        tree.Page.from_json(
            '{"blocks": [{"kind": "section", "label": "A B", "title": [], "children": []}]}'
        )


@pytest.mark.parametrize("game", GAMES)
def test_who_cannot_win_appears_only_where_the_spec_has_a_rule(game: str) -> None:
    spec = loaded(game).spec
    scoring = tree.plain_text(
        [n for n in _nodes(_pages(game)["scoring"]) if isinstance(n, tree.Text)]
    )
    rules = [
        step.winners.eligible.test
        for seq in spec.sequences
        for step in seq.steps
        if step.winners is not None
    ]
    assert ("Who cannot win" in scoring) == any(test.strip() != "True" for test in rules)


def test_examples_say_in_words_what_decided_the_winners() -> None:
    page = _pages("stationfall")["examples"]
    shown = tree.plain_text([n for n in _nodes(page) if isinstance(n, tree.Text)])
    assert "Most points" in shown
    codes = {n.text for n in _nodes(page) if isinstance(n, tree.Code)}
    assert "most-points" not in codes


def _paragraphs(page: tree.Page) -> list[str]:
    return [
        tree.plain_text([n for n in _nodes(par) if isinstance(n, tree.Text)])
        for par in _nodes(page)
        if isinstance(par, tree.Paragraph)
    ]


def test_examples_say_once_who_can_win_not_under_every_player() -> None:
    """The stated standing is one line per answer, naming the players ("can win" on every
    player's line said the same thing many times)."""
    shown = _paragraphs(_pages("stationfall")["examples"])
    assert not [line for line in shown if "can win: " in line]
    # Tara is Guilty and cannot win; Ugo and Vera can (example guilty-top-scorer)
    assert "Can win: Ugo and Vera" in shown
    assert "Cannot win: Tara" in shown
