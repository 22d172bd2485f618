"""The state check's quick path gives what the full check gives, and is taken for good states.

The full check is had by turning the quick path off (its validator finds
nothing, its rules are never known to hold): then every state goes the way
it went before the quick path existed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic_core import SchemaValidator, ValidationError, core_schema

from rulepress.expressions.expression import Steps, parse
from rulepress.expressions.records import Record
from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import MAX_STATE_ID, Constraint, StateFormat, is_state_id
from rulepress.states.models import state_models
from rulepress.states.pairs import Tallies
from rulepress.states.quick import ASCII_ID, QuickCheck, Rules
from rulepress.states.validation import StateCheck, _walk, quick_check, validate_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import GAMES, loaded
from tests.properties.strategies import MUTATION, mutate, raw_states, sequence, sequences, valid


@contextmanager
def full_check_only() -> Iterator[None]:
    with (
        mock.patch.object(QuickCheck, "records", return_value=None),
        mock.patch.object(QuickCheck, "refs", return_value=False),
        mock.patch.object(Rules, "hold", return_value=False),
    ):
        yield


def check(spec: LoadedSpec, seq_id: str, data: Any) -> tuple[Any, list[tuple[str, str, str]]]:
    s = spec.spec
    fmt = s.table_states[sequence(spec, seq_id).state]
    state, problems = validate_state(fmt, s.parameters, data, SourceMap(), (), s.game.id, s.sets)
    return shape(state), [(str(p.location), p.where, p.message) for p in problems]


def shape(value: Any) -> Any:
    """``value`` with the type of every mapping in it (a Record, or a plain dict)."""
    if isinstance(value, dict):
        return (type(value).__name__, {k: shape(v) for k, v in value.items()})
    if isinstance(value, list):
        return [shape(v) for v in value]
    return value


@pytest.mark.parametrize(
    ("game", "seq_id"), [pytest.param(g, s, id=f"{g}/{s}") for g, s in sequences()]
)
@given(data=st.data(), mutations=st.lists(MUTATION, max_size=3), good=st.booleans())
def test_the_quick_path_gives_what_the_full_check_gives(
    game: str, seq_id: str, data: st.DataObject, mutations: list[Any], good: bool
) -> None:
    """Good states (made to meet every constraint) and states mutated into bad ones alike."""
    spec = loaded(game)
    state = data.draw(raw_states(spec, sequence(spec, seq_id)), label="state")
    if good:
        state = valid(spec, sequence(spec, seq_id), state) or state
    state = mutate(state, mutations)
    with full_check_only():
        expected = check(spec, seq_id, state)
    assert check(spec, seq_id, state) == expected


@pytest.mark.parametrize(
    ("game", "seq_id"), [pytest.param(g, s, id=f"{g}/{s}") for g, s in sequences()]
)
@given(data=st.data(), mutations=st.lists(MUTATION, max_size=3))
def test_the_record_validator_accepts_what_the_strict_model_accepts(
    game: str, seq_id: str, data: st.DataObject, mutations: list[Any]
) -> None:
    """Never more (a bad state would pass unreported), never less (good ones would go slowly).

    What the strict model accepts and the walk after it finds no ``unique``
    list with an item twice in (the reading refuses those at once).
    """
    spec = loaded(game)
    s = spec.spec
    seq = sequence(spec, seq_id)
    state = mutate(data.draw(raw_states(spec, seq), label="state"), mutations)
    fmt = s.table_states[seq.state]
    models = state_models(fmt, s.parameters, s.game.id)
    quick = quick_check(models, fmt)
    assert quick.validator is not None
    try:
        read = models.strict.model_validate(state).model_dump(by_alias=True)
    except ValueError:
        read = None
    if read is not None:
        walk = StateCheck(SourceMap(), (), s.parameters)
        for i, player in enumerate(read["players"]):
            _walk(walk, models.player_refs, player, None, ("players", i))
        _walk(walk, models.table_refs, read["table"], None, ("table",))
        if walk.problems:
            read = None
    assert (quick.records(state) is not None) is (read is not None)


def examples(game: str) -> Iterator[tuple[str, Any]]:
    for worked in loaded(game).spec.examples:
        yield worked.sequence or loaded(game).spec.scorer.sequence, worked.state


@pytest.mark.parametrize("game", GAMES)
def test_the_worked_examples_take_the_quick_path(game: str) -> None:
    """Every shipped game's good states are read and their constraints asked quickly."""
    spec = loaded(game)
    s = spec.spec
    asked = 0
    for seq_id, state in examples(game):
        fmt = s.table_states[sequence(spec, seq_id).state]
        with mock.patch("rulepress.states.validation._constraints") as full:
            _, problems = validate_state(
                fmt, s.parameters, state, SourceMap(), (), s.game.id, s.sets
            )
        assert problems == []
        read = quick_check(state_models(fmt, s.parameters, s.game.id), fmt).records(state)
        assert read is not None, seq_id
        assert isinstance(read["table"], Record)
        assert all(type(p) is Record for p in read["players"])
        # the records' keys are interned, as the expressions' names are: a field is found
        # by identity (a copy made here is interned anew only if no interned one exists)
        keys = [key for record in (read["table"], *read["players"]) for key in record]
        assert [k for k in keys if sys.intern(k[:1] + k[1:]) is not k] == []
        full.assert_not_called()  # the constraints held on the quick path
        asked += 1
    assert asked


