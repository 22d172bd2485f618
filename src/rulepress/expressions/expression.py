"""A small, safe expression language for conditions and values in the spec.

The spec composes generic scoring operations; the little logic that differs
from game to game ("the line is met and, if it is a Possession line, the
holder escaped") is written as an expression in Python's surface syntax.
Only this much of it exists:

* literals (integers, text, ``True``/``False``, ``None``), lists and tuples;
* arithmetic ``+ - * // %`` on integers, ``+`` and ``*`` (repetition) on
  text and lists, comparisons (``in`` and ``is None`` included),
  ``and``/``or``/``not``, ``x if cond else y``, fixed indexes ``x[0]``;
* names, and fields of records (``cubes.supply``, ``get(record, name)``);
* calls of the fixed functions (``min max sum len abs any all count first
  get zip sorted``) and of the context functions the scorer supplies
  (``lookup player label``); generator expressions and list
  comprehensions (``sum(l.points for l in agenda if l.met)``).

How it runs. :func:`ast.parse` is only the parser. The tree is checked
(:mod:`~rulepress.expressions.syntax`) and compiled into closures of our own
(:mod:`~rulepress.expressions.compiler`, from the closures of
:mod:`~rulepress.expressions.nodes`); Python never compiles or evaluates
the source. There is no attribute access at all: records
(:class:`~rulepress.expressions.records.Record`) are mappings, and ``a.b`` reads
field ``b`` of record ``a``. Functions come from a fixed table, bound when
the expression is compiled; a function's name can only be called, never
bound by a generator or read as a value, and data names are never called.
Context functions are passed to :meth:`Expression.evaluate` apart from the
data names.

Bounds (in :mod:`~rulepress.expressions.bounds`; past one, evaluation raises
:class:`ExpressionLimitError`, and a spec that breaks one as written is
refused when it is checked, as an :class:`ExpressionSyntaxError`):

``MAX_LENGTH = 2000`` characters of source: expressions are one-liners in YAML.
``MAX_DEPTH = 40`` levels of tree: the deepest real expression has 11.
``MAX_INT = 10**15``: every integer literal, result of ``+ - * // %``, unary
    minus and ``sum``. Scores and counts are small; below 2**53 every value
    also stays exact in the JSON result for JavaScript front ends.
``MAX_TEXT = 10_000`` characters for text built by ``+`` or ``*``.
``MAX_ITEMS = 10_000`` items for lists and tuples built by ``+``, ``*``,
    comprehensions, ``sorted`` and ``zip``; sizes are checked before building.
``MAX_STEPS = 100_000`` steps per evaluation: a step is a loop iteration, a
    call (but of ``len``, ``abs``, or ``max``/``min`` of values listed: work
    the expression's size bounds, as an operator's), or an item a function
    reads or an operator builds; the real specs'
    expressions loop over a few dozen items, and 100,000 steps run in well
    under a second.

Everything that goes wrong while evaluating (unknown names or fields,
unlike types compared, division by zero, a bound) is an
:class:`ExpressionEvalError` naming the source and column, never another
exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Protocol, cast

from rulepress.expressions.bounds import (
    MAX_DEPTH,
    MAX_INT,
    MAX_ITEMS,
    MAX_LENGTH,
    MAX_STEPS,
    MAX_TEXT,
    ExpressionEvalError,
    ExpressionLimitError,
    ExpressionSyntaxError,
    steps_limit,
)
from rulepress.expressions.budget import current, opened
from rulepress.expressions.compiler import Compiler
from rulepress.expressions.nodes import NC, Fn
from rulepress.expressions.records import Record
from rulepress.expressions.runtime import IMPLEMENTATIONS, STEPS, no_field
from rulepress.expressions.syntax import CONTEXT_ARITY, parse_tree

__all__ = [
    "CONTEXT_FUNCTIONS",
    "EVAL_FAILURES",
    "FUNCTIONS",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_ITEMS",
    "MAX_LENGTH",
    "MAX_STEPS",
    "MAX_TEXT",
    "Expression",
    "ExpressionEvalError",
    "ExpressionLimitError",
    "ExpressionSyntaxError",
    "Steps",
    "parse",
]

#: The only functions an expression may call (read-only; compiled expressions hold their own).
FUNCTIONS: Mapping[str, Callable[..., Any]] = MappingProxyType(dict(IMPLEMENTATIONS))

#: the functions the scorer supplies (see :meth:`Expression.evaluate`)
CONTEXT_FUNCTIONS = frozenset(CONTEXT_ARITY)

#: names every scoring expression can read, besides the player's own fields: the scorer
#: gives them and the spec check keeps expressions to them (here, below both, so that a
#: score does not import the check's modules)
BASE_NAMES = frozenset(
    {"param", "ruling", "sets", "n_players", "table", "players", "player", "lookup", "label"}
)

_NO_FUNCTIONS: Mapping[str, Callable[..., Any]] = MappingProxyType({})


class Evaluate(Protocol):
    """``evaluate(names, functions=None)``: see :class:`Expression`."""

    def __call__(
        self, names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
    ) -> Any: ...


class Steps:
    """A budget of evaluation steps that several evaluations share (see ``Expression.within``).

    One evaluation may take ``MAX_STEPS``; a check that evaluates many
    expressions for one record (a constraint for each of its members, see
    :mod:`rulepress.states.constraints`) takes them all from one budget, so
    that its work is bounded as one expression's is, however many members
    there are.
    """

    __slots__ = ("left",)

    def __init__(self, left: int = MAX_STEPS) -> None:
        self.left = left


class Within(Protocol):
    """``within(names, steps)``: see :class:`Expression`."""

    def __call__(self, names: Mapping[str, Any], steps: Steps) -> Any: ...


@dataclass(frozen=True, slots=True)
class Expression:
    """A checked, compiled expression.

    ``names`` are the free names it reads (context functions it calls
    included, so that the spec check knows where they must exist),
    ``attributes`` the ``(name, field)`` pairs it reads directly, and
    ``bindings`` the names its generators bind, with their columns.

    ``evaluate(names, functions=None)`` gives the value for the data
    ``names`` and the scorer's context ``functions``. It is a plain function
    made by :func:`parse` (not a method) because the scorer calls it a few
    hundred times per table state.

    ``fast`` gives the same value with one call less, but a failure raises
    whatever Python raised (any of :data:`EVAL_FAILURES`), not located: a
    caller who uses it evaluates again with ``evaluate`` when it fails, to
    raise the located error (evaluation is a pure function of its inputs).

    ``within(names, steps)`` evaluates as ``evaluate`` does (no context
    functions), taking its steps from the shared budget ``steps`` (at least
    one, even for an expression that cannot loop) instead of a fresh
    ``MAX_STEPS``.
    """

    source: str
    names: frozenset[str]
    attributes: frozenset[tuple[str, str]]
    bindings: tuple[tuple[str, int], ...]
    evaluate: Evaluate
    fast: Evaluate
    within: Within
    #: the root closure, ``plain(names, None)``, of an expression that neither loops
    #: nor calls (no frame: its evaluation is one step, whatever it reads), for a
    #: caller that counts its steps itself; None for any other. It fails as ``fast``
    #: does: unlocated, with whatever Python raised
    plain: Fn | None = None


def _evaluator(
    source: str,
    fn: Fn,
    frame: list[Any] | None,
    shape: tuple[Any, ...] | None,
    lead: Callable[[Mapping[str, Any]], Any] | None = None,
) -> Evaluate:
    """The evaluate function of one expression: a fresh frame, errors made ExpressionEvalError.

    The commonest roots (a constant, a name, ``a.b``) are evaluated inline,
    without calling the node's closure: half the scorer's evaluations are
    of these shapes.
    """
    if shape is not None:
        inline = _inline(source, shape)
        if inline is not None:
            return inline

    def failed(exc: BaseException) -> ExpressionEvalError:
        return _failed(source, exc)

    if frame is None:  # no loops, no calls: nothing to count, no names to bind

        def evaluate(
            names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
        ) -> Any:
            try:
                return fn(names, None)
            except _FAILURES as exc:
                raise failed(exc) from None

        return evaluate

    if lead is not None:
        # the first part of a root ``and``/``or`` decides most evaluations: tested
        # before the frame is made (see nodes.root_lead; NC: it does not decide)
        whole = _in_frame(failed, fn, frame)

        def evaluate_led(
            names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
        ) -> Any:
            first = lead(names)
            if first is not NC:
                return first
            return whole(names, functions)

        return evaluate_led
    return _in_frame(failed, fn, frame)


def _in_frame(
    failed: Callable[[BaseException], ExpressionEvalError], fn: Fn, frame: list[Any]
) -> Evaluate:
    """The evaluate function of an expression that loops or calls: in a fresh frame."""

    def evaluate_in_frame(
        names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
    ) -> Any:
        fr = frame.copy()
        if functions is not None:
            fr[1] = functions
        try:
            value = fn(names, fr)
            # each evaluation is bounded by MAX_STEPS; all of a command's together by
            # its budget (one charge per evaluation: what the loops counted). Added in
            # place: a call of charge() per evaluation was a tenth of scoring a state
            spent = MAX_STEPS - fr[STEPS]
            if spent:  # (none when an 'or' was decided before its call or loop)
                budget = opened()
                if budget is None:
                    spend(spent, _EVALUATIONS)
                else:
                    used = budget.used = budget.used + spent
                    if used > budget.limit or used >= budget.reading_at:
                        budget.charge(0, _EVALUATIONS)  # counted: the limit and memory checks
        except _FAILURES as exc:
            raise failed(exc) from None
        return value

    return evaluate_in_frame


#: what the budget names when expressions' evaluations together spend it
_EVALUATIONS = "the work of the spec's expressions"


def spend(steps: int, what: str) -> None:
    """Charge ``steps`` to the command's budget (see :mod:`rulepress.expressions.budget`)."""
    current().charge(steps, what)


