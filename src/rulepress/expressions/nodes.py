"""The closures a compiled expression is made of (see :mod:`rulepress.expressions.compiler`).

Each takes the data names and the evaluation's frame and returns a value.
The compiler picks one per node of the checked tree, the specialised ones
(a field tested against a constant, integer arithmetic with a constant,
``get`` with a fixed name, a one-loop generator) where the shape allows.

Several of them read a data name's field in the same few lines (see
:func:`field_test`), written out in each on purpose: a helper they shared
would be the very call they exist to save.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from rulepress.expressions.bounds import (
    MAX_INT,
    MAX_ITEMS,
    ExpressionEvalError,
    int_limit,
    items_limit,
    steps_limit,
)
from rulepress.expressions.records import Record
from rulepress.expressions.runtime import (
    COLLECTIONS,
    FUNCS,
    STEPS,
    Frame,
    binop,
    charge,
    contains,
    get_field,
    no_field,
    type_name,
)

Fn = Callable[[Mapping[str, Any], Any], Any]
#: marks a compiled node whose value is not known before evaluation, and a field a
#: record lacks (``record.get(field, NC)``). Final: a compiled build keeps it in a C
#: variable, where a module global is a dict lookup on every read
NC: Final[Any] = object()


def slot(index: int) -> Fn:
    return lambda ns, fr: fr[index]


def is_none(value: Any) -> bool:
    return value is None


def is_not_none(value: Any) -> bool:
    return value is not None


def name_test(name: str, column: int, op: ast.AST, const: Any, test: Callable[[Any], bool]) -> Fn:
    def unknown() -> ExpressionEvalError:
        return ExpressionEvalError(f"unknown name {name!r}", column)

    if isinstance(op, ast.Eq):

        def equal(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                return ns[name] == const  # data and constants are builtins: a bool
            except KeyError:
                raise unknown() from None

        return equal
    if isinstance(op, ast.NotEq):

        def different(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                return ns[name] != const
            except KeyError:
                raise unknown() from None

        return different

    def other(ns: Mapping[str, Any], fr: Any) -> bool:
        try:
            value = ns[name]
        except KeyError:
            raise unknown() from None
        return test(value)

    return other


def field_test(
    base: str, attr: str, column: int, op: ast.AST, const: Any, test: Callable[[Any], bool]
) -> Fn:
    # Each reads ``base`` by subscript, in a ``try`` (free in Python 3.11 unless it
    # raises): a call of ``ns.get`` and a test of ``attr in value`` cost a fifth of
    # these closures, which the scorer calls a few hundred times per table state.
    # The record's field is read with ``get`` and :data:`NC`: a subscript of a dict
    # subclass goes through its ``__getitem__`` method, a call (CPython's dict
    # defines it as a method too, so a subclass's slot is the generic one), where
    # the compiled build's ``get`` reads the dict itself (mypyc's ``CPyDict_Get``)
    def read(ns: Mapping[str, Any]) -> Any:
        try:
            value = ns[base]
        except KeyError:
            raise ExpressionEvalError(f"unknown name {base!r}", column) from None
        raise no_field(value, attr, column)

    if isinstance(op, ast.Eq):

        def equal(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                value = ns[base]
            except KeyError:
                return bool(read(ns))
            if type(value) is Record:
                got = value.get(attr, NC)
                if got is not NC:
                    # no bool(): a field and a constant are builtins, whose == gives one
                    return got == const
            return bool(read(ns))

        return equal
    if isinstance(op, ast.NotEq):

        def different(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                value = ns[base]
            except KeyError:
                return bool(read(ns))
            if type(value) is Record:
                got = value.get(attr, NC)
                if got is not NC:
                    return got != const
            return bool(read(ns))

        return different

    # ``line.x is None``, ``is not None`` and ``not line.x``, each one call (not two)
    if isinstance(op, ast.Is):

        def none(ns: Mapping[str, Any], fr: Any) -> bool:
            try:
                value = ns[base]
            except KeyError:
                return bool(read(ns))
            if type(value) is Record:
                got = value.get(attr, NC)
                if got is not NC:
                    return got is None
            return bool(read(ns))

        return none
    if isinstance(op, ast.IsNot):

        def some(ns: Mapping[str, Any], fr: Any) -> bool:
            try:
                value = ns[base]
            except KeyError:
                return bool(read(ns))
            if type(value) is Record:
                got = value.get(attr, NC)
                if got is not NC:
                    return got is not None
            return bool(read(ns))

        return some
    if isinstance(op, ast.Not):

        def false(ns: Mapping[str, Any], fr: Any) -> bool:
            try:
                value = ns[base]
            except KeyError:
                return bool(read(ns))
            if type(value) is Record:
                got = value.get(attr, NC)
                if got is not NC:
                    return not got
            return bool(read(ns))

        return false

    def other(ns: Mapping[str, Any], fr: Any) -> bool:
        value = ns.get(base)
        got = value.get(attr, NC) if type(value) is Record else NC
        if got is not NC:
            return test(got)
        return bool(read(ns))

    return other


def constant(value: Any) -> Fn:
    if type(value) is list:
        return lambda ns, fr: list(value)
    return lambda ns, fr: value


#: the integer operators an expression may use, checked against MAX_INT after each
_INT_OPS: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


def arith_constant(op: str, left: Fn, b: int, column: int) -> Fn:
    """``x + 1``, ``x - 1``, ``x * 2``: the integer on the right is not called for."""
    apply = _INT_OPS[op]

    def arith(ns: Mapping[str, Any], fr: Any) -> Any:
        a = left(ns, fr)
        if type(a) is int:
            value = apply(a, b)
            if -MAX_INT <= value <= MAX_INT:
                return value
            raise int_limit(column)
        return binop(op, a, b, fr, column)

    return arith


def arith(op: str, left: Fn, right: Fn, column: int) -> Fn:
    """``a + b``, ``a - b``, ``a * b``: integers checked at once, anything else by binop."""
    apply = _INT_OPS.get(op)
    if apply is None:
        return lambda ns, fr: binop(op, left(ns, fr), right(ns, fr), fr, column)

    def ints(ns: Mapping[str, Any], fr: Any) -> Any:
        a = left(ns, fr)
        b = right(ns, fr)
        if type(a) is int and type(b) is int:
            value = apply(a, b)
            if -MAX_INT <= value <= MAX_INT:
                return value
            raise int_limit(column)
        return binop(op, a, b, fr, column)

    return ints


#: an operand read where it is used, not by a closure of its own: a data name
#: (``(name, None)``) or a data name's field (``(name, field)``); see :func:`leaf_arith`
Leaf = tuple[str, str | None]


def leaf_arith(
    op: str, left: Leaf, right: Fn, right_leaf: Leaf | None, general: Fn, column: int
) -> Fn:
    """``line.points * (…)``, ``outside - limit``: a data name or its field read in place.

    The left operand (and the right, when both are data names) is read here,
    one call fewer for each, and the rest is :func:`arith`'s: integers checked
    at once, anything else by ``binop``. A name or field that is not there is
    left to ``general`` (the same expression made of its parts), which raises
    the located error before it evaluates the right operand, as the parts
    would: nothing has been evaluated when it is called.
    """
    apply = _INT_OPS[op]
    name, attr = left
    if attr is None and right_leaf is not None and right_leaf[1] is None:
        other = right_leaf[0]

        def names(ns: Mapping[str, Any], fr: Any) -> Any:
            if name not in ns or other not in ns:
                return general(ns, fr)
            a = ns[name]
            b = ns[other]
            if type(a) is int and type(b) is int:
                value = apply(a, b)
                if -MAX_INT <= value <= MAX_INT:
                    return value
                raise int_limit(column)
            return binop(op, a, b, fr, column)

        return names
    if attr is None:

        def name_and(ns: Mapping[str, Any], fr: Any) -> Any:
            if name not in ns:
                return general(ns, fr)
            a = ns[name]
            b = right(ns, fr)
            if type(a) is int and type(b) is int:
                value = apply(a, b)
                if -MAX_INT <= value <= MAX_INT:
                    return value
                raise int_limit(column)
            return binop(op, a, b, fr, column)

        return name_and

    def field_and(ns: Mapping[str, Any], fr: Any) -> Any:
        try:
            record = ns[name]
            a = record.get(attr, NC) if type(record) is Record else NC
        except KeyError:
            a = NC
        if a is NC:
            return general(ns, fr)
        b = right(ns, fr)
        if type(a) is int and type(b) is int:
            value = apply(a, b)
            if -MAX_INT <= value <= MAX_INT:
                return value
            raise int_limit(column)
        return binop(op, a, b, fr, column)

    return field_and


def leaf_arith_constant(op: str, left: Leaf, b: int, general: Fn, column: int) -> Fn:
    """``over * 2``, ``cubes.supply + 1``: :func:`arith_constant` of a data name or field read here.

    What is not there is ``general``'s to raise (see :func:`leaf_arith`).
    """
    apply = _INT_OPS[op]
    name, attr = left
    if attr is None:

        def name_by(ns: Mapping[str, Any], fr: Any) -> Any:
            if name not in ns:
                return general(ns, fr)
            a = ns[name]
            if type(a) is int:
                value = apply(a, b)
                if -MAX_INT <= value <= MAX_INT:
                    return value
                raise int_limit(column)
            return binop(op, a, b, fr, column)

        return name_by

    def field_by(ns: Mapping[str, Any], fr: Any) -> Any:
        try:
            record = ns[name]
            a = record.get(attr, NC) if type(record) is Record else NC
        except KeyError:
            a = NC
        if a is NC:
            return general(ns, fr)
        if type(a) is int:
            value = apply(a, b)
            if -MAX_INT <= value <= MAX_INT:
                return value
            raise int_limit(column)
        return binop(op, a, b, fr, column)

    return field_by


#: a name a generator binds (``(slot, None)``) or its field (``(slot, field)``), read in
#: place by :func:`slot_pair`
SlotRead = tuple[int, str | None]


def slot_pair(first: SlotRead, second: SlotRead, as_list: bool, general: Fn) -> Fn:
    """``[p.character, p.bonus_character]``, ``(i, d.kind)``: two generator items read here.

    One call for the pair, instead of one for it and one for each item. An
    item that is no record, or lacks the field, is left to ``general`` (the
    pair made of its parts), which raises the located error.
    """
    index_a, field_a = first
    index_b, field_b = second

    def pair(ns: Mapping[str, Any], fr: Any) -> Any:
        a = fr[index_a]
        if field_a is not None:
            a = a.get(field_a, NC) if type(a) is Record else NC
            if a is NC:
                return general(ns, fr)
        b = fr[index_b]
        if field_b is not None:
            b = b.get(field_b, NC) if type(b) is Record else NC
            if b is NC:
                return general(ns, fr)
        return [a, b] if as_list else (a, b)

    return pair


def slot_field_test(
    index: int, attr: str, column: int, op: ast.AST, const: Any, test: Callable[[Any], bool]
) -> Fn:
    """``c.state == 'escaped'``, ``l.held is None`` of a generator's item: one call, not two."""
    if isinstance(op, ast.Eq):

        def equal(ns: Mapping[str, Any], fr: Any) -> Any:
            value = fr[index]
            got = value.get(attr, NC) if type(value) is Record else NC
            if got is not NC:
                return got == const  # a field and a constant are builtins: a bool
            raise no_field(value, attr, column)

        return equal
    if isinstance(op, ast.NotEq):

        def different(ns: Mapping[str, Any], fr: Any) -> Any:
            value = fr[index]
            got = value.get(attr, NC) if type(value) is Record else NC
            if got is not NC:
                return got != const
            raise no_field(value, attr, column)

        return different

    def other(ns: Mapping[str, Any], fr: Any) -> Any:
        value = fr[index]
        got = value.get(attr, NC) if type(value) is Record else NC
        if got is not NC:
            return test(got)
        raise no_field(value, attr, column)

    return other


