"""State-format constraints per member: each failing member located, checked at load, bounded.

The game is a copy of tests/data/specs/tiny with two fields added (a list of
cards, gems by colour) and the constraints each test writes; states are
checked with ``validate_state``, as the scorer and ``rulepress validate`` do.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import SpecError
from rulepress.expressions.expression import MAX_STEPS, Steps, parse
from rulepress.games.load import load_spec
from rulepress.model.loaded import LoadedSpec
from rulepress.states.validation import validate_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import DATA

FIELDS = """\
        cards:
          type: list
          max: 200
          default: []
          description: The player's cards.
          item:
            type: record
            description: One card.
            fields:
              suit: {type: choice, choices: [red, blue], description: Its suit.}
              value: {type: int, min: 0, max: 20, description: Its value.}
        gems:
          type: record
          default: {}
          description: Gems by colour.
          fields:
            red: {type: int, min: 0, max: 9, default: 0, description: Red gems.}
            blue: {type: int, min: 0, max: 9, default: 0, description: Blue gems.}
        spent:
          type: record
          default: {}
          description: Gems spent, by colour.
          fields:
            red: {type: int, min: 0, max: 9, default: 0, description: Red gems spent.}
            blue: {type: int, min: 0, max: 9, default: 0, description: Blue gems spent.}
"""

#: a constraint per set member (let, the member in the message and in field) and one
#: per list member (its place in the list)
CONSTRAINTS = """\
      constraints:
        - items: sets.colours
          item: gem
          let:
            paid: get(spent, gem)
            held: get(gems, gem)
          test: paid <= held
          field: spent.{gem}
          message: spends {paid} {gem} gem(s) but holds only {held}
        - items: cards
          item: card
          test: card.value <= 10 or card.suit == 'red'
          field: cards.{card}
          message: a {suit} card is worth at most 10, not {value}
          args: {suit: card.suit, value: card.value}
"""


def game(tmp_path: Path, constraints: str = CONSTRAINTS) -> Path:
    target = tmp_path / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", target)
    state = target / "state.yaml"
    text = state.read_text(encoding="utf-8")
    marker = "      fields:\n"
    assert text.count(marker) == 1
    state.write_text(text.replace(marker, marker + FIELDS) + constraints, encoding="utf-8")
    with (target / "game.yaml").open("a", encoding="utf-8") as f:
        f.write("\nsets:\n  colours: [red, blue]\n")
    return target


def problems(loaded: LoadedSpec, players: list[dict[str, Any]]) -> list[tuple[str, str]]:
    spec = loaded.spec
    fmt = spec.table_states["tiny-table"]
    state = {"players": players}
    _, found = validate_state(fmt, spec.parameters, state, SourceMap(), sets=spec.sets)
    return [(p.where, p.message) for p in found]


def player(**fields: Any) -> dict[str, Any]:
    return {"id": "ada", "points": 1, "times": 1, **fields}


def test_each_failing_member_is_its_own_problem_at_its_own_place(tmp_path: Path) -> None:
    loaded = load_spec(game(tmp_path))
    ada = player(
        gems={"red": 1, "blue": 0},
        spent={"red": 3, "blue": 2},
        cards=[
            {"suit": "blue", "value": 12},
            {"suit": "red", "value": 15},
            {"suit": "blue", "value": 11},
        ],
    )
    assert problems(loaded, [ada]) == [
        ("players[0].spent.red", "spends 3 red gem(s) but holds only 1"),
        ("players[0].spent.blue", "spends 2 blue gem(s) but holds only 0"),
        ("players[0].cards[0]", "a blue card is worth at most 10, not 12"),
        ("players[0].cards[2]", "a blue card is worth at most 10, not 11"),
    ]
    fine = player(gems={"red": 2}, spent={"red": 2}, cards=[{"suit": "red", "value": 15}])
    assert problems(loaded, [fine]) == []


def test_a_member_that_cannot_be_evaluated_does_not_hide_the_others(tmp_path: Path) -> None:
    """A card whose value failed its own check is skipped; the next card is still asked."""
    loaded = load_spec(game(tmp_path))
    ada = player(cards=[{"suit": "blue", "value": "twelve"}, {"suit": "blue", "value": 13}])
    found = problems(loaded, [ada])
    assert ("players[0].cards[1]", "a blue card is worth at most 10, not 13") in found
    assert [where for where, _ in found].count("players[0].cards[0]") == 0
    assert any(where == "players[0].cards[0].value" for where, _ in found)


def test_a_constraint_shares_one_step_budget_over_its_members(tmp_path: Path) -> None:
    """200 cards x a test that loops over 600 cards: 120,000 steps, past the one budget.

    Each member alone is far below MAX_STEPS: given a fresh budget per member,
    the state would be accepted unchecked.
    """
    heavy = """\
      constraints:
        - items: cards
          item: card
          test: sum(1 for c in cards) + sum(1 for c in cards) + sum(1 for c in cards) >= 0
          field: cards
          message: never fails