def _failed(source: str, exc: BaseException) -> ExpressionEvalError:
    """What went wrong evaluating ``source``, as the located error callers are given."""
    if isinstance(exc, ExpressionEvalError):
        exc.source = source
        return exc
    if isinstance(exc, MemoryError | RecursionError):
        return ExpressionLimitError("ran out of memory or stack", 0, source)
    return ExpressionEvalError(str(exc), 0, source)


def _inline(source: str, shape: tuple[Any, ...]) -> Evaluate | None:
    if shape[0] == "constant" and type(shape[1]) in (int, str, bool, type(None)):
        value = shape[1]

        def constant(
            names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
        ) -> Any:
            return value

        return constant
    if shape[0] == "name":
        _, name, column = shape

        def load(
            names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
        ) -> Any:
            try:
                return names[name]
            except KeyError:
                raise ExpressionEvalError(f"unknown name {name!r}", column, source) from None

        return load
    if shape[0] == "field":
        _, base, field, column = shape

        def read(
            names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
        ) -> Any:
            try:
                value = names[base]
            except KeyError:
                raise ExpressionEvalError(f"unknown name {base!r}", column, source) from None
            if type(value) is Record:
                got = value.get(field, NC)
                if got is not NC:
                    return got
            exc = no_field(value, field, column)
            exc.source = source
            raise exc

        return read
    return None


