"""Expressions compiled with constant records give what they give without them."""

from __future__ import annotations

from typing import Any

import pytest

from rulepress.expressions.expression import ExpressionEvalError, parse
from rulepress.expressions.records import Record

RULING = Record(scope="all", base="any")
PARAM = Record(points=3, zero=0, name="x")
NAMES: dict[str, Any] = {
    "ruling": RULING,
    "param": PARAM,
    "n": 5,
    "cubes": Record(box=2, cards=4),
    "items": [1, 2, 3],
    "rows": [Record(points=7)],
    "empty": "",
}
SOURCES = [
    "ruling.scope == 'all' and n > 2",
    "ruling.scope == 'some' and n > 2",
    "ruling.scope == 'some' or n",
    "ruling.scope != 'some' or n",
    "n > 9 or ruling.base == 'any'",
    "not ruling.scope",
    "n * param.points",
    "-n * param.points",
    "cubes.cards + (cubes.box if ruling.scope == 'all' else 0)",
    "max(0, cubes.cards - param.points)",
    "[x * param.points for x in items if ruling.base == 'any']",
    "sum(x for x in items if x > param.zero)",
    "param.name + 'y'",
    "get(ruling, 'scope')",
    "ruling.scope == 'all' and param.points",
    # constants after the first part: dropped where they change nothing, or ending the parts
    "n > 9 or ruling.scope == 'some' and n or ruling.scope == 'some'",
    "n > 9 or ruling.scope == 'all' or n",
    "n > 2 and ruling.scope == 'all' and n",
    "n > 2 and ruling.base == 'any'",
    "empty or ruling.scope == 'some'",
    "not empty and ruling.scope == 'all'",
    "n > 9 or param.zero",
]
FAILING = [
    "n // param.zero",
    "param.points // param.zero",
    "'ab' * (param.points * 100000000)",
    "param.name + 1",
    "ruling.scope == 'all' and n // param.zero",
]


def outcome(source: str, constants: dict[str, Record] | None) -> tuple[str, Any]:
    expr = parse(source, constants)
    try:
        return "value", expr.evaluate(NAMES, {})
    except ExpressionEvalError as exc:
        return "error", (type(exc), str(exc))


@pytest.mark.parametrize("source", SOURCES + FAILING)
def test_folded_gives_the_same(source: str) -> None:
    constants = {"ruling": RULING, "param": PARAM}
    assert outcome(source, constants) == outcome(source, None)


@pytest.mark.parametrize("source", FAILING)
def test_a_failing_fold_fails_when_evaluated(source: str) -> None:
    # compiling with constants never refuses what the spec check let through
    assert outcome(source, {"ruling": RULING, "param": PARAM})[0] == "error"


def test_folded_names_are_still_reported() -> None:
    expr = parse("ruling.scope == 'all' and n > 2", {"ruling": RULING})
    assert expr.names == parse("ruling.scope == 'all' and n > 2").names
    assert ("ruling", "scope") in expr.attributes


def test_a_generator_name_is_not_folded() -> None:
    expr = parse("[param.points for param in rows]", {"param": PARAM})
    assert expr.evaluate(NAMES, {}) == [7]


@pytest.mark.parametrize(
    ("source", "x", "expected"),
    [
        ("x or ''", "", ""),
        ("x or ''", "a", "a"),
        ("x or 0", None, 0),
        ("x and 0", 5, 0),
        ("x and 0", False, False),
        ("x and 'y'", 1, "y"),
    ],
)
def test_a_constant_last_part_is_its_value(source: str, x: Any, expected: Any) -> None:
    value = parse(source).evaluate({"x": x}, {})
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize(
    "names",
    [
        {"b": Record(k="f", s="e")},
        {"b": Record(k="g", s="e")},
        {"b": Record(k="f", s="x")},
        {"b": Record(k="f"), "c": 1},
        {"b": Record(k=1, s="e")},
        {"b": 3},
        {},
    ],
)
def test_two_field_tests_in_one_closure_evaluate_as_apart(names: dict[str, Any]) -> None:
    fused = "b.k == 'f' and b.s == 'e'"
    # the same tests in a shape that is not fused (each compared with True)
    apart = "(b.k == 'f') == True and (b.s == 'e') == True"

    def run(source: str) -> Any:
        try:
            return parse(source).evaluate(names, {})
        except ExpressionEvalError as exc:
            return exc.message

    assert run(fused) == run(apart)
