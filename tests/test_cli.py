"""The `rulepress` command end to end, in a subprocess, as users run it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import DATA, ROOT, loaded, run_cli

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
    result = run_cli("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    schema = json.loads(run_cli("schema", "--result").out)
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
    result = run_cli("score", "stationfall", "--example", example.id, "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert sorted(data["winners"]["winners"]) == sorted(example.expect.winners)


def test_variant_changes_the_ruling_used() -> None:
    args = ("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--format", "json")
    default = json.loads(run_cli(*args).out)
    variant = json.loads(run_cli(*args, "--variant", "cards-only").out)
    assert default["variants"]["excess-scope"] == "all-outside-supply"
    assert variant["variants"]["excess-scope"] == "cards-only"
    text = run_cli(
        "score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--variant", "cards-only"
    ).out
    assert "Rulings: cards-only" in text


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("score", "chess", "x.yaml"), 4, "no game 'chess' under rules_spec (games: "),
        (("score", "stationfall"), 4, "give either a STATE file or --example ID"),
        (("score", "stationfall", "--example", "nope"), 4, "stationfall has no example 'nope'"),
        (("score", "stationfall", "missing.yaml"), 4, "no state file at missing.yaml"),
        (
            ("score", "stationfall", str(GOOD_STATE.relative_to(ROOT)), "--variant", "nope"),
            4,
            "unknown variant 'nope'",
        ),
        (
            (
                "score",
                "stationfall",
                str(GOOD_STATE.relative_to(ROOT)),
                "--variant",
                "cards-only",
                "--variant",
                "all-outside-supply",
            ),
            4,
            "answer the same ruling",
        ),
        (("validate", "nowhere"), 4, "no game spec (a directory with game.yaml) under nowhere"),
    ],
)
def test_usage_errors_are_clear(args: tuple[str, ...], code: int, message: str) -> None:
    result = run_cli(*args)
    assert result.code == code
    assert message in result.err
    assert "Traceback" not in result.err


def test_validate_and_build_pass_on_the_real_specs() -> None:
    for command in ("validate", "build"):
        result = run_cli(command)
        assert result.code == 0, result.err
        assert "rules_spec/stationfall: ok" in result.out


def test_spec_schema_validates_every_spec_file() -> None:
    import yaml

    schema = json.loads(run_cli("schema").out)
    jsonschema.Draft202012Validator.check_schema(schema)
    for path in sorted((ROOT / "rules_spec").glob("*/*.yaml")):
        jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


def test_state_schema_accepts_example_states_and_rejects_bad_ones() -> None:
    import yaml

    schema = json.loads(run_cli("schema", "--state", "stationfall").out)
    jsonschema.Draft202012Validator.check_schema(schema)
    for example in loaded("stationfall").spec.examples:
        jsonschema.validate(example.state, schema)
    bad = yaml.safe_load((DATA / "bad_states" / "stationfall" / "ten-players.yaml").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_no_partial_output_on_error(tmp_path: Path) -> None:
    bad = DATA / "bad_states" / "stationfall" / "negative-counts.yaml"
    result = run_cli("score", "stationfall", str(bad), "--format", "json")
    assert result.code == 3
    assert result.out == ""
