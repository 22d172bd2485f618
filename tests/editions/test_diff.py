"""``rulepress diff`` on two editions of a small game: every kind of change it reports.

The editions are tests/data/editions/first/harbour and second/harbour; the
second's changelog lists what it changes, and each test below asserts one
kind of change (rules, numbers, cells, orders, rulings, examples) or its
consequences on the first edition's worked examples.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulepress.cli import main
from rulepress.edition_reports import diff_report
from rulepress.editions.diff import diff_specs
from rulepress.editions.model import Diff, to_json
from rulepress.games.load import load_spec
from rulepress.render.diff_text import readable, render_diff
from tests.conftest import DATA, LOCALES, SPEC_ROOT, edit

FIRST = DATA / "editions" / "first"
SECOND = DATA / "editions" / "second"


@pytest.fixture(scope="module")
def diff() -> Diff:
    return diff_specs(
        load_spec(FIRST / "harbour"), load_spec(SECOND / "harbour"), "first", "second"
    )


def test_editions_and_the_new_changelog_lines(diff: Diff) -> None:
    assert (diff.old.version, diff.old.date, diff.new.version, diff.new.date) == (
        "1",
        "2026-01-15",
        "2",
        "2026-12-01",
    )
    # the first edition's own line is not new
    assert [c.id for c in diff.changelog] == [
        "empty-harbours",
        "ties-drop",
        "cargo-first",
        "reserve-before-goods",
        "no-solo",
    ]
    ties = diff.changelog[1]
    assert ties.rules == ["harbour-ties"]
    assert ties.text.context == "game/changelog/ties-drop/text"


def test_rules_added_removed_renumbered_and_changed(diff: Diff) -> None:
    found = {(r.kind, r.old_number, r.new_number, r.id) for r in diff.rules}
    assert found == {
        ("added", None, "2.2", None),
        ("renumbered", "2.2", "2.3", "harbour-ties"),
        ("changed", "3", "3", None),
        ("changed", "4", "4", "winner"),
        ("removed", "5", None, None),
    }
    # in rule-number order, as a reader looks them up
    assert [r.new_number or r.old_number for r in diff.rules] == ["2.2", "2.3", "3", "4", "5"]
    cargo = next(r for r in diff.rules if r.new_number == "3")
    (text,) = cargo.texts
    assert text.context == "text#1"
    assert text.old is not None
    assert text.old.endswith("Each set scores by its size.")
    assert text.new is not None
    assert text.new.endswith("cargo is scored before the harbours.")
    # a renumbered rule whose words stayed has no text changes; its title is the new one's
    ties = next(r for r in diff.rules if r.kind == "renumbered")
    assert ties.texts == []
    assert ties.title.context == "rules/2.3/title"
    removed = next(r for r in diff.rules if r.kind == "removed")
    assert [t.new for t in removed.texts] == [None, None]


def test_parameters_and_table_cells(diff: Diff) -> None:
    assert [(p.name, p.old, p.new, p.rule) for p in diff.parameters] == [("cargo_limit", 9, 8, "3")]
    (cell,) = diff.tables
    assert (cell.table, cell.keys, cell.old, cell.new) == ("cargo-sets", (5, 5), 15, 16)
    assert cell.key_label.text == "Different goods"


def test_steps_and_tie_breaks_reordered(diff: Diff) -> None:
    steps, criteria = diff.orders
    assert steps.kind == "steps"
    assert [(i.key, i.title.text) for i in steps.old] == [
        ("1", "Harbours"),
        ("2", "Cargo"),
        ("3", "Winner"),
    ]
    assert [(i.key, i.title.text) for i in steps.new] == [
        ("1", "Cargo"),
        ("2", "Harbours"),
        ("3", "Winner"),
    ]
    assert criteria.kind == "criteria"
    assert [i.key for i in criteria.old] == [
        "most-points",
        "most-harbours-led",
        "most-goods",
        "most-reserve",
    ]
    assert [i.key for i in criteria.new] == [
        "most-points",
        "most-harbours-led",
        "most-reserve",
        "most-goods",
    ]


def test_rulings_added_and_with_a_new_default(diff: Diff) -> None:
    found = {
        (
            r.kind,
            r.id,
            r.old_default.text if r.old_default else None,
            r.new_default.text if r.new_default else None,
        )
        for r in diff.rulings
    }
    assert found == {
        ("default", "harbour_ties", "Split evenly", "Drop to the lower place"),
        ("added", "reserve_counts", None, "Only ships never sailed"),
    }


def test_worked_examples_whose_stated_results_changed(diff: Diff) -> None:
    kinds = {e.id: e.kind for e in diff.examples}
    assert kinds == {
        "clear-majorities": "stated",
        "decided-by-goods": "stated",
        "empty-harbour": "added",
        "full-hold": "removed",
    }
    goods = next(e for e in diff.examples if e.id == "decided-by-goods")
    stated = {c.key: (c.old, c.new) for c in goods.stated}
    assert stated["winners"] == (["Bo"], ["Ada"])
    assert stated["decided_by"] == ("most-goods", "most-reserve")
    # the texts of an example that came or went are told by its id, not message by message
    assert not [
        t
        for t in diff.texts
        if t.context.startswith(("examples/full-hold/", "examples/empty-harbour/"))
    ]


def test_old_examples_scored_under_the_new_spec(diff: Diff) -> None:
    assert diff.rescored == 7
    found = {c.id: c for c in diff.consequences}
    assert set(found) == {"clear-majorities", "ties-split", "decided-by-goods", "full-hold"}
    # the set of five scores one more (the table); the tie in the East drops (the ruling)
    majorities = {c.key: (c.old, c.new) for c in found["clear-majorities"].changes}
    assert majorities["Bo.cargo"] == (15, 16)
    assert majorities["Bo.total"] == (27, 28)
    assert majorities["Ada.harbour_majorities"] == (13, 12)
    # the ruling's new default decides the tie the old example split
    split = {c.key: (c.old, c.new) for c in found["ties-split"].changes}
    assert split["Ada.total"] == (8, 4)
    # the tie-breaks' new order gives the win to the other player
    goods = {c.key: (c.old, c.new) for c in found["decided-by-goods"].changes}
    assert goods["winners"] == (["Bo"], ["Ada"])
    assert goods["Ada.rank"] == (2, 1)
    # the hold of nine no longer fits: located in the old edition's file
    hold = found["full-hold"]
    assert hold.kind == "unscorable"
    (problem,) = hold.problems
    assert problem.endswith(
        "first/harbour/examples.yaml:183:25: examples[6].state.players[0].goods.fish:"
        " 9 is more than the most allowed, 8"
    )


def test_an_edition_against_itself_has_no_change() -> None:
    loaded = load_spec(SECOND / "harbour")
    same = diff_specs(loaded, loaded, "a", "b")
    assert not same.changed
    assert same.rescored == 7
    assert same.consequences == []
    assert same.changelog == []


def test_rules_are_followed_by_id_when_renumbered(tmp_path: Path) -> None:
    """Without the rule's id, the moved rule is a rule removed and another added."""
    for side in ("first", "second"):
        shutil.copytree(DATA / "editions" / side / "harbour", tmp_path / side)
    edit(tmp_path / "second" / "rules.yaml", "        id: harbour-ties\n", "")
    edit(tmp_path / "second" / "game.yaml", "rules: [harbour-ties]", 'rules: ["2.3"]')
    result = diff_specs(load_spec(tmp_path / "first"), load_spec(tmp_path / "second"), "a", "b")
    kinds = {(r.kind, r.old_number, r.new_number) for r in result.rules}
    assert ("renumbered", "2.2", "2.3") not in kinds
    assert ("changed", "2.2", "2.2") in kinds  # 2.2 is now Empty harbours
    assert ("added", None, "2.3") in kinds