#: what evaluation turns into ExpressionEvalError (ours pass through with the source added)
EVAL_FAILURES = _FAILURES = (
    ArithmeticError,
    AttributeError,
    LookupError,
    TypeError,
    ValueError,
    MemoryError,
    RecursionError,
)


#: the checked tree of each source, kept: a score compiles its sequence's plan once for the
#: spec's options and once more for each ruling option it cites (rulings.cite), the same
#: few hundred sources a dozen times over, and parsing and checking them was about 40 %
#: of a `rulepress score`'s own time. Bounded; the compiler only reads the trees.
_checked_tree = lru_cache(maxsize=4096)(parse_tree)


def parse(source: str, constants: Mapping[str, Mapping[str, Any]] | None = None) -> Expression:
    """Check ``source`` against the language and compile it; refusals are located.

    ``constants``: records (name → fields) that are the same for every
    evaluation of this compiled expression, folded into it (see
    :class:`~rulepress.expressions.compiler.Compiler`). The caller must give
    every evaluation a namespace in which those names hold exactly those
    records; the spec check parses without them.
    """
    tree, columns = _checked_tree(source)
    try:
        out = Compiler(columns, constants).run(tree)
    except RecursionError:  # the depth bound keeps real trees far from this
        raise ExpressionSyntaxError(
            f"expression nested too deeply (the bound is {MAX_DEPTH} levels)", 1
        ) from None
    frame = [MAX_STEPS, _NO_FUNCTIONS, *([None] * out.slots)] if out.uses_frame else None
    evaluate = _evaluator(source, out.fn, frame, out.shape, out.lead)
    fast = evaluate
    if frame is None and (out.shape is None or _inline(source, out.shape) is None):
        # Without a frame the root closure is the evaluation itself: it reads
        # its second argument only as a frame, and anything but a list is
        # none (see expr_eval.charge). Inlined shapes and evaluations with a
        # frame keep their evaluator: for them it is the one call.
        fast = cast(Evaluate, out.fn)
    return Expression(
        source,
        frozenset(out.names),
        frozenset(out.attributes),
        tuple(out.bindings),
        evaluate,
        fast,
        _within(source, out.fn, frame),
        out.fn if frame is None else None,
    )


def _within(source: str, fn: Fn, frame: list[Any] | None) -> Within:
    """The ``within`` function of one expression (see :class:`Expression`)."""
    if frame is None:  # no loops, no calls: one step, whatever it reads

        def once(names: Mapping[str, Any], steps: Steps) -> Any:
            steps.left -= 1
            if steps.left < 0:
                raise _failed(source, steps_limit())
            # the root closure itself, as ``evaluate`` calls it (one call less per
            # constraint a state check asks)
            try:
                return fn(names, None)
            except _FAILURES as exc:
                raise _failed(source, exc) from None

        return once

    def counted(names: Mapping[str, Any], steps: Steps) -> Any:
        fr = frame.copy()
        fr[STEPS] = steps.left
        try:
            return fn(names, fr)
        except _FAILURES as exc:
            raise _failed(source, exc) from None
        finally:
            # what it spent is spent, whether it finished or failed
            steps.left = fr[STEPS]

    return counted
