"""The `rulepress` command end to end, in a subprocess, as users run it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rulepress.yamlsrc import find_game_dirs
from tests.conftest import (
    DATA,
    GAMES,
    ROOT,
    SPEC_ROOT,
    TRANSLATED,
    MainJob,
    loaded,
    run_cli,
    run_main,
)

GOOD_STATE = DATA / "states" / "stationfall-four-players.yaml"


def test_score_text_cites_a_rule_on_every_line() -> None:
    result = run_cli("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)))
    assert result.code == 0, result.err
    out = result.out
    for step, rule in [
        ("4a", "16.4.4"),
        ("4b", "16.4.5"),
        ("4c", "16.4.6"),
        ("4d", "16.4.7, 15.4.2"),
    ]:
        assert out.count(f"  {step}    {rule}") == 4, (step, out)
    assert "Step 5 (16.4.8)" in out
    assert result.err == ""


def test_score_json_matches_its_published_schema() -> None:
    result = run_main("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    schema = json.loads(run_main("schema", "--result").out)
    jsonschema.validate(data, schema)
    assert data["format"] == 1
    assert [p["id"] for p in data["players"]] == ["ada", "boris", "chen", "dana"]
    totals = {p["id"]: p["total"] for p in data["players"]}
    assert data["winners"]["winners"] == [max(totals, key=lambda k: totals[k])]
    for p in data["players"]:
        assert sum(line["points"] for line in p["lines"]) == p["total"]


def test_score_example_by_id() -> None:
    spec = loaded("stationfall").spec
    example = spec.examples[0]
    result = run_main("score", "stationfall", "--example", example.id, "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert sorted(data["winners"]["winners"]) == sorted(example.expect.winners)


def test_variant_changes_the_ruling_used() -> None:
    args = ("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--format", "json")
    default = json.loads(run_main(*args).out)
    variant = json.loads(run_main(*args, "--variant", "cards_only").out)
    assert default["variants"]["excess_scope"] == "all_outside_supply"
    assert variant["variants"]["excess_scope"] == "cards_only"
    text = run_main(
        "score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--variant", "cards_only"
    ).out
    # the ruling and the option by their titles, never their ids
    assert "Rulings: “Which cubes count against the Influence Limit”: Cubes on cards only" in text


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("score", "chess", "x.yaml"), 2, "no game 'chess' under rules_spec (games: "),
        (("score", "stationfall"), 2, "give either a STATE file or --example ID"),
        (("score", "stationfall", "--example", "nope"), 2, "stationfall has no example 'nope'"),
        (("score", "stationfall", "missing.yaml"), 2, "no state file at missing.yaml"),
        (
            ("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--variant", "nope"),
            2,
            "unknown variant 'nope'",
        ),
        (  # the spelling before ruling options became lower_snake_case
            ("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--variant", "cards-only"),
            2,
            "variants are lower_snake_case: write 'cards_only'",
        ),
        (
            (
                "score",
                "stationfall",
                str(GOOD_STATE.relative_to(ROOT)),
                "--variant",
                "cards_only",
                "--variant",
                "all_outside_supply",
            ),
            2,
            "answer the same ruling",
        ),
        (("validate", "nowhere"), 2, "no game spec (a directory with game.yaml) under nowhere"),
        # a mistyped command gets a guess, though each command is imported only when it runs
        (("scor", "stationfall"), 2, "No such command 'scor'. Did you mean 'score'?"),
        (("i18n", "extrac"), 2, "No such command 'extrac'. Did you mean 'extract'?"),
    ],
)
def test_usage_errors_are_clear(args: tuple[str, ...], code: int, message: str) -> None:
    result = run_main(*args)
    assert result.code == code
    assert message in result.err
    assert "Traceback" not in result.err


def test_the_main_job_passes_on_the_real_specs(main_job: MainJob) -> None:
    """``rulepress build``, as the README runs it (the session's run, which the print, site
    and browser tests then read): every spec valid, every output built, the gate clean."""
    assert main_job.code == 0, main_job.err[-5000:]
    assert "rules_spec/stationfall: ok" in main_job.out
    assert "rules_spec/brink: ok" in main_job.out
    assert "gate: nothing found" in main_job.out
    assert (main_job.site_out / "index.html").is_file()
    assert (main_job.site_out / "sitemap.xml").is_file()
    assert sorted(main_job.print_out.glob("*/stationfall/rulebook-*.pdf"))


def test_spec_schema_validates_every_spec_file() -> None:
    import yaml

    schema = json.loads(run_main("schema").out)
    jsonschema.Draft202012Validator.check_schema(schema)
    # one validator for every file: jsonschema.validate checks the schema again each call
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted((SPEC_ROOT).glob("*/*.yaml")):
        validator.validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_state_schema_accepts_example_states_and_rejects_bad_ones() -> None:
    import yaml

    for game in GAMES:
        spec = loaded(game).spec
        validators: dict[str, jsonschema.Draft202012Validator] = {}
        for example in spec.examples:
            sequence = example.sequence or spec.scorer.sequence
            if sequence not in validators:
                out = run_main("schema", "--state", game, "--sequence", sequence).out
                schema = json.loads(out)
                jsonschema.Draft202012Validator.check_schema(schema)
                validators[sequence] = jsonschema.Draft202012Validator(schema)
            validators[sequence].validate(example.state)
    schema = json.loads(run_main("schema", "--state", "stationfall").out)
    bad = yaml.safe_load(
        (DATA / "bad_states" / "stationfall" / "ten-players.yaml").read_text(encoding="utf-8")
    )
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_no_partial_output_on_error(tmp_path: Path) -> None:
    bad = DATA / "bad_states" / "stationfall" / "negative-counts.yaml"
    result = run_main("score", "stationfall", str(bad), "--format", "json")
    assert result.code == 4
    assert result.out == ""


def test_brink_council_vote_from_a_state_file(tmp_path: Path) -> None:
    state = tmp_path / "council.yaml"
    state.write_text(
        "players:\n"
        "  - {id: ada, influence: {komek: 3, sorelia: 1}, power: {komek: 3, henko: 1}, objectives: [discover-sorelia]}\n"
        "  - {id: ben, influence: {henko: 4, ua: 2}, power: {henko: 2, magnomi: 2}}\n"
        "table:\n"
        "  round: 1\n"
        "  council_track: [{round: 1, first: 3, second: 2}]\n"
        "  votes:\n"
        "    - {player: ada, faction: komek, cube: komek, count: 3}\n"
        "    - {player: ada, faction: henko, cube: sorelia, count: 1}\n"
        "    - {player: ben, faction: henko, cube: henko, count: 4}\n"
        "    - {player: ben, faction: komek, cube: ua, count: 2}\n"
        "  tie_order: [ventus, magnomi, henko, komek]\n",
        encoding="utf-8",
    )
    result = run_main(
        "score", "brink", str(state), "--sequence", "council-vote", "--format", "json"
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    tally = data["tallies"][0]
    # Sorelia counts 3 for the owner of Discover Sorelia; UA -2 each
    assert tally["totals"] == {"komek": -1, "henko": 7, "magnomi": 0, "ventus": 0}
    # magnomi and ventus tie on 0: the tie order puts ventus first
    assert tally["ranking"] == ["henko", "ventus", "magnomi", "komek"]
    assert tally["flows"]["ben"] == {"common-supply": {"henko": 4}, "removed": {"ua": 2}}
    prestige = {p["id"]: p["total"] for p in data["players"]}
    assert prestige == {"ada": 1 * 3 + 0 * 2, "ben": 2 * 3 + 0 * 2}
    text = run_main("score", "brink", str(state), "--sequence", "council-vote")
    assert "Step 1 Council vote (14.1, 14.2, 14.3, 14.4)" in text.out
    assert "  3     14.6, 3.1, 12.3, 13.4, 13.5, 13.6  Council scoring" in text.out


def test_sequence_named_twice_differently_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "s.yaml"
    state.write_text("sequence: end-of-game\nplayers: [{id: ada}]\n", encoding="utf-8")
    result = run_main("score", "brink", str(state), "--sequence", "council-vote")
    assert result.code == 4
    assert "this state is for 'end-of-game', not 'council-vote'" in result.err


def test_brink_variant_changes_the_end_game_score() -> None:
    default = json.loads(
        run_main(
            "score", "brink", "--example", "discover-sorelia-best-faction", "--format", "json"
        ).out
    )
    variant = json.loads(
        run_main(
            "score",
            "brink",
            "--example",
            "discover-sorelia-best-faction",
            "--variant",
            "sorelia_not_wild",
            "--format",
            "json",
        ).out
    )

    def influence(data: dict) -> int:  # type: ignore[type-arg]
        return next(
            line["points"]
            for line in data["players"][0]["lines"]
            if line["score"] == "influence_points"
        )

    assert influence(variant) < influence(default)
    assert variant["variants"]["sorelia_cubes_at_end"] == "sorelia_not_wild"


def test_state_schema_per_sequence() -> None:
    schema = json.loads(run_main("schema", "--state", "brink", "--sequence", "council-vote").out)
    assert schema["properties"]["sequence"] == {"const": "council-vote"}
    assert "votes" in schema["properties"]["table"]["properties"]
    bad = run_main("schema", "--state", "brink", "--sequence", "nope")
    assert bad.code == 2
    assert "brink has no sequence 'nope'" in bad.err


def test_the_specs_are_found_from_a_subfolder_or_the_environment(tmp_path: Path) -> None:
    from_docs = run_main("games", cwd=ROOT / "docs")
    assert from_docs.code == 0
    # the repository's games (the tests may be about another project's, see PROJECT)
    ours = [d.name for d in find_game_dirs(ROOT / "rules_spec")]
    assert [line.split("\t")[0] for line in from_docs.out.splitlines()] == ours
    elsewhere = run_main("games", cwd=tmp_path)
    assert elsewhere.code == 2  # nothing found is an error, naming where rulepress looks
    assert "give --spec-root, set RULEPRESS_SPEC_ROOT" in elsewhere.err
    by_env = run_main("games", cwd=tmp_path, env={"RULEPRESS_SPEC_ROOT": str(SPEC_ROOT)})
    assert by_env.code == 0
    assert "stationfall" in by_env.out


def test_game_names_ignore_case_and_a_typo_gets_a_guess() -> None:
    assert run_main("score", "StationFall", "--example", "evidence-clears-guilt").code == 0
    typo = run_main("score", "statonfall", "--example", "evidence-clears-guilt")
    assert typo.code == 2
    assert "did you mean 'stationfall'?" in typo.err


def test_examples_lists_each_id_with_its_title() -> None:
    result = run_main("examples", "stationfall")
    assert result.code == 0
    ids = [line.split()[0] for line in result.out.splitlines()]
    assert "evidence-clears-guilt" in ids
    assert len(ids) == len(loaded("stationfall").spec.examples)


def test_exit_codes_come_from_one_table() -> None:
    from rulepress.errors import ExitCode, SpecError, StateError, UsageError

    assert SpecError.exit_code == ExitCode.SPEC != ExitCode.USAGE == 2
    assert StateError.exit_code == ExitCode.STATE
    assert UsageError.exit_code == ExitCode.USAGE
    codes = [code.value for code in ExitCode]
    assert len(codes) == len(set(codes))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in ExitCode:  # the README lists every one
        assert f"| {code.value} |" in readme, code


def test_every_command_needing_games_refuses_a_folder_without_any(tmp_path: Path) -> None:
    for command in (
        ("i18n", "stats"),
        ("i18n", "compile"),
        ("i18n", "check"),
        ("build", "site", "--no-doctest"),
        ("build", "print"),
        ("build", "site", "--no-doctest", "--spec-root", str(tmp_path / "nothing")),
    ):
        run = run_main(*command, cwd=tmp_path)
        assert run.code == 2, (command, run.out, run.err)
        assert "no game specs under" in run.err
        assert "give --spec-root" in run.err
    assert list(tmp_path.iterdir()) == []  # no empty site, no build/ folder


def test_a_project_works_the_same_from_any_of_its_folders(tmp_path: Path) -> None:
    # the catalogs are found beside the specs' folder, not in the current folder
    game = TRANSLATED[0][0]  # a game with a translation
    inside = run_main("i18n", "stats", "--format", "json", cwd=SPEC_ROOT / game)
    assert inside.code == 0, inside.err
    rows = json.loads(inside.out)
    assert any(row["domain"] == game and row["translated"] > 0 for row in rows)
    outside = run_main(
        "i18n", "stats", "--format", "json", "--spec-root", str(SPEC_ROOT), cwd=tmp_path
    )
    assert outside.code == 0, outside.err  # a traceback before: the specs outside the cwd
    assert json.loads(outside.out) == rows


def test_the_provenance_kinds_are_the_models() -> None:
    # the CLI spells them out so that --help imports no model: they must stay the same
    from rulepress.commands.specs import provenance
    from rulepress.model.provenance import KINDS

    [kind] = [p for p in provenance.params if p.name == "kinds"]
    assert tuple(kind.type.choices) == KINDS  # type: ignore[attr-defined]
