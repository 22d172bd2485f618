"""The expression language: what it accepts, what it refuses, how it evaluates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulepress.expressions.expression import (
    ExpressionEvalError,
    ExpressionLimitError,
    ExpressionSyntaxError,
    parse,
)
from rulepress.expressions.records import record
from tests.conftest import edit, run_main


def test_evaluates_records_generators_and_functions() -> None:
    expr = parse("sum(l.points for l in agenda if l.met) + max(0, cubes.out - limit)")
    ns = {
        "agenda": record([{"points": 2, "met": True}, {"points": 5, "met": False}]),
        "cubes": record({"out": 6}),
        "limit": 4,
    }
    assert expr.evaluate(ns) == 4
    assert expr.names == {"agenda", "cubes", "limit"}


def test_generator_sees_outer_names() -> None:
    expr = parse("count(x > floor for x in values)")
    assert expr.evaluate({"values": [1, 5, 7], "floor": 4}) == 2


def test_attribute_pairs_are_recorded_for_checks() -> None:
    assert parse("param.a + ruling.b == 'x'").attributes == {("param", "a"), ("ruling", "b")}


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("__import__('os')", "only these functions may be called"),
        ("x.__class__", "attribute '__class__' is not allowed"),
        ("_secret", "name '_secret' is not allowed"),
        ("lambda: 1", "Lambda is not allowed"),
        ("2 ** 100000", "Pow is not allowed"),
        ("a[i]", "only a fixed index such as [0] is allowed"),
        ("x.upper()", "only these functions may be called"),
        ("{x: 1 for x in y}", "DictComp is not allowed"),
        ("1.5 + x", "only integers, text, booleans and None"),
        ("max(a, key=b)", "keyword arguments are not allowed"),
        ("a +", "invalid expression"),
        ("x" * 2001, "expression longer than 2000 characters"),
    ],
)
def test_refuses_what_is_not_whitelisted(source: str, message: str) -> None:
    with pytest.raises(ExpressionSyntaxError, match=re.escape(message)):
        parse(source)


@pytest.mark.parametrize(
    ("written", "named"),
    [
        pytest.param("engineer", True, id="the-id"),
        pytest.param("Engineer", True, id="capitalised"),
        pytest.param(" ENGINEER ", True, id="any-case-spaces-around"),
        pytest.param("Engineers", False, id="near-miss"),
        pytest.param("Inženýr", False, id="a-label-in-czech"),
        pytest.param("エンジニア", False, id="a-label-in-japanese"),
        pytest.param("", False, id="nothing-written"),
    ],
)
def test_named_in_matches_a_written_text_by_the_id_alone(written: str, named: bool) -> None:
    expr = parse("named_in(identity, ids)")
    assert expr.evaluate({"identity": written, "ids": ["engineer", "x_secret"]}) is named


def test_named_in_of_nothing_is_false_and_of_a_number_an_error() -> None:
    # an optional text field left out reads as None: it names no card
    assert parse("named_in(identity, ids)").evaluate({"identity": None, "ids": ["a"]}) is False
    with pytest.raises(ExpressionEvalError, match="named_in\\(\\) needs text first"):
        parse("named_in(identity, ids)").evaluate({"identity": 3, "ids": ["a"]})
    with pytest.raises(ExpressionEvalError, match="named_in\\(\\) needs a list"):
        parse("named_in(identity, ids)").evaluate({"identity": "a", "ids": "a"})


def test_runtime_failures_are_expression_errors() -> None:
    with pytest.raises(ExpressionEvalError, match="the record has no field 'missing'"):
        parse("a.missing").evaluate({"a": record({"b": 1})})
    with pytest.raises(ExpressionEvalError):
        parse("a + 'x'").evaluate({"a": 1})


#: a field the record lacks, read by each closure that reads a field in place (a record's
#: ``get`` with a sentinel, nodes.NC): the column of the error, or the value when the
#: expression does not read it
MISSING_FIELD = [
    ("a.nope", 1),
    ("a.nope == 1", 1),
    ("a.nope != 1", 1),
    ("a.nope is None", 1),
    ("a.nope is not None", 1),
    ("not a.nope", 5),
    ("a.nope in xs", 1),
    ("a.nope * 2", 1),
    ("a.nope + a.b", 1),
    ("a.nope > 1", 1),
    ("a.nope if a.nope is not None else 1", 11),
    ("a.nope is None or len(xs)", 1),
    ("not a.nope or len(xs)", 5),
    ("a.c is None or a.nope", True),
    ("a.c is not None or a.nope", 20),
    ("a.nope == 1 and a.b == 1", 1),
    ("a.b == 1 and a.nope == 1", 14),
    ("a.nope == 1 or len(xs) > 0", 1),
    ("a.nope != 1 and any(x for x in xs)", 1),
    ("a.r.nope", 1),
    ("a.nope.b", 1),
    ("get(a, 'nope')", 1),
    ("[r.nope for r in rs]", 2),
    ("[r.nope == 1 for r in rs]", 2),
    ("[r.nope != 1 for r in rs]", 2),
    ("[r.nope > 1 for r in rs]", 2),
    ("[r.nope == me for r in rs]", 2),
    ("[(r.nope, r.b) for r in rs]", 3),
    ("[(r.b, r.nope) for r in rs]", 8),
]


@pytest.mark.parametrize(("source", "expected"), MISSING_FIELD)
def test_a_missing_field_is_a_located_error(source: str, expected: int | bool) -> None:
    names = {
        "a": record({"b": 1, "c": None, "r": {"b": 2}}),
        "xs": [1, 2],
        "rs": [record({"b": 1})],
        "me": "p",
    }
    expr = parse(source)
    for evaluate in (expr.evaluate, expr.fast):
        if type(expected) is bool:
            assert evaluate(names, {}) is expected
            continue
        with pytest.raises(ExpressionEvalError) as exc:
            evaluate(names, {})
        assert (exc.value.message, exc.value.column) == ("the record has no field 'nope'", expected)


def test_a_data_name_is_never_called() -> None:
    """Context functions come apart from the data: a name in the data cannot be called."""
    called: list[str] = []
    names = {"lookup": lambda *a: called.append("data")}
    with pytest.raises(ExpressionEvalError, match="function 'lookup' is not available here"):
        parse("lookup('t', 1)").evaluate(names)
    assert parse("lookup('t', 1)").evaluate({}, {"lookup": lambda t, k: k + 1}) == 2
    assert called == []


def test_fields_are_keys_never_attributes() -> None:
    rec = record({"name": "x"})
    for name in ("keys", "items", "__class__", "__dict__", "get"):
        with pytest.raises(ExpressionEvalError, match=f"the record has no field '{name}'"):
            parse("get(r, n)").evaluate({"r": rec, "n": name})
    assert parse("get(r, 'na-me'), r.name").evaluate({"r": record({"na_me": 1, "name": 2})}) == (
        1,
        2,
    )


def test_steps_are_counted_per_evaluation() -> None:
    expr = parse("count(1 for a in big for b in big)")
    assert expr.evaluate({"big": list(range(300))}) == 90_000
    assert expr.evaluate({"big": list(range(300))}) == 90_000  # a fresh budget each time
    with pytest.raises(ExpressionLimitError, match="more than 100000 evaluation steps"):
        expr.evaluate({"big": list(range(400))})


@pytest.mark.parametrize("escape", ["smuggled-field", "rebound-function"])
def test_known_escapes_are_refused_by_validate(
    escape: str, spec_copy: Path, tmp_path: Path
) -> None:
    """The two escapes of the eval()-based language, end to end: located, non-zero, no effect."""
    sentinel = tmp_path / "sentinel"
    chain = "get(get(get(bc, '-_class--'), '-_init--'), '-_globals--')"
    when = {
        "smuggled-field": f"get({chain}, '-_builtins--') is None",
        # the data name the generator binds (here a text) would be what get() calls
        "rebound-function": f"any(get('touch {sentinel}') for get in [bc.name])",
    }[escape]
    edit(
        spec_copy / "stationfall" / "sequence.yaml",
        "when: bc.kind == 'friend' and bc.state == 'escaped'",
        f'when: "{when}"',
    )
    result = run_main("validate", "rules_spec/stationfall", cwd=spec_copy.parent)
    assert result.code != 0
    assert "Traceback" not in result.err
    assert not sentinel.exists()
    # the edited line, found in the copy: an edit elsewhere in the real spec moves it
    sequence = spec_copy / "stationfall" / "sequence.yaml"
    lines = sequence.read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if f'when: "{when}"' in text)
    start = lines[line - 1].index('"') + 1  # the quoted expression's column
    where = f"rules_spec/stationfall/sequence.yaml:{line}:{start}: "
    path = "sequences[0].steps[4].steps[1].score.component.parts[0].when: "
    message = {
        "smuggled-field": "field '__builtins__' is not allowed",
        "rebound-function": "'get' is a function: it can only be called, not bound by a generator",
    }[escape]
    column = {"smuggled-field": 1, "rebound-function": 23 + len(str(sentinel))}[escape]
    assert result.err == (
        f"{where}{path}{message} (column {column} of {when!r})\n"
        "the specs have problems: 1 problem\n"
    )