def test_a_default_is_made_anew_for_every_state() -> None:
    """The table's defaults ({armed: false}, []) are records and lists of each state's own."""
    spec = loaded("stationfall")
    s = spec.spec
    fmt = s.table_states["stationfall-table"]
    quick = quick_check(state_models(fmt, s.parameters, s.game.id), fmt)
    state = next(state for _, state in examples("stationfall") if "table" not in state)
    first, second = quick.records(state), quick.records(state)
    assert first is not None
    assert second is not None
    for name in ("antimatter", "held_before_data"):
        assert first["table"][name] == second["table"][name]
        assert first["table"][name] is not second["table"][name]
    assert type(first["table"]["antimatter"]) is Record
    first["table"]["antimatter"]["armed"] = True
    first["table"]["held_before_data"].append("written by the scorer")
    third = quick.records(state)
    assert third is not None
    assert third["table"]["antimatter"] == {"armed": False, "location": None}
    assert third["table"]["held_before_data"] == []


@pytest.mark.parametrize(
    ("field", "good"),
    [
        ({"type": "int", "max": 3, "default": 2}, True),
        ({"type": "choice", "choices": ["a", "b"], "default": "b"}, True),
        ({"type": "bool", "default": True}, True),
        ({"type": "int", "max": 3, "default": 9}, False),
        ({"type": "choice", "choices": ["a", "b"], "default": "c"}, False),
        ({"type": "text", "default": "two\nlines"}, False),
        ({"type": "bool", "default": 1}, False),
        ({"type": "int", "default": True}, False),
    ],
)
def test_a_scalar_default_is_judged_as_the_strict_model_judges_it(
    field: dict[str, Any], good: bool
) -> None:
    """A scalar default the reading takes as it is was validated once; a bad one is refused.

    (The spec check reports such a default; the state check still must not
    take a state that leaves the field out.)
    """
    fmt = StateFormat.model_validate(
        {"description": "d", "players": {"max": 4, "fields": {"v": {**field, "description": "v"}}}}
    )
    state = {"players": [{"id": "ada"}]}
    quick = quick_check(state_models(fmt, {}), fmt)
    assert (quick.records(state) is not None) is good
    found = validate_state(fmt, {}, state, SourceMap())
    with full_check_only():
        assert validate_state(fmt, {}, state, SourceMap()) == found
    assert (found[1] == []) is good


