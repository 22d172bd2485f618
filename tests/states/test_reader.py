"""The compiled reader reads only what the quick path's validator reads, into the same records.

:mod:`rulepress.states.reader` is a first try before pydantic-core's
validator (its oracle): it may say *not known* of anything, but what it
reads the validator must accept, with records equal to the validator's all
the way down (the same types, the same keys in the same order, the same
values). Checked over every game's every state format, for drawn states and
for those states made odd the ways the reader looks at (wrong types,
subclasses, keys unknown, missing or out of order, texts with a line break).
"""

from __future__ import annotations

import copy
import sys
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import SchemaValidator, ValidationError, core_schema

from rulepress.expressions.records import Record
from rulepress.population.sampler import draw_states
from rulepress.states.models import state_models
from rulepress.states.quick import QuickCheck, _no_item_twice
from rulepress.states.reader import MEMO_CAP, MEMO_TEXT, UNKNOWN, _Texts, reader_of
from rulepress.states.validation import quick_check
from tests.conftest import loaded
from tests.properties.strategies import (
    MUTATION,
    _nodes,
    mutate,
    raw_states,
    sequence,
    sequences,
)

SEQUENCES = [pytest.param(g, s, id=f"{g}/{s}") for g, s in sequences()]
STRICT = core_schema.CoreConfig(strict=True)


def quick(game: str, seq_id: str) -> QuickCheck:
    spec = loaded(game).spec
    fmt = spec.table_states[sequence(loaded(game), seq_id).state]
    return quick_check(state_models(fmt, spec.parameters, spec.game.id), fmt)


def exact(value: Any) -> Any:
    """``value`` with every type in it, and every mapping's keys in their order."""
    if isinstance(value, dict):
        return (type(value), [(type(k), k, exact(v)) for k, v in value.items()])
    if isinstance(value, list):
        return (type(value), [exact(v) for v in value])
    return (type(value), value)


def agrees(check: QuickCheck, data: Any) -> bool:
    """Whether the reader read ``data`` (asserting the validator reads it alike)."""
    assert check.reader is not None
    assert check.validator is not None
    read = check.reader.read(data)
    if read is UNKNOWN:
        return False
    try:
        expected = check.validator.validate_python(data)
    except ValidationError as error:
        raise AssertionError(f"the reader read what the validator refuses: {error}") from None
    assert exact(read) == exact(expected)
    # the keys the validator gives, and the reader's, are the interned names
    assert all(k is sys.intern(k) for k in read)
    return True


class Text(str):
    __slots__ = ()


class Keyed(dict[Any, Any]):
    pass


class Listed(list[Any]):
    pass


def _odd(value: Any, how: int) -> Any:
    """``value`` made odd in one of the ways the reader must not take as the validator would."""
    if type(value) is str:
        return [Text(value), value + "\n", value + "\x00", "\n" + value, value + "\u2028", ""][
            how % 6
        ]
    if type(value) is bool:
        return [int(value), str(value).lower()][how % 2]
    if type(value) is int:
        return [value != 0, float(value), value + 1000, -value - 1, 10**40, Text(value)][how % 6]
    if type(value) is list:
        return [tuple(value), Listed(value), [*value, *value], value[::-1], []][how % 5]
    if type(value) is dict:
        keys = list(value)
        if how % 7 == 0:
            return Keyed(value)
        if how % 7 == 1:
            return {**value, "zz_unknown": 1}
        if how % 7 == 2 and keys:
            return {k: v for k, v in value.items() if k != keys[len(keys) // 2]}
        if how % 7 == 3:
            return dict(reversed(value.items()))  # every key out of order
        if how % 7 == 4 and keys:
            return {(Text(k) if i == 0 else k): v for i, (k, v) in enumerate(value.items())}
        if how % 7 == 5:
            return {**value, 1: 2}
        return dict(sorted(value.items(), key=lambda kv: str(kv[0])[::-1]))  # shuffled
    return value


def made_odd(state: Any, changes: list[tuple[float, int]]) -> Any:
    state = copy.deepcopy(state)
    for where, how in changes:
        paths = _nodes(state)
        path = paths[int(where * len(paths))]
        if not path:
            state = _odd(state, how)
            continue
        parent = state
        for part in path[:-1]:
            parent = parent[part]
        parent[path[-1]] = _odd(parent[path[-1]], how)
    return state


ODD = st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 41)), max_size=3)


@cache
def drawn(game: str, seq_id: str) -> tuple[dict[str, Any], ...]:
    return tuple(draw_states(loaded(game), seq_id, seed=20261207, count=6))


@pytest.mark.parametrize(("game", "seq_id"), SEQUENCES)
@given(data=st.data(), mutations=st.lists(MUTATION, max_size=2), odd=ODD)
def test_what_the_reader_reads_the_validator_reads_alike(
    game: str, seq_id: str, data: st.DataObject, mutations: list[Any], odd: list[Any]
) -> None:
    """Drawn states (the sampler's, good; hypothesis's, of any field values), mutated."""
    check = quick(game, seq_id)
    assert check.reader is not None, "every format of ours has a reader"
    spec = loaded(game)
    if data.draw(st.booleans(), label="sampler's"):
        state: Any = data.draw(st.sampled_from(drawn(game, seq_id)), label="drawn")
    else:
        state = data.draw(raw_states(spec, sequence(spec, seq_id)), label="state")
    state = made_odd(mutate(state, mutations), odd)
    agrees(check, state)


