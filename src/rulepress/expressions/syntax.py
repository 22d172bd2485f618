"""Parsing an expression and checking its tree against the language, before anything runs.

Python's own parser (:func:`ast.parse`) reads the surface syntax; nothing it
produces is compiled or executed by Python. This module refuses every node
the language does not have, every literal past a bound, trees nested deeper
than :data:`~rulepress.expressions.bounds.MAX_DEPTH`, names with a leading
underscore, calls of anything but the fixed functions, and any use of a
function's name other than calling it (so no generator can rebind ``get``).
All refusals are :class:`ExpressionSyntaxError` with the column (1-based,
counted in characters over the whole stripped source) of the offending part.
The walk is iterative, so a deep tree cannot exhaust Python's stack here.
"""

from __future__ import annotations

import ast

from rulepress.expressions.bounds import (
    MAX_DEPTH,
    MAX_INT,
    MAX_LENGTH,
    MAX_TEXT,
    ExpressionSyntaxError,
)

#: the fixed functions and how many arguments each takes (least, most; None: any)
ARITY: dict[str, tuple[int, int | None]] = {
    "abs": (1, 1),
    "all": (1, 1),
    "any": (1, 1),
    "count": (1, 1),
    "first": (1, 1),
    "get": (2, 2),
    "len": (1, 1),
    "max": (1, None),
    "min": (1, None),
    "named_in": (2, 2),
    "sorted": (1, 1),
    "sum": (1, 2),
    "zip": (1, None),
}

#: functions the scorer supplies with the spec's data (``lookup`` reads a table,
#: ``player`` finds a player by id, ``label`` gives an id's words from the spec's
#: vocabulary, in the reader's language); only where the scorer provides them
CONTEXT_ARITY: dict[str, tuple[int, int | None]] = {
    "label": (1, 1),
    "lookup": (2, 2),
    "player": (1, 1),
}

CALLABLE = frozenset(ARITY) | frozenset(CONTEXT_ARITY)

_OPERATORS: tuple[type[ast.AST], ...] = (
    ast.And,
    ast.Or,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.FloorDiv,
    ast.Mod,
    ast.Not,
    ast.USub,
    ast.UAdd,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.In,
    ast.NotIn,
    ast.Is,
    ast.IsNot,
    ast.Load,
    ast.Store,
)

_NODES: tuple[type[ast.AST], ...] = (
    ast.BoolOp,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.IfExp,
    ast.Name,
    ast.Attribute,
    ast.Constant,
    ast.List,
    ast.Tuple,
    ast.Call,
    ast.GeneratorExp,
    ast.ListComp,
    ast.comprehension,
    ast.Subscript,
)


