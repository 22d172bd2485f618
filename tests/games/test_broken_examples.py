"""A broken worked example is reported where it is written and stops only what uses it.

Each test breaks examples in a private copy of the real specs (``spec_copy``):
one whose table state does not fit its format (found by the spec check), one
that is malformed (found by the model), one whose expectation names a field
no step scores. ``validate`` must report each of them located, as before;
``score`` must still score every other example and any table state.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulepress.errors import SpecError
from rulepress.games import load_spec
from rulepress.scoring.examples import check_examples, run_example
from tests.conftest import edit, run_main

#: the first example of economy.yaml, which the files list first of Brink's examples
STATE_FAULT = ("cost: {faction: henko, amount: 5}", "cost: {faction: henko, amount: ten}")
#: a council example's rule list written as one string (the model refuses it)
MODEL_FAULT = (
    'rules: ["14.2.3", "14.4.5", "14.6", "15.1.5"]',
    'rules: "14.2.3"',
)
#: a council example stating a score no step gives (the spec check refuses it)
EXPECT_FAULT = ("Gwen: {council_prestige: 18}", "Gwen: {council_prestig: 18}")


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` that holds ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def break_three(brink: Path) -> None:
    edit(brink / "economy.yaml", *STATE_FAULT)
    edit(brink / "examples.yaml", *MODEL_FAULT)
    edit(brink / "examples.yaml", *EXPECT_FAULT)


def test_a_broken_example_still_stops_a_strict_load(spec_copy: Path) -> None:
    edit(spec_copy / "brink" / "economy.yaml", *STATE_FAULT)
    with pytest.raises(SpecError) as caught:
        load_spec(spec_copy / "brink")
    assert [p.where for p in caught.value.problems] == ["examples[0].state.players[0].cost.amount"]


def test_broken_examples_are_set_aside_located_and_the_rest_still_run(spec_copy: Path) -> None:
    brink = spec_copy / "brink"
    every = len(load_spec(brink).spec.examples)
    break_three(brink)
    loaded = load_spec(brink, isolate_examples=True)
    broken = loaded.broken_examples
    assert sorted(broken) == ["bill-bendo-cost", "council-sorelia-votes", "council-ua-negative"]
    ids = [ex.id for ex in loaded.spec.examples]
    assert len(ids) == every - 3
    assert not set(broken) & set(ids)
    # each problem names the example's place in the files, and its file, line and column
    (state,) = broken["bill-bendo-cost"]
    assert state.where == "examples[0].state.players[0].cost.amount"
    assert state.location.file.endswith("economy.yaml")
    assert state.location.line == line_of(brink / "economy.yaml", "amount: ten")
    (model,) = broken["council-ua-negative"]
    assert re.fullmatch(r"examples\[\d+\]\.rules", model.where)
    assert model.location.line == line_of(brink / "examples.yaml", 'rules: "14.2.3"')
    (expect,) = broken["council-sorelia-votes"]
    # the example after a malformed one keeps the index it has in the files
    index = int(model.where.split("[")[1].split("]")[0])
    assert expect.where == f"examples[{index + 1}].expect.players.Gwen.council_prestig"
    assert expect.location.line == line_of(brink / "examples.yaml", "council_prestig:")
    # every other example still scores as it states, read from where it is written
    assert check_examples(loaded) == []
    tie = ids.index("council-tie-order")
    result = run_example(loaded, tie)
    assert result.tallies[0].winners == ["komek", "ventus"]


@pytest.mark.parametrize(
    ("example_fault", "other_file", "other_fault", "other_where"),
    [
        # both found by the model
        (
            MODEL_FAULT,
            "sequences.yaml",
            ("title: Council Vote\n", "title: [Council Vote]\n"),
            "sequences[",
        ),
        # both found by the spec check
        (STATE_FAULT, "sequences.yaml", ('rules: ["14.5"]', 'rules: ["99.5"]'), "sequences["),
    ],
    ids=["model", "check"],
)
def test_a_fault_outside_the_examples_is_never_set_aside(
    spec_copy: Path,
    example_fault: tuple[str, str],
    other_file: str,
    other_fault: tuple[str, str],
    other_where: str,
) -> None:
    brink = spec_copy / "brink"
    file = "economy.yaml" if example_fault is STATE_FAULT else "examples.yaml"
    edit(brink / file, *example_fault)
    edit(brink / other_file, *other_fault)
    with pytest.raises(SpecError) as caught:
        load_spec(brink, isolate_examples=True)
    wheres = [p.where for p in caught.value.problems]
    # the whole spec is refused, with the example's problem among the others
    assert any(w.startswith(other_where) for w in wheres), wheres
    assert any(w.startswith("examples[") for w in wheres), wheres


def test_score_is_stopped_only_by_the_example_it_uses(spec_copy: Path, tmp_path: Path) -> None:
    brink = spec_copy / "brink"
    break_three(brink)
    root = str(spec_copy)
    other = run_main("score", "brink", "--example", "council-tie-order", "--spec-root", root)
    assert other.code == 0, other.err
    assert "Anna" in other.out
    assert "3 worked example(s) of brink have problems" in other.err
    state = tmp_path / "cost.yaml"
    state.write_text(
        "sequence: cost-payment\n"
        "players: [{id: blue, cost: {faction: henko, amount: 5},"
        " power: {henko: 3}, influence: {henko: 3}}]\n",
        encoding="utf-8",
    )
    scored = run_main("score", "brink", str(state), "--format", "json", "--spec-root", root)
    assert scored.code == 0, scored.err
    used = run_main("score", "brink", "--example", "bill-bendo-cost", "--spec-root", root)
    assert used.code == 3
    assert used.out == ""
    assert re.search(
        r"economy\.yaml:\d+:\d+: examples\[0\]\.state\.players\[0\]\.cost\.amount: "
        r"expected an integer",
        used.err,
    )
    assert "the example 'bill-bendo-cost' is broken" in used.err
    assert "Traceback" not in used.err


def test_validate_reports_every_broken_example(spec_copy: Path) -> None:
    break_three(spec_copy / "brink")
    run = run_main("validate", str(spec_copy), "--no-examples")
    assert run.code == 3
    located = re.findall(r"^\S+\.yaml:\d+:\d+: (examples\[\d+\]\S*):", run.err, re.M)
    assert len(located) == 3, run.err
    assert "stationfall: ok" in run.out
