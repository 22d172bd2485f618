"""Editorial rules for the games this repository publishes, not rules of rulepress.

rulepress takes any game whose spec validates (a new game needs one worked
example, and lists the languages it is published in). The two games shipped
in ``rules_spec/`` are held to the editors' own standard on top of that.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GAME_LANGUAGES, GAMES, loaded

#: The one list of game names in the tests: the games whose editorial rules these
#: are. Every other test parametrizes over the games found in rules_spec/ (GAMES).
OUR_GAMES = ("brink", "stationfall")


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_have_at_least_ten_worked_examples(game: str) -> None:
    assert game in GAMES, f"{game} is no longer in rules_spec/: update OUR_GAMES"
    assert len(loaded(game).spec.examples) >= 10


def test_brinks_rulings_quote_the_rulebook_and_its_audit_is_up_to_date() -> None:
    """Each Brink ruling weighs the rulebook's own words, and nothing is due for audit.

    The record of the audit (audit.yaml) names every entry as it was read and every
    reading of the rulebook a ruling must offer: an entry changed since, or a ruling
    that drops a reading's option, is a finding.
    """
    from rulepress.games.provenance_report import audit_report

    spec = loaded("brink").spec
    assert [r.id for r in spec.rulings if not r.says] == []
    assert audit_report(spec)["findings"] == []


# ------------------------------------------------ provenance: our games are made from documents


@pytest.mark.parametrize("game", OUR_GAMES)
def test_every_entry_of_our_games_names_its_source(game: str) -> None:
    """Every rule, step, parameter, table row and glossary entry names the lines of a source
    document, the rulings that settle it, or the table-state fields that supply it.

    rulepress takes a game without sources (a designer's own); ours are made from
    rulebooks, and the editors hold every entry to the document.
    """
    from rulepress.checks.sources import entries

    spec = loaded(game).spec
    assert spec.sources, "our games are made from documents, and list them"
    listed = list(entries(spec))
    assert [what for _, what, source in listed if source is None] == []
    # every kind of entry is among them, so none is skipped by the walk
    kinds = {what.split(" ")[0] for _, what, _ in listed}
    assert kinds >= {"rule", "step", "parameter", "row", "glossary"}
    lines = {doc.id: doc.lines for doc in spec.sources}
    for _, what, source in listed:
        assert source is not None
        for _first, last in source.ranges():
            assert source.document is not None
            assert last <= lines[source.document], what


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_ship_the_documents_they_were_made_from(game: str) -> None:
    assert [d.id for d in loaded(game).spec.sources if d.file is not None]


#: the language each of our games' rulings quote: Stationfall's Czech endgame card,
#: Brink's Japanese rulebook
QUOTED_IN = {"stationfall": "cs", "brink": "ja"}


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_rulings_quote_their_source_in_its_language(game: str) -> None:
    spec = loaded(game).spec
    assert any(r.says for r in spec.rulings), "our games' rulings quote a source"
    languages = {doc.id: doc.language for doc in spec.sources}
    assert {languages[p.document] for r in spec.rulings for p in r.says} == {QUOTED_IN[game]}


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_rule_on_a_rule_a_step_a_parameter_and_a_term(game: str) -> None:
    """The editors' list of ruled entries (the Sources page) has each of these kinds."""
    from rulepress.render.context import RenderContext
    from rulepress.render.source_entries import source_entries

    ctx = RenderContext(loaded(game).spec, "en", str, str)
    ruled = {
        kind
        for kind, listed in source_entries(ctx).items()
        if any(e.source.kind == "inferred" for e in listed)
    }
    assert {"rule", "step", "parameter", "term"} <= ruled


def test_brinks_missing_values_are_named_as_table_state_inputs() -> None:
    """Values the scorer needs but Brink's rulebook lacks are named, on the page of what
    the source lacks, as the table-state fields that supply them."""
    from rulepress.render import tree
    from rulepress.render.context import RenderContext
    from rulepress.render.pages import game_pages
    from tests.site.test_pages import _nodes

    page = game_pages(RenderContext(loaded("brink").spec, "en", str, str))["not-in-source"]
    words = "".join(t.text for t in _nodes(page) if isinstance(t, tree.Text))
    assert "From the table state: Council track" in words
    assert "From the table state: Left in the common supply" in words


def test_stationfalls_rulebook_lists_its_agenda_step_in_the_contents() -> None:
    from rulepress.render import print_trees, print_writer
    from rulepress.render.context import RenderContext

    ctx = RenderContext(loaded("stationfall").spec, "en", str, str)
    markup = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
    assert '<span class="n">4a. Agenda (Stationfall and Scoring)</span>' in markup


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_cite_their_shipped_documents_over_forty_times(game: str) -> None:
    from rulepress.checks.sources import entries

    spec = loaded(game).spec
    shipped = {d.id for d in spec.sources if d.file is not None}
    cited = [what for _, what, s in entries(spec) if s is not None and s.document in shipped]
    assert len(cited) > 40


@pytest.mark.parametrize("lang", GAME_LANGUAGES["brink"])
def test_brinks_sources_page_gives_its_rounds_as_a_sentence(
    built_site: tuple[Any, object], lang: str
) -> None:
    """Brink's parameter "rounds", on its Sources page in each of its languages."""
    from tests.site.conftest import page
    from tests.site.test_reader_words import ROUNDS, _text

    assert ROUNDS[lang] in _text(page(built_site[0], lang, "brink", "sources"))


def test_every_sequence_of_our_games_with_a_winner_has_a_way_to_give_points() -> None:
    """The property that the leader stays ahead with more points runs on each of them."""
    from tests.properties.test_scoring_properties import MORE_POINTS, sequences_with_a_winner

    ours = {(game, seq) for game, seq in sequences_with_a_winner() if game in OUR_GAMES}
    assert ours == set(MORE_POINTS)


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_state_their_copyright(game: str) -> None:
    """Shown in every page's footer (tests/site/test_site_build.py); a designer's may state none."""
    assert loaded(game).spec.game.copyright