"""
    loaded = load_spec(game(tmp_path, heavy))
    ada = player(cards=[{"suit": "red", "value": 1}] * 200)
    assert 200 * 600 > MAX_STEPS > 600
    assert problems(loaded, [ada]) == [
        (
            "players[0].cards",
            "the state format's check 'sum(1 for c in cards) + sum(1 for c in cards) + sum(1"
            " for c in cards) >= 0' went past a bound of the expression language (more than"
            f" {MAX_STEPS} evaluation steps)",
        )
    ]


def test_within_takes_its_steps_from_the_shared_budget() -> None:
    loop, plain = parse("sum(x for x in xs)"), parse("a + 1")
    steps = Steps(50)
    assert loop.within({"xs": [1, 2, 3]}, steps) == 6
    spent = 50 - steps.left
    assert spent > 0
    assert plain.within({"a": 1}, steps) == 2
    assert steps.left == 50 - spent - 1
    with pytest.raises(ValueError, match="evaluation steps"):
        loop.within({"xs": list(range(100))}, steps)


BAD = """\
      constraints:
        - items: gems
          item: points
          let:
            sum: get(gems, points)
            held: get(gems, colr)
          test: held >= 0
          field: spnt.{gem}
          message: has {held} {points} and {unknown}
          args: {held: held}
        - test: "True"
          item: x
          field: gems.{x}
          message: never fails
"""


def test_the_spec_check_locates_each_mistake(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        load_spec(game(tmp_path, BAD))
    base = "table_states.tiny-table.players.constraints"
    mine = [p for p in caught.value.problems if p.where.startswith(base)]
    # each at its line: a let's name where it is written, the others at their values
    lines = (tmp_path / "tiny" / "state.yaml").read_text(encoding="utf-8").splitlines()
    at = {p.where: (p.location.line, p.location.column) for p in mine}
    assert lines[at[f"{base}[0].let.sum"][0] - 1].strip() == "sum: get(gems, points)"
    assert at[f"{base}[0].let.sum"][1] == 13
    assert lines[at[f"{base}[0].field"][0] - 1].strip() == "field: spnt.{gem}"
    got = [(p.where, p.message) for p in mine]
    assert got == [
        (
            f"{base}[0].items",
            "the members must be a list, and 'gems' is a record field",
        ),
        (
            f"{base}[0].item",
            "the member's name 'points' is already a name here (a field, a function, or one"
            " rulepress gives); choose another",
        ),
        (
            f"{base}[0].let.sum",
            "let 'sum' is already a name here (a field, the member, a function, or one"
            " rulepress gives); choose another",
        ),
        (f"{base}[0].let.held", "unknown name(s) colr in 'get(gems, colr)'"),
        (
            f"{base}[0].field",
            "'spnt' is not a field of this record (fields: cards, colour, gems, id, name,"
            " points, spent, times)",
        ),
        (
            f"{base}[0].message",
            "unknown placeholder {unknown} (allowed: held, points, sum)",
        ),
        (
            f"{base}[0].args.held",
            "the message already shows {held} (a let name or the member); drop the arg",
        ),
        (f"{base}[1].item", "'item' names the members of 'items', which is not given"),
        (
            f"{base}[1].field",
            "{x} in 'field' must be the member's name in braces (none, without 'items')",
        ),
    ]
