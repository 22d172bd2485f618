"""``rulepress state-template``: a commented starter state that the scorer accepts as it is.

Every game under rules_spec/ and every one of its sequences (and the default,
without ``--sequence``): the printed file is scored by ``rulepress score``
without an error, it holds every field its state format declares, and each
field's description is in its comment.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulepress.cli import main
from rulepress.games import load_spec
from rulepress.model.spec_model import FieldSpec
from rulepress.states.template import state_template, yaml_scalar
from rulepress.yamlsrc.reader import load_yaml_text
from tests.conftest import GAMES, SPEC_ROOT, edit, loaded, run_main

CASES = [
    pytest.param(game, seq, id=f"{game}/{seq or 'default'}")
    for game in GAMES
    for seq in [None, *(s.id for s in loaded(game).spec.sequences)]
]


def _template(
    game: str, seq: str | None, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    args = ["state-template", game, "--spec-root", str(SPEC_ROOT)]
    code = main([*args, "--sequence", seq] if seq else args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("game", "seq"), CASES)
def test_the_template_is_scored_as_it_stands(
    game: str, seq: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _template(game, seq, capsys)
    assert code == 0, err
    assert "do not pass" not in out  # no unmet check is left for the player to find
    path = tmp_path / "table.yaml"
    path.write_text(out, encoding="utf-8")
    # no --sequence here: the template names its own sequence
    code = main(["score", game, str(path), "--spec-root", str(SPEC_ROOT), "--format", "json"])
    _, err = capsys.readouterr()
    assert code == 0, err


def _missing(fields: Mapping[str, FieldSpec], value: Any, path: str) -> Iterator[str]:
    """Every field not given in the record ``value`` (optional ones are commented out)."""
    for name, spec in fields.items():
        here = f"{path}.{name}"
        if name not in value:
            if not spec.optional:
                yield here
            continue
        inner = value[name]
        if spec.type == "record":
            yield from _missing(spec.fields, inner, here)
        elif spec.type == "list" and spec.item is not None and spec.item.type == "record":
            for i, item in enumerate(inner):
                yield from _missing(spec.item.fields, item, f"{here}[{i}]")


def _every_field(fields: Mapping[str, FieldSpec]) -> Iterator[tuple[str, FieldSpec]]:
    for name, spec in fields.items():
        yield name, spec
        if spec.type == "record":
            yield from _every_field(spec.fields)
        elif spec.type == "list" and spec.item is not None and spec.item.type == "record":
            yield from _every_field(spec.item.fields)


@pytest.mark.parametrize(("game", "seq"), CASES)
def test_the_template_declares_every_field_with_its_meaning(
    game: str, seq: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = loaded(game).spec
    wanted = seq or spec.scorer.sequence
    fmt = spec.table_states[next(s.state for s in spec.sequences if s.id == wanted)]
    _, out, _ = _template(game, seq, capsys)
    data, _ = load_yaml_text(out, "template.yaml")
    assert (data["game"], data["sequence"]) == (spec.game.id, wanted)
    assert data["players"]
    missing = [
        *(
            m
            for i, p in enumerate(data["players"])
            for m in _missing(fmt.players.fields, p, f"players[{i}]")
        ),
        *_missing(fmt.table.fields, data.get("table", {}), "table"),
    ]
    assert missing == []
    # every list of records shows one item (the item's fields are documented there)
    comments = " ".join(line.strip().lstrip("#") for line in out.splitlines() if "#" in line)
    words = " ".join(comments.split())
    for name, field in [*_every_field(fmt.players.fields), *_every_field(fmt.table.fields)]:
        assert " ".join(field.description.split()) in words, name
        if field.optional:
            assert f"# {name}:" in out or f"# - {name}:" in out, name


def test_the_template_says_which_steps_read_a_field(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _template("stationfall", None, capsys)
    # the Bonus Character is read through a `let` of step 4b
    comment = out[: out.index("bonus_character:")].rsplit("identity", 1)[-1]
    assert "step 4b Bonus, rule 16.4.5" in comment
    assert "integer, 0 to 8 (parameter cubes_per_player)" in out


def test_constraints_are_met_by_borrowing_from_a_worked_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # zero cubes everywhere would break "the cubes add up to cubes_per_player"
    _, out, _ = _template("stationfall", None, capsys)
    data, _ = load_yaml_text(out, "template.yaml")
    owned = loaded("stationfall").spec.parameters["cubes_per_player"].value
    for player in data["players"]:
        assert sum(player["cubes"].values()) == owned


def test_an_unknown_sequence_is_a_usage_error_with_a_guess() -> None:
    typo = run_main("state-template", "brink", "--sequence", "councilvote")
    assert typo.code == 2
    assert "did you mean 'council-vote'?" in typo.err
    assert "Traceback" not in typo.err
    same = run_main("state-template", "Brink", "--sequence", "Council-Vote")
    assert same.code == 0
    assert "sequence: council-vote" in same.out


def test_the_default_is_the_scorers_sequence() -> None:
    spec = loaded("brink").spec
    assert state_template(spec) == state_template(spec, spec.scorer.sequence)


#: what YAML could take for something other than the text: booleans, nulls, numbers,
#: dates, flow and block indicators, comments, anchors, quotes
_AWKWARD = st.sampled_from(
    ["no", "Yes", "off", "null", "~", "1:30", "012", "0x1f", "1_000", "2026-01-01", "- a"]
    + [": a", "a: b", "a #b", "#a", "&a", "*a", "!a", "'a", '"a', "[a]", "{a}", " a", "a ", ""]
)


@given(st.one_of(_AWKWARD, st.text(st.characters(exclude_categories=("Cc", "Cs")))))
def test_every_text_value_reads_back_as_itself(text: str) -> None:
    data, _ = load_yaml_text(f"key: {yaml_scalar(text)}\n", "value.yaml")
    assert data == {"key": text}


def test_a_check_the_placeholders_cannot_meet_is_named_at_the_top(spec_copy: Path) -> None:
    # without worked examples to borrow from, zero cubes cannot add up to what a player owns
    (spec_copy / "stationfall" / "examples.yaml").unlink()
    # (nor the example the table of card exceptions points to)
    edit(spec_copy / "stationfall" / "cards.yaml", "    example: engineer-wins-while-guilty\n", "")
    out = state_template(load_spec(spec_copy / "stationfall").spec)
    header = out[: out.index("game:")]
    assert "These placeholders do not pass every check" in header
    assert "players[0].cubes: the cubes add up to 0" in header