class Columns:
    """Turns an AST position (line, UTF-8 byte offset) into a column of the stripped source."""

    def __init__(self, wrapped: str) -> None:
        self.lines = wrapped.split("\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def of(self, node: ast.AST) -> int:
        lineno = getattr(node, "lineno", 1)
        offset = getattr(node, "col_offset", 0)
        return self.at(
            lineno, len(self.lines[lineno - 1].encode()[:offset].decode(errors="replace"))
        )

    def at(self, lineno: int, chars: int) -> int:
        # position in the wrapped text "(" + source, minus the added "(", 1-based
        return max(1, self.starts[lineno - 1] + chars)


def parse_tree(source: str) -> tuple[ast.Expression, Columns]:
    """The tree of ``source`` and its column map; refuses what cannot be parsed within bounds."""
    if len(source) > MAX_LENGTH:
        raise ExpressionSyntaxError(f"expression longer than {MAX_LENGTH} characters", 1)
    # Parenthesised so that an expression folded over several YAML lines parses
    # as it reads; columns are shifted back by the added parenthesis.
    wrapped = "(" + source.strip() + "\n)"
    columns = Columns(wrapped)
    try:
        tree = ast.parse(wrapped, mode="eval")
    except SyntaxError as exc:
        chars = (exc.offset or 2) - 1
        raise ExpressionSyntaxError(
            f"invalid expression: {exc.msg}", columns.at(exc.lineno or 1, chars)
        ) from None
    except (RecursionError, MemoryError):
        raise ExpressionSyntaxError(
            f"expression nested too deeply (the bound is {MAX_DEPTH} levels)", 1
        ) from None
    except ValueError as exc:  # e.g. a NUL character
        raise ExpressionSyntaxError(f"invalid expression: {exc}", 1) from None
    check_tree(tree, columns)
    return tree, columns


def check_tree(tree: ast.Expression, columns: Columns) -> None:
    """Refuse every part of ``tree`` that is not in the language (iteratively, outermost first)."""
    stack: list[tuple[ast.AST, ast.AST | None, int, int]] = [(tree.body, None, 1, 1)]
    while stack:
        node, parent, depth, column = stack.pop()
        if hasattr(node, "col_offset"):
            column = columns.of(node)
        if depth > MAX_DEPTH:
            raise ExpressionSyntaxError(
                f"expression nested too deeply (the bound is {MAX_DEPTH} levels)", column
            )
        if not isinstance(node, _NODES + _OPERATORS):
            raise ExpressionSyntaxError(
                f"{type(node).__name__} is not allowed in an expression", column
            )
        _check_node(node, parent, column)
        inner = depth + 1 if isinstance(node, _NODES) else depth
        stack.extend((child, node, inner, column) for child in ast.iter_child_nodes(node))


def _check_node(node: ast.AST, parent: ast.AST | None, column: int) -> None:
    if isinstance(node, ast.Constant):
        _check_constant(node.value, column)
    elif isinstance(node, ast.Name):
        if node.id.startswith("_"):
            raise ExpressionSyntaxError(f"name {node.id!r} is not allowed", column)
        is_callee = isinstance(parent, ast.Call) and parent.func is node
        if node.id in CALLABLE and not is_callee:
            what = "bound by a generator" if isinstance(node.ctx, ast.Store) else "used as a value"
            raise ExpressionSyntaxError(
                f"{node.id!r} is a function: it can only be called, not {what}", column
            )
    elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
        raise ExpressionSyntaxError(f"attribute {node.attr!r} is not allowed", column)
    elif isinstance(node, ast.Call):
        _check_call(node, column)
    elif isinstance(node, ast.GeneratorExp) and not isinstance(parent, ast.Call):
        raise ExpressionSyntaxError(
            "a generator (x for x in ...) can only be given to a function; write [...] for a list",
            column,
        )
    elif isinstance(node, ast.comprehension) and (node.is_async or not _is_names(node.target)):
        raise ExpressionSyntaxError("a generator must bind names (x, or x, y)", column)
    elif isinstance(node, ast.Subscript) and not (
        isinstance(node.slice, ast.Constant)
        and type(node.slice.value) is int
        and node.slice.value >= 0
    ):
        raise ExpressionSyntaxError("only a fixed index such as [0] is allowed", column)
    elif isinstance(node, ast.Compare):
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, ast.Is | ast.IsNot) and not (
                isinstance(right, ast.Constant) and right.value is None
            ):
                raise ExpressionSyntaxError("'is' and 'is not' only compare with None", column)


def _check_constant(value: object, column: int) -> None:
    if not isinstance(value, int | str) and value is not None:
        raise ExpressionSyntaxError("only integers, text, booleans and None are allowed", column)
    if isinstance(value, int) and abs(value) > MAX_INT:
        digits = len(str(abs(value)))
        raise ExpressionSyntaxError(
            f"an integer of {digits} digits is beyond the bound of ±{MAX_INT}", column
        )
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ExpressionSyntaxError(f"text longer than the bound of {MAX_TEXT} characters", column)


def _check_call(node: ast.Call, column: int) -> None:
    if not isinstance(node.func, ast.Name) or node.func.id not in CALLABLE:
        known = ", ".join(sorted(CALLABLE))
        raise ExpressionSyntaxError(f"only these functions may be called: {known}", column)
    if node.keywords:
        raise ExpressionSyntaxError("keyword arguments are not allowed", column)
    name = node.func.id
    if name == "get" and len(node.args) == 2:
        field = node.args[1]
        if isinstance(field, ast.Constant) and isinstance(field.value, str):
            key = field.value.replace("-", "_")
            if key.startswith("_"):
                # get() maps '-' to '_' so '-_class--' reads '__class__': refuse it here
                # too, where the spec check can say where (evaluation refuses it anyway)
                raise ExpressionSyntaxError(f"field {key!r} is not allowed", column)
    least, most = ARITY.get(name) or CONTEXT_ARITY[name]
    given = len(node.args)
    if given < least or (most is not None and given > most):
        wanted = (
            str(least)
            if least == most
            else f"{least} or more"
            if most is None
            else f"{least} to {most}"
        )
        raise ExpressionSyntaxError(
            f"{name}() takes {wanted} argument{'s' if wanted != '1' else ''}, got {given}", column
        )


def _is_names(target: ast.expr) -> bool:
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)