def test_the_json_is_the_model(diff: Diff) -> None:
    data = json.loads(to_json(diff))
    assert data["format"] == 1
    assert data["changed"] is True
    del data["changed"]
    assert Diff.model_validate(data) == diff


def test_the_text_report(diff: Diff) -> None:
    text = render_diff(diff, "en", "Harbourmasters")
    # each edition's date as the language writes it
    assert text.startswith(
        "Harbourmasters: from 1 of January 15, 2026, first to 2 of December 1, 2026, second\n"
    )
    # a changelog line names its rules by number, an id as the rule it stands for
    assert (
        "Ties in a harbour now drop to the lower place, and the rule moves to 2.3. (2.3)\n" in text
    )
    assert "  2.3 Ties in a harbour (renumbered from 2.2)\n" in text
    # a table cell names the rule its table belongs to
    assert "  Cargo sets (3; Different goods 5): Points: 15 → 16\n" in text
    assert "  “Ties in a harbour”: new default: Split evenly → Drop to the lower place\n" in text
    assert "    Winners: Bo → Ada\n" in text
    assert "    Decided by: Most goods → Most ships in reserve\n" in text
    assert "    Harbour majorities (East Harbour) of Ada: 1 → 0\n" in text
    assert "    Place of Ada: 2 → 1\n" in text
    # an example by its title (its id is for programs: --json)
    assert "  A full hold of fish: cannot be scored under the new spec\n" in text
    assert "(full-hold)" not in text


