"""The MyST pages rendered from the spec, without Sphinx: anchors, links, escaping."""

from __future__ import annotations

import re

import pytest

from rulepress.render.context import RenderContext
from rulepress.render.myst import Links, escape, inline
from rulepress.render.pages import game_pages
from rulepress.spec.model import Rule
from tests.conftest import loaded


def _numbers(rules: list[Rule]) -> list[str]:
    out = []
    for rule in rules:
        out.append(rule.number)
        out.extend(_numbers(rule.rules))
    return out


@pytest.mark.parametrize("game", ["stationfall", "brink"])
def test_every_rule_has_its_permalink_label(game: str) -> None:
    spec = loaded(game).spec
    pages = game_pages(RenderContext(spec, "en", str, str))
    labels = set(re.findall(r"^\(rule-([0-9-]+)\)=$", pages["rules"], re.MULTILINE))
    assert labels == {n.replace(".", "-") for n in _numbers(spec.rules)}
    index = pages["rules-index"]
    for number in _numbers(spec.rules):
        assert f"{{ref}}`{number} <rule-{number.replace('.', '-')}>`" in index


def test_examples_carry_a_generated_doctest_per_stated_fact() -> None:
    spec = loaded("stationfall").spec
    page = game_pages(RenderContext(spec, "en", str, str))["examples"]
    assert page.count("```{doctest}") == len(spec.examples)
    example = spec.examples[0]
    assert f">>> result = run_example('stationfall', {example.id!r})" in page
    pid, facts = next(iter(example.expect.players.items()))
    key, value = next(iter(facts.items()))
    assert f">>> result.fact({pid!r}, {key!r})\n{value!r}" in page


LINKS = Links(frozenset({"16.4.8"}), {"cubes": "8"}, {"betrayal-box": "Betrayal Box"}, {})


@pytest.mark.parametrize(
    "hostile",
    [
        "```{eval-rst}\n.. raw:: html\n\n   <script>alert(1)</script>\n```",
        "{raw}`<b>x</b>` and {doctest}`1+1`",
        ">>> import os; os.system('true')",
        ":::{danger}\nboom\n:::",
        "<script>alert(1)</script>",
        "[click](javascript:alert(1)) ![img](x.png) $$x$$ | a | b |",
        "1. not a list\n- not a list\n# not a heading",
    ],
)
def test_translated_text_cannot_inject_markup(hostile: str) -> None:
    rendered = inline(hostile, LINKS)
    # every character MyST could read as markup is escaped with a backslash
    unescaped = re.findall(r"(?<!\\)[`<>\[\]{}$|*_#:!~&=^+]", rendered)
    assert unescaped == [], rendered
    for line in rendered.splitlines():
        assert not re.match(r"^\s*([-#>]|\d+[.)])", line), line
    assert escape("a*b") == r"a\*b"


def test_links_become_roles_and_numbers_are_filled_in() -> None:
    text = "See {rule:16.4.8} and {rule:7.3.2}: {param:cubes} cubes in the [pole zrady](term:betrayal-box)."
    assert inline(text, LINKS) == (
        "See {ref}`16.4.8 <rule-16-4-8>` and 7.3.2\\: 8 cubes in the "
        "{term}`pole zrady <Betrayal Box>`."
    )
