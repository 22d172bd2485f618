"""The built site shows where each rule comes from, in every language (issue 17).

From the session's site build: every rules page carries one closed source
marker per rule, every step card, glossary definition and table one of its
own, the Sources page one per parameter, and every game has the pages
"Sources" and "Not in this edition's source" in each language it is
published in, with an anchor for every item the spec lists; the Sources
page's list of ruled entries links each ruled step to its card. On the rulings
page, each ruling quotes what the sources say, each quote marked with its
document's language for screen readers (issue 30).
"""

from __future__ import annotations

import html
import re

import pytest

from rulepress.model.spec_model import all_rules, all_steps
from rulepress.render.markup import ruling_label
from rulepress.render.source_entries import parameter_label, step_label
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import PUBLISHED, loaded
from tests.site.conftest import page


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_rule_has_a_closed_marker_and_the_source_pages_exist(
    site: SiteBuild, game: str, lang: str
) -> None:
    spec = loaded(game).spec
    rules = page(site, lang, game, "rules")
    markers = re.findall(r"<details[^>]*rp-source[^>]*>", rules)
    assert len(markers) == len([r for r in all_rules(spec.rules) if r.source is not None])
    assert not any(re.search(r"\bopen\b", m) for m in markers)
    # a game that names no source (a designer's own) has neither page
    folder = site.out / lang / game
    assert (folder / "sources.html").exists() == bool(spec.sources)
    assert (folder / "not-in-source.html").exists() == bool(spec.not_in_source)
    if not spec.sources:
        return
    missing = page(site, lang, game, "not-in-source")
    assert f'lang="{lang}"' in missing
    for item in spec.not_in_source:
        assert f'id="missing-{item.id}"' in missing
    sources = page(site, lang, game, "sources")
    assert 'id="source-documents"' in sources


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_step_term_table_and_parameter_has_its_marker_and_the_editors_list_links(
    site: SiteBuild, game: str, lang: str
) -> None:
    spec = loaded(game).spec
    steps = [(seq, step) for seq in spec.sequences for step in all_steps(seq.steps)]
    sequences = page(site, lang, game, "sequences")
    if not spec.sources:  # a game that names no source shows no marker on any page
        for name in ("sequences", "glossary", "scoring"):
            assert "rp-source" not in page(site, lang, game, name), name
        return
    assert len(re.findall(r"<details[^>]*rp-source", sequences)) == len(steps)
    for seq, step in steps:
        assert f'id="{step_label(seq, step)}"' in sequences
    glossary = page(site, lang, game, "glossary")
    assert len(re.findall(r"<details[^>]*rp-source", glossary)) == len(spec.glossary)
    scoring = page(site, lang, game, "scoring")
    tiebreaks = [s for _, s in steps if s.winners is not None]
    markers = len(re.findall(r"<details[^>]*rp-source", scoring))
    # and one under the table of card exceptions, which names each card's source
    assert markers == len(spec.tables) + len(tiebreaks) + (1 if spec.card_exceptions else 0)
    sources = page(site, lang, game, "sources")
    for name in spec.parameters:
        assert f'id="{parameter_label(name)}"' in sources
    assert len(re.findall(r"<details[^>]*rp-source", sources)) == len(spec.parameters)
    # the editors' list links each ruled step to its card on the sequences page
    assert 'id="ruled"' in sources
    ruled = [(q, s) for q, s in steps if s.source is not None and s.source.kind == "inferred"]
    for seq, step in ruled:
        assert f'href="sequences.html#{step_label(seq, step)}"' in sources


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_rulings_quotes_carry_their_language(site: SiteBuild, game: str, lang: str) -> None:
    """Each quote of a ruling's ``says`` is an element with ``lang`` of its document, in every
    language of the site: a screen reader reads the card's Czech as Czech on an English page."""
    spec = loaded(game).spec
    languages = {doc.id: doc.language for doc in spec.sources}
    quoted = [r for r in spec.rulings if r.says]
    if not quoted:  # a game without rulings, or whose rulings quote nothing
        return
    rulings = page(site, lang, game, "rulings")
    for ruling in quoted:
        start = rulings.index(f'id="{ruling_label(ruling.id)}"')
        end = rulings.find('id="ruling-', start + 1)
        section = rulings[start : end if end != -1 else len(rulings)]
        spans = re.findall(r'<span class="rp-quote" lang="([^"]+)">(.*?)</span>', section)
        shown = [(found, html.unescape(words)) for found, words in spans]
        expected = [(languages[p.document], q) for p in ruling.says for q in p.quotes()]
        assert shown == expected, ruling.id