def test_the_text_report_shows_no_control_character(diff: Diff) -> None:
    """A spec or catalog text cannot forge a line of the report."""
    forged = diff.model_copy(
        update={"game": "harbour"},
    )
    text = render_diff(forged, "en", "Harbour\nmasters\x1b[2J", spec_text=lambda c, t: t + "\u202e")
    assert "\x1b" not in text
    assert "\u202e" not in text
    assert (
        text.splitlines()[0]
        == "Harbour<U+000A>masters<U+001B>[2J: from 1 of January 15, 2026, first to 2 of"
        " December 1, 2026, second"
    )


# ------------------------------------------------------------------ a real change


#: where the rows of Stationfall's winners table come from (its provenance)
SOURCE = (
    'source: {document: card, lines: "58", quote: "Ve hře s 6+ hráči mohou zvítězit 2 hráči'
    ' s nejvíce body (3 hráči při 9 hráčích)"}'
)


def _stationfall_with_rows(tmp_path: Path, rows: str) -> Path:
    folder = tmp_path / "stationfall"
    shutil.copytree(SPEC_ROOT / "stationfall", folder)
    edit(
        folder / "tables.yaml",
        f"      - {{min: 6, max: 8, value: 2, {SOURCE}}}\n",
        rows,
    )
    return folder


def test_stationfall_three_winners_from_eight_players(tmp_path: Path) -> None:
    """The table's one cell changes; no worked example has eight players, so none changes."""
    new = _stationfall_with_rows(
        tmp_path,
        f"      - {{min: 6, max: 7, value: 2, {SOURCE}}}\n      - {{min: 8, max: 8, value: 3, {SOURCE}}}\n",
    )
    result = diff_specs(load_spec(SPEC_ROOT / "stationfall"), load_spec(new), "now", "new")
    ((cell),) = result.tables
    assert (cell.table, cell.keys, cell.old, cell.new) == ("winners-by-player-count", (8, 8), 2, 3)
    assert result.rules == []
    assert result.parameters == []
    assert result.consequences == []
    assert result.rescored == len(load_spec(SPEC_ROOT / "stationfall").spec.examples)


