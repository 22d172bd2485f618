"""A small, safe expression language for conditions and values in the spec.

The spec composes generic scoring operations; the little logic that differs
from game to game ("the line is met and, if it is a Possession line, the
holder escaped") is written as an expression in Python syntax. Only a
whitelisted subset of Python's grammar is accepted:

* literals (integers, text, ``true``/``false`` as ``True``/``False``, ``None``),
  lists and tuples;
* arithmetic ``+ - * // %``, comparisons (``in`` included), ``and``/``or``/``not``,
  ``x if cond else y``;
* names and attribute access on records (``cubes.supply``), never names or
  attributes that start with an underscore;
* calls of the functions in :data:`FUNCTIONS` and generator expressions
  (``sum(l.points for l in agenda if l.met)``).

Anything else (imports, lambdas, subscripts, ``**``, attribute calls) is
rejected when the spec is loaded, with the column of the offending part.
Because the tree is checked before it is compiled, evaluation can use
Python's own ``eval`` for speed: the scorer evaluates these expressions many
thousands of times per second.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import CodeType, SimpleNamespace
from typing import Any


def _count(items: Iterable[Any]) -> int:
    return sum(1 for item in items if item)


def _first(items: Iterable[Any]) -> Any:
    return next(iter(items), None)


def _get(record: Any, name: str) -> Any:
    """A record's field by computed name (e.g. a faction chosen at run time)."""
    if not isinstance(name, str) or name.startswith("_"):
        raise ValueError(f"cannot read field {name!r}")
    return getattr(record, name.replace("-", "_"))


#: The only functions an expression may call.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "sum": sum,
    "len": len,
    "abs": abs,
    "any": any,
    "all": all,
    "count": _count,
    "first": _first,
    "get": _get,
    "zip": zip,
    "sorted": sorted,
}

#: functions the scorer supplies with the spec's data (``lookup`` reads a table,
#: ``player`` finds a player by id, ``label`` gives an id's words from the spec's
#: vocabulary, in the reader's language); only where the scorer provides them
CONTEXT_FUNCTIONS = frozenset({"lookup", "player", "label"})

_ALLOWED_NODES: tuple[type[ast.AST], ...] = (
    ast.Expression,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.FloorDiv,
    ast.Mod,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.UAdd,
    ast.Compare,
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
    ast.IfExp,
    ast.Name,
    ast.Load,
    ast.Store,
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

#: Longest expression accepted; expressions are one-liners in YAML.
MAX_LENGTH = 2000


class ExpressionSyntaxError(ValueError):
    """An expression is not in the accepted subset; ``column`` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


class ExpressionEvalError(ValueError):
    """An expression failed while being evaluated against a table state."""


@dataclass(frozen=True, slots=True)
class Expression:
    """A checked, compiled expression and the free names it reads."""

    source: str
    names: frozenset[str]
    attributes: frozenset[tuple[str, str]]
    code: CodeType

    def evaluate(self, namespace: Mapping[str, Any]) -> Any:
        """Evaluate with ``namespace``; a dict made by :func:`scope` is used as is (no copy)."""
        env = (
            namespace
            if isinstance(namespace, dict) and namespace.get("__builtins__") is _NO_BUILTINS
            else scope(namespace)
        )
        try:
            return eval(self.code, env)  # noqa: S307 - the AST was whitelisted in parse()
        except (AttributeError, NameError) as exc:
            raise ExpressionEvalError(f"{self.source!r}: unknown field ({exc})") from None
        except (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError) as exc:
            raise ExpressionEvalError(f"{self.source!r}: {exc}") from None


_NO_BUILTINS: dict[str, Any] = {}


def scope(*namespaces: Mapping[str, Any]) -> dict[str, Any]:
    """A ready evaluation environment: no builtins, the allowed functions, then the names.

    Build one per player and step and pass it to many evaluations: copying
    the names for every single evaluation would dominate the scorer's time.
    """
    env: dict[str, Any] = {"__builtins__": _NO_BUILTINS}
    env.update(FUNCTIONS)
    for ns in namespaces:
        env.update(ns)
    return env


def parse(source: str) -> Expression:
    """Check ``source`` against the whitelist and compile it."""
    if len(source) > MAX_LENGTH:
        raise ExpressionSyntaxError(f"expression longer than {MAX_LENGTH} characters", 1)
    try:
        # Parenthesised so that an expression folded over several YAML lines parses
        # as it reads; columns below are shifted back by the added parenthesis.
        tree = ast.parse("(" + source.strip() + "\n)", mode="eval")
    except SyntaxError as exc:
        raise ExpressionSyntaxError(
            f"invalid expression: {exc.msg}", max(1, (exc.offset or 2) - 1)
        ) from None
    bound: set[str] = set()
    free: set[str] = set()
    attributes: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        column = max(1, getattr(node, "col_offset", 1))
        if not isinstance(node, _ALLOWED_NODES):
            raise ExpressionSyntaxError(
                f"{type(node).__name__} is not allowed in an expression", column
            )
        if isinstance(node, ast.Constant) and not isinstance(node.value, int | str | None):
            raise ExpressionSyntaxError(
                "only integers, text, booleans and None are allowed", column
            )
        if isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise ExpressionSyntaxError(f"name {node.id!r} is not allowed", column)
            if isinstance(node.ctx, ast.Store):
                bound.add(node.id)
            else:
                free.add(node.id)
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                raise ExpressionSyntaxError(f"attribute {node.attr!r} is not allowed", column)
            if isinstance(node.value, ast.Name):
                attributes.add((node.value.id, node.attr))
        if isinstance(node, ast.Call):
            callable_names = FUNCTIONS.keys() | CONTEXT_FUNCTIONS
            if not isinstance(node.func, ast.Name) or node.func.id not in callable_names:
                known = ", ".join(sorted(callable_names))
                raise ExpressionSyntaxError(f"only these functions may be called: {known}", column)
            if node.keywords:
                raise ExpressionSyntaxError("keyword arguments are not allowed", column)
        if isinstance(node, ast.comprehension) and (node.is_async or not _is_names(node.target)):
            raise ExpressionSyntaxError("a generator must bind names (x, or x, y)", column)
        if isinstance(node, ast.Subscript) and not (
            isinstance(node.slice, ast.Constant)
            and type(node.slice.value) is int
            and node.slice.value >= 0
        ):
            raise ExpressionSyntaxError("only a fixed index such as [0] is allowed", column)
    names = frozenset(free - bound - set(FUNCTIONS) - {"True", "False", "None"})
    # context functions stay in ``names``: the spec check knows where they exist
    code = compile(tree, "<spec expression>", "eval")
    return Expression(source, names, frozenset(attributes), code)


def _is_names(target: ast.expr) -> bool:
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)


def to_record(value: Any) -> Any:
    """Turn nested plain data into attribute-accessible records for expressions."""
    if isinstance(value, dict):
        return SimpleNamespace(**{k: to_record(v) for k, v in value.items()})
    if isinstance(value, list):
        return [to_record(v) for v in value]
    return value


def from_record(value: Any) -> Any:
    """The inverse of :func:`to_record`."""
    if isinstance(value, SimpleNamespace):
        return {k: from_record(v) for k, v in vars(value).items()}
    if isinstance(value, list):
        return [from_record(v) for v in value]
    return value