@pytest.mark.parametrize(("game", "seq_id"), SEQUENCES)
def test_every_kind_of_oddity_at_every_node(game: str, seq_id: str) -> None:
    """Each odd change at each node of a good state: read alike, or not known."""
    check = quick(game, seq_id)
    state = drawn(game, seq_id)[0]
    count = len(_nodes(state))
    for where in range(count):
        for how in range(7):  # (each kind of node has at most 7 ways: see _odd)
            agrees(check, made_odd(state, [(where / count, how)]))


@pytest.mark.parametrize("game", ["stationfall", "brink"])
def test_good_states_are_read(game: str) -> None:
    """The reader is of use: the sampler's states of our games, and their worked examples, read."""
    for g, seq_id in sequences():
        if g != game:
            continue
        check = quick(game, seq_id)
        for state in drawn(game, seq_id):
            assert agrees(check, state)
            # keys in another order than the format's, in every record: read the same
            assert agrees(check, reordered(state, reverse=True))
            assert agrees(check, reordered(state, reverse=False))
    for worked in loaded(game).spec.examples:
        seq_id = worked.sequence or loaded(game).spec.scorer.sequence
        assert agrees(quick(game, seq_id), worked.state)


def reordered(value: Any, *, reverse: bool) -> Any:
    """``value`` with the keys of every mapping in it reversed, or sorted by their last letter."""
    if isinstance(value, dict):
        items = [(k, reordered(v, reverse=reverse)) for k, v in value.items()]
        return dict(items[::-1] if reverse else sorted(items, key=lambda kv: kv[0][::-1]))
    if isinstance(value, list):
        return [reordered(v, reverse=reverse) for v in value]
    return value


def stationfall() -> tuple[QuickCheck, dict[str, Any]]:
    check = quick("stationfall", loaded("stationfall").spec.scorer.sequence)
    return check, copy.deepcopy(drawn("stationfall", loaded("stationfall").spec.scorer.sequence)[0])


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda s: s["players"][0].__setitem__("id", "p1\n"), id="id-line-break"),
        pytest.param(
            lambda s: s["players"][0].__setitem__("influence_limit", True), id="bool-for-int"
        ),
        pytest.param(lambda s: s["players"][0].__setitem__("zz", 1), id="unknown-key"),
        pytest.param(
            lambda s: s["players"][0].__setitem__("identity", Text("Pilot")), id="str-subclass"
        ),
        pytest.param(lambda s: s.__setitem__("players", tuple(s["players"])), id="tuple-list"),
        pytest.param(lambda s: s["players"][0].pop("id"), id="required-missing"),
        pytest.param(lambda s: s["players"][0].__setitem__("influence_limit", 99), id="too-high"),
    ],
)
def test_what_the_strict_model_refuses_is_not_read(change: Any) -> None:
    """Each goes red should the reader lose its check (tried once for bool-for-int)."""
    check, state = stationfall()
    assert agrees(check, state)
    change(state)
    assert check.reader is not None
    assert check.reader.read(state) is UNKNOWN


def test_a_text_leaf_remembers_no_more_than_its_cap() -> None:
    reader = reader_of(core_schema.str_schema(min_length=1), STRICT, **KNOWN)
    assert isinstance(reader, _Texts)
    for i in range(3 * MEMO_CAP):
        assert reader.read(f"name {i}") == f"name {i}"
        assert len(reader.memo) <= MEMO_CAP
    long = "x" * (MEMO_TEXT + 1)
    assert reader.read(long) == long
    assert long not in reader.memo
    assert reader.read("") is UNKNOWN  # (and a refused text is not remembered)
    assert "" not in reader.memo


#: what quick.record_reading tells reader_of of (a list bound, pure checks, no item twice)
KNOWN: dict[str, Any] = {"at_most": type(None), "pure": (), "once": _no_item_twice}


@pytest.mark.parametrize(
    ("schema", "config"),
    [
        (core_schema.str_schema(strip_whitespace=True), STRICT),
        (core_schema.int_schema(gt=0), STRICT),
        (core_schema.int_schema(), core_schema.CoreConfig(strict=False)),
        (core_schema.int_schema(strict=False), STRICT),
        (core_schema.literal_schema([1, "a"]), STRICT),
        (core_schema.union_schema([core_schema.str_schema(), core_schema.int_schema()]), STRICT),
        (core_schema.list_schema(), STRICT),
        (core_schema.dict_schema(), STRICT),
        (core_schema.no_info_after_validator_function(str.upper, core_schema.str_schema()), STRICT),
        (
            core_schema.chain_schema(
                [
                    core_schema.is_instance_schema(dict),
                    core_schema.call_schema(
                        core_schema.arguments_schema(
                            [
                                core_schema.arguments_parameter(
                                    "a",
                                    core_schema.with_default_schema(
                                        core_schema.list_schema(core_schema.int_schema()),
                                        default=[1],
                                    ),
                                    mode="keyword_only",
                                )
                            ]
                        ),
                        Record,
                    ),
                ]
            ),
            STRICT,
        ),
    ],
)
def test_a_shape_or_key_not_known_gives_no_reader(schema: Any, config: Any) -> None:
    """Such a format is read by the validator alone (a mutable default shared, say)."""
    SchemaValidator(schema, config=config)  # (a schema pydantic-core takes)
    assert reader_of(schema, config, **KNOWN) is None