def test_stationfall_three_winners_from_six_players(tmp_path: Path) -> None:
    """Three winners from six players up: the six-player examples come out otherwise."""
    new = _stationfall_with_rows(tmp_path, f"      - {{min: 6, max: 8, value: 3, {SOURCE}}}\n")
    result = diff_specs(load_spec(SPEC_ROOT / "stationfall"), load_spec(new), "now", "new")
    ((cell),) = result.tables
    assert (cell.keys, cell.old, cell.new) == ((6, 8), 2, 3)
    found = {c.id: {v.key: (v.old, v.new) for v in c.changes} for c in result.consequences}
    assert set(found) == {
        "six-players-two-winners",
        "outright-and-shared-place",
        "last-place-left-empty",
        "points-alone-decide",
        "guilty-place-left-empty",
    }
    assert found["six-players-two-winners"]["winners"] == (
        ["Ada", "Chen"],
        ["Ada", "Chen", "Farid"],
    )
    # three winners already (a shared last place): the same three, now each by points
    assert "winners" not in found["outright-and-shared-place"]
    assert found["outright-and-shared-place"]["decided_by"] == ("shared", "most-points")
    # the examples of the other readings, each under its own variant: a third place takes
    # the tie nobody could share, and the next player after a Guilty player's empty place
    assert found["last-place-left-empty"]["winners"] == (["Ada"], ["Ada", "Bo", "Cy"])
    assert found["points-alone-decide"]["decided_by"] == ("shared", "most-points")
    assert found["guilty-place-left-empty"]["winners"] == (["Bo"], ["Bo", "Cy"])


# ------------------------------------------------------------------ the command


