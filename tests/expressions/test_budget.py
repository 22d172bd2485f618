"""The budget of operations (rulepress.expressions.budget): no spec raises it, and work stays linear.

Each test goes red when its protection is removed: field types resolved once
each (the resolver's memo), the bound on a format's expanded fields, the
linear duplicate check of named sets, the sets spelled out once per spec, the
grouping search charged to the budget, and the budget itself; the memory a
command may add, read while operations are charged and after each spec file
or catalog is read, and the size bounds of a whole spec and of a catalog.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulepress.cli import main
from rulepress.errors import ExitCode, SpecError
from rulepress.expressions.budget import (
    MEMORY_EVERY,
    OPERATIONS,
    BudgetError,
    MemoryBudgetError,
    command_budget,
    resident_memory,
)
from rulepress.games import load, load_spec
from rulepress.i18n.catalogs import MAX_CATALOG_BYTES
from rulepress.model import sets
from rulepress.scoring.grouping import groupings
from rulepress.states.fields import MAX_FORMAT_FIELDS
from rulepress.states.validation import validate_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import DATA, edit, run_cli, run_main


def tiny_with_field_types(tmp_path: Path, depth: int, width: int) -> Path:
    """The tiny game with field types t0..t<depth>, each a record of ``width`` fields
    of the next (t<depth> an int), and a player field of type t0."""
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    lines = ["field_types:"]
    for level in range(depth):
        lines += [
            f"  t{level}:",
            "    type: record",
            f"    description: Level {level}.",
            "    fields:",
        ]
        lines += [
            f"      f{i}: {{use: t{level + 1}, description: Part {i}.}}" for i in range(width)
        ]
    lines += [f"  t{depth}:", "    type: int", "    max: 3", "    description: A leaf."]
    edit(game / "state.yaml", "table_states:", "\n".join(lines) + "\ntable_states:")
    edit(
        game / "state.yaml",
        "        name:\n",
        "        deep:\n          use: t0\n          optional: true\n"
        "          description: A deep record.\n        name:\n",
    )
    return game


def load_cost(game: Path) -> int:
    with command_budget() as budget:
        load_spec(game)
    return budget.used


def test_field_types_are_resolved_once_each(tmp_path: Path) -> None:
    """Two uses of the next type at each of 7 levels: 2^7 leaves, but 8 types to resolve."""
    shallow = load_cost(tiny_with_field_types(tmp_path / "a", depth=6, width=2))
    deep = load_cost(tiny_with_field_types(tmp_path / "b", depth=7, width=2))
    # resolved afresh at every use, the deeper spec cost 2^7 more field resolutions
    assert deep - shallow < 40, (shallow, deep)


def test_a_format_that_expands_too_far_is_refused_located(tmp_path: Path) -> None:
    """Ten uses at each of six levels: 10^6 fields as a tree, refused at load in an instant."""
    game = tiny_with_field_types(tmp_path, depth=6, width=10)
    with command_budget() as budget, pytest.raises(SpecError) as caught:
        load_spec(game)
    assert budget.used < 10_000  # linear in the spec's size, not in the expansion
    (problem,) = caught.value.problems
    assert problem.location.file.endswith("tiny/state.yaml")
    assert problem.location.line > 0
    assert problem.where == "table_states.tiny-table.players"
    assert "players' fields expand to 1,111,115 fields" in problem.message
    assert f"{MAX_FORMAT_FIELDS:,}" in problem.message


class Counted(str):
    """An id that counts how often it is compared for equality."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        Counted.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_the_duplicate_check_of_a_named_set_is_linear() -> None:
    size = 5_000
    Counted.compared = 0
    found = sets.expand({"ids": [Counted(f"id{i}") for i in range(size)] + [Counted("id7")]})
    assert found.problems == [(("sets", "ids", size), "'id7' is in the set twice")]
    # a list's ``in`` compared each id with every one before it: 12.5 million times
    assert Counted.compared < 10 * size


def test_named_sets_are_spelled_out_once_per_spec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    ids = ", ".join(f"c{i}" for i in range(20_000))
    edit(game / "game.yaml", "vocabulary:", f"sets:\n  many: [{ids}]\n\nvocabulary:")
    spec = load_spec(game).spec
    calls = []
    real = sets.expand
    monkeypatch.setattr(sets, "expand", lambda section: calls.append(1) or real(section))
    fmt = spec.table_states["tiny-table"]
    state = {"players": [{"id": "ada", "colour": "red", "points": 1, "times": 1}]}
    for _ in range(5):  # as for five worked examples
        validate_state(fmt, spec.parameters, state, SourceMap(), sets=spec.sets)
    assert len(calls) == 1


def test_the_grouping_search_is_charged_and_says_what_was_too_large() -> None:
    kinds = dict.fromkeys("abcdef", 100)
    values = {s: s * s for s in range(1, 7)}
    with command_budget(limit=200_000), pytest.raises(BudgetError) as caught:
        groupings(kinds, 100, values)
    assert "the grouping of 700 units into sets of up to 6 kinds is too large" in str(caught.value)
    assert "200,000 operations" in str(caught.value)


def test_the_grouping_stays_exact_within_the_budget() -> None:
    """Brink's largest table (20 cards of each of 4 colours, 20 wilds) fits with room to spare."""
    with command_budget() as budget:
        found = groupings(dict.fromkeys("abcd", 20), 20, {1: 1, 2: 3, 3: 6, 4: 10})
    assert found.total == 25 * 10
    assert budget.used < OPERATIONS // 100


