"""The adversarial expression corpus: every case gives exactly its located error (or value).

The cases are data (tests/data/expressions/corpus.yaml), grouped by the
protection they probe: no attribute access, no rebinding of functions, no
format strings, sized repetition, depth, integer, text and step bounds,
unlike comparisons and division by zero. Parse-time cases must be refused
by ``parse``; evaluation-time cases run with the namespace they name.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import yaml

from rulepress.expressions.expression import (
    ExpressionEvalError,
    ExpressionLimitError,
    ExpressionSyntaxError,
    parse,
)
from rulepress.expressions.records import record
from tests.conftest import DATA

CORPUS: dict[str, Any] = yaml.safe_load(
    (DATA / "expressions" / "corpus.yaml").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = CORPUS["cases"]


def source_of(case: dict[str, Any]) -> str:
    if "source_parts" in case:
        return "".join(text * times for text, times in case["source_parts"])
    return str(case["source"])


def namespace(name: str) -> dict[str, Any]:
    spec = CORPUS["namespaces"][name]
    names = {key: record(value) for key, value in spec.get("values", {}).items()}
    names.update({key: list(range(n)) for key, n in spec.get("ranges", {}).items()})
    names.update({key: text * n for key, (text, n) in spec.get("repeated", {}).items()})
    return names


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_gives_its_exact_located_error(case: dict[str, Any]) -> None:
    source = source_of(case)
    if case["stage"] == "parse":
        with pytest.raises(ExpressionSyntaxError) as refused:
            parse(source)
        assert (refused.value.column, refused.value.message) == (case["column"], case["error"])
        return
    expr = parse(source)
    if "value" in case:
        assert expr.evaluate(namespace(case["names"])) == case["value"]
        return
    with pytest.raises(ExpressionEvalError) as failed:
        expr.evaluate(namespace(case["names"]))
    exc = failed.value
    assert (exc.column, exc.message) == (case["column"], case["error"])
    assert isinstance(exc, ExpressionLimitError) is case.get("limit", False)
    # the message users see names the expression and the column
    assert str(exc) == f"{source!r}: column {case['column']}: {case['error']}"


def test_the_corpus_covers_every_protection() -> None:
    ids = {c["id"] for c in CASES}
    assert len(CASES) >= 60
    assert len(ids) == len(CASES), "case ids must be unique"
    for probe in (
        "get-dunder",
        "get-dashes-become-dunder",
        "rebind-get",
        "rebind-zip-nested",
        "percent-width",
        "format-field-stays-text",
        "repeat-list-literal",
        "repeat-nested",
        "deep-parentheses",
        "deep-not",
        "huge-literal",
        "cartesian-two",
        "long-text-concat",
        "compare-int-text",
        "divide-by-zero-field",
    ):
        assert probe in ids


def test_nothing_but_expression_errors_escape_evaluation() -> None:
    """Whatever a case does, evaluating it raises only ExpressionEvalError (or returns)."""
    for case in CASES:
        if case["stage"] != "eval":
            continue
        with contextlib.suppress(ExpressionEvalError):
            parse(source_of(case)).evaluate(namespace(case["names"]))
