"""The state format as generated pydantic models: one validator, one schema.

The bad-state cases (tests/data/bad_states/) hold the messages; these test
what the generation itself must get right: field names pydantic reserves,
the problems pydantic alone would hide (a list's least length behind a bad
item, a constraint behind a count above its bound), texts given as data,
and that the schema editors get is the models' own.
"""

from __future__ import annotations

import gc
from typing import Any

import jsonschema

from rulepress.games.schema import state_schema
from rulepress.model.spec_model import Parameter, StateFormat
from rulepress.states import models as state_model
from rulepress.states.models import (
    comparable,
    state_json_schema,
    state_models,
    state_spec,
    strict_schema,
)
from rulepress.states.validation import validate_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import GAMES, loaded

PARAMS = {"most": Parameter(value=3, description="The most.", rule="1")}


def fmt(fields: dict[str, Any], constraints: list[dict[str, Any]] | None = None) -> StateFormat:
    return StateFormat.model_validate(
        {
            "description": "A test format.",
            "players": {"max": 4, "fields": fields, "constraints": constraints or []},
        }
    )


def problems(state_format: StateFormat, *players: dict[str, Any]) -> list[str]:
    _, found = validate_state(state_format, PARAMS, {"players": list(players)}, SourceMap())
    return sorted(f"{p.where}: {p.message}" for p in found)


def test_fields_named_as_pydantic_attributes_are_plain_fields() -> None:
    names = ("json", "model_config", "model_fields", "copy", "schema")
    state_format = fmt({n: {"type": "int", "max": 9, "description": n} for n in names})
    player = {"id": "ada", **{n: i for i, n in enumerate(names)}}
    state, found = validate_state(state_format, PARAMS, {"players": [player]}, SourceMap())
    assert found == []
    assert state["players"][0] == player
    schema = state_json_schema(state_models(state_format, PARAMS))
    assert set(schema["properties"]["players"]["items"]["properties"]) == {"id", *names}


def test_a_short_list_with_a_bad_item_reports_both() -> None:
    """pydantic checks a list's least length only once every item is valid."""
    counts = {
        "type": "list",
        "min": 2,
        "max": "param:most",
        "item": {"type": "int", "max": 9, "description": "A count."},
    }
    state_format = fmt({"counts": {**counts, "description": "Counts."}})
    assert problems(state_format, {"id": "ada", "counts": ["x"]}) == [
        "players[0].counts: needs at least 2 entries, has 1",
        "players[0].counts[0]: expected an integer, got text",
    ]
    assert problems(state_format, {"id": "ada", "counts": [1, 2, 3, 4]}) == [
        "players[0].counts: allows at most 3 entries, has 4"  # the parameter's bound
    ]


def test_a_count_above_its_bound_still_meets_the_constraints() -> None:
    state_format = fmt(
        {
            "a": {"type": "int", "max": 2, "description": "A."},
            "b": {"type": "int", "max": 2, "description": "B."},
            "c": {"type": "int", "max": 2, "description": "C."},
        },
        [{"test": "a + b == 3", "field": "a", "message": "a and b make 3"}],
    )
    assert problems(state_format, {"id": "ada", "a": 3, "b": 1, "c": "x"}) == [
        "players[0].a: 3 is more than the most allowed, 2",
        "players[0].a: a and b make 3",
        "players[0].c: expected an integer, got text",
    ]
    # a value of the wrong type reaches no constraint (it would fail to evaluate)
    assert problems(state_format, {"id": "ada", "a": "x", "b": 1, "c": 0}) == [
        "players[0].a: expected an integer, got text"
    ]


def test_a_text_given_as_data_is_one_line_without_controls() -> None:
    """The YAML reader refuses controls in a file; a state given as data meets the same rule."""
    state_format = fmt({"name": {"type": "text", "description": "A name."}})
    assert problems(state_format, {"id": "ada", "name": "Ada\u202e"}) == [
        "players[0].name: the text holds the control character U+202E RIGHT-TO-LEFT OVERRIDE,"
        " which is not allowed"
    ]
    assert problems(state_format, {"id": "ada", "name": "Ada\r"}) == [
        "players[0].name: a text in a table state is one line, with no line break or tab"
    ]


def test_the_models_are_built_once_per_format() -> None:
    spec = loaded("brink").spec
    state_format = next(iter(spec.table_states.values()))
    first = state_models(state_format, spec.parameters)
    assert state_models(state_format, spec.parameters) is first
    assert state_models(state_format, spec.parameters, "brink") is not first


def test_the_state_schema_is_the_models_schema() -> None:
    spec = loaded("brink").spec
    schema = state_schema(spec, "council-vote")
    state_format = spec.table_states[
        next(s.state for s in spec.sequences if s.id == "council-vote")
    ]
    models = state_models(state_format, spec.parameters, "brink", "council-vote")
    assert {k: v for k, v in schema.items() if k not in ("$schema", "title")} == (
        state_json_schema(models)
    )
    text = str(schema)
    assert "$ref" not in text  # every record written out in place
    assert "$defs" not in text
    player = schema["properties"]["players"]["items"]
    assert "title" not in player
    assert "title" not in player["properties"]["id"]
    assert player["properties"]["objectives"]["uniqueItems"] is True
    # a bound given as param: is the parameter's value
    limit = spec.parameters["cubes_per_colour_limit"].value
    assert player["properties"]["influence"]["properties"]["komek"]["maximum"] == limit
    validator = jsonschema.Draft202012Validator(schema)
    state = {"players": [{"id": "ada", "influence": {"komek": limit + 1}}]}
    assert not validator.is_valid(state)
    _, found = validate_state(state_format, spec.parameters, state, SourceMap())
    assert any("komek" in p.where for p in found)