def field_or_else(name: str, attr: str, orelse: Fn, const: Any, general: Fn) -> Fn:
    """``line.per if line.per is not None else 1``: the field read once and tested, one call.

    ``const`` is the ``else`` value when it is a constant (NC: call
    ``orelse``). A name that is no record, or lacks the field, is left to
    ``general``, the same expression made of its parts, which raises the
    located error (evaluation is pure: reading again is safe).
    """
    if const is NC:

        def value_or_call(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                record = ns[name]
                value = record.get(attr, NC) if type(record) is Record else NC
            except KeyError:
                value = NC
            if value is NC:
                return general(ns, fr)
            return value if value is not None else orelse(ns, fr)

        return value_or_call

    def value_or(ns: Mapping[str, Any], fr: Any) -> Any:
        try:
            record = ns[name]
            value = record.get(attr, NC) if type(record) is Record else NC
        except KeyError:
            value = NC
        if value is NC:
            return general(ns, fr)
        return value if value is not None else const

    return value_or


def leaf_ordered(op: ast.cmpop, left: Leaf, const: int, general: Fn) -> Fn | None:
    """``over > 0``, ``cubes.supply >= 2``: a data name or its field against an integer.

    An integer is compared here; anything else (another value, a missing
    name or field) is ``general``'s, the comparison made of its parts.
    """
    order = _ORDER.get(type(op))
    if order is None:
        return None
    name, attr = left
    if attr is None:

        def name_ordered(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                value = ns[name]
            except KeyError:
                return general(ns, fr)
            if type(value) is int:
                return order(value, const)
            return general(ns, fr)

        return name_ordered

    def field_ordered(ns: Mapping[str, Any], fr: Any) -> Any:
        try:
            record = ns[name]
            value = record.get(attr, NC) if type(record) is Record else NC
        except KeyError:
            value = NC
        if type(value) is int:
            return order(value, const)
        return general(ns, fr)

    return field_ordered


def _ordered(op: ast.cmpop, a: Any, b: Any, column: int) -> bool:
    try:
        if isinstance(op, ast.Lt):
            return bool(a < b)
        if isinstance(op, ast.LtE):
            return bool(a <= b)
        if isinstance(op, ast.Gt):
            return bool(a > b)
        return bool(a >= b)
    except TypeError:
        raise ExpressionEvalError(
            f"cannot compare {type_name(a)} with {type_name(b)}", column
        ) from None


def _equal(a: Any, b: Any, fr: Any, column: int) -> bool:
    if type(a) is list or type(a) is tuple:  # comparing collections costs their size
        charge(fr, len(a), column)
    return bool(a == b)


Test = Callable[[Any, Mapping[str, Any], Any], tuple[bool, Any]]


def comparison(op: ast.cmpop, right: Fn, const: Any, column: int) -> Test:
    """One link of a comparison chain: (holds, right value) for a left value."""

    def test(a: Any, ns: Mapping[str, Any], fr: Any) -> tuple[bool, Any]:
        b = right(ns, fr)
        if isinstance(op, ast.Eq):
            return _equal(a, b, fr, column), b
        if isinstance(op, ast.NotEq):
            return not _equal(a, b, fr, column), b
        if isinstance(op, ast.In):
            return contains(a, b, fr, column), b
        if isinstance(op, ast.NotIn):
            return not contains(a, b, fr, column), b
        if isinstance(op, ast.Is):
            return a is None, b
        if isinstance(op, ast.IsNot):
            return a is not None, b
        return _ordered(op, a, b, column), b

    return test


def single_compare(
    op: ast.cmpop, left: Fn, test: Test, const: Any, right: Fn | None = None, column: int = 0
) -> Fn:
    """The common one-operator comparisons, specialised (``x == 'a'``, ``x is None`` …).

    ``right`` (with its ``column``) is the right side's closure, for the
    comparisons of two values neither of which is known when compiling
    (``other.id != id``, ``id in other.bribes``): one call each, not a
    generic test that picks its operator and makes a pair at every call.
    """
    scalar = const is not NC and (const is None or type(const) in (int, str, bool))
    if isinstance(op, ast.Eq) and scalar:
        return lambda ns, fr: left(ns, fr) == const
    if isinstance(op, ast.NotEq) and scalar:
        return lambda ns, fr: left(ns, fr) != const
    if isinstance(op, ast.Is):
        return lambda ns, fr: left(ns, fr) is None
    if isinstance(op, ast.IsNot):
        return lambda ns, fr: left(ns, fr) is not None
    if isinstance(op, ast.In | ast.NotIn) and type(const) in (list, tuple):
        members = tuple(const)
        try:
            fast = frozenset(members)
        except TypeError:
            fast = None
        if fast is not None and all(type(m) in (int, str, bool) or m is None for m in members):
            negate = isinstance(op, ast.NotIn)

            def member(ns: Mapping[str, Any], fr: Any) -> bool:
                value = left(ns, fr)
                try:
                    found = value in fast
                except TypeError:  # an unhashable value (a list, a record) equals no constant
                    found = False
                return found is not negate

            return member
    order = _ORDER.get(type(op))
    if order is not None and type(const) is int:
        # ``over > 0``, ``len(x) > 0``: integers compared at once; anything
        # else takes the general test, with its errors

        def ordered(ns: Mapping[str, Any], fr: Any) -> bool:
            value = left(ns, fr)
            if type(value) is int:
                return order(value, const)
            return test(value, ns, fr)[0]

        return ordered
    if right is not None and const is NC:
        both = _both(op, left, right, column)
        if both is not None:
            return both
    return lambda ns, fr: test(left(ns, fr), ns, fr)[0]


def _both(op: ast.cmpop, left: Fn, right: Fn, column: int) -> Fn | None:
    """``a == b``, ``a != b``, ``a in b``, ``a not in b`` of two computed values (see single_compare).

    Scalars compared and a list searched are done here, in the one call (as
    :func:`_equal` and :func:`contains` do them, steps counted alike); the
    other cases are theirs.
    """
    if isinstance(op, ast.Eq | ast.NotEq):
        negate = isinstance(op, ast.NotEq)

        def equal(ns: Mapping[str, Any], fr: Any) -> bool:
            a = left(ns, fr)
            b = right(ns, fr)
            if type(a) in _SCALAR:
                return (a == b) is not negate  # builtins: a bool
            return _equal(a, b, fr, column) is not negate

        return equal
    if isinstance(op, ast.In | ast.NotIn):
        negate = isinstance(op, ast.NotIn)

        def inside(ns: Mapping[str, Any], fr: Any) -> bool:
            a = left(ns, fr)
            b = right(ns, fr)
            if type(b) is list and type(fr) is list:
                fr[STEPS] -= len(b)
                if fr[STEPS] < 0:
                    raise steps_limit(column)
                return (a in b) is not negate
            return contains(a, b, fr, column) is not negate

        return inside
    return None


#: values whose == is a bool and costs no steps (see _equal)
_SCALAR = frozenset({int, str, bool, type(None)})


_ORDER: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def context_call(name: str, args: list[Fn], column: int) -> Fn:
    def call(ns: Mapping[str, Any], fr: Any) -> Any:
        fr[STEPS] -= 1
        if fr[STEPS] < 0:
            raise steps_limit(column)
        function = fr[FUNCS].get(name)
        if function is None:
            raise ExpressionEvalError(f"function {name!r} is not available here", column)
        values = [f(ns, fr) for f in args]
        try:
            return function(*values)
        except ExpressionEvalError:
            raise
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise ExpressionEvalError(f"{name}(): {exc}", column) from None

    return call


def record_field(record_fn: Fn, key: str, column: int) -> Fn:
    """Field ``key`` of the record ``record_fn`` gives (``a.b``, ``get(a, 'b')``), or a located error."""

    def read_field(ns: Mapping[str, Any], fr: Any) -> Any:
        value = record_fn(ns, fr)
        if type(value) is Record:
            got = value.get(key, NC)
            if got is not NC:
                return got
        raise no_field(value, key, column)

    return read_field


def slot_field(index: int, key: str, column: int) -> Fn:
    """Field ``key`` of a name a generator binds (``d.kind`` in ``for d in …``): one call."""

    def read_slot_field(ns: Mapping[str, Any], fr: Any) -> Any:
        value = fr[index]
        if type(value) is Record:
            got = value.get(key, NC)
            if got is not NC:
                return got
        raise no_field(value, key, column)

    return read_slot_field


def field_of_field(name: str, first: str, key: str, general: Fn) -> Fn:
    """``a.b.c`` for a data name ``a``, in one call; anything amiss is ``general``'s to raise.

    ``general`` is the same read made of its parts, which locates the error
    (evaluation is a pure function of the names: reading again is safe).
    """

    def read_field_of_field(ns: Mapping[str, Any], fr: Any) -> Any:
        try:
            outer = ns[name]
        except KeyError:
            return general(ns, fr)
        if type(outer) is Record:
            inner = outer.get(first, NC)
            if type(inner) is Record:
                got = inner.get(key, NC)
                if got is not NC:
                    return got
        return general(ns, fr)

    return read_field_of_field


def get_constant(record_fn: Fn, name: Any, column: int) -> Fn:
    if type(name) is not str:
        return lambda ns, fr: _located(get_field, fr, record_fn(ns, fr), name, column)
    return record_field(record_fn, name.replace("-", "_"), column)


def _located(fn: Callable[..., Any], fr: Any, *args: Any) -> Any:
    *values, column = args
    try:
        return fn(fr, *values)
    except ExpressionEvalError as exc:
        exc.column = exc.column or column
        raise


def generator(loops: list[tuple[Fn, int | tuple[int, ...], list[Fn], int]], element: Fn) -> Fn:
    """The closure making a generator over ``loops`` (source, target slots, conditions, column)."""
    if len(loops) == 1 and isinstance(loops[0][1], int) and len(loops[0][2]) <= 1:
        source, slot, conds, column = loops[0]
        assert isinstance(slot, int)
        cond = conds[0] if conds else None

        def simple(ns: Mapping[str, Any], fr: Frame) -> Iterator[Any]:
            seq = source(ns, fr)
            if type(seq) is not list and type(seq) is not tuple:
                raise ExpressionEvalError(f"cannot loop over {type_name(seq)}", column)
            return _simple_loop(ns, fr, seq, slot, cond, element, column)

        return simple

    def nested(ns: Mapping[str, Any], fr: Frame) -> Iterator[Any]:
        return _nested_loop(ns, fr, loops, 0, element)

    return nested


def _simple_loop(
    ns: Mapping[str, Any],
    fr: Frame,
    seq: list[Any] | tuple[Any, ...],
    slot: int,
    cond: Fn | None,
    element: Fn,
    column: int,
) -> Iterator[Any]:
    for value in seq:
        fr[STEPS] -= 1
        if fr[STEPS] < 0:
            raise steps_limit(column)
        fr[slot] = value
        if cond is None or cond(ns, fr):
            yield element(ns, fr)


def _nested_loop(
    ns: Mapping[str, Any],
    fr: Frame,
    loops: list[tuple[Fn, int | tuple[int, ...], list[Fn], int]],
    level: int,
    element: Fn,
) -> Iterator[Any]:
    source, target, conds, column = loops[level]
    seq = source(ns, fr)
    if type(seq) is not list and type(seq) is not tuple:
        raise ExpressionEvalError(f"cannot loop over {type_name(seq)}", column)
    last = level + 1 == len(loops)
    for value in seq:
        fr[STEPS] -= 1
        if fr[STEPS] < 0:
            raise steps_limit(column)
        if isinstance(target, int):
            fr[target] = value
        else:
            if type(value) not in (list, tuple) or len(value) != len(target):
                raise ExpressionEvalError(
                    f"cannot unpack {type_name(value)} into {len(target)} names", column
                )
            for slot, part in zip(target, value, strict=True):
                fr[slot] = part
        # (a loop, not all() over a generator: two calls fewer per item)
        for cond in conds:
            if not cond(ns, fr):
                break
        else:
            if last:
                yield element(ns, fr)
            else:
                yield from _nested_loop(ns, fr, loops, level + 1, element)


#: one loop of a list comprehension, as :func:`_fill` runs it: its source, the slot it
#: binds (or the slots it unpacks into), its conditions, column, and whether it is the last
_Level = tuple[Fn, int, tuple[int, ...] | None, tuple[Fn, ...], int, bool]


def list_builder(
    loops: list[tuple[Fn, int | tuple[int, ...], list[Fn], int]], element: Fn, column: int
) -> Fn:
    """A list comprehension: its items appended as the loops run, through no generator.

    The same items, steps, errors and bounds as collecting :func:`generator`'s
    items (:func:`~rulepress.expressions.runtime.collected`), at a fraction of
    the calls: each item of a four-loop comprehension passed up four
    generators, and Stationfall's Data held after step 3 is one.
    """
    levels: tuple[_Level, ...] = tuple(
        (
            source,
            target if isinstance(target, int) else 0,
            None if isinstance(target, int) else target,
            tuple(conds),
            col,
            i + 1 == len(loops),
        )
        for i, (source, target, conds, col) in enumerate(loops)
    )

    def build(ns: Mapping[str, Any], fr: Frame) -> list[Any]:
        out: list[Any] = []
        _fill(ns, fr, levels, 0, element, out, [0], column)
        return out

    return build


def _fill(
    ns: Mapping[str, Any],
    fr: Frame,
    levels: tuple[_Level, ...],
    level: int,
    element: Fn,
    out: list[Any],
    size: list[int],
    column: int,
) -> None:
    source, slot, slots, conds, col, last = levels[level]
    seq = source(ns, fr)
    if type(seq) is not list and type(seq) is not tuple:
        raise ExpressionEvalError(f"cannot loop over {type_name(seq)}", col)
    for value in seq:
        fr[STEPS] -= 1
        if fr[STEPS] < 0:
            raise steps_limit(col)
        if slots is None:
            fr[slot] = value
        else:
            if type(value) not in (list, tuple) or len(value) != len(slots):
                raise ExpressionEvalError(
                    f"cannot unpack {type_name(value)} into {len(slots)} names", col
                )
            for index, part in zip(slots, value, strict=True):
                fr[index] = part
        for cond in conds:
            if not cond(ns, fr):
                break
        else:
            if not last:
                _fill(ns, fr, levels, level + 1, element, out, size, column)
                continue
            item = element(ns, fr)
            out.append(item)
            # counted as collected() counts: a nested collection by its size
            size[0] += len(item) + 1 if type(item) in COLLECTIONS else 1
            if size[0] > MAX_ITEMS:
                raise items_limit(size[0], column)


#: the fixed functions :func:`reduction` runs itself over a one-loop generator
REDUCTIONS = frozenset({"count", "sum", "any", "all"})


def reduction(
    name: str,
    loop: tuple[Fn, int, Fn | None, int],
    element: Fn,
    column: int,
) -> Fn:
    """``count(e for x in xs if c)`` and ``sum``, ``any``, ``all`` alike, in one loop.

    The call of the function over :func:`generator`'s one-loop generator,
    without the generator: the same value, steps (one for the call, then one
    per item gone through, ``any`` and ``all`` stopping where they decide),
    errors and columns, but no generator frame resumed per item. A check
    of Stationfall's Bribes counts each player's against every other's.
    ``loop``: the source, the slot it binds, its condition (or None), its column.
    """
    source, slot, cond, loop_column = loop

    def items(ns: Mapping[str, Any], fr: Frame) -> list[Any] | tuple[Any, ...]:
        # the call's step first, then the source, as the call of the generator takes them
        fr[STEPS] -= 1
        if fr[STEPS] < 0:
            raise steps_limit(column)
        seq = source(ns, fr)
        if type(seq) is not list and type(seq) is not tuple:
            raise ExpressionEvalError(f"cannot loop over {type_name(seq)}", loop_column)
        return seq

    def count(ns: Mapping[str, Any], fr: Frame) -> Any:
        try:
            found = 0
            for value in items(ns, fr):
                fr[STEPS] -= 1
                if fr[STEPS] < 0:
                    raise steps_limit(loop_column)
                fr[slot] = value
                if (cond is None or cond(ns, fr)) and element(ns, fr):
                    found += 1
            return found
        except ExpressionEvalError as exc:
            exc.column = exc.column or column
            raise

    def total(ns: Mapping[str, Any], fr: Frame) -> Any:
        try:
            out = 0
            seq = items(ns, fr)
            # as sum() over the generator: a TypeError while adding or while making an
            # item is refused alike
            try:
                for value in seq:
                    fr[STEPS] -= 1
                    if fr[STEPS] < 0:
                        raise steps_limit(loop_column)
                    fr[slot] = value
                    if cond is None or cond(ns, fr):
                        out = out + element(ns, fr)
            except TypeError:
                raise ExpressionEvalError("sum() adds integers only") from None
            if -MAX_INT <= out <= MAX_INT:
                return out
            raise int_limit()
        except ExpressionEvalError as exc:
            exc.column = exc.column or column
            raise

    def deciding(found: bool) -> Fn:
        """``any`` (``found`` True) or ``all`` (False): stops at the first item that is ``found``."""

        def decide(ns: Mapping[str, Any], fr: Frame) -> Any:
            try:
                for value in items(ns, fr):
                    fr[STEPS] -= 1
                    if fr[STEPS] < 0:
                        raise steps_limit(loop_column)
                    fr[slot] = value
                    if (cond is None or cond(ns, fr)) and (not element(ns, fr)) is not found:
                        return found
                return not found
            except ExpressionEvalError as exc:
                exc.column = exc.column or column
                raise

        return decide

    if name == "count":
        return count
    if name == "sum":
        return total
    return deciding(name == "any")


def pair_compare(
    op: ast.cmpop, left: tuple[str, Any, str], right: tuple[str, Any, str], general: Fn, column: int
) -> Fn | None:
    """``other.id != id``, ``id in other.bribes``: a generator's item against a data name, one call.

    ``left`` and ``right`` say how each side is read (see
    :meth:`~rulepress.expressions.compiler.Compiler.pair_read`): one the
    field of a name a generator binds, the other a data name. Both are read
    here, and scalars compared or a list searched as ``general`` (the same
    comparison made of its parts) does it, steps charged alike; anything
    else (a missing name or field, another kind of value) is left to
    ``general``, which raises the located error. None when the shapes are
    not these.
    """
    if not isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn):
        return None
    negate = isinstance(op, ast.NotEq | ast.NotIn)
    member = isinstance(op, ast.In | ast.NotIn)
    if left[0] == "slot" and right[0] == "name":
        index, attr, name, item_first = left[1], left[2], right[1], True
    elif left[0] == "name" and right[0] == "slot":
        index, attr, name, item_first = right[1], right[2], left[1], False
    else:
        return None

    def compare(ns: Mapping[str, Any], fr: Any) -> Any:
        item = fr[index]
        got = item.get(attr, NC) if type(item) is Record else NC
        if got is not NC and name in ns:
            a, b = (got, ns[name]) if item_first else (ns[name], got)
            if member:
                if type(b) is list and type(fr) is list:
                    fr[STEPS] -= len(b)
                    if fr[STEPS] < 0:
                        raise steps_limit(column)
                    return (a in b) is not negate
            elif type(a) in _SCALAR:
                return (a == b) is not negate  # builtins: a bool
        return general(ns, fr)

    return compare


#: what :func:`leading_predicate` does with the field it reads: gives it, or tests it
PREDICATE_READ, PREDICATE_NONE, PREDICATE_SOME, PREDICATE_NOT = 0, 1, 2, 3
PREDICATE_EQUAL, PREDICATE_DIFFERENT = 4, 5


def root_lead(
    name: str, attr: str | None, kind: int, const: Any, is_and: bool
) -> Callable[[Mapping[str, Any]], Any]:
    """The first part of a root ``and``/``or``, tested before a frame is made for the rest.

    ``guilt != 'guilty' or named_in(…)``, ``guilt == 'guilty' and any(…)``:
    the rest calls or loops, so the expression is evaluated in a frame of its
    own (see :func:`~rulepress.expressions.expression.parse`), but for most
    players the first part decides. ``lead(names)`` gives the value then
    (Python's own: the first part's), or :data:`NC` when it does not decide
    or cannot be read here (a missing name or field, a name that is no
    record): the whole expression is then evaluated as ever, and raises its
    located error. A part that decides has spent no steps and called nothing
    (the kinds are those of :func:`leading_predicate`: reads and tests of
    scalars), so the budget is charged exactly as the whole evaluation would.
    ``attr`` None: ``name`` itself is read (a data name), else its field.
    """

    def lead(ns: Mapping[str, Any]) -> Any:
        try:
            value = ns[name]
            if attr is not None:
                value = value.get(attr, NC) if type(value) is Record else NC
        except KeyError:
            return NC
        if value is NC:
            return NC
        if kind == PREDICATE_READ:
            first = value
        elif kind == PREDICATE_NONE:
            first = value is None
        elif kind == PREDICATE_SOME:
            first = value is not None
        elif kind == PREDICATE_NOT:
            first = not value
        elif kind == PREDICATE_EQUAL:
            first = value == const  # a scalar constant: == costs no steps, gives a bool
        else:
            first = value != const
        if (not first) if is_and else first:
            return first
        return NC

    return lead


def leading_predicate(
    lead: tuple[str, str, int, Any],
    is_and: bool,
    rest: Fn,
    rest_const: Any,
    rest_field: tuple[str, str] | None,
    general: Fn,
) -> Fn:
    """``n.f is None or …``, ``not n.f or …``, ``n.f == 'x' and …``: the first part inline.

    ``lead`` is ``(name, field, kind, constant)``: the first part reads a
    data name's field and gives it or tests it (the ``PREDICATE_`` kinds).
    When it decides (true before ``or``, false before ``and``) its value is
    the result, as Python's own; else ``rest`` (the other parts; or
    ``rest_const``, a constant last part, given without a call) is. A name
    that is no record or lacks the field is left to ``general``, the whole
    of it made of its parts, which raises the located error (evaluation is
    pure: reading again is safe). ``rest_field`` ``(name, field)``: the rest
    is that field of a data name (``line.met``), read here too when it is
    there (else ``rest`` reads it, and raises the located error).
    """
    name, attr, kind, const = lead
    constant_rest = rest_const is not NC
    rest_name, rest_attr = rest_field if rest_field is not None else ("", "")
    if not is_and and not constant_rest and rest_field is None:
        # ``line.x is None or …``, ``not line.possession or …``: the commonest kinds
        # before a rest that is called, each without the tests of the other kinds
        if kind == PREDICATE_NONE:

            def none_or(ns: Mapping[str, Any], fr: Any) -> Any:
                try:
                    record = ns[name]
                    value = record.get(attr, NC) if type(record) is Record else NC
                except KeyError:
                    return general(ns, fr)
                if value is None:
                    return True
                if value is NC:
                    return general(ns, fr)
                return rest(ns, fr)

            return none_or
        if kind == PREDICATE_NOT:

            def not_or(ns: Mapping[str, Any], fr: Any) -> Any:
                try:
                    record = ns[name]
                    value = record.get(attr, NC) if type(record) is Record else NC
                except KeyError:
                    return general(ns, fr)
                if value is NC:
                    return general(ns, fr)
                if not value:
                    return True
                return rest(ns, fr)

            return not_or
    if not is_and and kind == PREDICATE_SOME and rest_field is not None:
        # ``line.held is not None or line.met``: both fields read here

        def some_or_field(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                record = ns[name]
                value = record.get(attr, NC) if type(record) is Record else NC
            except KeyError:
                return general(ns, fr)
            if value is NC:
                return general(ns, fr)
            if value is not None:
                return True
            try:
                record = ns[rest_name]
                if type(record) is Record:
                    got = record.get(rest_attr, NC)
                    if got is not NC:
                        return got
            except KeyError:
                pass
            return rest(ns, fr)

        return some_or_field

    def decide(ns: Mapping[str, Any], fr: Any) -> Any:
        try:
            record = ns[name]
            value = record.get(attr, NC) if type(record) is Record else NC
        except KeyError:
            value = NC
        if value is NC:
            return general(ns, fr)
        # the kinds in the order specs use them most (``x is None or …`` first); a bare
        # field's value is any value, as ``or`` returns it (a compiled build checks the hint)
        first: Any
        if kind == PREDICATE_NONE:
            first = value is None
        elif kind == PREDICATE_SOME:
            first = value is not None
        elif kind == PREDICATE_NOT:
            first = not value
        elif kind == PREDICATE_EQUAL:
            first = value == const  # a field and a constant are builtins: a bool
        elif kind == PREDICATE_DIFFERENT:
            first = value != const
        else:
            first = value
        if (not first) if is_and else first:
            return first
        if constant_rest:
            return rest_const
        if rest_field is not None:
            try:
                record = ns[rest_name]
                if type(record) is Record:
                    got = record.get(rest_attr, NC)
                    if got is not NC:
                        return got
            except KeyError:
                pass
        return rest(ns, fr)

    return decide
