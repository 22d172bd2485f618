"""Compiling a checked expression tree into Python closures, one per node.

Each closure takes the data names (a mapping) and the evaluation's frame
(see :mod:`rulepress.expressions.runtime`) and returns the node's value. Nothing
here is Python's ``eval``: the tree only decides which of our closures to
build. Common shapes get their own closure (``a.b``, ``x == 'text'``,
integer arithmetic, ``get(r, 'name')``), constants are folded when the
expression is compiled (a folded constant that breaks a bound is refused as
a syntax error, so ``'x' * 100000000`` fails when the spec is checked), and
steps are only counted where the expression loops or calls.

Names bound by generators live in frame slots, one per binding, resolved
when compiling: a generator cannot shadow a name of an enclosing generator,
and a data name is read from the mapping only.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from rulepress.expressions.bounds import (
    MAX_STEPS,
    ExpressionEvalError,
    ExpressionSyntaxError,
    steps_limit,
)
from rulepress.expressions.nodes import NC as _NC
from rulepress.expressions.nodes import (
    PREDICATE_DIFFERENT,
    PREDICATE_EQUAL,
    PREDICATE_NONE,
    PREDICATE_NOT,
    PREDICATE_READ,
    PREDICATE_SOME,
    REDUCTIONS,
    Fn,
    arith,
    arith_constant,
    comparison,
    constant,
    context_call,
    field_of_field,
    field_or_else,
    field_test,
    generator,
    get_constant,
    is_none,
    is_not_none,
    leading_predicate,
    leaf_arith,
    leaf_arith_constant,
    leaf_ordered,
    list_builder,
    name_test,
    pair_compare,
    record_field,
    reduction,
    root_lead,
    single_compare,
    slot,
    slot_field,
    slot_field_test,
    slot_pair,
)
from rulepress.expressions.records import Record
from rulepress.expressions.runtime import (
    IMPLEMENTATIONS,
    STEPS,
    checked_int,
    no_field,
    type_name,
)
from rulepress.expressions.syntax import ARITY, Columns

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


@dataclass
class Compiled:
    """What compiling found: the closure, the free names, fields read, generator bindings."""

    fn: Fn
    names: set[str] = field(default_factory=set)
    attributes: set[tuple[str, str]] = field(default_factory=set)
    bindings: list[tuple[str, int]] = field(default_factory=list)
    slots: int = 0
    uses_frame: bool = False
    #: the root's shape when it is one the evaluator inlines: ("constant", value),
    #: ("name", name, column) or ("field", name, field, column); else None
    shape: tuple[Any, ...] | None = None
    #: a root ``and``/``or`` whose first part reads a data name or its field: that part,
    #: tested without a frame (see nodes.root_lead); else None
    lead: Callable[[Mapping[str, Any]], Any] | None = None


#: the scalar types a constant record's field may be folded as
_FOLDABLE = (int, str, bool, type(None))


class Compiler:
    """Builds the closures of one tree.

    ``constants`` (name → record) are records whose fields are fixed for
    every evaluation of the result (``param``, and ``ruling`` for one
    choice of rulings): their scalar fields are read now, as constants, so
    that what depends on them folds too. A fold that fails with them is not
    an error here (the same expression compiled without constants was
    checked and passed): the unfolded closure is kept, and fails when
    evaluated, exactly as it would have without constants.
    """

    def __init__(
        self, columns: Columns, constants: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None:
        self.columns = columns
        self.constants: Mapping[str, Mapping[str, Any]] = constants or {}
        self.out = Compiled(lambda ns, fr: None)
        self.scopes: list[dict[str, int]] = []

    def run(self, tree: ast.Expression) -> Compiled:
        body = tree.body
        fn, const = self.node(body)
        self.out.fn = constant(const) if const is not _NC else fn
        column = self.columns.of(body)
        if const is not _NC:
            self.out.shape = ("constant", const)
        elif isinstance(body, ast.Name) and not self.out.slots:
            self.out.shape = ("name", body.id, column)
        elif (
            isinstance(body, ast.Attribute)
            and isinstance(body.value, ast.Name)
            and not self.out.slots
        ):
            self.out.shape = ("field", body.value.id, body.attr, column)
        elif isinstance(body, ast.BoolOp) and self.out.uses_frame:
            # (the first part is the one _bool_op tests first: a part that reads data
            # is never a constant it drops)
            first = self.field_predicate(body.values[0], names_too=True)
            if first is not None:
                self.out.lead = root_lead(*first, isinstance(body.op, ast.And))
        return self.out

    def node(self, node: ast.expr) -> tuple[Fn, Any]:
        """The closure of ``node`` and its value if it is constant (else ``_NC``)."""
        method = _DISPATCH[type(node)]
        return method(self, node, self.columns.of(node))

    def fold(self, fn: Fn, column: int) -> tuple[Fn, Any]:
        """Evaluate a node whose parts are all constant, once, now."""
        try:
            value = fn({}, [MAX_STEPS, {}])
        except ExpressionEvalError as exc:
            if self.constants:
                return fn, _NC
            raise ExpressionSyntaxError(exc.message, exc.column or column) from None
        except (TypeError, ValueError, ArithmeticError, MemoryError, RecursionError) as exc:
            if self.constants:
                return fn, _NC
            raise ExpressionSyntaxError(str(exc), column) from None
        return constant(value), value

    def constant_field(self, node: ast.expr) -> Any:
        """The value of ``node`` if it reads a field of a constant record (else ``_NC``)."""
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.constants
            and self.free(node.value.id)
        ):
            fields = self.constants[node.value.id]
            if node.attr in fields and type(fields[node.attr]) in _FOLDABLE:
                return fields[node.attr]
        return _NC

    # --- leaves ---------------------------------------------------------------------------

    def _literal(self, node: ast.Constant, column: int) -> tuple[Fn, Any]:
        return constant(node.value), node.value

    def _name(self, node: ast.Name, column: int) -> tuple[Fn, Any]:
        name = node.id
        for scope in reversed(self.scopes):
            if name in scope:
                return slot(scope[name]), _NC
        self.out.names.add(name)

        def load(ns: Mapping[str, Any], fr: Any) -> Any:
            try:
                return ns[name]
            except KeyError:
                raise ExpressionEvalError(f"unknown name {name!r}", column) from None

        return load, _NC

    def _attribute(self, node: ast.Attribute, column: int) -> tuple[Fn, Any]:
        attr = node.attr
        base = node.value
        if isinstance(base, ast.Name) and not any(base.id in s for s in self.scopes):
            self.out.attributes.add((base.id, attr))
            self.out.names.add(base.id)
            name = base.id
            value = self.constant_field(node)
            if value is not _NC:
                return constant(value), value

            def load_field(ns: Mapping[str, Any], fr: Any) -> Any:
                try:
                    value = ns[name]
                except KeyError:
                    raise ExpressionEvalError(f"unknown name {name!r}", column) from None
                if type(value) is Record:
                    got = value.get(attr, _NC)
                    if got is not _NC:
                        return got
                raise no_field(value, attr, column)

            return load_field, _NC
        if isinstance(base, ast.Name):  # a name a generator binds: read from its slot
            return slot_field(self.scopes_slot(base.id), attr, column), _NC
        sub, _ = self.node(base)
        general = record_field(sub, attr, column)
        if (
            isinstance(base, ast.Attribute)
            and isinstance(base.value, ast.Name)
            and self.free(base.value.id)
            and self.constant_field(base) is _NC
        ):
            return field_of_field(base.value.id, base.attr, attr, general), _NC
        return general, _NC

    def _subscript(self, node: ast.Subscript, column: int) -> tuple[Fn, Any]:
        sub, const = self.node(node.value)
        assert isinstance(node.slice, ast.Constant)
        index = node.slice.value
        assert isinstance(index, int)

        def item(ns: Mapping[str, Any], fr: Any) -> Any:
            value = sub(ns, fr)
            if type(value) is list or type(value) is tuple or type(value) is str:
                if index < len(value):
                    return value[index]
                raise ExpressionEvalError(
                    f"index {index} is past the end of {type_name(value)} of {len(value)}", column
                )
            raise ExpressionEvalError(f"cannot index {type_name(value)}", column)

        return self.fold(item, column) if const is not _NC else (item, _NC)

    # --- operators ------------------------------------------------------------------------

    def _bool_op(self, node: ast.BoolOp, column: int) -> tuple[Fn, Any]:
        values = list(node.values)
        compiled = [self.node(v) for v in values]
        # Leading constants are decided now (``ruling.x == 'y' and …`` with the
        # ruling folded): ``c and rest`` is ``c`` when ``c`` is false, else
        # ``rest``; ``or`` the other way round. Exact: nothing before them runs.
        is_and = isinstance(node.op, ast.And)
        # (Only with constants: the spec check compiles as it always has.)
        while self.constants and compiled and compiled[0][1] is not _NC:
            value = compiled[0][1]
            if bool(value) != is_and or len(compiled) == 1:
                return constant(value), value
            compiled.pop(0)
            values.pop(0)
        if self.constants:
            values, compiled = _later_constants(values, compiled, is_and)
        if len(compiled) == 1:
            return compiled[0]
        general = self.chain(values, compiled, is_and)
        lead = self.field_predicate(values[0])
        if lead is None or (
            is_and
            and len(values) == 2
            and self.field_equals(values[0]) is not None
            and self.field_equals(values[1]) is not None
        ):
            return general, _NC
        # ``line.x is None or …``, ``not line.possession or …``: the first part read and
        # tested here, the rest called only when it does not decide
        rest_field = None
        if len(compiled) == 2:
            rest, rest_const = compiled[1]
            if type(rest_const) not in (int, str, bool, type(None)):
                rest_const = _NC
            # ``… or line.met``: a field of a data name, read in the same call
            read = self.leaf(values[1]) if rest_const is _NC else None
            if read is not None and read[1] is not None:
                rest_field = (read[0], read[1])
        else:
            rest, rest_const = self.chain(values[1:], compiled[1:], is_and), _NC
        return leading_predicate(lead, is_and, rest, rest_const, rest_field, general), _NC

    def chain(self, values: list[ast.expr], compiled: list[tuple[Fn, Any]], is_and: bool) -> Fn:
        """The closure of ``a and b and …`` (``or``) of two or more compiled parts."""
        parts = [fn for fn, _ in compiled]
        last = compiled[-1][1]
        # ``line.text or ''``: a constant last part is returned, not called
        scalar = last is not _NC and type(last) in (int, str, bool, type(None))
        if is_and:
            if len(parts) == 2:
                a, b = parts
                if scalar:
                    return lambda ns, fr: a(ns, fr) and last
                pair = self.field_equals(values[0]), self.field_equals(values[1])
                if pair[0] is not None and pair[1] is not None:
                    return _both_equal(pair[0], pair[1], a, b)
                return lambda ns, fr: a(ns, fr) and b(ns, fr)

            def all_of(ns: Mapping[str, Any], fr: Any) -> Any:
                value: Any = True
                for part in parts:
                    value = part(ns, fr)
                    if not value:
                        return value
                return value

            return all_of
        if len(parts) == 2:
            a, b = parts
            if scalar:
                return lambda ns, fr: a(ns, fr) or last
            return lambda ns, fr: a(ns, fr) or b(ns, fr)

        def any_of(ns: Mapping[str, Any], fr: Any) -> Any:
            value: Any = False
            for part in parts:
                value = part(ns, fr)
                if value:
                    return value
            return value

        return any_of

    @overload
    def field_predicate(
        self, node: ast.expr, names_too: Literal[False] = False
    ) -> tuple[str, str, int, Any] | None: ...

    @overload
    def field_predicate(
        self, node: ast.expr, names_too: bool
    ) -> tuple[str, str | None, int, Any] | None: ...

    def field_predicate(
        self, node: ast.expr, names_too: bool = False
    ) -> tuple[str, str | None, int, Any] | None:
        """``(name, field, kind, constant)`` when ``node`` tests or reads a data name's field.

        The kinds of :func:`~rulepress.expressions.nodes.leading_predicate`:
        ``n.f``, ``n.f is None``, ``n.f is not None``, ``not n.f``, ``n.f ==
        c``, ``n.f != c`` (``c`` a literal scalar). None for anything else,
        and for a field of a constant record (folded instead). With
        ``names_too``, a data name tested or read itself (``guilt ==
        'guilty'``) gives ``(name, None, kind, constant)``.
        """
        kind, const = PREDICATE_READ, None
        subject = node
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            kind, subject = PREDICATE_NOT, node.operand
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            op, right = node.ops[0], node.comparators[0]
            if not isinstance(right, ast.Constant):
                return None
            const, subject = right.value, node.left
            if isinstance(op, ast.Is | ast.IsNot) and const is None:
                kind = PREDICATE_NONE if isinstance(op, ast.Is) else PREDICATE_SOME
            elif isinstance(op, ast.Eq | ast.NotEq) and type(const) in (int, str, bool):
                kind = PREDICATE_EQUAL if isinstance(op, ast.Eq) else PREDICATE_DIFFERENT
            else:
                return None
        if (
            isinstance(subject, ast.Attribute)
            and isinstance(subject.value, ast.Name)
            and self.free(subject.value.id)
            and self.constant_field(subject) is _NC
        ):
            return subject.value.id, subject.attr, kind, const
        if (
            names_too
            and isinstance(subject, ast.Name)
            and self.free(subject.id)
            and subject.id not in self.constants
        ):
            return subject.id, None, kind, const
        return None

    def _unary_op(self, node: ast.UnaryOp, column: int) -> tuple[Fn, Any]:
        sub, const = self.node(node.operand)
        if isinstance(node.op, ast.Not):
            fn: Fn = self.fused_test(node.operand, node.op, None) or (
                lambda ns, fr: not sub(ns, fr)
            )
        else:
            sign = -1 if isinstance(node.op, ast.USub) else 1
            symbol = "-" if sign < 0 else "+"

            def fn(ns: Mapping[str, Any], fr: Any) -> Any:
                value = sub(ns, fr)
                if isinstance(value, int):
                    return checked_int(sign * value, column)
                raise ExpressionEvalError(
                    f"'{symbol}' needs an integer, got {type_name(value)}", column
                )

        return self.fold(fn, column) if const is not _NC else (fn, _NC)

    def _bin_op(self, node: ast.BinOp, column: int) -> tuple[Fn, Any]:
        op = _BINOPS[type(node.op)]
        left, lc = self.node(node.left)
        right, rc = self.node(node.right)
        if lc is not _NC and rc is not _NC:
            return self.fold(arith(op, left, right, column), column)
        # a data name or its field on the left is read by the operator's own closure
        lead = self.leaf(node.left) if lc is _NC else None
        if type(rc) is int and op in ("+", "-", "*"):
            general = arith_constant(op, left, rc, column)
            if lead is None:
                return general, _NC
            return leaf_arith_constant(op, lead, rc, general, column), _NC
        general = arith(op, left, right, column)
        if lead is None or op not in ("+", "-", "*"):
            return general, _NC
        other = self.leaf(node.right) if rc is _NC else None
        return leaf_arith(op, lead, right, other, general, column), _NC

    def _if_exp(self, node: ast.IfExp, column: int) -> tuple[Fn, Any]:
        test, tc = self.node(node.test)
        body, bc = self.node(node.body)
        orelse, oc = self.node(node.orelse)
        if tc is not _NC:
            return (body, bc) if tc else (orelse, oc)
        # constant branches (``1 if x else 0``) are returned, not called
        scalar = (int, str, bool, type(None))
        if bc is not _NC and oc is not _NC and type(bc) in scalar and type(oc) in scalar:
            return (lambda ns, fr: bc if test(ns, fr) else oc), _NC
        if oc is not _NC and type(oc) in scalar:
            general: Fn = lambda ns, fr: body(ns, fr) if test(ns, fr) else oc  # noqa: E731
        else:
            general = lambda ns, fr: body(ns, fr) if test(ns, fr) else orelse(ns, fr)  # noqa: E731
        # ``line.per if line.per is not None else 1``: the field read once, tested here
        read = self.leaf(node.body) if bc is _NC else None
        if (
            read is not None
            and read[1] is not None
            and isinstance(node.test, ast.Compare)
            and len(node.test.ops) == 1
            and isinstance(node.test.ops[0], ast.IsNot)
            and isinstance(node.test.comparators[0], ast.Constant)
            and node.test.comparators[0].value is None
            and self.leaf(node.test.left) == read
        ):
            scalar_else = oc is not _NC and type(oc) in scalar
            return field_or_else(read[0], read[1], orelse, oc if scalar_else else _NC, general), _NC
        return general, _NC

    def _compare(self, node: ast.Compare, column: int) -> tuple[Fn, Any]:
        left, lc = self.node(node.left)
        tests = []
        consts = [lc]
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right, rc = self.node(right_node)
            consts.append(rc)
            tests.append(comparison(op, right, rc, self.columns.of(right_node)))
        if len(tests) == 1:
            fused = self.fused_test(node.left, node.ops[0], consts[1])
            at = self.columns.of(node.comparators[0])
            fn = fused or single_compare(node.ops[0], left, tests[0], consts[1], right, at)
            lead = self.leaf(node.left) if fused is None and lc is _NC else None
            if lead is not None and type(consts[1]) is int:
                fn = leaf_ordered(node.ops[0], lead, consts[1], fn) or fn
            reads = self.pair_read(node.left), self.pair_read(node.comparators[0])
            if fused is None and reads[0] is not None and reads[1] is not None:
                fn = pair_compare(node.ops[0], reads[0], reads[1], fn, at) or fn
        else:

            def fn(ns: Mapping[str, Any], fr: Any) -> Any:
                value = left(ns, fr)
                for test in tests:
                    ok, value = test(value, ns, fr)
                    if not ok:
                        return False
                return True

        if all(c is not _NC for c in consts):
            return self.fold(fn, column)
        return fn, _NC

    def fused_test(self, subject: ast.expr, op: ast.AST, const: Any) -> Fn | None:
        """One closure for the commonest tests of a name or a field against a constant.

        ``a.b == 'x'``, ``a.b is None``, ``not a.b``, ``name != 'x'``: the
        reading and the test in one call instead of two or three.
        """
        scalar = const is None or type(const) in (int, str, bool)
        if self.constant_field(subject) is not _NC:
            return None  # a constant record's field: the test folds instead
        if isinstance(op, ast.Eq | ast.NotEq) and scalar:
            test: Callable[[Any], bool] = (
                (lambda v: v == const) if isinstance(op, ast.Eq) else (lambda v: v != const)
            )
        elif isinstance(op, ast.Is):
            test = is_none
        elif isinstance(op, ast.IsNot):
            test = is_not_none
        elif isinstance(op, ast.Not):
            test = operator.not_
        else:
            return None
        if isinstance(subject, ast.Name) and self.free(subject.id):
            self.out.names.add(subject.id)
            return name_test(subject.id, self.columns.of(subject), op, const, test)
        if (
            isinstance(subject, ast.Attribute)
            and isinstance(subject.value, ast.Name)
            and self.free(subject.value.id)
        ):
            self.out.names.add(subject.value.id)
            self.out.attributes.add((subject.value.id, subject.attr))
            column = self.columns.of(subject)
            return field_test(subject.value.id, subject.attr, column, op, const, test)
        if isinstance(subject, ast.Attribute) and isinstance(subject.value, ast.Name):
            # a field of a generator's item (``c.state == 'escaped'``), read from its slot
            index, column = self.scopes_slot(subject.value.id), self.columns.of(subject)
            return slot_field_test(index, subject.attr, column, op, const, test)
        return None

    def slot_read(self, node: ast.expr) -> tuple[int, str | None] | None:
        """How :func:`~rulepress.expressions.nodes.slot_pair` reads ``node``, if it can.

        ``(slot, None)`` for a name a generator binds, ``(slot, field)`` for
        its field; None for anything else.
        """
        if isinstance(node, ast.Name) and not self.free(node.id):
            return self.scopes_slot(node.id), None
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and not self.free(node.value.id)
        ):
            return self.scopes_slot(node.value.id), node.attr
        return None

    def pair_of_slots(self, node: ast.List | ast.Tuple, general: Fn) -> Fn:
        """``general``, the pair ``node`` builds, or one closure when both are generator items."""
        first, second = (self.slot_read(e) for e in node.elts)
        if first is None or second is None:
            return general
        return slot_pair(first, second, isinstance(node, ast.List), general)

    def leaf(self, node: ast.expr) -> tuple[str, str | None] | None:
        """How :func:`~rulepress.expressions.nodes.leaf_arith` reads ``node``, if it can.

        ``(name, None)`` for a data name, ``(name, field)`` for a data name's
        field (not one of a constant record: that is folded); None for
        anything else. The node itself is compiled too, by the caller: its
        names are recorded, and its closure raises the located errors.
        """
        if isinstance(node, ast.Name) and self.free(node.id):
            return node.id, None
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and self.free(node.value.id)
            and self.constant_field(node) is _NC
        ):
            return node.value.id, node.attr
        return None

    def pair_read(self, node: ast.expr) -> tuple[str, Any, str] | None:
        """How :func:`~rulepress.expressions.nodes.pair_compare` reads ``node``, if it can.

        ``("slot", index, field)`` for a field of a name a generator binds
        (``other.id``), ``("name", name, "")`` for a data name (``id``); None
        for anything else.
        """
        if isinstance(node, ast.Name) and self.free(node.id):
            return ("name", node.id, "")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and not self.free(node.value.id)
        ):
            return ("slot", self.scopes_slot(node.value.id), node.attr)
        return None

    def field_equals(self, node: ast.expr) -> tuple[str, str, Any] | None:
        """``(name, field, constant)`` when ``node`` is ``name.field == constant``."""
        if not (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.Eq)
            and isinstance(node.comparators[0], ast.Constant)
            and type(node.comparators[0].value) in (int, str, bool)
        ):
            return None
        subject = node.left
        if (
            isinstance(subject, ast.Attribute)
            and isinstance(subject.value, ast.Name)
            and self.free(subject.value.id)
            and self.constant_field(subject) is _NC
        ):
            return subject.value.id, subject.attr, node.comparators[0].value
        return None

    def scopes_slot(self, name: str) -> int:
        """The frame slot of ``name``, which an enclosing generator binds."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        raise AssertionError(f"{name!r} is bound by no generator")

    def free(self, name: str) -> bool:
        """Whether ``name`` is read from the data (not bound by an enclosing generator)."""
        return not any(name in scope for scope in self.scopes)

    # --- collections, calls, generators ---------------------------------------------------

    def _list(self, node: ast.List, column: int) -> tuple[Fn, Any]:
        parts = [self.node(e) for e in node.elts]
        if all(c is not _NC for _, c in parts):
            value = [c for _, c in parts]
            return (lambda ns, fr: list(value)), value
        fns = [f for f, _ in parts]
        if len(fns) == 2:  # ``[p.character, p.bonus_character]``: no loop for two
            a, b = fns
            return self.pair_of_slots(node, lambda ns, fr: [a(ns, fr), b(ns, fr)]), _NC
        return (lambda ns, fr: [f(ns, fr) for f in fns]), _NC

    def _tuple(self, node: ast.Tuple, column: int) -> tuple[Fn, Any]:
        parts = [self.node(e) for e in node.elts]
        if all(c is not _NC for _, c in parts):
            value = tuple(c for _, c in parts)
            return constant(value), value
        fns = [f for f, _ in parts]
        # pairs (``(i, d.kind)``) are the common tuples: built without a generator
        if len(fns) == 2:
            a, b = fns
            return self.pair_of_slots(node, lambda ns, fr: (a(ns, fr), b(ns, fr))), _NC
        if len(fns) == 3:
            a, b, c = fns
            return (lambda ns, fr: (a(ns, fr), b(ns, fr), c(ns, fr))), _NC
        return (lambda ns, fr: tuple([f(ns, fr) for f in fns])), _NC

    def _call(self, node: ast.Call, column: int) -> tuple[Fn, Any]:
        assert isinstance(node.func, ast.Name)
        name = node.func.id
        if _scalar(name, len(node.args)):
            return self.scalar_call(node, name, column)
        self.out.uses_frame = True
        if name in REDUCTIONS and len(node.args) == 1:
            fused = self.reduction(name, node.args[0], column)
            if fused is not None:
                return fused, _NC
        parts = [self.node(a) for a in node.args]
        args = [f for f, _ in parts]
        if name not in ARITY:
            return context_call(name, args, column), _NC
        if name == "get" and parts[1][1] is not _NC:
            return get_constant(args[0], parts[1][1], column), _NC
        impl = IMPLEMENTATIONS[name]
        if len(args) == 1:
            (a,) = args

            def call(ns: Mapping[str, Any], fr: Any) -> Any:
                fr[STEPS] -= 1
                if fr[STEPS] < 0:
                    raise steps_limit(column)
                try:
                    return impl(fr, a(ns, fr))
                except ExpressionEvalError as exc:
                    exc.column = exc.column or column
                    raise

        elif len(args) == 2:
            # max(0, x - y) and get(r, k): two arguments, a constant first one not called
            (a, first), (b, _) = parts

            def call(ns: Mapping[str, Any], fr: Any) -> Any:
                fr[STEPS] -= 1
                if fr[STEPS] < 0:
                    raise steps_limit(column)
                try:
                    return impl(fr, first if first is not _NC else a(ns, fr), b(ns, fr))
                except ExpressionEvalError as exc:
                    exc.column = exc.column or column
                    raise

        else:

            def call(ns: Mapping[str, Any], fr: Any) -> Any:
                fr[STEPS] -= 1
                if fr[STEPS] < 0:
                    raise steps_limit(column)
                try:
                    return impl(fr, *[f(ns, fr) for f in args])
                except ExpressionEvalError as exc:
                    exc.column = exc.column or column
                    raise

        if all(c is not _NC for _, c in parts):
            return self.fold(call, column)
        return call, _NC

    def reduction(self, name: str, arg: ast.expr, column: int) -> Fn | None:
        """``count``, ``sum``, ``any`` or ``all`` of a one-loop generator, fused (see nodes.reduction).

        None for any other argument (a list, a generator of several loops,
        conditions or names): the call is compiled as any other.
        """
        if not (
            isinstance(arg, ast.GeneratorExp)
            and len(arg.generators) == 1
            and isinstance(arg.generators[0].target, ast.Name)
            and len(arg.generators[0].ifs) <= 1
        ):
            return None
        loops, element = self.comprehension_parts(arg)
        ((source, target, conds, loop_column),) = loops
        assert isinstance(target, int)
        return reduction(
            name, (source, target, conds[0] if conds else None, loop_column), element, column
        )

    def scalar_call(self, node: ast.Call, name: str, column: int) -> tuple[Fn, Any]:
        """``len(x)``, ``abs(n)``, ``max(a, b)``: no frame, no step counted (see _scalar)."""
        parts = [self.node(a) for a in node.args]
        impl = IMPLEMENTATIONS[name]
        if len(parts) == 1:
            ((a, _),) = parts

            def call(ns: Mapping[str, Any], fr: Any) -> Any:
                try:
                    return impl(fr, a(ns, fr))
                except ExpressionEvalError as exc:
                    exc.column = exc.column or column
                    raise

        elif len(parts) == 2:
            (a, first), (b, _) = parts  # max(0, x - y): a constant first argument not called

            def call(ns: Mapping[str, Any], fr: Any) -> Any:
                try:
                    return impl(fr, first if first is not _NC else a(ns, fr), b(ns, fr))
                except ExpressionEvalError as exc:
                    exc.column = exc.column or column
                    raise

        else:
            args = [f for f, _ in parts]

            def call(ns: Mapping[str, Any], fr: Any) -> Any:
                try:
                    return impl(fr, *[f(ns, fr) for f in args])
                except ExpressionEvalError as exc:
                    exc.column = exc.column or column
                    raise

        if all(c is not _NC for _, c in parts):
            return self.fold(call, column)
        return call, _NC

    def _generator_exp(self, node: ast.GeneratorExp, column: int) -> tuple[Fn, Any]:
        return self.comprehension(node, column), _NC

    def _list_comp(self, node: ast.ListComp, column: int) -> tuple[Fn, Any]:
        loops, element = self.comprehension_parts(node)
        return list_builder(loops, element, column), _NC

    def comprehension(self, node: ast.GeneratorExp | ast.ListComp, column: int) -> Fn:
        return generator(*self.comprehension_parts(node))

    def comprehension_parts(
        self, node: ast.GeneratorExp | ast.ListComp
    ) -> tuple[list[tuple[Fn, int | tuple[int, ...], list[Fn], int]], Fn]:
        """A comprehension's loops (source, target slots, conditions, column) and element."""
        self.out.uses_frame = True
        scope: dict[str, int] = {}
        loops: list[tuple[Fn, int | tuple[int, ...], list[Fn], int]] = []
        # the first source is read outside the generator, later ones see earlier names
        for gen in node.generators:
            source, sc = self.node(gen.iter)
            if sc is not _NC and isinstance(sc, list | tuple):
                frozen = tuple(sc)
                source = constant(frozen)
            if not self.scopes or self.scopes[-1] is not scope:
                self.scopes.append(scope)
            target = self.bind(gen.target, scope)
            conds = [self.node(c)[0] for c in gen.ifs]
            loops.append((source, target, conds, self.columns.of(gen.iter)))
        element = self.node(node.elt)[0]
        self.scopes.pop()
        return loops, element

    def bind(self, target: ast.expr, scope: dict[str, int]) -> int | tuple[int, ...]:
        names = [target] if isinstance(target, ast.Name) else list(getattr(target, "elts", []))
        slots = []
        for name_node in names:
            assert isinstance(name_node, ast.Name)
            name = name_node.id
            column = self.columns.of(name_node)
            if any(name in s for s in self.scopes):
                raise ExpressionSyntaxError(
                    f"name {name!r} is already bound by an enclosing generator", column
                )
            scope[name] = slot = 2 + self.out.slots
            self.out.slots += 1
            self.out.bindings.append((name, column))
            slots.append(slot)
        return slots[0] if isinstance(target, ast.Name) else tuple(slots)


