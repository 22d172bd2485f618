"""Spec values of a shape the code did not expect: located errors, never a traceback.

Each case is an edit of a private copy of a real spec (``spec_copy``) that once
made ``rulepress`` crash with a Python traceback (a probe put wrong shapes at
every kind of node of both games; tests/data/fuzz_corpus/ replays the same
edits through the command under the fuzz test's limits). Each must now be a
located problem, ``file:line:col: where: what``, with the exit code of the
README's table: 3 for a spec.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulepress.cli import main
from rulepress.errors import SpecError
from rulepress.games import load_spec
from rulepress.i18n.extract import extract_spec
from rulepress.model.spec_model import MAX_ID_LENGTH
from rulepress.render.context import RenderContext
from rulepress.render.pages import game_pages
from tests.conftest import DATA, LOCALES, edit


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` that holds ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def at(path: Path, text: str, value: str) -> str:
    """``file:line:col`` of ``value`` on the line that holds ``text``, as messages name it."""
    line = line_of(path, text)
    column = path.read_text(encoding="utf-8").splitlines()[line - 1].index(value) + 1
    return f"rules_spec/{path.parent.name}/{path.name}:{line}:{column}"


def validate(game: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``rulepress validate rules_spec/<game>`` run in-process: its exit code and stderr."""
    code = main(["validate", f"rules_spec/{game}"])
    return code, capsys.readouterr().err


