"""An operation added as one new module appears in the reference, the schema and the checker.

The operation here is written as rulepress's own are (rulepress/operations/):
one module with its model, its evaluation and a pointer to its reference
example, and one entry point in the ``rulepress.operations`` group. It lives
in a temporary package with a tiny ``.dist-info`` on PYTHONPATH, found by
``importlib.metadata`` in a fresh ``rulepress`` process as an installed
package would be; nothing of rulepress is edited. Adding it touches
:data:`FILES_TOUCHED` files: the module, its example, and the entry point
(here entry_points.txt; for a built-in, a line of rulepress's pyproject.toml).
The dist-info's METADATA is the temporary package's own, which a built-in
does not need.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT, edit, run_cli
from tests.vocabulary.test_operation_plugins import (
    CARDS,
    CARDS_FIELD,
    COMPILE,
    EXAMPLE,
    RUN_STEP,
    STEP,
)

MODULE = (
    '''"""The ``longest_run`` operation: the longest run of consecutive values scores."""

from importlib.resources import files
from typing import Literal

from rulepress.model.spec_model import ExprText, Model, Text


class LongestRunComponent(Model):
    """Scores the longest run of consecutive values (3, 4, 5 is a run of 3)."""

    op: Literal["longest_run"]
    """`longest_run`."""
    values: ExprText
    """The values (a list of integers)."""
    points: ExprText
    """The points for a run of `length`."""
    note: Text
    """The note (`{length}`, `{points}`)."""


class LongestRun:
    model = LongestRunComponent
    example = files("demo_ops") / "longest_run.yaml"
    scope = {"points": frozenset({"length"})}
    writes = ("length",)

'''
    + COMPILE
)

EXAMPLE_FILE = """\
title: "`longest_run` scores the longest run of consecutive values."
fields:
  cards:
    type: list
    max: 13
    default: []
    description: The cards the player holds.
    item: {type: int, min: 1, max: 13, description: A card's value.}
steps:
  - number: "1"
    title: Runs
    text: Your longest run of consecutive cards scores twice its length.
    rules: ["1"]
    score:
      id: runs
      title: Longest run
      component:
        op: longest_run
        values: cards
        points: length * 2
        note: "longest run: {length} cards"
state:
  players:
    - {id: Ada, cards: [9, 4, 3, 5]}
    - {id: Bo, cards: [1]}
expect:
  players:
    Ada: {runs: 6, total: 6}
    Bo: {runs: 2, total: 2}
"""

#: what adding the operation writes: its module, its example, its entry point
FILES_TOUCHED = 3


def _dist_info(site: Path, name: str, entry_points: str) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[rulepress.operations]\n{entry_points}\n", encoding="utf-8"
    )


def _env(site: Path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join(filter(None, (str(site), os.environ.get("PYTHONPATH"))))}


@pytest.fixture
def installed(tmp_path: Path) -> dict[str, str]:
    """A process environment with the new operation's package installed."""
    site = tmp_path / "site"
    package = site / "demo_ops"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    written = [
        package / "longest_run.py",
        package / "longest_run.yaml",
    ]
    written[0].write_text(MODULE, encoding="utf-8")
    written[1].write_text(EXAMPLE_FILE, encoding="utf-8")
    _dist_info(site, "demo_ops", "longest_run = demo_ops.longest_run:LongestRun")
    assert len([*written, "entry_points.txt"]) == FILES_TOUCHED
    return _env(site)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the tiny game with a step scored by the new operation."""
    target = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", target)
    edit(target / "sequence.yaml", STEP, RUN_STEP)
    edit(target / "state.yaml", CARDS, CARDS_FIELD)
    (target / "examples.yaml").write_text(EXAMPLE, encoding="utf-8")
    return target


def _reference(env: dict[str, str]) -> str:
    code = "from rulepress.reference import author_reference; print(author_reference())"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, **env),
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_new_operation_is_in_the_author_reference(installed: dict[str, str]) -> None:
    page = _reference(installed)
    part = page[page.index("### `longest_run`") : page.index("### Operations from plugins")]
    assert "Scores the longest run of consecutive values" in part
    assert "| `values` | expression | required | The values (a list of integers). |" in part
    # its example is scored when the page is made (and checked against what it states)
    assert "longest run: 3 cards" in part
    assert "Ada: {runs: 6, total: 6}" in part
    # and its expressions' names are in the table of scopes
    assert "| score · `longest_run` | `points` |" in page


def test_the_new_operation_is_in_the_json_schema(installed: dict[str, str], tmp_path: Path) -> None:
    result = run_cli("schema", cwd=tmp_path, env=installed)
    assert result.code == 0, result.err
    schema = json.loads(result.out)
    model = schema["$defs"]["LongestRunComponent"]
    assert model["properties"]["op"]["const"] == "longest_run"
    assert set(model["required"]) == {"op", "values", "points", "note"}
    assert model["additionalProperties"] is False
    # an op no installed operation has is the only one the catch-all matches
    assert "longest_run" in schema["$defs"]["PluginComponent"]["properties"]["op"]["not"]["enum"]


def test_the_new_operation_is_checked_and_scores(
    installed: dict[str, str], game: Path, tmp_path: Path
) -> None:
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=installed)
    assert (result.code, result.err) == (0, "")
    assert result.out == "rules_spec/tiny: ok (1 examples checked)\n"
    edit(game / "sequence.yaml", "            values: cards\n", "            valuez: cards\n")
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=installed)
    assert result.code == 3
    lines = result.err.splitlines()
    assert (
        "rules_spec/tiny/sequence.yaml:32:13: sequences[0].steps[1].score.component.valuez:"
        " unknown key 'valuez'"
    ) in lines
    assert (
        "rules_spec/tiny/sequence.yaml:31:13: sequences[0].steps[1].score.component:"
        " missing required key 'values'"
    ) in lines


def test_a_plugin_cannot_replace_a_built_in_operation(tmp_path: Path) -> None:
    """A package registering ``sum`` is left out: the tiny game still scores with rulepress's."""
    site = tmp_path / "site"
    site.mkdir()
    # a working operation, whose fields no sum component of the game has
    (site / "evil_sum.py").write_text(
        "from pydantic import BaseModel\n\n"
        "class Sum:\n"
        "    class model(BaseModel):\n"
        "        evil: int\n\n"
        "    def compile(self, config, pick):\n"
        "        return lambda ns, fns, make: (666, [], {}, None)\n",
        encoding="utf-8",
    )
    _dist_info(site, "evil_sum", "sum = evil_sum:Sum")
    shutil.copytree(DATA / "specs" / "tiny", tmp_path / "rules_spec" / "tiny")
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=_env(site))
    assert (result.code, result.err) == (0, "")


