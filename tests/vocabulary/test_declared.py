"""Expressions written as declarations: a value per ruling option, or cases in order.

They replace nested conditionals (Brink's longest expressions); each part is
checked where it is written, and a value per option must answer every option
of its ruling. Cases run on a copy of the third fixture game, whose worked
examples (one under the other ruling) must still come out as stated.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulepress.games import load_spec
from rulepress.model.declared import Declared
from rulepress.model.spec_model import Spec
from rulepress.scoring.examples import check_examples
from tests.conftest import DATA, edit, run_main

GAME = DATA / "specs" / "harbour"
TIES = "            ties: ruling.harbour_ties\n"
BY_RULING = """            ties:
              by_ruling: harbour_ties
              split: "'split'"
              worst: "'worst'"
"""
PRESENCE = "            presence: get(rival.ships, area)\n"
CASES = """            presence:
              - when: rival.reserve > param.fleet_size
                value: "0"
              - value: get(rival.ships, area)
"""


def copy_of(tmp_path: Path) -> Path:
    target = tmp_path / "rules_spec" / "harbour"
    shutil.copytree(GAME, target)
    return target


def test_declarations_score_as_the_expressions_they_replace(tmp_path: Path) -> None:
    game = copy_of(tmp_path)
    edit(game / "sequence.yaml", TIES, BY_RULING)
    edit(game / "sequence.yaml", PRESENCE, CASES)
    loaded = load_spec(game)
    assert check_examples(loaded) == []  # the examples of both rulings still hold
    comp = loaded.spec.sequences[0].steps[0].score
    assert comp is not None
    ties = comp.component.ties  # type: ignore[union-attr]
    assert isinstance(ties, Declared)
    assert ties == "('split') if ruling.harbour_ties == 'split' else ('worst')"
    # a spec rebuilt from its dump (as a translated one is) keeps the expression
    rebuilt = Spec.model_validate(loaded.spec.model_dump())
    assert rebuilt.sequences[0].steps[0].score.component.ties == ties  # type: ignore[union-attr]


BAD = [
    (
        "an-option-left-out",
        [(TIES, BY_RULING.replace("""              worst: "'worst'"\n""", ""))],
        "rules_spec/harbour/sequence.yaml:24:26: sequences[0].steps[0].score.component.ties"
        ".by_ruling: no value for the option(s) worst of harbour_ties",
    ),
    (
        "an-option-the-ruling-lacks",
        [(TIES, BY_RULING.replace("worst:", "lowest:"))],
        "rules_spec/harbour/sequence.yaml:26:15: sequences[0].steps[0].score.component.ties"
        ".lowest: harbour_ties has no option 'lowest' (options: split, worst)",
    ),
    (
        "a-ruling-that-does-not-exist",
        [(TIES, BY_RULING.replace("by_ruling: harbour_ties", "by_ruling: harbor_ties"))],
        "rules_spec/harbour/sequence.yaml:24:26: sequences[0].steps[0].score.component.ties"
        ".by_ruling: no ruling 'harbor_ties' (rulings: harbour_ties)",
    ),
    (
        "a-part-that-reads-an-unknown-name",
        [(PRESENCE, CASES.replace("get(rival.ships, area)", "get(rivals.ships, area)"))],
        "rules_spec/harbour/sequence.yaml:24:24: sequences[0].steps[0].score.component.presence"
        "[1].value: unknown name(s) rivals in 'get(rivals.ships, area)'",
    ),
    (
        "the-last-case-has-a-test",
        [
            (
                PRESENCE,
                CASES.replace(
                    "              - value: get",
                    "              - when: 'True'\n                value: get",
                ),
            )
        ],
        "rules_spec/harbour/sequence.yaml:22:15: sequences[0].steps[0].score.component.presence:"
        " every case but the last has a 'when'; the last has none (the value otherwise)",
    ),
]


@pytest.mark.parametrize(("edits", "expected"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_wrong_declaration_is_located(
    edits: list[tuple[str, str]], expected: str, tmp_path: Path
) -> None:
    game = copy_of(tmp_path)
    for old, new in edits:
        edit(game / "sequence.yaml", old, new)
    result = run_main("validate", "rules_spec/harbour", cwd=tmp_path)
    assert result.code == 3, result.err
    assert "Traceback" not in result.err
    assert expected in result.err.splitlines(), result.err