def _later_constants(
    values: list[ast.expr], compiled: list[tuple[Fn, Any]], is_and: bool
) -> tuple[list[ast.expr], list[tuple[Fn, Any]]]:
    """The parts of an ``and``/``or`` (after a first that is not constant) worth running.

    A constant folded from a ruling (``… or ruling.x == 'y' and …``) that is
    not the last part either changes nothing (``or False``, ``and True``: the
    next part decides) and is dropped, or decides (``or 'x'``, ``and 0``) and
    ends the parts. A last ``or False`` (``and True``) after a comparison or a
    ``not`` is dropped too: the comparison's own ``False`` (``True``) is the
    same value. Exact, as Python would evaluate them: Stationfall's Data
    providers read ``c.state == 'escaped' or False or False`` with the
    default ruling folded.
    """
    kept_values, kept = values[:1], compiled[:1]
    for value, part in zip(values[1:-1], compiled[1:-1], strict=True):
        if part[1] is not _NC:
            if bool(part[1]) == is_and:
                continue  # no effect on the outcome
            kept_values.append(value)
            kept.append(part)
            return kept_values, kept  # decides: nothing after it runs
        kept_values.append(value)
        kept.append(part)
    if len(values) > 1:
        last_value, last = values[-1], compiled[-1]
        neutral = last[1] is is_and  # exactly True after 'and', False after 'or'
        boolean = isinstance(kept_values[-1], ast.Compare) or (
            isinstance(kept_values[-1], ast.UnaryOp) and isinstance(kept_values[-1].op, ast.Not)
        )
        if not (neutral and boolean):
            kept_values.append(last_value)
            kept.append(last)
    return kept_values, kept