def test_the_constraints_read_the_named_sets() -> None:
    state_format = fmt(
        {"a": {"type": "int", "max": 2, "description": "A."}},
        [{"test": "'red' in sets.colours", "message": "red is no colour"}],
    )
    state = {"players": [{"id": "ada", "a": 1}]}

    def found(sets: dict[str, list[Any]]) -> list[str]:
        _, problems = validate_state(state_format, PARAMS, state, SourceMap(), sets=sets)
        return [f"{p.where}: {p.message}" for p in problems]

    assert found({"colours": ["red", "blue"]}) == []
    assert found({"colours": ["blue"]}) == ["players[0]: red is no colour"]
    assert found({"warm": ["red"], "colours": ["sets.warm", "blue"]}) == []


def test_the_cache_keeps_no_format_alive() -> None:
    """Each loaded spec (each translation too) has formats of its own: the cache lets them go."""
    # keyed by the format's id: this format's own entry is followed, not the cache's size,
    # which a collection of other tests' formats may shrink at any moment
    state_format = fmt({"a": {"type": "int", "max": 2, "description": "A."}})
    key = id(state_format)
    assert problems(state_format, {"id": "ada", "a": "x"})  # the lenient model is built too
    assert key in state_model._CACHE
    del state_format
    gc.collect()
    assert key not in state_model._CACHE


def test_a_table_that_is_no_mapping_leaves_the_players_checked() -> None:
    """The lenient read makes nothing of a refused table, and reads every player still."""
    state_format = StateFormat.model_validate(
        {
            "description": "A test format.",
            "players": {
                "max": 4,
                "fields": {"a": {"type": "int", "max": 2, "description": "A."}},
                "constraints": [{"test": "a < 2", "field": "a", "message": "a is too big"}],
            },
            "table": {"fields": {"t": {"type": "int", "max": 2, "description": "T."}}},
        }
    )
    state = {"players": [{"id": "ada", "a": 2}], "table": 5}
    _, found = validate_state(state_format, PARAMS, state, SourceMap())
    assert [f"{p.where}: {p.message}" for p in found] == [
        "table: expected a mapping, got an integer",
        "players[0].a: a is too big",
    ]


#: a format of every kind of field the builders know: bounds given as parameters, a
#: negative one, a list with no item or no bound, defaults, optional fields, records
#: within lists, a choice with no choices
EVERY_KIND = {
    "n": {"type": "int", "min": -2, "max": "param:most", "description": "N."},
    "free": {"type": "int", "description": "Free."},
    "on": {"type": "bool", "default": True, "description": "On."},
    "name": {"type": "text", "optional": True, "description": "Name."},
    "who": {"type": "player", "optional": True, "description": "Who."},
    "pick": {"type": "choice", "choices": ["a", "b"], "default": "a", "description": "Pick."},
    "none": {"type": "choice", "choices": [], "optional": True, "description": "None."},
    "any": {"type": "list", "description": "Any."},
    "short": {"type": "list", "max": -1, "item": {"type": "int", "description": "I."}},
    "some": {
        "type": "list",
        "min": 1,
        "max": 3,
        "unique": True,
        "item": {"type": "text", "description": "S."},
        "description": "Some.",
    },
    "rows": {
        "type": "list",
        "item": {
            "type": "record",
            "fields": {"k": {"type": "int", "max": 9, "description": "K."}},
            "description": "Row.",
        },
        "description": "Rows.",
    },
    "box": {
        "type": "record",
        "fields": {"lid": {"type": "bool", "description": "Lid."}},
        "default": {"lid": False},
        "description": "Box.",
    },
}


def formats() -> list[tuple[StateFormat, dict[str, Parameter]]]:
    every = fmt({k: {"description": k, **v} for k, v in EVERY_KIND.items()})
    found = [(every, PARAMS)]
    for game in GAMES:
        spec = loaded(game).spec
        found += [(f, dict(spec.parameters)) for f in spec.table_states.values()]
    return found


def test_the_strict_schema_is_the_strict_models_own() -> None:
    """The quick path reads states with the schema built directly: it says what the model says."""
    for state_format, params in formats():
        for game, sequence in ((None, None), ("brink", "council-vote")):
            models = state_models(state_format, params, game, sequence)
            direct = strict_schema(state_spec(state_format), params, game, sequence)
            assert models.schema == direct
            assert comparable(direct) == comparable(models.strict.__pydantic_core_schema__)


def test_a_good_state_builds_no_model() -> None:
    """A good state is read by the quick path alone: the models are built for a refused one."""
    state_format = fmt({"a": {"type": "int", "max": 2, "description": "A."}})
    models = state_models(state_format, PARAMS)
    assert problems(state_format, {"id": "ada", "a": 1}) == []
    assert models._strict is None
    assert models._lenient is None
    assert problems(state_format, {"id": "ada", "a": 3})
    assert models._strict is not None
