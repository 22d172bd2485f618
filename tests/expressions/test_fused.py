"""The compiler's fused closures give exactly what the closures they fuse give.

``count``, ``sum``, ``any`` and ``all`` of a one-loop generator run as one
loop (:func:`rulepress.expressions.nodes.reduction`); a generator's item
compared with a data name is one call (``other.id != id``, ``id in
other.bribes``: :func:`rulepress.expressions.nodes.pair_compare`); the first
part of an ``and`` or ``or`` that tests a field is tested inline
(:func:`rulepress.expressions.nodes.leading_predicate`); an arithmetic
operator or an integer comparison reads a data name or its field on its left
itself (:func:`rulepress.expressions.nodes.leaf_arith`,
:func:`~rulepress.expressions.nodes.leaf_ordered`); ``x.f if x.f is not None
else …`` reads the field once (:func:`~rulepress.expressions.nodes.field_or_else`);
a generator item's field is tested, and a pair of items built, in one call
(:func:`~rulepress.expressions.nodes.slot_field_test`,
:func:`~rulepress.expressions.nodes.slot_pair`); the first part of a root
``and``/``or`` that loops or calls is tested before its frame is made
(:func:`~rulepress.expressions.nodes.root_lead`).
Each must
be what it replaces in all but speed: the same value, the same steps spent
(the budget's bound), the same error at the same column. Each case is
evaluated both ways: fused, and with the fusing turned off, as the compiler
built these expressions before.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulepress import compiled
from rulepress.expressions import compiler
from rulepress.expressions.expression import (
    Expression,
    ExpressionEvalError,
    Steps,
    parse,
)
from rulepress.expressions.nodes import generator
from rulepress.expressions.records import record
from rulepress.expressions.runtime import collected

NAMES: dict[str, Any] = {
    "xs": [3, 0, 5, 2, 7],
    "empty": [],
    "words": ["a", "b"],
    "mixed": [1, "x", 2],
    "nested": [[1], [2, 3]],
    "flags": (True, False, True),
    "text": "abc",
    "big": [10**15, 1],
    "me": "p1",
    "n": 4,
    "m": 2,
    "flag": True,
    "huge": 10**15,
    "line": record({"held": None, "met": True, "points": 3, "kind": "a", "text": "", "no": False}),
    "other": record({"held": {"ok": False}, "met": 0, "points": 0, "kind": "b", "text": "t"}),
    "players": record(
        [
            {"id": "p0", "bribes": ["p1", "p2"]},
            {"id": "p1", "bribes": []},
            {"id": "p2", "bribes": ["p1"]},
        ]
    ),
}

SOURCES = [
    "count(x > 2 for x in xs)",
    "count(x for x in xs if x != 5)",
    "count(me in p.bribes for p in players if p.id != me)",
    "count(x for x in empty)",
    "sum(x for x in xs)",
    "sum(x * 2 for x in xs if x > 1)",
    "sum(f for f in flags)",
    "sum(w for w in words)",
    "sum(x for x in mixed)",
    "sum(n for n in nested)",
    "sum(x for x in big)",
    "sum(x < 'a' for x in xs)",
    "sum(x // (x - 5) for x in xs)",
    "any(x > 4 for x in xs)",
    "any(x > 40 for x in xs)",
    "any(x.nope for x in players if x.id == 'p2')",
    "all(x < 6 for x in xs)",
    "all(x < 60 for x in xs if x)",
    "all(me in p.bribes for p in players)",
    "count(c for c in text)",
    "any(c for c in me)",
    "count(x for x in missing)",
    "sum(x for x in xs) + count(x > 1 for x in xs)",
    "count(count(y > x for y in xs) > 1 for x in xs)",
    "[p.id == me for p in players]",
    "[me != p.id for p in players]",
    "[me in p.bribes for p in players]",
    "[me not in p.bribes for p in players]",
    "[p.bribes == me for p in players]",
    "[p.bribes != nested for p in players]",
    "[p.id in me for p in players]",
    "[p.id in text for p in players]",
    "[p.id in words for p in players]",
    "[p.nope == me for p in players]",
    "[p.id == missing for p in players]",
    "[x == me for x in xs]",
    "[x.id in nested for x in [1]]",
    "[me in p.id for p in players]",
    "[(x, w) for x in xs if x > 2 for w in words]",
    "[(x, w, c) for x in xs for w in words if w != 'a' for c in text]",
    "[a + b for a, b in [(1, 2), (3, 4)] for w in words]",
    "[a for a, b in [(1, 2), 3] for w in words]",
    "[w for x in xs for w in x]",
    "[n for x in xs for n in nested for y in n]",
    "line.held is None or line.met",
    "other.held is None or other.met",
    "line.held is not None or line.met",
    "other.held is not None or other.met",
    "not line.no or line.points > 1",
    "not other.kind or other.points > 1",
    "line.kind == 'a' and line.points",
    "other.kind == 'a' and other.points",
    "line.kind != 'a' or 'x'",
    "other.kind != 'a' or 'x'",
    "line.text or ''",
    "other.text or ''",
    "line.text or []",
    "line.met and line.points and line.kind",
    "other.met and other.points and other.kind",
    "other.met or other.points or other.text",
    "line.held is None or not line.held.ok or line.points",
    "other.held is None or not other.held.ok or other.points",
    "other.held is None or other.held.ok or other.held.nope",
    "other.held is None or other.nope",
    "other.held is None or xs.nope",
    "other.held is None or missing.x",
    "other.held is None or len(xs)",
    "line.text is None or len(xs)",
    "line.nope is None or len(xs)",
    "xs.held is None or len(xs)",
    "missing.held is None or len(xs)",
    "other.held is None or len(missing)",
    "not line.points or len(xs)",
    "not line.nope or len(xs)",
    "not xs.kind or len(xs)",
    "not missing.x or len(xs)",
    "not line.points or len(missing)",
    "line.held is not None or line.nope",
    "line.held is not None or xs.nope",
    "line.held is not None or missing.x",
    "line.nope is not None or line.met",
    "xs.held is not None or line.met",
    "line.points is not None or missing.x",
    "other.held is not None and line.kind",
    "line.nope or 1",
    "line.nope and 1",
    "xs.nope or 1",
    "missing.x or 1",
    "line.kind == 'a' and line.kind == 'b'",
    "line.kind == 1 or line.points == 3",
    "line.met == True and other.met == False",
    "[l.held is None or l.points for l in [line, other]]",
    "line.points * (line.points if line.met else 1)",
    "line.points - other.points",
    "line.points * huge * huge",
    "line.points * 2",
    "line.points + 1",
    "line.met + 1",
    "other.held * 2",
    "line.kind * 2",
    "line.kind * 100000",
    "line.kind + other.kind",
    "line.kind - line.points",
    "n - me",
    "line.text - 1",
    "line.nope * 2",
    "line.nope + line.points",
    "missing.x * 2",
    "xs.nope - 1",
    "n - m",
    "n * m * 3",
    "n - missing",
    "missing - n",
    "flag + n",
    "n * xs",
    "xs * n",
    "words + words",
    "huge * huge",
    "huge * 1000000",
    "n * (m + 1)",
    "n - xs[0]",
    "n * me",
    "line.points > 2",
    "line.points <= 2",
    "line.met > 0",
    "other.held > 1",
    "line.nope > 1",
    "missing.x > 1",
    "n > 3",
    "n >= 5",
    "text > 1",
    "flag < 2",
    "missing > 1",
    "[x * 2 - n for x in xs if n > x]",
    "line.held if line.held is not None else 1",
    "other.held if other.held is not None else 1",
    "line.no if line.no is not None else 1",
    "other.met if other.met is not None else 5",
    "line.text if line.text is not None else 'x'",
    "line.nope if line.nope is not None else 1",
    "xs.nope if xs.nope is not None else 1",
    "missing.x if missing.x is not None else 1",
    "line.held if line.held is not None else xs",
    "line.held if line.held is not None else missing",
    "line.points if line.points is not None else missing",
    "line.points * (line.held if line.held is not None else 2)",
    "[l.held if l.held is not None else 0 for l in [line, other]]",
    "[c.kind == 'a' for c in [line, other]]",
    "[c.kind != 'a' for c in [line, other, 1]]",
    "[c.held is None for c in [line, other]]",
    "[c.held is not None for c in [other, xs]]",
    "[not c.no for c in [line]]",
    "[not c.nope for c in [line]]",
    "[c.nope == 1 for c in [line]]",
    "[(c.kind, c.points) for c in [line, other]]",
    "[[c.kind, c.text] for c in [line, other]]",
    "[(x, c.kind) for c in [line] for x in xs]",
    "[(c, c.kind) for c in [line, 3]]",
    "[[c, x] for c in xs for x in words]",
    "[[c.nope, c.kind] for c in [line]]",
    "[[c.kind, c.nope] for c in [line]]",
    "[(c.kind, me) for c in [line]]",
    "any(d.kind == 'b' and d.text for d in [line, other])",
    "count(c.kind == 'b' for c in [line, other])",
    "me == 'p1' or len(xs) > 1",
    "me == 'p2' or len(xs) > 1",
    "me != 'p1' and count(x for x in xs)",
    "me != 'p2' and count(x for x in xs)",
    "me and sum(x for x in xs)",
    "empty and sum(x for x in xs)",
    "empty or sum(x for x in xs)",
    "not empty or len(missing)",
    "missing == 1 or len(xs)",
    "line.met or len(xs)",
    "other.met or len(xs)",
    "line.nope or len(xs)",
    "xs.nope and len(xs)",
    "xs == 'a' or len(xs)",
    "xs != 'a' and len(xs)",
    "line.held is None and len(xs)",
    "other.held is None and len(xs)",
    "other.held is not None or len(missing)",
    "n == 4 or len(missing)",
    "n != 4 and len(missing)",
    "flag or all(x > 0 for x in xs)",
]


def _outcome(expr: Expression, steps: int) -> tuple[Any, ...]:
    """What one evaluation gives: its value or error (message, column), and the steps left."""
    budget = Steps(steps)
    try:
        value: Any = ("value", expr.within(NAMES, budget))
    except ExpressionEvalError as exc:
        value = ("error", type(exc).__name__, exc.message, exc.column)
    return value, budget.left


def _unfused(source: str, monkeypatch: pytest.MonkeyPatch) -> Expression:
    with monkeypatch.context() as patch:
        patch.setattr(compiler, "REDUCTIONS", frozenset())
        patch.setattr(compiler, "pair_compare", lambda *args: None)
        patch.setattr(compiler, "leading_predicate", lambda *args: args[-1])
        patch.setattr(compiler, "leaf_arith", lambda *args: args[4])
        patch.setattr(compiler, "leaf_arith_constant", lambda *args: args[3])
        patch.setattr(compiler, "leaf_ordered", lambda *args: None)
        patch.setattr(compiler, "field_or_else", lambda *args: args[-1])
        patch.setattr(compiler, "slot_field_test", lambda *args: None)
        patch.setattr(compiler, "slot_pair", lambda *args: args[-1])
        patch.setattr(compiler, "root_lead", lambda *args: None)
        patch.setattr(compiler, "list_builder", _collected)
        return parse(source)


def _collected(loops: Any, element: Any, column: int) -> Any:
    """A list comprehension as its generator's items collected (before nodes.list_builder)."""
    items = generator(loops, element)
    return lambda ns, fr: collected(items(ns, fr), column)


