"""The interpreter's run-time parts: the fixed functions, operators and their bounds.

Compiled expressions (:mod:`rulepress.expressions.compiler`) call these. Each
evaluation owns a *frame*, a list: ``frame[STEPS]`` is the number of steps
left, ``frame[FUNCS]`` the scorer's context functions, and the rest hold the
names generators bind. A step is one loop iteration, one call (see
:func:`rulepress.expressions.compiler._scalar` for those that are not) or one item
built; :func:`charge` spends them. Every value an operator or function makes
is checked against its bound *before* it is built where its size is known
(repetition, concatenation) and right after otherwise (integer results).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

from rulepress.expressions.bounds import (
    MAX_INT,
    MAX_ITEMS,
    MAX_TEXT,
    ExpressionEvalError,
    int_limit,
    items_limit,
    steps_limit,
    text_limit,
)
from rulepress.expressions.records import Record

#: frame slots: steps left, the context functions; names bound by generators follow
#: (Final: a compiled build writes the numbers in, where a module global is a dict
#: lookup on every read)
STEPS: Final = 0
FUNCS: Final = 1
Frame = list[Any]
#: where a function takes a frame, an expression without one passes whatever stands in
#: its place (None, or the scorer's context functions: ``Expression.fast``); the hint
#: says so, as a compiled build (mypyc) checks hints when called
MaybeFrame = Any


def type_name(value: Any, *, in_state: bool = False) -> str:
    """How a value's kind reads in an error message.

    One function for both readers of table data: expressions (records,
    tuples and generators are kinds of their own) and the state check
    (``in_state``: a record is "a mapping", as the state file writes it,
    and an unknown kind is named by its Python type).
    """
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if in_state:
        if isinstance(value, dict):
            return "a mapping"
        return "nothing" if value is None else type(value).__name__
    if isinstance(value, Record):
        return "a record"
    if isinstance(value, tuple):
        return "a tuple"
    if value is None:
        return "nothing (None)"
    if isinstance(value, Iterator):
        return "a generator"
    return "a value of another kind"


def charge(fr: MaybeFrame, steps: int, column: int = 0) -> None:
    """Spend ``steps`` of the evaluation's budget (expressions without a frame cannot loop).

    Anything but a frame means there is none: an expression without one may
    be called with the scorer's functions in its place (``Expression.fast``).
    """
    if type(fr) is list:
        fr[STEPS] -= steps
        if fr[STEPS] < 0:
            raise steps_limit(column)


def checked_int(value: int, column: int = 0) -> int:
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise int_limit(column)


def no_field(value: Any, name: str, column: int = 0) -> ExpressionEvalError:
    if type(value) is Record:
        return ExpressionEvalError(f"the record has no field {name!r}", column)
    return ExpressionEvalError(f"cannot read field {name!r} of {type_name(value)}", column)


def items(fr: MaybeFrame, value: Any, what: str) -> list[Any] | tuple[Any, ...]:
    """A function's collection argument as a list or tuple, charged one step per item."""
    if type(value) is list or type(value) is tuple:
        charge(fr, len(value))
        return value
    if isinstance(value, Iterator):  # a generator from this expression: it charges its own steps
        out = list(value)
        if len(out) > MAX_ITEMS:
            raise items_limit(len(out))
        return out
    raise ExpressionEvalError(f"{what} needs a list, got {type_name(value)}")


def iterable(fr: MaybeFrame, value: Any, what: str) -> Any:
    """Like :func:`items`, but a generator stays lazy (``first``, ``any``, ``all`` stop early)."""
    if isinstance(value, Iterator):
        return value
    return items(fr, value, what)


