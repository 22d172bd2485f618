"""Every worked example in every spec: the scorer must reproduce what its text states.

Adding an example to a spec's YAML adds a case here, with the id
``<game>/<example-id>``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulepress.games import load_spec
from rulepress.scoring.examples import check_examples, mismatches, run_example
from tests.conftest import game_dirs, loaded

CASES = [
    (d.name, i, ex.id) for d in game_dirs() for i, ex in enumerate(loaded(d.name).spec.examples)
]


@pytest.mark.parametrize(
    ("game", "index", "example_id"), CASES, ids=[f"{g}/{e}" for g, _, e in CASES]
)
def test_example_result_matches_its_stated_result(game: str, index: int, example_id: str) -> None:
    spec = loaded(game)
    example = spec.spec.examples[index]
    result = run_example(spec, index)
    assert mismatches(example, result) == []
    # every line of every player cites at least one rule that the spec knows
    for player in result.players:
        for line in player.lines:
            assert line.rules


def test_each_game_has_a_worked_example() -> None:
    # rulepress asks one of any game (the scaffold writes it); how many more is the
    # editors' rule for the games of this repository (tests/test_our_games.py)
    for d in game_dirs():
        assert loaded(d.name).spec.examples, d.name


def test_a_wrong_stated_result_is_caught(spec_copy: Path) -> None:
    path = spec_copy / "stationfall" / "examples.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    first = data["examples"][0]
    player, facts = next(iter(first["expect"]["players"].items()))
    facts["total"] += 1
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    problems = check_examples(load_spec(spec_copy / "stationfall"))
    assert [p.message for p in problems] == [
        f"{player} total: the text states {facts['total']}, the scorer gives {facts['total'] - 1}"
    ]
    assert str(problems[0].location).startswith("rules_spec/stationfall/examples.yaml:")
    assert problems[0].where == f"examples[0] {first['id']}"