def test_the_quick_path_charges_one_step_per_plain_expression() -> None:
    """A test that neither loops nor calls is one step, charged before it runs: the bound holds.

    Three members, each with a let and a test that are one step each: six
    steps. With five the quick path gives up (not known), with six it holds,
    and a rule's looping test still takes its own steps from the same budget.
    """

    def compiled(source: str) -> Any:
        return parse(source)

    plain = Rules.of(
        [Constraint(items="xs", item="x", let={"y": "x + 1"}, test="y > x", message="m")],
        compiled,
    )
    names = {"xs": [1, 2, 3]}
    # the items (a name read: one step of within), then two a member
    for budget, holds in ((6, False), (7, True)):
        steps = Steps(budget)
        assert plain.hold([dict(names)], steps) is holds, budget
    steps = Steps(100)
    assert plain.hold([dict(names)], steps)
    assert steps.left == 100 - 1 - 3 * 2
    looping = Rules.of([Constraint(test="sum(v for v in xs) == 6", message="m")], compiled)
    steps = Steps(100)
    assert looping.hold([dict(names)], steps)
    assert steps.left == 100 - 1 - 3  # the call, then an item each
    failing = Rules.of([Constraint(test="xs.nope", message="m")], compiled)
    assert not failing.hold([dict(names)], Steps(100))  # unlocated failures: not known
    # without a let, the members' steps are charged at once: the same steps, the same bound
    each = Rules.of([Constraint(items="xs", item="x", test="x > 0", message="m")], compiled)
    for budget, holds in ((3, False), (4, True)):
        assert each.hold([dict(names)], Steps(budget)) is holds, budget
    steps = Steps(100)
    assert each.hold([dict(names)], steps)
    assert steps.left == 100 - 1 - 3
    assert not each.hold([{"ys": [1]}], Steps(100))  # items a name not there: not known
    lets = Rules.of([Constraint(let={"y": "xs"}, test="len(y) == 3", message="m")], compiled)
    for budget, holds in ((1, False), (2, True)):
        assert lets.hold([dict(names)], Steps(budget)) is holds, budget


@pytest.mark.parametrize(
    ("second", "holds"),
    [
        # reads the field x, which the first rule's let hides in its own namespace
        (Constraint(test="x == 1", message="m"), False),
        # sets x too, as its member: each must set it in a namespace of its own
        (Constraint(items="[x]", item="x", test="x == 0", message="m"), True),
        (Constraint(test="y == 1", message="m"), True),  # reads no name the first sets
    ],
)
def test_a_name_a_rule_sets_is_seen_by_no_other_rule(second: Constraint, holds: bool) -> None:
    """The rules of a format are asked of all its records one after the other, in their namespaces.

    A rule sets its let values and member in a record's namespace only when
    no other rule reads or sets those names; else in a copy, as the full
    check does, so that a rule never reads what another left there.
    """
    first = Constraint(let={"x": "1"}, test="x == 1", message="m")
    rules = Rules.of([first, second], parse)
    spaces = [{"x": 0, "y": 1}, {"x": 0, "y": 1}]
    assert rules.hold(spaces, Steps()) is holds
    assert Rules.of([second, first], parse).hold([dict(s) for s in spaces], Steps()) is holds


def test_stationfall_bribes_are_counted_from_one_tally_per_state() -> None:
    """The Bribe rule's count across the players is tallied once, not asked of every pair.

    Its result is held to the full check's by the tests above; here, that the
    quick path takes the tally at all (see rulepress.states.pairs).
    """
    spec = loaded("stationfall")
    s = spec.spec
    fmt = s.table_states["stationfall-table"]
    quick = quick_check(state_models(fmt, s.parameters, s.game.id), fmt)
    state = next(state for _, state in examples("stationfall") if len(state["players"]) > 2)
    read = quick.records(state)
    assert read is not None
    players = read["players"]
    context = {"param": quick.params, "players": players, "n_players": len(players)}
    steps, tallies = Steps(), Tallies()
    assert quick.players.hold([{**context, **player} for player in players], steps, tallies)
    assert [key for key, (seq, tally) in tallies.items() if seq is players and tally] == [
        ("players", "foreign_bribes", "id")
    ]


ASCII = st.text(st.sampled_from("aZz09_-. \n\t\x00é"), max_size=34)


@given(text=ASCII | st.text(st.characters(max_codepoint=127), max_size=34))
@example(text="a" * MAX_STATE_ID)
@example(text="a" * (MAX_STATE_ID + 1))
@example(text="a\n")
def test_the_ascii_id_pattern_accepts_what_is_state_id_accepts(text: str) -> None:
    """Never more (a bad id would pass the reading), and every ASCII id (or each goes to Python)."""
    pattern = SchemaValidator(core_schema.str_schema(pattern=ASCII_ID, strict=True))
    try:
        pattern.validate_python(text)
        matched = True
    except ValidationError:
        matched = False
    assert matched is (text.isascii() and is_state_id(text))