def binop(op: str, a: Any, b: Any, fr: MaybeFrame, column: int) -> Any:
    """``a <op> b`` for the general case (the compiler inlines integers)."""
    a_int = isinstance(a, int)
    b_int = isinstance(b, int)
    if a_int and b_int:
        if op == "+":
            return checked_int(a + b, column)
        if op == "-":
            return checked_int(a - b, column)
        if op == "*":
            return checked_int(a * b, column)
        if b == 0:
            raise ExpressionEvalError("division by zero", column)
        return checked_int(a // b if op == "//" else a % b, column)
    if op == "+":
        return _concat(a, b, fr, column)
    if op == "*":
        if a_int and not b_int:
            a, b = b, a
        if isinstance(b, int) and not isinstance(a, bool | int):
            return _repeat(a, b, fr, column)
    verb = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide", "%": "take '%' of"}[op]
    if op in ("-", "//", "%"):
        raise ExpressionEvalError(
            f"'{op}' needs integers, got {type_name(a)} and {type_name(b)}", column
        )
    raise ExpressionEvalError(f"cannot {verb} {type_name(a)} and {type_name(b)}", column)


def _concat(a: Any, b: Any, fr: MaybeFrame, column: int) -> Any:
    if type(a) is str and type(b) is str:
        size = len(a) + len(b)
        if size > MAX_TEXT:
            raise text_limit(size, column)
        charge(fr, size, column)
        return a + b
    if (type(a) is list or type(a) is tuple) and type(a) is type(b):
        size = len(a) + len(b)
        if size > MAX_ITEMS:
            raise items_limit(size, column)
        charge(fr, size, column)
        first: Any = a  # a list or a tuple, and b is of the same type
        return first + b
    raise ExpressionEvalError(f"cannot add {type_name(a)} and {type_name(b)}", column)


def _repeat(seq: Any, times: int, fr: MaybeFrame, column: int) -> Any:
    size = len(seq) * max(times, 0) if type(seq) in (str, list, tuple) else -1
    if size < 0:
        raise ExpressionEvalError(f"cannot multiply {type_name(seq)} and an integer", column)
    if type(seq) is str and size > MAX_TEXT:
        raise text_limit(size, column)
    if type(seq) is not str:
        if size > MAX_ITEMS:
            raise items_limit(size, column)
        # repeating references to collections would multiply what the result
        # holds without showing in its length ([[0] * 10000] * 10000)
        if any(type(v) in _COLLECTIONS for v in seq):
            raise ExpressionEvalError("only a list of plain values can be repeated", column)
    charge(fr, size, column)
    return seq * times


#: the values a comprehension's output counts by their size (see collected)
COLLECTIONS = _COLLECTIONS = (list, tuple, Record)


def collected(values: Iterator[Any], column: int) -> list[Any]:
    """A comprehension's output, each nested collection counted by its size."""
    out = []
    size = 0
    for value in values:
        out.append(value)
        size += len(value) + 1 if type(value) in _COLLECTIONS else 1
        if size > MAX_ITEMS:
            raise items_limit(size, column)
    return out


def contains(item: Any, container: Any, fr: MaybeFrame, column: int) -> bool:
    if type(container) is list or type(container) is tuple:
        charge(fr, len(container), column)
        return item in container
    if type(container) is str:
        if type(item) is not str:
            raise ExpressionEvalError(
                f"'in' on text needs text on its left, got {type_name(item)}", column
            )
        return item in container
    raise ExpressionEvalError(
        f"'in' needs a list, tuple or text, got {type_name(container)}", column
    )


# --- the fixed functions: each takes the frame first, then its arguments -------------------


def _len(fr: MaybeFrame, value: Any) -> int:
    """``len(x)``: how many items a list has, or characters a text."""
    if type(value) in (list, tuple, str):
        return len(value)
    raise ExpressionEvalError(f"len() needs a list or text, got {type_name(value)}")


def _abs(fr: MaybeFrame, value: Any) -> int:
    """``abs(n)``: an integer without its sign."""
    if isinstance(value, int):
        return abs(value)
    raise ExpressionEvalError(f"abs() needs an integer, got {type_name(value)}")


def _sum(fr: MaybeFrame, values: Any, start: Any = 0) -> int:
    """``sum(xs)``, ``sum(xs, start)``: integers added up (from ``start``, 0 by default)."""
    if not isinstance(start, int):
        raise ExpressionEvalError(f"sum() starts from an integer, got {type_name(start)}")
    try:
        # start is an integer, so builtin sum refuses text, lists and records itself
        return checked_int(sum(iterable(fr, values, "sum()"), start))
    except TypeError:
        raise ExpressionEvalError("sum() adds integers only") from None


def _extreme(pick: Callable[..., Any], name: str) -> Callable[..., Any]:
    def extreme(fr: MaybeFrame, *args: Any) -> Any:
        # (its docstring, set below, names the function)
        if len(args) == 2 and type(args[0]) is int and type(args[1]) is int:
            return pick(args[0], args[1])
        values = args if len(args) > 1 else iterable(fr, args[0], f"{name}()")
        try:
            return pick(values)
        except ValueError:
            raise ExpressionEvalError(f"{name}() of nothing") from None
        except TypeError:
            raise ExpressionEvalError(f"{name}() cannot compare these values") from None

    extreme.__doc__ = (
        f"``{name}(xs)``, ``{name}(a, b, …)``: the {'largest' if name == 'max' else 'smallest'}"
        " of a list's items or of the arguments; of nothing, an error."
    )
    return extreme


def _any(fr: MaybeFrame, values: Any) -> bool:
    """``any(xs)``: whether some item is true."""
    return any(iterable(fr, values, "any()"))


def _all(fr: MaybeFrame, values: Any) -> bool:
    """``all(xs)``: whether every item is true (so also of nothing)."""
    return all(iterable(fr, values, "all()"))


def _count(fr: MaybeFrame, values: Any) -> int:
    """``count(xs)``: how many items are true (``count(l.met for l in lines)``)."""
    return sum(map(bool, iterable(fr, values, "count()")))


def _first(fr: MaybeFrame, values: Any) -> Any:
    """``first(xs)``: the first item, or ``None`` when there is none."""
    if type(values) is list or type(values) is tuple:
        return values[0] if values else None
    return next(iter(iterable(fr, values, "first()")), None)


#: what a record's ``get`` gives for a field it lacks (no field holds it; Final: see
#: nodes.NC)
_ABSENT: Final[Any] = object()


def get_field(fr: MaybeFrame, record: Any, name: Any) -> Any:
    """``get(record, name)``: a field by computed name, ``-`` read as ``_``; never an attribute."""
    if type(name) is not str:
        raise ExpressionEvalError(f"get() needs a field name as text, got {type_name(name)}")
    key = name.replace("-", "_")
    if type(record) is Record:
        got = record.get(key, _ABSENT)
        if got is not _ABSENT:
            return got
    raise no_field(record, key)


def _zip(fr: MaybeFrame, *args: Any) -> list[tuple[Any, ...]]:
    """``zip(xs, ys, …)``: tuples of the lists' items side by side, as long as the shortest."""
    columns = [items(fr, a, "zip()") for a in args]
    out = list(zip(*columns, strict=False))
    charge(fr, len(out))
    return out


def _sorted(fr: MaybeFrame, values: Any) -> list[Any]:
    """``sorted(xs)``: the items in ascending order."""
    listed = items(fr, values, "sorted()")
    if len(listed) > MAX_ITEMS:
        raise items_limit(len(listed))
    charge(fr, len(listed) * max(1, len(listed).bit_length()))
    try:
        return sorted(listed)
    except TypeError:
        raise ExpressionEvalError("sorted() cannot compare these values") from None


def _named_in(fr: MaybeFrame, value: Any, ids: Any) -> bool:
    """``named_in(text, ids)``: whether a text a table state writes names one of the ids.

    A player writes a card's name as they like (``Engineer``, ``engineer``):
    the id itself counts in any case and without the spaces around it, a label
    in any language or a near miss (``Engineers``) does not, so a set of the
    spec (``sets.win_while_guilty``) is matched by its ids only.
    """
    if value is None:
        return False
    if type(value) is not str:
        raise ExpressionEvalError(f"named_in() needs text first, got {type_name(value)}")
    wanted = value.strip().casefold()
    return any(type(i) is str and i.casefold() == wanted for i in items(fr, ids, "named_in()"))


#: the only functions an expression may call (name → implementation taking the frame first)
IMPLEMENTATIONS: dict[str, Callable[..., Any]] = {
    "abs": _abs,
    "all": _all,
    "any": _any,
    "count": _count,
    "first": _first,
    "get": get_field,
    "len": _len,
    "max": _extreme(max, "max"),
    "min": _extreme(min, "min"),
    "named_in": _named_in,
    "sorted": _sorted,
    "sum": _sum,
    "zip": _zip,
}


def described() -> dict[str, str]:
    """Each fixed function's description, its docstring (for the author reference).

    Read from this module's source where a function has none at run time: a
    build compiled by mypyc (rulepress.compiled) keeps no docstrings.
    """
    out = {name: fn.__doc__ or "" for name, fn in IMPLEMENTATIONS.items()}
    if all(out.values()):
        return out
    source = Path(__file__).with_name("runtime.py").read_text("utf-8")
    by_def = {
        node.name: ast.get_docstring(node) or ""
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef)
    }
    for name, fn in IMPLEMENTATIONS.items():
        out[name] = out[name] or by_def.get(getattr(fn, "__name__", ""), "")
    return out
