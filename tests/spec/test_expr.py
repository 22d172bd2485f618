"""The expression language: what it accepts, what it refuses, how it evaluates."""

from __future__ import annotations

import re

import pytest

from rulepress.spec.expr import (
    ExpressionEvalError,
    ExpressionSyntaxError,
    parse,
)
from rulepress.spec.records import record


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


def test_runtime_failures_are_expression_errors() -> None:
    with pytest.raises(ExpressionEvalError, match="the record has no field 'missing'"):
        parse("a.missing").evaluate({"a": record({"b": 1})})
    with pytest.raises(ExpressionEvalError):
        parse("a + 'x'").evaluate({"a": 1})