def test_a_spec_cannot_raise_the_budget(tmp_path: Path) -> None:
    """A spec that lifts its own bound on ambassadors; a table that uses it is refused, exit 4."""
    root = tmp_path / "rules_spec"
    shutil.copytree(DATA.parent.parent / "rules_spec" / "brink", root / "brink")
    edit(
        root / "brink" / "parameters.yaml",
        "  ambassadors_per_colour_limit:\n    value: 20",
        "  ambassadors_per_colour_limit:\n    value: 100000",
    )
    state = tmp_path / "big.yaml"
    state.write_text(
        "sequence: end-of-game\nplayers:\n  - id: Willem\n    ambassadors: "
        "{komek: 400, henko: 400, magnomi: 400, ventus: 400, sorelia: 400}\n",
        encoding="utf-8",
    )
    run = run_cli("score", "brink", str(state), "--spec-root", str(root), timeout=300)
    assert run.code == 4, run.err
    assert "Traceback" not in run.err
    assert "sequences.yaml:" in run.err
    assert "player Willem: the grouping of 2,000 units into sets of up to 4 kinds" in run.err
    assert "too large" in run.err


def test_commands_share_one_budget() -> None:
    with command_budget(limit=10) as budget:
        budget.charge(6, "the first part")
        with pytest.raises(BudgetError, match="the second part is too large"):
            budget.charge(6, "the second part")


def test_a_named_set_past_the_budget_is_refused_located(tmp_path: Path) -> None:
    """A set of 20,000 ids included 1,500 times: 30 million ids to spell out."""
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    ids = ", ".join(f"c{i}" for i in range(20_000))
    again = ", ".join(["sets.many"] * 1_500)
    edit(
        game / "game.yaml",
        "vocabulary:",
        f"sets:\n  many: [{ids}]\n  all: [{again}]\n\nvocabulary:",
    )
    with pytest.raises(SpecError) as caught:
        load_spec(game)  # outside a command: a library call gets a budget of its own
    (problem,) = caught.value.problems
    assert problem.location.file.endswith("tiny/game.yaml")
    assert problem.where.startswith("sets.all[")
    assert "the named set 'all' is too large" in problem.message


def test_memory_is_read_while_operations_are_charged() -> None:
    """Work that holds memory past the budget is stopped at the next reading, and named."""
    if resident_memory() is None:
        pytest.skip("no /proc here: memory is not measured, the size bounds hold alone")
    with command_budget(memory=32 * 1024 * 1024) as budget:
        held = bytearray(96 * 1024 * 1024)  # zero-filled pages, written to be resident
        held[::4096] = b"x" * len(held[::4096])
        budget.charge(MEMORY_EVERY - 1, "the rows of 'big'")  # no reading yet
        with pytest.raises(MemoryBudgetError, match="the rows of 'big' is too large") as caught:
            budget.charge(1, "the rows of 'big'")
        assert "grew by" in str(caught.value)
        assert "32 MiB a command may add" in str(caught.value)
        del held


def test_a_spec_file_read_past_the_memory_budget_is_refused_located(tmp_path: Path) -> None:
    """Files parsed are not counted as operations: memory is read after each one."""
    if resident_memory() is None:
        pytest.skip("no /proc here: memory is not measured, the size bounds hold alone")
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    with command_budget(memory=-1), pytest.raises(SpecError) as caught:
        load_spec(game)  # any reading is past a budget of -1 byte
    (problem,) = caught.value.problems
    assert problem.location.file.endswith("tiny/game.yaml")
    assert "the spec file" in problem.message
    assert "memory grew by" in problem.message


def test_a_spec_whose_files_add_up_past_the_bound_is_refused_located(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file is bounded on its own; so are all of a spec's files together."""
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    sizes = {p.name: p.stat().st_size for p in game.glob("*.yaml")}
    first, *_ = sorted(n for n in sizes if n != "game.yaml")
    monkeypatch.setattr(load, "MAX_SPEC_BYTES", sizes["game.yaml"] + sizes[first] - 1)
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    (problem,) = caught.value.problems
    assert problem.location.file.endswith(f"tiny/{first}")
    assert "larger than" in problem.message
    assert "this one and the rest are not read" in (problem.message)


def test_a_catalog_past_its_size_bound_is_refused_unread(tmp_path: Path) -> None:
    """i18n check on a 17 MiB catalog: one located line, exit 5, and only 16 MiB read."""
    big = tmp_path / "big.po"
    with big.open("w", encoding="utf-8") as out:
        out.write('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n')
        entry = '#. {n}\nmsgid "m{n}"\nmsgstr "{pad}"\n\n'
        n = 0
        while out.tell() <= MAX_CATALOG_BYTES:
            out.write(entry.format(n=n, pad="x" * 1000))
            n += 1
    run = run_main("i18n", "check", str(big))
    assert run.code == 5, run.err
    assert "Traceback" not in run.err
    assert f"{big}: larger than 16 MiB, the most a catalog may be" in run.err


def test_running_out_of_memory_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def exhausted(*_: object, **__: object) -> None:
        raise MemoryError

    monkeypatch.setattr(load, "_load", exhausted)
    assert main(["validate", str(DATA / "specs" / "tiny")]) == ExitCode.FAILED
    err = capsys.readouterr().err
    assert err.startswith("out of memory:")
    assert "Traceback" not in err
