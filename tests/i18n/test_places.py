"""Each message's comments say where readers meet it: site page and anchor, print file and part."""

from __future__ import annotations

import subprocess
import sys
from functools import cache

import pytest
from babel.messages.pofile import read_po
from pydantic import BaseModel

from rulepress.print.budget_check import NOWHERE, Where, comments, where
from rulepress.render.context import RenderContext
from rulepress.render.pages import game_pages
from rulepress.render.places import Place
from rulepress.render.tree import Card, GlossaryEntry, Section
from tests.conftest import GAMES, LOCALES, ROOT, TEMPLATED, loaded


@cache
def places_of(game: str) -> Where:
    return where(loaded(game))


def _labels(node: object) -> set[str]:
    """Every anchor a page tree has (sections, cards, glossary entries)."""
    out: set[str] = set()
    if isinstance(node, Section | Card | GlossaryEntry) and node.label:
        out.add(node.label)
    values = vars(node).values() if isinstance(node, BaseModel) else ()
    for value in (*values, *(node if isinstance(node, list) else ())):
        if isinstance(value, list | BaseModel):
            out |= _labels(value)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_site_place_is_a_page_and_an_anchor_the_site_has(game: str) -> None:
    spec = loaded(game).spec
    pages = game_pages(RenderContext(spec, "en", str, str))
    anchors = {f"{game}/{name}.html": _labels(page) for name, page in pages.items()}
    found = places_of(game).places
    site = [p for places in found.values() for p in places if p.medium == "site"]
    assert site
    for place in site:
        # relative to the language's root: the same for any --base-url
        assert not place.file.startswith(("/", "http")), place
        assert place.file in anchors, place
        if place.part:
            assert place.part.removeprefix("#") in anchors[place.file], place


def test_a_rule_is_met_at_its_permalink_on_the_site_and_in_the_rulebook() -> None:
    rule = next(r for r in loaded("brink").spec.rules if r.rules).rules[0]
    anchor = "rule-" + rule.number.replace(".", "-")
    lines = comments(f"rules/{rule.number}/title", places_of("brink"))
    assert f"site: brink/rules.html#{anchor}" in lines
    assert f"print: rulebook-a4.pdf#{anchor}" in lines


def test_a_step_is_met_on_its_card_and_the_reference_card_each_with_a_budget() -> None:
    spec = loaded("brink").spec
    assert spec.publishing is not None
    assert spec.publishing.step_cards is not None
    seq = spec.publishing.step_cards.sequences[0]
    lines = comments(f"sequences/{seq}/steps/1/text", places_of("brink"))
    card = f"print: cards-poker.pdf, card '{seq} step 1'"
    reference = "print: reference-a5.pdf, front"
    assert card in lines
    assert reference in lines
    # each print place is followed by its budget there
    assert lines[lines.index(card) + 1].startswith("budget: 14 lines of 50.8 mm at 8.5 pt")
    assert lines[lines.index(reference) + 1].startswith("budget: ")


def test_a_text_shown_nowhere_says_so_and_a_text_shown_often_is_summed_up() -> None:
    found = places_of("brink")
    nowhere = [c for c, p in found.places.items() if not p]
    assert nowhere
    assert comments(nowhere[0], found) == [NOWHERE]
    busiest = max(found.places, key=lambda c: len(found.places[c]))
    lines = comments(busiest, found)
    assert len(lines) < len(found.places[busiest])
    assert any("more places" in line for line in lines)


def test_hidden_and_metadata_text_is_no_place() -> None:
    """The game's title is in every PDF's metadata and slug line; readers see it on the faces."""
    title = places_of("brink").places["game/title"]
    assert all(not {"head", "p.slug"} & set(p.chain) for p in title)
    assert Place("print", "reference-a5.pdf", "front") in [
        Place(p.medium, p.file, p.part) for p in title
    ]


@pytest.mark.parametrize("game", TEMPLATED)  # an English-only game may have none yet
def test_the_committed_template_carries_the_places(game: str) -> None:
    with (LOCALES / f"{game}.pot").open("rb") as f:
        template = read_po(f)
    found = places_of(game)
    for message in template:
        if message.id and message.context:
            expected = comments(message.context, found)
            assert message.auto_comments[-len(expected) :] == expected, message.context


def test_places_come_from_the_writers_without_sphinx_or_weasyprint() -> None:
    """The templates' places are worked out with neither Sphinx nor WeasyPrint loaded."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from rulepress.i18n.extract import spec_template\n"
        "from rulepress.print.budget_check import add_places\n"
        "catalog = spec_template(Path('.'), Path('rules_spec/brink'), places=add_places)\n"
        "assert any(m.auto_comments and 'site: brink/' in m.auto_comments[-1] for m in catalog)\n"
        "banned = ('sphinx', 'weasyprint', 'click')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in banned))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == "[]"
