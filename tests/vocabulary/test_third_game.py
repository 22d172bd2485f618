"""A third game of our own (tests/data/specs/harbour) that scores through its spec alone.

Harbourmasters needs area majorities (the ``majorities`` operation, ties by a
ruling), set collection (``sets``, without wild units) and a chain of four
tie-breaks; its lists of harbours and goods are named sets. Its worked
examples were worked out by hand (the sums are in their texts); here they run
through the scorer, ``rulepress validate`` and ``rulepress score --spec-root``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulepress.errors import SpecError, StateError
from rulepress.games import load_spec
from rulepress.operations.majorities import _tied_points
from rulepress.scoring.examples import mismatches, run_example
from tests.conftest import DATA, ROOT, edit, run_main

GAME = DATA / "specs" / "harbour"
HARBOUR = load_spec(GAME)
EXAMPLES = [ex.id for ex in HARBOUR.spec.examples]


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=EXAMPLES)
def test_each_worked_example_scores_as_its_text_says(index: int) -> None:
    assert mismatches(HARBOUR.spec.examples[index], run_example(HARBOUR, index)) == []


def test_the_examples_cover_every_decision_of_the_tie_break_chain() -> None:
    decided = {ex.expect.decided_by for ex in HARBOUR.spec.examples}
    criteria = next(s.winners for s in HARBOUR.spec.sequences[0].steps if s.winners)
    assert criteria is not None
    chain = [c.id for c in criteria.criteria]
    assert chain == ["most-points", "most-harbours-led", "most-goods", "most-reserve"]
    # every criterion but the harbours led decides one example, and one is shared
    assert decided == {"most-points", "most-goods", "most-reserve", "shared"}


def test_validate_runs_the_examples() -> None:
    result = run_main("validate", str(GAME))
    assert (result.code, result.err) == (0, "")
    assert result.out.endswith(": ok (6 examples checked)\n")


def test_score_finds_the_game_with_spec_root() -> None:
    result = run_main(
        "score", "harbour", "--example", "decided-by-reserve", "--spec-root", str(GAME.parent)
    )
    assert result.code == 0, result.err
    assert "4. Most ships in reserve: Ada 9, Bo 4. Ada wins." in result.out
    assert "East Harbour: place 1 with 2: 6" in result.out


def test_a_wrong_hand_computed_result_fails_validation(tmp_path: Path) -> None:
    copy = tmp_path / "harbour"
    shutil.copytree(GAME, copy)
    edit(
        copy / "examples.yaml",
        "cargo: 15, cargo.sets_of_5: 1, total: 27",
        "cargo: 15, cargo.sets_of_5: 1, total: 28",
    )
    result = run_main("validate", str(copy))
    assert result.code != 0
    assert "Bo total: the text states 28, the scorer gives 27" in result.err


def test_no_python_knows_the_game() -> None:
    """The game lands with no change to src/: nothing there names it or its words."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src").rglob("*.py"))
    for word in ("harbour", "Harbourmasters", "cargo", "fleet_size"):
        assert word not in sources


@pytest.mark.parametrize(
    ("rule", "covered", "each"),
    [
        ("split", [6, 3], 4),  # (6 + 3) / 2, rounded down
        ("split", [6, 3, 0], 3),
        ("best", [6, 3], 6),
        ("worst", [6, 3], 3),
        ("worst", [3, 0], 0),
        ("none", [6, 3], 0),
    ],
)
def test_tie_rules(rule: str, covered: list[int], each: int) -> None:
    assert _tied_points(rule, covered) == each


def test_a_tie_rule_no_operation_knows_is_a_spec_error_where_written(tmp_path: Path) -> None:
    copy = tmp_path / "harbour"
    shutil.copytree(GAME, copy)
    edit(copy / "sequence.yaml", "ties: ruling.harbour_ties", "ties: \"'share'\"")
    with pytest.raises(SpecError) as caught:
        load_spec(copy)  # the value is written: validate tells it, not the first tie scored
    (problem,) = caught.value.problems
    assert str(problem.location).endswith("sequence.yaml:23:19")
    assert problem.message == "'share' is none of split, best, worst, none"


def test_a_tie_rule_only_scoring_can_tell_is_a_located_state_error(tmp_path: Path) -> None:
    copy = tmp_path / "harbour"
    shutil.copytree(GAME, copy)
    # a text the expression computes: nothing about it is known before it runs
    edit(copy / "sequence.yaml", "ties: ruling.harbour_ties", "ties: \"'sh' + 'are'\"")
    loaded = load_spec(copy)
    with pytest.raises(StateError) as caught:
        run_example(loaded, 1)  # a tie in North and East
    (problem,) = caught.value.problems
    assert str(problem.location).endswith("sequence.yaml:9:9")
    assert "gave 'share', not a tie rule (split, best, worst, none)" in problem.message