#: the tests that find a fused closure by walking the evaluator's closures (``__closure__``,
#: ``__qualname__``): a build compiled by mypyc (rulepress.compiled) makes its closures
#: objects without those, so they run on the pure-Python build only
introspects = pytest.mark.skipif(
    compiled.build() != "pure", reason="compiled closures have no __closure__ to walk"
)


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("steps", [100_000, 1, 3, 6, 9])
def test_a_fused_closure_gives_what_its_parts_give(
    source: str, steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fused = parse(source)
    plain = _unfused(source, monkeypatch)
    assert fused.evaluate is not plain.evaluate
    assert _outcome(fused, steps) == _outcome(plain, steps)
    # and through evaluate(), whose errors carry the source
    results = []
    for expr in (fused, plain):
        try:
            results.append(("value", expr.evaluate(NAMES)))
        except ExpressionEvalError as exc:
            results.append(("error", exc.message, exc.column, exc.source))
    assert results[0] == results[1]


@introspects
def test_the_fusing_is_used() -> None:
    # the Bribes of a nine-player table: one count per player, each over every player
    expr = parse("count(me in p.bribes for p in players if p.id != me)")
    assert expr.evaluate(NAMES) == 2
    closure = expr.evaluate.__closure__ or ()
    fns = [c.cell_contents for c in closure if callable(c.cell_contents)]
    assert any(getattr(f, "__qualname__", "").startswith("reduction.") for f in fns)


@introspects
def test_a_root_lead_decides_before_the_frame() -> None:
    # Stationfall's eligibility: most players are not Guilty, and named_in is not called
    expr = parse("me != 'p2' or named_in(me, words)")
    assert expr.evaluate.__qualname__ == "_evaluator.<locals>.evaluate_led"
    assert expr.evaluate(NAMES) is True
    # undecided: the whole expression is evaluated, in its frame
    assert parse("me != 'p1' or named_in(me, words)").evaluate(NAMES) is False
    assert parse("me != 'p1' or named_in(me, [me])").evaluate(NAMES) is True


@introspects
def test_the_pair_compare_is_used() -> None:
    expr = parse("[me in p.bribes for p in players if p.id != me]")
    assert expr.evaluate(NAMES) == [True, True]
    names = set()
    stack = [expr.evaluate]
    while stack:  # every closure reachable from the evaluator
        fn = stack.pop()
        names.add(getattr(fn, "__qualname__", ""))
        for cell in getattr(fn, "__closure__", None) or ():
            value = cell.cell_contents
            items = value if isinstance(value, tuple | list) else [value]
            for v in items:
                for part in v if isinstance(v, tuple) else [v]:
                    if callable(part) and getattr(part, "__closure__", None) is not None:
                        stack.append(part)
    assert "pair_compare.<locals>.compare" in names


def _closures(expr: Expression) -> set[str]:
    """The qualified names of every closure reachable from an expression's evaluator."""
    names = set()
    stack = [expr.evaluate]
    seen: set[int] = set()
    while stack:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        names.add(getattr(fn, "__qualname__", ""))
        for cell in getattr(fn, "__closure__", None) or ():
            value = cell.cell_contents
            items = value if isinstance(value, tuple | list) else [value]
            for v in items:
                for part in v if isinstance(v, tuple) else [v]:
                    if callable(part) and getattr(part, "__closure__", None) is not None:
                        stack.append(part)
    return names


@introspects
@pytest.mark.parametrize(
    ("source", "closure"),
    [
        ("line.points * (line.points if line.met else 1)", "leaf_arith.<locals>.field_and"),
        ("n - m", "leaf_arith.<locals>.names"),
        ("n * (m + 1)", "leaf_arith.<locals>.name_and"),
        ("line.points * 2", "leaf_arith_constant.<locals>.field_by"),
        ("n * 2", "leaf_arith_constant.<locals>.name_by"),
        ("n > 3", "leaf_ordered.<locals>.name_ordered"),
        ("line.points > 3", "leaf_ordered.<locals>.field_ordered"),
        ("line.held if line.held is not None else 1", "field_or_else.<locals>.value_or"),
        ("line.held if line.held is not None else xs", "field_or_else.<locals>.value_or_call"),
        ("[c.kind == 'a' for c in [line, other]]", "slot_field_test.<locals>.equal"),
        ("[not c.no for c in [line]]", "slot_field_test.<locals>.other"),
        ("[(x, c.kind) for c in [line] for x in xs]", "slot_pair.<locals>.pair"),
        # the Agenda's conditions and restriction: each kind in a closure of its own
        ("line.held is None or not line.held.ok", "leading_predicate.<locals>.none_or"),
        ("not line.no or line.points > 1", "leading_predicate.<locals>.not_or"),
        ("line.held is not None or line.met", "leading_predicate.<locals>.some_or_field"),
    ],
)
def test_the_leaf_reads_are_used(source: str, closure: str) -> None:
    # the scorer's commonest arithmetic: Agenda points, cubes over the Influence Limit
    assert closure in _closures(parse(source))


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("(me, xs[0])", ("p1", 3)),
        ("(me, xs[0], len(xs))", ("p1", 3, 5)),
        ("(me, me, me, xs[1])", ("p1", "p1", "p1", 0)),
        ("[me, xs[4]]", ["p1", 7]),
        ("[(x, x + 1) for x in xs if x > 4]", [(5, 6), (7, 8)]),
    ],
)
def test_tuples_and_lists_of_few_items(source: str, value: Any) -> None:
    expr = parse(source)
    got = expr.evaluate(NAMES)
    assert got == value
    assert type(got) is type(value)
    if type(got) is list:  # a fresh list every time (a caller may keep it)
        assert expr.evaluate(NAMES) is not got


@pytest.mark.parametrize("source", ["(me, xs.nope)", "(me, me, xs.nope)", "[me, xs.nope]"])
def test_an_item_of_a_small_tuple_fails_located(source: str) -> None:
    with pytest.raises(ExpressionEvalError) as failed:
        parse(source).evaluate(NAMES)
    assert (failed.value.message, failed.value.column) == (
        "cannot read field 'nope' of a list",
        source.index("xs.nope") + 1,
    )