def test_the_command_with_folders(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["diff", "harbour", str(FIRST), "--spec-root", str(SECOND), "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["old"]["source"] == str(FIRST)
    assert {c["id"] for c in data["consequences"]} == {
        "clear-majorities",
        "ties-split",
        "decided-by-goods",
        "full-hold",
    }


def test_the_command_exits_0_when_nothing_changed(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["diff", "harbour", str(SECOND), "--spec-root", str(SECOND)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.rstrip().endswith("No difference between the two editions.")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", str(FIRST)], "no game 'nowhere' under"),
        (["harbour", str(DATA / "states")], "no spec of harbour in this folder"),
        (["harbour", str(DATA / "specs" / "tiny")], "a diff compares two editions of one game"),
        (["harbour", "--", "-x"], "-x: not a folder, and not a git revision"),
        (["harbour", str(FIRST), "--lang", "cs"], "harbour is not published in 'cs'"),
    ],
)
def test_bad_arguments_are_clean_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["diff", "--spec-root", str(SECOND), *args])
    captured = capsys.readouterr()
    assert code == 2
    assert message in captured.err
    assert captured.out == ""


def test_the_json_fits_its_schema(diff: Diff, capsys: pytest.CaptureFixture[str]) -> None:
    """`rulepress schema --diff` describes what `diff --json` writes, `changed` included."""
    import jsonschema

    assert main(["schema", "--diff"]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.validate(json.loads(to_json(diff)), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**json.loads(to_json(diff)), "changed": "yes"}, schema)


def test_the_cli_reference_lists_the_edition_commands() -> None:
    """The CLI page is sphinx-click's rendering of the click commands: they are there."""
    import click

    from rulepress.cli import cli
    from rulepress.sphinx_ext.reference import CLI_OBJECT, cli_reference

    assert f".. click:: {CLI_OBJECT}" in cli_reference()
    i18n = cli.get_command(click.Context(cli), "i18n")
    assert isinstance(i18n, click.Group)
    assert cli.get_command(click.Context(cli), "diff") is not None
    assert i18n.get_command(click.Context(i18n), "changes") is not None
    options = {
        record[0]
        for name in i18n.list_commands(click.Context(i18n))
        for command in [i18n.get_command(click.Context(i18n), name)]
        if command is not None
        for param in command.params
        if (record := param.get_help_record(click.Context(command)))
    }
    assert "--since EDITION" in options


def test_old_examples_the_old_edition_refuses_are_named(tmp_path: Path) -> None:
    """Every old example is scored, or named as left out: none goes missing unsaid."""
    old = tmp_path / "old"
    shutil.copytree(FIRST / "harbour", old)
    edit(old / "examples.yaml", "goods: {fish: 9}", "goods: {fish: 10}")
    loaded = load_spec(old, isolate_examples=True)
    result = diff_specs(loaded, load_spec(SECOND / "harbour"), "old", "new")
    assert (result.rescored, result.left_out) == (6, ["full-hold"])
    assert "full-hold" not in {c.id for c in result.consequences}
    text = render_diff(result, "en", "Harbourmasters")
    # (the report sets the apostrophe as English prints it)
    assert "Worked examples of the old edition left out, as its own check refuses them: 1\n" in text


def test_other_texts_are_named_by_their_page_in_the_readers_words(tmp_path: Path) -> None:
    """A changed text of no rule is named by the page that shows it, and today's wording is
    read from the game's catalog (the catalog context is for translators, not readers)."""
    old = tmp_path / "stationfall"
    shutil.copytree(SPEC_ROOT / "stationfall", old)
    edit(
        old / "glossary.yaml",
        "definition: The marker that counts down the Minutes (turns) left before the station"
        " falls.",
        "definition: The marker of the Minutes left.",
    )
    text = diff_report(
        SPEC_ROOT / "stationfall",
        str(old),
        None,
        as_json=False,
        lang="cs",
        locales=LOCALES,
    )
    lines = text.splitlines()
    # the page, and the term the definition belongs to, in Czech
    at = lines.index("  Slovníček pojmů: Ukazatel minut")
    # the old edition (a folder without catalogs) had no Czech for it: said, not its English
    assert lines[at + 1] == "    dříve: v\u00a0předchozím vydání nepřeloženo"
    assert "The marker of the Minutes left." not in text
    assert lines[at + 2].endswith(
        "Ukazatel, který odpočítává minuty (kola) zbývající do pádu stanice."
    )
    assert "glossary/minute-marker" not in text


def test_only_the_placeholders_of_the_english_template_show_as_gaps() -> None:
    # a template's placeholders are the scorer's to fill: each is a gap, whatever the
    # language moved them to or however it spells the plural's forms
    template = "{player} gains {weight|# vote|# votes} for {faction}"
    czech = "{player} získává {weight|# hlas|# hlasy|# hlasů} pro {faction}"
    assert readable(czech, template) == "… získává … pro …"
    # braces a text holds of its own are shown as written: a rule title is no template,
    # nor is a brace the English does not have
    assert readable("Vítězství {doctest}", "Winning") == "Vítězství {doctest}"
    assert readable("{player} {raw}", "{player} wins") == "… {raw}"


def test_without_old_the_command_compares_with_the_recorded_edition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the edition the game's changes page compares with is what `diff GAME` compares with
    project = tmp_path / "project"
    shutil.copytree(SECOND, project / "rules_spec")
    shutil.copytree(FIRST, project / "editions" / "first")
    game_yaml = project / "rules_spec" / "harbour" / "game.yaml"
    edit(
        game_yaml,
        "  languages:",
        "  previous_edition: {folder: ../../editions/first}\n  languages:",
    )
    root = ["--spec-root", str(project / "rules_spec")]
    assert main(["diff", "harbour", *root, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["old"]["version"] == "1"
    assert {c["id"] for c in data["consequences"]} == {
        "clear-majorities",
        "ties-split",
        "decided-by-goods",
        "full-hold",
    }
    # a game that records none: a clean error that says what to give
    edit(game_yaml, "  previous_edition: {folder: ../../editions/first}\n", "")
    assert main(["diff", "harbour", *root]) == 2
    captured = capsys.readouterr()
    assert "harbour records no previous edition (game.yaml game.previous_edition)" in captured.err
    assert captured.out == ""
