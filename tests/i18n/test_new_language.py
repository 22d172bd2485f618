"""Adding a language, step by step: catalogs and an empty termbase to fill in.

A translator lists the language in ``game.languages`` and runs ``rulepress i18n
update``. That writes the language's catalogs and, beside the spec, a termbase
that loads as it is and holds every glossary term as a commented entry. The
translator then settles terms one by one; ``i18n check`` counts those still
missing. The build of the new language (a preview until it is complete enough)
is covered by tests/i18n/test_languages.py and the preview tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulepress.games.load import load_spec
from rulepress.i18n.termbase_file import skeleton
from tests.conftest import edit, loaded, project_copy, run_main

GAME = "stationfall"


def _project(tmp_path: Path) -> Path:
    # the game alone: every i18n command reads every game of the project
    return project_copy(tmp_path / "project", (GAME,))


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_adding_a_language_writes_its_catalogs_and_an_empty_termbase(tmp_path: Path) -> None:
    work = _project(tmp_path)
    game_dir = work / "rules_spec" / GAME
    edit(game_dir / "game.yaml", "  languages: [", "  languages: [de, ")

    updated = run_main("i18n", "update", cwd=work)
    assert updated.code == 0, updated.err
    termbase = game_dir / "termbase.de.yaml"
    assert {p.stem for p in work.glob("locales/de/LC_MESSAGES/*.po")} == {
        GAME,
        "rulepress",
        "theme",
    }
    assert termbase.is_file()
    text = termbase.read_text(encoding="utf-8")
    glossary = loaded(GAME).spec.glossary
    for term in glossary:  # every term waits in it, with its English name
        assert f"    # {term.id}:\n" in text
        assert f"    # English: {term.term}\n" in text or f"English: '{term.term}'" in text
    # the spec loads with it: an empty German termbase
    spec = load_spec(game_dir).spec
    assert spec.termbase["de"].terms == {}

    # a second update, and the CI check, find nothing to do; the termbase is the translator's
    termbase.write_text(text.replace("#   term: ''", "#   term: ''  "), encoding="utf-8")
    mine = termbase.read_bytes()
    again = run_main("i18n", "update", cwd=work)
    assert again.code == 0, again.err
    assert termbase.read_bytes() == mine
    assert run_main("i18n", "update", "--check", cwd=work).code == 0

    # every term is missing until settled; settling one leaves one fewer
    check = run_main("i18n", "check", "--domain", GAME, cwd=work)
    assert f"the de termbase lacks {len(glossary)} term(s)" in check.err + check.out
    first = glossary[0]
    settled = text.replace(
        f"    # {first.id}:\n    #   term: ''\n    #   forms: []\n",
        f"    {first.id}:\n      term: Stationsabsturz\n",
    )
    assert settled != text
    termbase.write_text(settled, encoding="utf-8")
    assert load_spec(game_dir).spec.termbase["de"].terms[first.id].term == "Stationsabsturz"
    check = run_main("i18n", "check", "--domain", GAME, cwd=work)
    assert f"the de termbase lacks {len(glossary) - 1} term(s)" in check.err + check.out


def test_an_existing_termbase_is_never_replaced(tmp_path: Path) -> None:
    work = _project(tmp_path)
    game_dir = work / "rules_spec" / GAME
    mine = b"termbase:\n  de:\n    vocabulary: {}\n"
    (game_dir / "termbase.de.yaml").write_bytes(mine)
    edit(game_dir / "game.yaml", "  languages: [", "  languages: [de, ")
    assert run_main("i18n", "update", cwd=work).code == 0
    assert (game_dir / "termbase.de.yaml").read_bytes() == mine


def test_glossary_text_cannot_leave_the_comments(tmp_path: Path) -> None:
    """The glossary is untrusted: a definition that tries to add an entry stays a comment."""
    work = _project(tmp_path)
    game_dir = work / "rules_spec" / GAME
    first = loaded(GAME).spec.glossary[0]
    edit(
        game_dir / "glossary.yaml",
        f"term: {first.term}\n",
        f'term: "{first.term}\\n    stationfall:\\n      term: injected\\nvocabulary: x"\n',
    )
    data = yaml.safe_load(skeleton(game_dir, "de"))
    assert data == {"termbase": {"de": {"vocabulary": {}}}}
