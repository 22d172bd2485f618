"""State-format fields resolved in one place: ``use``, and records keyed by a named set.

A record may give its fields as the members of a named set (``keys:
sets.colours``), each of the type its ``item`` gives. These tests load a copy
of the tiny fixture game with such a record and check that every reader of a
state format sees the same fields: the state check and its located messages,
the JSON Schema, the state template, and the texts extracted for translation.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import SpecError
from rulepress.games.load import load_spec
from rulepress.games.schema import state_schema
from rulepress.model.loaded import LoadedSpec
from rulepress.states.template import state_template
from rulepress.states.texts import example_texts
from rulepress.states.validation import validate_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import DATA, edit

HELD = """\
        tokens:
          type: record
          default: {}
          description: Tokens by colour.
          keys: sets.colours
          item: {type: int, min: 0, max: 9, default: 0, description: Tokens of that colour.}
"""


def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: str = HELD) -> Path:
    """A copy of the tiny game with colour sets and ``held`` among the players' fields."""
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    edit(
        game / "game.yaml",
        "vocabulary:\n",
        "sets:\n  colours: [red, blue]\n  odd: [red-ish]\nvocabulary:\n  red-ish: Reddish\n",
    )
    edit(game / "state.yaml", "      fields:\n", "      fields:\n" + held)
    monkeypatch.chdir(tmp_path)
    return game


def load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: str = HELD) -> LoadedSpec:
    return load_spec(tiny(tmp_path, monkeypatch, held))


def problems(spec: LoadedSpec, player: dict[str, Any]) -> list[str]:
    fmt = spec.spec.table_states["tiny-table"]
    state = {"players": [{"id": "ada", "points": 1, "times": 1, **player}]}
    _, found = validate_state(fmt, spec.spec.parameters, state, SourceMap(), sets=spec.spec.sets)
    return [f"{p.where}: {p.message}" for p in found]


def test_a_keyed_record_has_a_field_per_member(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = load(tmp_path, monkeypatch)
    held = spec.spec.table_states["tiny-table"].players.fields["tokens"]
    assert list(held.fields) == ["red", "blue"]
    red = held.fields["red"]
    assert (red.type, red.max, red.default) == ("int", 9, 0)
    assert red.description == "Red: Tokens of that colour."
    assert red.title is None  # readers see the vocabulary's word, translated with it


def test_the_state_check_reads_the_members(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = load(tmp_path, monkeypatch)
    assert problems(spec, {"tokens": {"red": 2}}) == []
    assert problems(spec, {"tokens": {"red": -1, "green": 1}}) == [
        "players[0].tokens.red: -1 is negative; the least allowed is 0",
        "players[0].tokens.green: unknown field 'green' (known: blue, red)",
    ]
    state, _ = validate_state(
        spec.spec.table_states["tiny-table"],
        spec.spec.parameters,
        {"players": [{"id": "ada", "points": 1, "times": 1}]},
        SourceMap(),
    )
    assert state["players"][0]["tokens"] == {"red": 0, "blue": 0}  # the item's default


def test_schema_and_template_show_the_members(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = load(tmp_path, monkeypatch).spec
    player = state_schema(spec)["properties"]["players"]["items"]
    held = player["properties"]["tokens"]
    assert set(held["properties"]) == {"red", "blue"}
    assert held["properties"]["red"]["maximum"] == 9
    assert held["additionalProperties"] is False
    text = state_template(spec)
    assert "      red: 0  # Red: Tokens of that colour." in text
    assert "      blue: 0  # Blue: Tokens of that colour." in text


@pytest.mark.parametrize(
    ("held", "where", "message"),
    [
        (
            HELD.replace("type: record", "type: int\n          max: 3"),
            "tokens.keys",
            "only a record's fields can be the members of a set (type: record)",
        ),
        (
            HELD + "          fields: {red: {type: bool, description: d}}\n",
            "tokens.keys",
            "give either 'fields' or 'keys', not both",
        ),
        (
            HELD.replace(
                "          item: {type: int, min: 0, max: 9, default: 0,"
                " description: Tokens of that colour.}\n",
                "",
            ),
            "tokens",
            "a record with 'keys' needs 'item', the type of each of its fields",
        ),
        (
            HELD.replace("sets.colours", "sets.odd"),
            "tokens.keys",
            "a field's name is lower_snake_case: 'red-ish' cannot name a field",
        ),
        (
            # the item is checked once, not once per member
            HELD.replace("type: int, min: 0, max: 9, default: 0", "type: choice, optional: true"),
            "tokens.item",
            "a choice field needs 'choices'",
        ),
        (
            # a list of records has no value to compare (it crashed the state check)
            "        tokens:\n          type: list\n          max: 3\n          default: []\n"
            "          unique: true\n          description: Tokens.\n"
            "          item: {type: record, description: A token.,"
            " fields: {n: {type: int, max: 3, description: N.}}}\n",
            "tokens.unique",
            "only a list of single values (int, text, choice, player) can be unique",
        ),
    ],
    ids=[
        "not-a-record",
        "fields-too",
        "no-item",
        "member-not-a-name",
        "item-checked-once",
        "unique-records",
    ],
)
def test_a_keyed_record_written_wrong_is_located(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: str, where: str, message: str
) -> None:
    with pytest.raises(SpecError) as exc:
        load(tmp_path, monkeypatch, held)
    found = [(p.where, p.message) for p in exc.value.problems]
    assert found == [(f"table_states.tiny-table.players.fields.{where}", message)]
    assert exc.value.problems[0].location.file == "rules_spec/tiny/state.yaml"
    assert exc.value.problems[0].location.line > 1


def test_translated_texts_of_a_keyed_record_are_found() -> None:
    """state_texts resolves fields with the loader's resolver: ``use`` and ``keys`` alike."""
    motto = {"type": "text", "translate": True, "description": "A motto."}
    data: dict[str, Any] = {
        "scorer": {"sequence": "end"},
        "sequences": [{"id": "end", "state": "table"}],
        "sets": {"colours": ["red", "blue"]},
        "vocabulary": {"red": "Red", "blue": "Blue"},
        "field_types": {"motto": motto},
        "table_states": {
            "table": {
                "description": "d",
                "players": {
                    "max": 4,
                    "fields": {
                        "mottos": {
                            "type": "record",
                            "description": "d",
                            "keys": "sets.colours",
                            "item": {"use": "motto", "description": "d"},
                        }
                    },
                },
            }
        },
        "examples": [
            {"id": "one", "state": {"players": [{"id": "Ada", "mottos": {"red": "Onward"}}]}}
        ],
    }
    found = [(c, t) for c, _, t in example_texts(data)]
    assert found == [("examples/one/state/players/Ada/mottos/red", "Onward")]
