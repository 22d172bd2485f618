"""Page trees without Sphinx: long pages open with their chapters, every tie rule is on the scoring page."""

from __future__ import annotations

from typing import Any

import pytest

from rulepress.model.spec_model import Spec, all_steps
from rulepress.render import tree
from rulepress.render.contents import CONTENTS_LABEL, LONG_PAGE_CHAPTERS, chapters
from rulepress.render.context import RenderContext
from rulepress.render.markup import rule_label, ruling_label
from rulepress.render.pages import game_pages
from tests.conftest import GAMES, loaded
from tests.site.test_pages import _nodes


def _pages(spec: Spec) -> dict[str, tree.Page]:
    return game_pages(RenderContext(spec, "en", str, str))


@pytest.mark.parametrize("game", GAMES)
def test_every_long_page_opens_with_a_contents_list_of_its_chapters(game: str) -> None:
    pages = _pages(loaded(game).spec)
    long_pages = []
    for name, page in pages.items():
        found = chapters(page)
        listed = [n for n in _nodes(page) if isinstance(n, tree.Contents)]
        if len(found) < LONG_PAGE_CHAPTERS:
            assert listed == [], name
            continue
        long_pages.append(name)
        # one list, first under the page's heading, naming every chapter in order
        assert len(listed) == 1, name
        top = page.blocks[0]
        assert isinstance(top, tree.Section)
        assert top.children[0] == listed[0], name
        assert listed[0].label == CONTENTS_LABEL
        assert [e.label for e in listed[0].entries] == [c.label for c in found], name
        assert None not in [c.label for c in found]
        assert [tree.plain_text(e.title) for e in listed[0].entries] == [
            tree.plain_text(c.title) for c in found
        ]
    # the rules page is the long page the issue is about, in every game
    assert "rules" in long_pages


def _ties_sections(page: tree.Page) -> dict[str, tree.Section]:
    return {
        n.label: n
        for n in _nodes(page)
        if isinstance(n, tree.Section) and n.label.startswith(("ties-", "tiebreak-"))
    }


@pytest.mark.parametrize("game", GAMES)
def test_the_scoring_page_has_the_tie_rules_of_every_vote_and_every_winner(game: str) -> None:
    spec = loaded(game).spec
    sections = _ties_sections(_pages(spec)["scoring"])
    wanted: list[str] = []
    for seq in spec.sequences:
        for step in all_steps(seq.steps):
            number = step.number.lower()
            if step.tally is not None:
                label = f"ties-{seq.id}-{number}"
                wanted.append(label)
                refs = {n.label for n in _nodes(sections[label]) if isinstance(n, tree.Ref)}
                # the rules that break its ties, and the rulings on how, are cited and linked
                assert {rule_label(r) for r in step.tally.tie_rules} <= refs
                assert {ruling_label(r) for r in step.tally.tie_rulings} <= refs
            if step.winners is not None:
                label = f"tiebreak-{seq.id}-{number}"
                wanted.append(label)
                order = [n for n in _nodes(sections[label]) if isinstance(n, tree.TieBreakOrder)]
                assert len(order) == 1
                assert len(order[0].criteria) == len(step.winners.criteria)
    # every tie rule the spec has, and no section of ties it does not have
    assert sorted(sections) == sorted(wanted)
    assert wanted


def test_a_vote_without_a_tie_order_lists_its_candidates_in_the_spec_order() -> None:
    """Built from the spec, not a hand list: a changed vote changes the page."""
    spec = loaded("brink").spec
    seq = next(s for s in spec.sequences if any(st.tally for st in all_steps(s.steps)))
    step = next(st for st in seq.steps if st.tally is not None)
    assert step.tally is not None
    candidates = {"red": "Red faction", "blue": "Blue faction", "gold": "Gold faction"}
    tally = step.tally.model_copy(update={"tie_order": None, "candidates": candidates})
    changed_step = step.model_copy(update={"tally": tally})
    steps = [changed_step if s is step else s for s in seq.steps]
    changed_seq = seq.model_copy(update={"steps": steps})
    sequences = [changed_seq if s is seq else s for s in spec.sequences]
    changed = spec.model_copy(update={"sequences": sequences})
    section = _ties_sections(_pages(changed)["scoring"])[f"ties-{seq.id}-{step.number.lower()}"]
    order = [n for n in _nodes(section) if isinstance(n, tree.TieBreakOrder)]
    assert [tree.plain_text(c) for c in order[0].criteria] == list(candidates.values())
    # the spec's own vote reads its order from the table: no list, the rules say how
    original = _ties_sections(_pages(spec)["scoring"])[f"ties-{seq.id}-{step.number.lower()}"]
    assert not [n for n in _nodes(original) if isinstance(n, tree.TieBreakOrder)]


def test_a_vote_without_a_tie_order_ranks_its_ties_in_the_order_of_its_candidates() -> None:
    # Brink reads its tie order from the table; a designer's vote may have none, and
    # then the page lists the candidates, in the order the spec gives them
    data = loaded("brink").spec.model_dump()
    dropped = []

    def drop(steps: list[dict[str, Any]]) -> None:
        for step in steps:
            if step.get("tally") and step["tally"].get("tie_order"):
                step["tally"]["tie_order"] = None
                dropped.append(step["tally"]["id"])
            drop(step.get("steps") or [])

    for seq in data["sequences"]:
        drop(seq["steps"])
    assert dropped
    spec = Spec.model_validate(data)
    sections = _ties_sections(_pages(spec)["scoring"])
    votes = [s for label, s in sections.items() if label.startswith("ties-")]
    tallies = [
        step.tally
        for seq in spec.sequences
        for step in all_steps(seq.steps)
        if step.tally is not None and step.tally.id in dropped
    ]
    assert len(votes) == len(tallies) == len(dropped)
    for section, tally in zip(votes, tallies, strict=True):
        text = tree.plain_text(
            [i for n in _nodes(section) if isinstance(n, tree.Paragraph) for i in n.children]
        )
        assert "Tied candidates rank in this order" in text
        assert "top Rider card" not in text  # the table's order is not the page's
        (order,) = [n for n in _nodes(section) if isinstance(n, tree.TieBreakOrder)]
        # the labels as the vocabulary gives them ("sets.factions"), in its order
        wanted = list(tally.candidates.values())
        assert len(wanted) > 1
        assert [tree.plain_text(c) for c in order.criteria] == wanted