def _scalar(name: str, args: int) -> bool:
    """Whether a call of a fixed function does a bounded amount of work, whatever its arguments.

    ``len(x)`` and ``abs(n)`` of one value, ``max`` and ``min`` of two or
    more values (not of a list): none goes through a collection, so, like an
    operator, each is work the expression's size bounds, and counting it as
    a step would only make the expression need a frame (a copy, a charge to
    the budget) for what ``x + 1`` does without one: ``len(foreign_bribes) > 0``
    and ``max(0, outside - influence_limit)`` are evaluated per player.
    """
    if name in ("len", "abs"):
        return args == 1
    return name in ("max", "min") and args >= 2


def _both_equal(first: tuple[str, str, Any], second: tuple[str, str, Any], a: Fn, b: Fn) -> Fn:
    """``x.f == 'c' and y.g == 'd'`` in one call, not three.

    The commonest ``when`` (``bc.kind == 'friend' and bc.state == 'escaped'``).
    Anything but two fields that exist is left to the parts' own closures,
    which raise the errors (evaluation is pure, so the first part may run twice).
    """
    base1, attr1, const1 = first
    base2, attr2, const2 = second

    def both(ns: Mapping[str, Any], fr: Any) -> Any:
        # (read by subscript in a ``try``: see nodes.field_test)
        try:
            value = ns[base1]
            if type(value) is Record:
                # a field and a constant are builtins, whose == gives a bool
                got = value.get(attr1, _NC)
                if got is not _NC:
                    if got != const1:
                        return False
                    value = ns[base2]
                    if type(value) is Record:
                        got = value.get(attr2, _NC)
                        if got is not _NC:
                            return got == const2
        except KeyError:
            pass
        return a(ns, fr) and b(ns, fr)

    return both


_DISPATCH: dict[type[ast.AST], Callable[[Compiler, Any, int], tuple[Fn, Any]]] = {
    ast.Constant: Compiler._literal,
    ast.Name: Compiler._name,
    ast.Attribute: Compiler._attribute,
    ast.Subscript: Compiler._subscript,
    ast.BoolOp: Compiler._bool_op,
    ast.UnaryOp: Compiler._unary_op,
    ast.BinOp: Compiler._bin_op,
    ast.IfExp: Compiler._if_exp,
    ast.Compare: Compiler._compare,
    ast.List: Compiler._list,
    ast.Tuple: Compiler._tuple,
    ast.Call: Compiler._call,
    ast.GeneratorExp: Compiler._generator_exp,
    ast.ListComp: Compiler._list_comp,
}