def test_a_broken_plugin_stops_only_the_games_that_use_it(tmp_path: Path, game: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "broken_ops.py").write_text("import no_such_module\n", encoding="utf-8")
    _dist_info(site, "broken_ops", "longest_run = broken_ops:LongestRun")
    other = tmp_path / "rules_spec" / "other"
    shutil.copytree(DATA / "specs" / "tiny", other)
    edit(other / "game.yaml", "id: tiny", "id: other")
    ok = run_cli("validate", "rules_spec/other", cwd=tmp_path, env=_env(site))
    assert (ok.code, ok.err) == (0, "")
    refused = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=_env(site))
    assert refused.code == 3
    assert refused.err.splitlines()[0] == (
        "rules_spec/tiny/sequence.yaml:31:17: sequences[0].steps[1].score.component.op:"
        " the plugin operation 'longest_run' failed to load (ModuleNotFoundError: No module"
        " named 'no_such_module')"
    )


def test_a_source_tree_never_installed_is_told_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without rulepress's metadata no operation is registered: said, not 'unknown sum'."""
    import importlib.metadata

    from rulepress.model import operations

    # discovery imports the function when it runs (not on a warm score's path)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: ())
    operations.clear()
    try:
        with pytest.raises(operations.NotInstalledError, match=r"install rulepress"):
            operations.installed()
    finally:
        monkeypatch.undo()
        operations.clear()
    assert "sum" in operations.installed()


def test_a_python_without_rulepress_installed_gets_one_line_not_a_traceback() -> None:
    """Run from a source tree never installed, no operation is known: say so, exit 1."""
    code = (
        "import rulepress.model.operations as ops\n"
        "ops._points = lambda: ((), ())  # no entry point of rulepress's own\n"
        "from rulepress.cli import main\n"
        f"raise SystemExit(main(['validate', {str(ROOT / 'rules_spec')!r}]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "install rulepress" in proc.stderr
