"""A worked example's table state on its page: facts in words, from the spec, as text nodes."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rulepress.model.spec_model import Spec
from rulepress.render.context import RenderContext
from rulepress.render.pages import game_pages
from rulepress.render.tree import CodeBlock, Page, Paragraph, Text, plain_text
from tests.conftest import loaded


def _nodes(value: Any) -> list[Any]:
    """Every node of a page tree, depth first."""
    out = [value]
    if isinstance(value, list):
        return [n for item in value for n in _nodes(item)]
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            child = getattr(value, name)
            if isinstance(child, list | BaseModel):
                out += _nodes(child)
    return out


def _examples(spec: Spec) -> Page:
    return game_pages(RenderContext(spec, "en", str, str))["examples"]


def _paragraphs(page: Page) -> list[str]:
    return [plain_text(n.children) for n in _nodes(page.blocks) if isinstance(n, Paragraph)]


def test_the_state_reads_as_facts_in_words_not_as_yaml() -> None:
    page = _examples(loaded("stationfall").spec)
    lines = _paragraphs(page)
    assert not [n for n in _nodes(page.blocks) if isinstance(n, CodeBlock)]
    # field titles, choice labels from the vocabulary, yes and no, one line per Agenda line
    assert "Secret Identity: Engineer" in lines
    assert "Guilt: Suspect" in lines
    assert "Line: 3 if you are Innocent; Points: 3; Met: no" in lines
    assert "Influence cubes: Supply: 4; On cards: 3; Betrayal Box: 1" in lines
    assert "Agenda:" in lines
    assert not [line for line in lines if "suspect" in line.split(": ")]  # no raw choice ids


def test_brink_records_by_colour_use_the_vocabulary_and_choices_their_labels() -> None:
    lines = _paragraphs(_examples(loaded("brink").spec))
    assert any(line.startswith("Influence: Komek: ") for line in lines), lines[:40]
    assert any("Ship class: Class " in line for line in lines)
    assert not [line for line in lines if "class-1" in line or "ua-trade-agreement" in line]


def test_state_values_are_text_whatever_they_hold() -> None:
    spec = loaded("stationfall").spec
    attack = "<script>alert(1)</script> {param:x} ```{doctest}\n>>> 1"
    first = spec.examples[0]
    players = [dict(p) for p in first.state["players"]]
    players[0] = {**players[0], "identity": attack}
    example = first.model_copy(update={"state": {**first.state, "players": players}})
    hostile = spec.model_copy(update={"examples": [example, *spec.examples[1:]]})
    page = _examples(hostile)
    texts = [n.text for n in _nodes(page.blocks) if isinstance(n, Text)]
    assert f"Secret Identity: {attack}" in _paragraphs(page)
    assert any(attack in t for t in texts)
