"""Plugin operations: a package registers one under ``rulepress.operations``.

The plugin here is real: a module and a tiny ``.dist-info`` (its METADATA and
entry_points.txt) in a folder on PYTHONPATH, found by
``importlib.metadata.entry_points`` in a fresh ``rulepress`` process, as an
installed package would be. A copy of the tiny fixture game scores with it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress.reference import author_reference
from tests.conftest import DATA, edit, run_cli

#: the operation's scoring, the same for a plugin and for an operation written as a built-in
COMPILE = """    def compile(self, config, pick):
        values_of, points_of = pick(config.values), pick(config.points)

        def run(ns, fns, make):
            best = length = 0
            previous = None
            for value in sorted(set(values_of(ns, fns))):
                length = length + 1 if previous is not None and value == previous + 1 else 1
                best, previous = max(best, length), value
            ns["length"] = best
            points = points_of(ns, fns)
            return points, [make(config.note, {"length": best, "points": points})], {}, None

        return run
"""

PLUGIN = (
    '''"""A plugin operation: the longest run of consecutive values scores."""

from pydantic import BaseModel, ConfigDict

from rulepress.model.spec_model import ExprText, Text


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    values: ExprText
    points: ExprText
    note: Text


class LongestRun:
    model = Config
    scope = {"points": frozenset({"length"})}
    writes = ("length",)

'''
    + COMPILE
)

STEP = """      - number: "2"
        title: Winner"""
RUN_STEP = """      - number: "2"
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
      - number: "3"
        title: Winner"""
CARDS = """        times:
"""
CARDS_FIELD = """        cards:
          type: list
          max: 13
          default: []
          description: The cards the player holds.
          item: {type: int, min: 1, max: 13, description: A card's value.}
        times:
"""
EXAMPLE = """examples:
  - id: a-run-of-three
    title: A run of three
    rules: ["1"]
    text: Ada holds 2 points and the cards 3, 4, 5 and 9; her longest run is 3, worth 6.
    state:
      players:
        - {id: Ada, points: 2, times: 1, cards: [9, 4, 3, 5]}
        - {id: Bo, points: 7, times: 1}
    expect:
      players:
        Ada: {runs: 6, total: 8}
        Bo: {runs: 0, total: 7}
      winners: [Ada]
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A copy of the tiny game with a step scored by the plugin operation."""
    target = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", target)
    edit(target / "sequence.yaml", STEP, RUN_STEP)
    edit(target / "state.yaml", CARDS, CARDS_FIELD)
    (target / "examples.yaml").write_text(EXAMPLE, encoding="utf-8")
    return target


@pytest.fixture
def plugin(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that has the plugin installed."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "demo_runs.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "demo_runs-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: demo-runs\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[rulepress.operations]\nlongest_run = demo_runs:LongestRun\n", encoding="utf-8"
    )
    # beside the caller's own path, should it have one
    return {"PYTHONPATH": os.pathsep.join(filter(None, (str(site), os.environ.get("PYTHONPATH"))))}


def test_a_spec_scores_with_an_installed_plugin(
    game: Path, plugin: dict[str, str], tmp_path: Path
) -> None:
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=plugin)
    assert (result.code, result.err) == (0, "")
    assert result.out == "rules_spec/tiny: ok (1 examples checked)\n"
    shown = run_cli("score", "tiny", "--example", "a-run-of-three", cwd=tmp_path, env=plugin)
    assert shown.code == 0, shown.err
    assert "longest run: 3 cards" in shown.out


def test_an_operation_nobody_installed_is_located_and_names_the_installed_ones(
    game: Path, tmp_path: Path
) -> None:
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path)
    assert result.code == 3
    assert result.err.splitlines()[0] == (
        "rules_spec/tiny/sequence.yaml:31:17: sequences[0].steps[1].score.component.op:"
        " unknown operation 'longest_run' (built in: sum, first, lines, sets, weighted_counts,"
        " majorities; installed plugins (rulepress.operations): none)"
    )


def test_the_plugins_fields_and_expressions_are_checked_where_they_are_written(
    game: Path, plugin: dict[str, str], tmp_path: Path
) -> None:
    edit(game / "sequence.yaml", "            values: cards\n", "            values: card\n")
    edit(game / "sequence.yaml", '            note: "longest', '            notes: "longest')
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=plugin)
    assert result.code == 3
    lines = result.err.splitlines()
    assert (
        "rules_spec/tiny/sequence.yaml:34:13: sequences[0].steps[1].score.component.notes:"
        " unknown key 'notes'"
    ) in lines
    assert (
        "rules_spec/tiny/sequence.yaml:31:13: sequences[0].steps[1].score.component:"
        " missing required key 'note'"
    ) in lines
    edit(game / "sequence.yaml", '            notes: "longest', '            note: "longest')
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path, env=plugin)
    assert result.err.splitlines()[0] == (
        "rules_spec/tiny/sequence.yaml:32:21: sequences[0].steps[1].score.component.values:"
        " unknown name(s) card in 'card'"
    )


NOTE_CONTEXT = "sequences/tiny-scoring/steps/2/score/component/note"


def test_a_plugins_texts_are_extracted_and_shown_translated(
    game: Path, plugin: dict[str, str], tmp_path: Path
) -> None:
    # the plugin's model marks its note as text readers see (rulepress.model.Text)
    edit(game / "game.yaml", "languages: [en]", "languages: [en, cs]")
    assert run_cli("i18n", "extract", cwd=tmp_path, env=plugin).code == 0
    with (tmp_path / "locales" / "tiny.pot").open("rb") as fh:
        template = read_po(fh)
    message = template.get("longest run: {length} cards", NOTE_CONTEXT)
    assert message is not None
    assert message.locations == [("rules_spec/tiny/sequence.yaml", 34)]
    assert run_cli("i18n", "update", cwd=tmp_path, env=plugin).code == 0
    po = tmp_path / "locales" / "cs" / "LC_MESSAGES" / "tiny.po"
    with po.open("rb") as fh:
        catalog = read_po(fh)
    catalog.get(
        "longest run: {length} cards", NOTE_CONTEXT
    ).string = "nejdelší postupka: {length|# karta|# karty|# karet}"
    with po.open("wb") as fh:
        write_po(fh, catalog)
    shown = run_cli(
        "score", "tiny", "--example", "a-run-of-three", "--lang", "cs", cwd=tmp_path, env=plugin
    )
    assert shown.code == 0, shown.err
    # (Czech typography binds a number to its word)
    assert "nejdelší postupka: 3\u00a0karty" in shown.out, shown.out
    assert "nejdelší postupka: 0\u00a0karet" in shown.out
    assert "longest run" not in shown.out


def test_the_reference_tells_plugin_authors_how_to_mark_a_text() -> None:
    reference = author_reference()
    plugins = reference[reference.index("### Operations from plugins") :]
    assert "`rulepress.model.Text`" in plugins
    assert "`rulepress i18n extract` puts them in the game's catalog" in plugins
