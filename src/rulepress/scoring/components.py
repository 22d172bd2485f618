"""What the scoring operations share, and how the engine runs the one a step names.

Each operation turns one player's namespace into points and explanatory
notes. None of them knows a game: every value, condition and sentence comes
from the spec. The operations themselves are components found through the
``rulepress.operations`` registry (:mod:`rulepress.model.operations`):
rulepress's own, one module each in :mod:`rulepress.operations`, and those
of plugins, alike. This module holds their common types and checks of what
an expression gave, and chooses the operation of a component.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulepress.expressions.expression import Evaluate, ExpressionEvalError
from rulepress.model import operations
from rulepress.model.spec_model import Parameter, Table, bound_value
from rulepress.scoring.notes import Nested
from rulepress.scoring.result import Note
from rulepress.states.validation import compiled

Namespace = Mapping[str, Any]
#: the context functions the scorer supplies to expressions (``lookup``, ``player``, ``label``)
Functions = Mapping[str, Callable[..., Any]]
#: a spec's range tables: table id → {key: value}
Tables = Mapping[str, dict[int | str, int]]
#: makes one note from a template and its arguments (see :func:`compile_component`)
MakeNote = Callable[[str, Any], Note]
#: what a component gives one player: points, notes, breakdown by kind, decisions (or None)
Result = tuple[int, list[Note], dict[str, int], dict[str, Any] | None]
Run = Callable[[dict[str, Any], Functions, MakeNote], Result]
#: an expression's source → the evaluator a compiled component calls
Pick = Callable[[str], Evaluate]
#: the notes of a run that makes none (``trace=False``): one list shared by every such
#: line, which nobody may change (results are read-only)
NO_NOTES: list[Note] = []


def checked(source: str) -> Evaluate:
    """The evaluator that raises located errors (:attr:`Expression.evaluate`)."""
    return compiled(source).evaluate


def unchecked(source: str) -> Evaluate:
    """The one-call-less evaluator; its caller runs again checked on failure (``fast``)."""
    return compiled(source).fast


@dataclass(slots=True)  # made per player and step: not frozen, for a cheap __init__
class Outcome:
    """What a component gives one player: points, why, a breakdown, and its decisions.

    ``breakdown`` splits the points by kind (examples may state them);
    ``export`` holds the decisions later steps can read as ``chosen.<score id>``.
    """

    points: int
    notes: list[Nested]
    breakdown: dict[str, int] = field(default_factory=dict)
    export: dict[str, Any] = field(default_factory=dict)


def as_int(value: Any, source: str) -> int:
    """What an expression gave where a number is needed: an integer (a bool counts)."""
    if type(value) is int:  # the common case, tested first: this runs per line and part
        return value
    if isinstance(value, bool):
        return int(value)
    raise ExpressionEvalError(f"{source!r} must give an integer, gave {value!r}")


def as_list(value: Any, source: str) -> list[Any] | tuple[Any, ...]:
    """What an expression gave for a component to go through item by item: a list.

    The spec check cannot tell what an expression gives (``items: guilt``
    reads an integer field), so the value is checked where it is used, as
    :func:`as_int` checks a number: anything else would fail unlocated, or go
    through a text letter by letter.
    """
    if type(value) is list or type(value) is tuple:
        return value
    raise ExpressionEvalError(f"{source!r} must give a list, gave {value!r}")


def table_values(table: Table, params: Mapping[str, Parameter]) -> dict[int | str, int]:
    """A table as {key: value} for every key its rows cover (parameters resolved).

    A table keyed by a named set maps each row's member; a range table every
    integer from a row's ``min`` to its ``max``.
    """
    out: dict[int | str, int] = {}
    for row in table.rows:
        if row.key is not None:
            out[row.key] = bound_value(row.value, params)
            continue
        if row.min is None:
            continue  # a row without a key: the spec check reports it
        low = bound_value(row.min, params)
        high = bound_value(row.max, params) if row.max is not None else low
        for key in range(low, high + 1):
            out[key] = bound_value(row.value, params)
    return out


def _operation(component: Any) -> operations.Operation:
    # the model validated the op against the registry: every component but an unknown
    # one (which the spec check refuses) names an installed operation
    return operations.installed()[component.op]


def writes(component: Any) -> tuple[str, ...]:
    """The names a component writes into the namespace it is given (the engine restores them)."""
    return operations.writes_of(_operation(component), component)


def compile_component(component: Any, tables: Tables, pick: Pick, *, trace: bool = True) -> Run:
    """``run(ns, fns, make)``: the points, notes, breakdown and decisions of one player.

    Worked out once per component (see :func:`compiled_component`): the
    expressions are looked up and the operation chosen here, not once per
    player. ``make(template, args)`` makes a note (the renderer's); ``ns`` is
    the player's namespace, which a ``lines`` or ``sets`` operation writes
    its item into (see :func:`writes`). ``pick(source)`` chooses each
    expression's evaluator: :func:`checked` or :func:`unchecked`.

    Without ``trace``, an operation that can (``skips_trace``, an optional
    part of the protocol) compiles a run that makes no notes, nor evaluates
    what only they show (labels, note arguments): its points, breakdown and
    decisions are those of the traced run; any other operation's notes are
    dropped.
    """
    operation = _operation(component)
    skips = not trace and getattr(operation, "skips_trace", False)
    lean: dict[str, bool] = {"trace": False} if skips else {}
    if getattr(operation, "reads_tables", False):
        # (an optional part of the protocol: rulepress's sets operation reads a range table)
        run: Run = operation.compile(component, pick, tables, **lean)  # type: ignore[call-arg]
    else:
        run = operation.compile(component, pick, **lean)
    if trace or skips:
        return run
    traced = run

    def untraced(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        points, _, breakdown, export = traced(ns, fns, make)
        return points, NO_NOTES, breakdown, export

    return untraced
