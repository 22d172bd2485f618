"""A validated spec written as data and built back (rulepress.games.spec_data) is the same spec.

The spec cache reads a kept spec this way instead of validating it again, so
what comes back must be the very objects a load gives (every model with the
fields it was given, named sets and declared expressions with what they
remember), and data that is anything else must be refused, never built: a
class is only ever one of a spec's own models.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from rulepress.games import load_spec, spec_data
from rulepress.model.declared import Declared
from rulepress.model.sets import SetLabels, SetList
from tests.conftest import DATA, GAMES, SPEC_ROOT

FOLDERS = [SPEC_ROOT / name for name in GAMES] + [DATA / "specs" / "tidewater"]


def same(a: Any, b: Any, where: tuple[Any, ...] = ()) -> None:
    """``a`` and ``b`` are the same objects: types, given fields and what each remembers."""
    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set, where
        assert a.__dict__.keys() == b.__dict__.keys(), where
        assert (a.__pydantic_extra__ or {}).keys() == (b.__pydantic_extra__ or {}).keys(), where
        # a model that allows extra items has them as a mapping, even when there is none
        assert (a.__pydantic_extra__ is None) == (b.__pydantic_extra__ is None), where
        assert a.__pydantic_private__ == b.__pydantic_private__, where
        for name in a.__dict__:
            same(a.__dict__[name], b.__dict__[name], (*where, name))
        for name, value in (a.__pydantic_extra__ or {}).items():
            same(value, (b.__pydantic_extra__ or {})[name], (*where, name))
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key, value in a.items():
            same(value, b[key], (*where, key))
        if isinstance(a, SetLabels):
            assert a.ref == b.ref, where
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, (*where, i))
        if isinstance(a, SetList):
            assert a.ref == b.ref, where
    else:
        assert a == b, where
        if isinstance(a, Declared):
            assert (a.parts, a.rulings) == (b.parts, b.rulings), where


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_a_spec_written_as_data_reads_back_as_the_same_objects(folder: Any) -> None:
    spec = load_spec(folder, isolate_examples=True).spec
    data = json.loads(json.dumps(spec_data.as_data(spec)))
    back = spec_data.spec_from_data(data)
    same(spec, back)
    assert back == spec
    assert back.model_dump_json() == spec.model_dump_json()


def _written(folder: Any = SPEC_ROOT / "stationfall") -> Any:
    spec = load_spec(folder, isolate_examples=True).spec
    return json.loads(json.dumps(spec_data.as_data(spec)))


def _first_example_state(data: Any) -> dict[str, Any]:
    state: dict[str, Any] = data["f"]["examples"][0]["f"]["state"]["d"]
    return state


def test_a_model_that_is_not_one_of_a_specs_is_refused_even_where_any_value_may_stand() -> None:
    # a pydantic model of rulepress's own, well-formed, in a field that holds any data
    # (an example's state): only the spec's models are ever built
    data = _written()
    other = {"m": "rulepress.games.spec_cache:_Places", "s": []}
    other["f"] = {"files": [], "values": [], "keys": []}
    _first_example_state(data)["players"] = other
    with pytest.raises(spec_data.UnreadableError, match="not a model of a spec"):
        spec_data.spec_from_data(data)


@pytest.mark.parametrize(
    "value",
    [
        {"dd": {}},  # an object the reader does not know
        {"d": {}, "t": []},  # two shapes at once
        {"sl": ["a"], "r": 3},  # a named set's list whose name is not text
        {
            "m": "rulepress.model.spec_model:RulingOption",
            "f": {"id": "x"},
            "s": [],
        },  # a field short
    ],
)
def test_data_that_as_data_does_not_write_is_refused(value: Any) -> None:
    data = _written()
    _first_example_state(data)["players"] = value
    with pytest.raises(spec_data.UnreadableError):
        spec_data.spec_from_data(data)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("y", 1),  # a key besides the class, fields, given fields and extra items
        ("m", ["rulepress.model.spec_model:Spec"]),  # a class that is not a name
        ("f", [["game", {}]]),  # fields that are not an object
        ("s", "game"),  # given fields that are not a list
    ],
)
def test_a_model_written_otherwise_than_as_data_writes_it_is_refused(key: str, value: Any) -> None:
    data = _written()
    data[key] = value  # the spec's own model
    with pytest.raises(spec_data.UnreadableError):
        spec_data.spec_from_data(data)


def test_a_value_no_spec_holds_is_not_written() -> None:
    spec = load_spec(SPEC_ROOT / "stationfall", isolate_examples=True).spec
    example = spec.examples[0].model_copy(update={"state": {"when": object()}})
    with pytest.raises(ValueError, match="a spec holds no object"):
        spec_data.as_data(example)