def refused_first(
    path: Path,
    change: tuple[str, str],
    near: tuple[str, str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Edit ``path`` (``change``: old, new); validate stops with exit 3, the first line
    located at ``near`` (the line's text, the value's text) and saying ``message``."""
    edit(path, *change)
    code, err = validate(path.parent.name, capsys)
    assert code == 3, err
    assert err.startswith(f"{at(path, *near)}: {message}\n"), err


# -- lengths: pydantic cannot build a list model with a negative bound ---------------------


def test_a_negative_number_of_players_is_located(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_first(
        spec_copy / "stationfall" / "state.yaml",
        (
            "      min: 1\n      max: param:max_players",
            "      min: -1\n      max: param:max_players",
        ),
        ("min: -1", "-1"),
        "table_states.stationfall-table.players.min:"
        " min -1 is below 0: the number of players cannot be negative",
        capsys,
    )


def test_a_negative_list_length_from_a_parameter_is_located_at_the_bound(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parameter is a fine integer; as a list's most entries it is not."""
    game = spec_copy / "stationfall"
    edit(game / "parameters.yaml", "  max_players:\n    value: 9", "  max_players:\n    value: -2")
    code, err = validate("stationfall", capsys)
    assert code == 3, err
    assert "Traceback" not in err
    state = game / "state.yaml"
    foreign = line_of(state, "foreign_bribes:")
    bound = next(
        n
        for n, text in enumerate(state.read_text(encoding="utf-8").splitlines(), start=1)
        if n > foreign and "max: param:max_players" in text
    )
    column = state.read_text(encoding="utf-8").splitlines()[bound - 1].index("param:") + 1
    assert (
        f"rules_spec/stationfall/state.yaml:{bound}:{column}:"
        " table_states.stationfall-table.players.fields.foreign_bribes.max:"
        " max -2 (param:max_players) is below 0: a list's length cannot be negative\n"
    ) in err


# -- ids: each is part of an anchor of the pages that show it --------------------------------


def test_an_id_too_long_for_an_anchor_is_refused_where_it_is_written(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An example id of 200 characters validated, then the site build failed on its anchor."""
    long_id = "plus-line-voided-" + "x" * 183
    refused_first(
        spec_copy / "stationfall" / "examples.yaml",
        ("  - id: plus-line-voided\n", f"  - id: {long_id}\n"),
        (long_id, long_id),
        "examples[0].id: an id has 200 characters; at most 64",
        capsys,
    )


def test_a_rule_number_of_thousands_of_digits_is_refused_as_written(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check read each part as an integer: int() refuses 4,300 digits, a traceback."""
    number = "16" + "0" * 5000
    refused_first(
        spec_copy / "stationfall" / "rules.yaml",
        ('number: "16"', f'number: "{number}"'),
        (number, f'"{number}'),
        "rules[0].number: a rule number has 5002 characters; at most 64",
        capsys,
    )


def test_ids_at_their_longest_still_make_every_page(spec_copy: Path) -> None:
    longest = "plus-line-voided-" + "x" * (MAX_ID_LENGTH - len("plus-line-voided-"))
    edit(
        spec_copy / "stationfall" / "examples.yaml",
        "  - id: plus-line-voided\n",
        f"  - id: {longest}\n",
    )
    spec = load_spec(spec_copy / "stationfall").spec
    assert spec.examples[0].id == longest
    pages = game_pages(RenderContext(spec, "en", str, str))
    assert f"example-{longest}" in pages["examples"].model_dump_json()


# -- what a worked example states of a vote: the pages show each fact by its shape -----------


@pytest.mark.parametrize(
    ("old", "new", "fact", "shape"),
    [
        (
            "              common-supply: {komek: 3}\n              returned: {henko: 1}\n",
            "              - 1\n",
            "flows",
            "a mapping of player to route to unit to count",
        ),
        (
            "              common-supply: {komek: 3}\n",
            "              common-supply: [komek]\n",
            "flows",
            "a mapping of player to route to unit to count",
        ),
    ],
    ids=["a-player-s-flows-a-list", "a-route-a-list"],
)
def test_a_stated_tally_fact_of_the_wrong_shape_is_located(
    old: str, new: str, fact: str, shape: str, spec_copy: Path
) -> None:
    """It loaded (only validate's run found it wrong), and the site build then crashed."""
    examples = spec_copy / "brink" / "examples.yaml"
    edit(examples, old, new)
    with pytest.raises(SpecError) as caught:
        load_spec(spec_copy / "brink")
    (problem,) = caught.value.problems
    # at the stated value: the mapping under the first example's 'flows:'
    line = line_of(examples, f"{fact}:") + 1
    assert str(problem.location) == f"rules_spec/brink/examples.yaml:{line}:13"
    assert problem.where == f"examples[15].expect.tallies.council.{fact}"
    assert problem.message == f"{fact} is {shape}"


# -- sources: a passage's line numbers are read as integers ---------------------------------


def test_a_line_number_of_thousands_of_digits_is_refused_as_written(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = spec_copy / "stationfall" / "tables.yaml"
    edit(tables, 'lines: "3, 58"', f'lines: "1{"0" * 5000}"')
    code, err = validate("stationfall", capsys)
    assert code == 3, err
    where = at(tables, 'lines: "1000', '"1000')
    assert err.startswith(
        f"{where}: tables[0].rows[0].source.lines: a line number of 5001 digits; at most 15\n"
    ), err


# -- tables: a row is one line of YAML, the keys it covers need not fit in memory ---------


def test_a_table_row_over_a_huge_range_is_refused_at_the_row(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_first(
        spec_copy / "stationfall" / "tables.yaml",
        ("{min: 1, max: 5, value: 1", "{min: -1000000000000000, max: 5, value: 1"),
        ("min: -1000000000000000", "{min"),
        "tables[0].rows[0]: table 'winners-by-player-count' covers"
        " 1,000,000,000,000,006 keys up to this row; a table covers at most 10,000",
        capsys,
    )


# -- updates: the scorer writes through the path `set` gives --------------------------------


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "character.state-x",
            "'character.state-x': 'state-x' is not a field of 'character'"
            " (fields: data, location, state)",
        ),
        ("character.data.kind", "'character.data.kind': 'character.data' is not a record,"),
        ("guilt.state", "'guilt.state': 'guilt' is not a record, so it has no fields"),
    ],
)
def test_an_update_of_a_field_no_player_has_is_located(
    target: str, message: str, spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sequence = spec_copy / "stationfall" / "sequence.yaml"
    edit(sequence, "set: character.state", f"set: {target}")
    code, err = validate("stationfall", capsys)
    assert code == 3, err
    where = at(sequence, f"set: {target}", target)
    assert err.startswith(f"{where}: sequences[0].steps[1].updates[0].set: {message}"), err


def test_an_update_through_a_record_a_state_leaves_out_is_a_state_error(
    spec_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An optional record may be missing from a player: the update says so, located."""
    game = spec_copy / "stationfall"
    edit(game / "state.yaml", "          default: {state: live}", "          optional: true")
    when = (
        "table.antimatter.armed and character.state != 'escaped'\n"
        "              and character.location is not None\n"
        "              and character.location == table.antimatter.location"
    )
    edit(game / "sequence.yaml", f"when: >-\n              {when}", 'when: "True"')
    assert main(["state-template", "stationfall"]) == 0
    state = yaml.safe_load(capsys.readouterr().out)
    for player in state["players"]:
        player.pop("character", None)
    (tmp_path / "table.yaml").write_text(yaml.safe_dump(state), encoding="utf-8")
    code = main(["score", "stationfall", str(tmp_path / "table.yaml")])
    err = capsys.readouterr().err
    assert code == 4, err
    where = at(game / "sequence.yaml", '- number: "1"', "number")
    assert f"{where}: step 1 (Antimatter): player " in err, err
    assert "cannot change 'character.state': the player has no 'character'" in err


# -- worked examples the scorer cannot run ----------------------------------------------------


def test_an_example_that_cannot_be_scored_is_a_spec_problem_and_the_rest_is_checked(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A parameter an expression divides by, set to 0: the spec's fault, not a table's.

    validate reported it as a table state that cannot be scored (exit 4) and
    stopped there, so the games after it were never checked.
    """
    edit(
        spec_copy / "brink" / "economy.yaml",
        "  revolt_divisor:\n    value: 2",
        "  revolt_divisor:\n    value: 0",
    )
    code = main(["validate"])
    out, err = capsys.readouterr()
    assert code == 3, err
    # located at the step that ran it, named by the example that did
    where = at(spec_copy / "brink" / "economy.yaml", '- number: "2a"', "number")
    assert err.startswith(
        f"{where}: examples[7] sorelia-revolt: step 2a (Return Influence): player orange:"
        " '(held + param.revolt_divisor - 1) // param.revolt_divisor': column 1: division by zero\n"
    ), err
    assert "rules_spec/stationfall: ok" in out


# -- values an expression gives that the scorer goes through or looks up --------------------


#: (game, file, old, new, the step that runs it, the message): each value is read
#: where the spec check cannot tell a number from a list, and used where only one fits
WRONG_VALUES = [
    # a lines component over a number
    (
        "stationfall",
        "sequence.yaml",
        "items: agenda",
        "items: n_players",
        "step 4a (Agenda)",
        "'n_players' must give a list, gave",
    ),
    # a table looked up by a list
    (
        "stationfall",
        "sequence.yaml",
        "key: n_players}",
        "key: '[]'}",
        "step 5 (Winner)",
        "table 'winners-by-player-count' is looked up by an integer, not []",
    ),
    # a tally's ballots, its tie order
    (
        "brink",
        "sequences.yaml",
        "- items: table.votes",
        "- items: n_players",
        "step 1 (Vote and Count)",
        "'n_players' must give a list, gave",
    ),
    (
        "brink",
        "sequences.yaml",
        "tie_order: table.tie_order",
        "tie_order: n_players",
        "step 1 (Vote and Count)",
        "'n_players' must give a list, gave",
    ),
    # a weighted count's choice, its items' uses
    (
        "brink",
        "sequences.yaml",
        'options: "sets.factions if sorelia_hex != 0 else []"',
        'options: "3 if sorelia_hex != 0 else []"',
        "step 3 (Council Scoring)",
        "'3 if sorelia_hex != 0 else []' must give a list, gave 3",
    ),
    (
        "brink",
        "sequences.yaml",
        "items: hand",
        "items: n_players",
        "step 3 (Influence)",
        "'n_players' must give a list, gave",
    ),
    # units to group into sets: the grouping finds none for fewer than none
    (
        "brink",
        "sequences.yaml",
        "            count: get(ambassadors, kind)",
        "            count: '-1'",
        "step 2 (Ambassador Sets)",
        "'-1' must give a number of units, 0 or more, gave -1",
    ),
    (
        "brink",
        "sequences.yaml",
        "            wild: ambassadors.sorelia",
        "            wild: '-1'",
        "step 2 (Ambassador Sets)",
        "'-1' must give a number of units, 0 or more, gave -1",
    ),
    # a ballot's candidate, an item's kind: looked up by what the expression gives
    (
        "brink",
        "sequences.yaml",
        "target: vote.faction",
        'target: "[]"',
        "step 1 (Vote and Count)",
        "'[]' gave [], not a candidate",
    ),
    (
        "brink",
        "sequences.yaml",
        "kind: card.colour",
        'kind: "[]"',
        "step 3 (Influence)",
        "'[]' gave [], which is not a kind",
    ),
]


@pytest.mark.parametrize(
    ("game", "file", "old", "new", "step", "message"),
    WRONG_VALUES,
    ids=[f"{case[0]}-{case[3].split(':')[0].strip(' -')}" for case in WRONG_VALUES],
)
def test_a_value_of_the_wrong_shape_in_a_worked_example_run_is_a_spec_problem(
    game: str,
    file: str,
    old: str,
    new: str,
    step: str,
    message: str,
    spec_copy: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """validate runs every worked example: one that cannot be scored is the spec's fault."""
    edit(spec_copy / game / file, old, new)
    code, err = validate(game, capsys)
    assert code == 3, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if message in line]
    assert lines, err
    for line in lines:
        assert re.match(rf"rules_spec/{game}/[a-z]+\.yaml:\d+:\d+: examples\[\d+\] ", line), line
        assert f": {step}: " in line, line


#: Sorelia's wild cubes take the rate of the kind this gives (the default ruling's option)
WILD_AS = """              sorelia_wild: >-
                first(k for k in sets.factions
                      if get(multipliers, k) == max(get(multipliers, j) for j in sets.factions))"""
#: the factions a Sorelia hex may count as
OPTIONS = 'options: "sets.factions if sorelia_hex != 0 else []"'


def test_a_value_that_names_no_kind_is_no_kind(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a wild unit counts as, and a choice's option, are only named in the notes."""
    edit(spec_copy / "brink" / "sequences.yaml", WILD_AS, "              sorelia_wild: '[1]'")
    code, err = validate("brink", capsys)
    assert code == 0, err  # the notes say 'wild', as when no kind is given


def test_a_choice_of_lists_is_scored_and_reported(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(spec_copy / "brink" / "sequences.yaml", OPTIONS, OPTIONS.replace("sets.factions", "[[1]]"))
    code, err = validate("brink", capsys)
    assert code == 3, err  # the example's stated prestige is no longer what the scorer gives
    assert "Traceback" not in err
    assert "the text states 15, the scorer gives 0" in err
    assert main(["score", "brink", "--example", "council-sorelia-hex"]) == 0
    # the choice made, shown as it is (a kind would be shown by its word)
    assert "the Sorelia hex’s power counts as 1: adds 0" in capsys.readouterr().out


def test_majorities_over_a_number_of_areas_is_a_spec_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixture game with a majorities step (no real game has one yet)."""
    game = tmp_path / "rules_spec" / "harbour"
    shutil.copytree(DATA / "specs" / "harbour", game)
    edit(game / "sequence.yaml", "areas: sets.harbours", "areas: n_players")
    monkeypatch.chdir(tmp_path)
    code, err = validate("harbour", capsys)
    assert code == 3, err
    assert ": step 1 (Harbours): player " in err
    assert "'n_players' must give a list, gave" in err
    assert "Traceback" not in err


# -- i18n extract reads each spec file as plain data before anything validates it ---------


@pytest.mark.parametrize("value", ["", "[]", "3", "text"])
def test_extraction_reads_a_parameters_section_of_any_shape(value: str, spec_copy: Path) -> None:
    """The extractor reads the parameters beside each file (for translators' notes)."""
    game = spec_copy / "stationfall"
    section = f"parameters: {value}" if value else "parameters:"  # (left empty: null)
    (game / "parameters.yaml").write_text(section + "\n", encoding="utf-8")
    # the extractor Babel calls for each file: rules.yaml's messages, as if none were given
    with (game / "rules.yaml").open("rb") as handle:
        assert list(extract_spec(handle, {}, [], {}))
    # and the load after it reports the section, located
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    (problem,) = caught.value.problems
    column = len("parameters: ") + 1 if value else len("parameters:") + 1
    assert str(problem.location) == f"rules_spec/stationfall/parameters.yaml:1:{column}"
    assert problem.where == "parameters"
    assert problem.message.startswith("expected a mapping, got ")


@pytest.mark.parametrize("value", ["1", "1.5", "true"])
def test_extraction_reads_a_sequences_section_of_any_shape(value: str, spec_copy: Path) -> None:
    """The examples' state texts are found through the sequences: of a wrong shape, none."""
    game = spec_copy / "stationfall"
    edit(game / "sequence.yaml", "sequences:\n", f"sequences: {value}\nold_sequences:\n")
    with (game / "examples.yaml").open("rb") as handle:
        assert list(extract_spec(handle, {}, [], {}))


def test_i18n_extract_reports_a_broken_spec_located(
    spec_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(LOCALES, spec_copy.parent / "locales")
    (spec_copy / "stationfall" / "parameters.yaml").write_text("parameters:\n", encoding="utf-8")
    code = main(["i18n", "extract", "--check", "--domain", "stationfall"])
    err = capsys.readouterr().err
    assert code == 3, err
    assert err.startswith(
        "rules_spec/stationfall/parameters.yaml:1:12: parameters: expected a mapping, got None\n"
    ), err
