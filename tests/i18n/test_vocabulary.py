"""Checked vocabulary: the termbase's ``vocabulary:`` section and the QA warning it drives.

The exact output on bad catalogs is in tests/data/bad_catalogs/*.vocabulary-*.po
(tests/i18n/test_bad_catalogs.py); these tests pin the parts around it: the
section is loaded with located errors, variants match as whole words (wide
characters inside a run, capitals as written), QA reports them as warnings,
and the committed catalogs use none of them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulepress.errors import SpecError
from rulepress.games.load import load_spec
from rulepress.i18n.catalogs import find_catalog
from rulepress.i18n.qa import Terms, check_file
from rulepress.i18n.terms import CheckedTerms, terms_for
from rulepress.i18n.vocabulary import Vocabulary
from rulepress.model.spec_model import VocabularyEntry
from tests.conftest import DATA, LOCALES, SPEC_ROOT, TRANSLATED, TRANSLATIONS, edit


def _vocabulary(**entries: dict[str, object]) -> Vocabulary:
    return Vocabulary.of({k: VocabularyEntry.model_validate(v) for k, v in entries.items()})


def test_czech_variants_match_whole_inflected_words() -> None:
    vocab = _vocabulary(tie={"term": "remíza", "avoid": ["shoda", "shodu", "shodou"]})
    assert vocab.flagged("Rozhodne shodu.") == [
        "'shodu' is not the approved word for 'tie': use 'remíza'"
    ]
    # the adjective shares the stem but is another word
    assert vocab.flagged("Hráči se shodným počtem bodů; remíza trvá.") == []


def test_wide_characters_match_inside_text_and_capitals_as_written() -> None:
    vocab = _vocabulary(
        default={"term": "既定", "avoid": ["標準"]},
        TURN={"term": "TURN", "avoid": ["TAH"]},
    )
    assert vocab.flagged("しかし標準の裁定では") == [
        "'標準' is not the approved word for 'default': use '既定'"
    ]
    assert vocab.flagged("během svého tahu, Tah hráče") == []
    assert vocab.flagged("Karty TAH") == ["'TAH' is not the approved word for 'TURN': use 'TURN'"]


def test_placeholders_are_not_words_but_link_words_are() -> None:
    vocab = _vocabulary(space={"term": "políčko", "avoid": ["pole"]})
    assert vocab.flagged("{param:pole} a {rule:1.2}") == []
    assert vocab.flagged("[pole](term:pole)") == [
        "'pole' is not the approved word for 'space': use 'políčko'"
    ]


def test_qa_reports_a_variant_as_a_located_warning(tmp_path: Path) -> None:
    po = tmp_path / "stationfall.po"
    po.write_text(
        (DATA / "bad_catalogs" / "stationfall.vocabulary-cs.po").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    terms, _ = terms_for(SPEC_ROOT, "stationfall", "cs")
    assert isinstance(terms, CheckedTerms)
    findings = check_file(po, None, terms)
    tie = [f for f in findings if "approved word for 'tie'" in f.message]
    assert tie
    assert all(not f.error and not f.safety for f in tie)
    assert {f.line for f in tie} == {8, 12, 20, 28}
    # terms built without a vocabulary check nothing
    plain = Terms(terms.english, terms.approved)
    assert not [f for f in check_file(po, None, plain) if "approved word" in f.message]


def test_the_interface_gets_the_vocabulary_every_game_shares() -> None:
    terms, _ = terms_for(SPEC_ROOT, "rulepress", "cs")
    assert isinstance(terms, CheckedTerms)
    shared = {rule.english for rule in terms.vocabulary.rules}
    assert "tie" in shared
    assert "board" not in shared  # Brink's only


def test_a_game_in_english_only_leaves_the_shared_vocabulary_as_it_is(spec_copy: Path) -> None:
    """A designer's game that is not published in Czech has no Czech pages: the words our
    games share in Czech still apply to the interface's Czech sentences."""
    # the fixture's own copy, whether or not the spec root has a game of that name already
    shutil.rmtree(spec_copy / "tidewater", ignore_errors=True)
    shutil.copytree(DATA / "specs" / "tidewater", spec_copy / "tidewater")
    terms, _ = terms_for(spec_copy, "rulepress", "cs")
    assert isinstance(terms, CheckedTerms)
    assert "tie" in {rule.english for rule in terms.vocabulary.rules}


@pytest.mark.parametrize(
    ("domain", "lang"), [*TRANSLATED, *(("rulepress", lang) for lang in TRANSLATIONS)]
)
def test_committed_catalogs_use_no_avoided_variant(domain: str, lang: str) -> None:
    path = find_catalog(LOCALES, lang, domain)  # rulepress: the package's
    terms, _ = terms_for(SPEC_ROOT, domain, lang)
    assert isinstance(terms, CheckedTerms)
    with path.open("rb") as f:
        catalog = read_po(f)
    found = []
    for msg in catalog:
        strings = msg.string if isinstance(msg.string, tuple | list) else [msg.string]
        for string in strings:
            found += [f"{msg.lineno}: {m}" for m in terms.vocabulary.flagged(string or "")]
    assert found == []


def test_an_avoided_variant_that_is_also_approved_is_a_located_error(spec_copy: Path) -> None:
    termbase = spec_copy / "stationfall" / "termbase.cs.yaml"
    edit(termbase, "avoid: [lokace,", "avoid: [místě, lokace,")
    with pytest.raises(SpecError) as raised:
        load_spec(spec_copy / "stationfall")
    (problem,) = raised.value.problems
    assert problem.location.file == "rules_spec/stationfall/termbase.cs.yaml"
    assert problem.location.line > 1
    assert problem.where == "termbase.cs.vocabulary.location"
    assert "'místě' is both approved and avoided" in problem.message


def test_a_vocabulary_entry_needs_something_to_avoid(spec_copy: Path) -> None:
    termbase = spec_copy / "stationfall" / "termbase.cs.yaml"
    text = termbase.read_text(encoding="utf-8")
    start = text.index("        avoid: [lokace,")
    end = text.index("\n", start)
    termbase.write_text(text[:start] + "        avoid: []" + text[end:], encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        load_spec(spec_copy / "stationfall")
    (problem,) = raised.value.problems
    assert problem.where == "termbase.cs.vocabulary.location.avoid"
    assert problem.message == "must not be empty"
