"""Names an expression builds at run time, checked at validate for every value they can take.

``get(param, area + '_first')`` reads a parameter whose name is made while a
state is scored; ``get(param.first, area)`` a member of a parameter map. When
every name the key reads ranges over a named set the spec declares (a
generator's ``for k in sets.districts``, a majorities score's ``area``, a
constraint's ``item``), the key is worked out here for each member, with the
expression language's own interpreter (no text of the spec runs as Python),
and a name that does not exist is a located spec error, not a failure of
some later table state blamed on that state.

Only keys made from those names and constants are tried: of a key that reads
a field of the table state nothing is known before a state is given.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from rulepress.expressions import ExpressionEvalError, ExpressionSyntaxError, parse
from rulepress.model.spec_model import Parameter

#: a name that ranges over a named set: the set as written (``sets.districts``) and its members
Range = tuple[str, tuple[str, ...]]
#: the most keys tried for one call (a product of ranges): a set has at most a few
#: dozen members, and two nested ones stay far below this
MAX_TRIED = 10_000


def generator_ranges(tree: ast.AST, members: Mapping[str, tuple[str, ...]]) -> dict[str, Range]:
    """The names an expression's generators bind to the members of a named set."""
    out: dict[str, Range] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.comprehension) or not isinstance(node.target, ast.Name):
            continue
        it = node.iter
        if (
            isinstance(it, ast.Attribute)
            and isinstance(it.value, ast.Name)
            and it.value.id == "sets"
            and it.attr in members
        ):
            out[node.target.id] = (f"sets.{it.attr}", members[it.attr])
    return out


def _readable(params: Mapping[str, Parameter], record: ast.expr) -> tuple[str, set[str]] | None:
    """What ``get`` reads from ``record``, when it is the parameters or a parameter map."""
    if isinstance(record, ast.Name) and record.id == "param":
        return "param", set(params)
    if (
        isinstance(record, ast.Attribute)
        and isinstance(record.value, ast.Name)
        and record.value.id == "param"
        and record.attr in params
    ):
        value = params[record.attr].value
        if isinstance(value, dict):
            return f"param.{record.attr}", {m.replace("-", "_") for m in value}
    return None


def _keys(key: ast.expr, ranges: Mapping[str, Range]) -> Iterator[tuple[dict[str, str], Any]]:
    """Each value ``key`` takes, with the members it takes it for (nothing if unknowable)."""
    free = sorted({n.id for n in ast.walk(key) if isinstance(n, ast.Name)})
    if any(name not in ranges for name in free):
        return
    try:
        expr = parse(ast.unparse(key))
    except ExpressionSyntaxError:
        return
    choices = [ranges[name][1] for name in free]
    for values in itertools.islice(itertools.product(*choices), MAX_TRIED):
        given = dict(zip(free, values, strict=True))
        try:
            made = expr.evaluate(given)
        except ExpressionEvalError:
            return  # (a key that cannot be made fails the same way for every state)
        yield given, made


def _calls(tree: ast.AST, function: str) -> Iterator[ast.Call]:
    """Every call of the expression language's two-argument ``function`` in ``tree``."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == function
            and len(node.args) == 2
        ):
            yield node


def missing_reads(
    tree: ast.AST, params: Mapping[str, Parameter], ranges: Mapping[str, Range]
) -> list[str]:
    """A message for each ``get`` of a parameter or a map member whose built name does not exist."""
    out: list[str] = []
    for node in _calls(tree, "get"):
        readable = _readable(params, node.args[0])
        if readable is None:
            continue
        what, names = readable
        missing: list[str] = []
        #: each name the key reads: the set it ranges over and the members that miss
        causes: dict[str, tuple[str, list[str]]] = {}
        for given, made in _keys(node.args[1], ranges):
            if not isinstance(made, str):
                continue  # get() refuses it whatever the state
            name = made.replace("-", "_")
            if name in names:
                continue
            if name not in missing:
                missing.append(name)
            for n, member in given.items():
                listed = causes.setdefault(n, (ranges[n][0], []))[1]
                if member not in listed:
                    listed.append(member)
        if not missing:
            continue
        kind = "parameter" if what == "param" else f"member of {what}"
        why = "; ".join(
            f"{n} {', '.join(map(repr, members))} of {written}"
            for n, (written, members) in causes.items()
        )
        built = f" (for {why})" if why else ""
        out.append(f"{ast.unparse(node)} builds {', '.join(missing)}{built}: no such {kind}")
    return out


def missing_rows(
    tree: ast.AST,
    tables: Mapping[str, tuple[str | None, frozenset[Any]]],
    ranges: Mapping[str, Range],
) -> list[str]:
    """A message for each ``lookup`` of a table that does not exist or has no row for a key.

    ``tables``: by id, the set a table is keyed by (None: integers) and its keys.
    """
    out: list[str] = []
    for node in _calls(tree, "lookup"):
        if not (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            continue
        table_id = node.args[0].value
        if table_id not in tables:
            known = ", ".join(sorted(tables)) or "none"
            out.append(f"{ast.unparse(node)}: no table {table_id!r} (tables: {known})")
            continue
        keyed_by, keys = tables[table_id]
        wanted = str if keyed_by else int
        missing: list[str] = []
        for given, made in _keys(node.args[1], ranges):
            if isinstance(made, bool) or not isinstance(made, wanted):
                kind = f"members of {keyed_by}" if keyed_by else "integers"
                out.append(
                    f"{ast.unparse(node)} gives {made!r}: table {table_id!r} is keyed by {kind}"
                )
                break
            if made not in keys and repr(made) not in missing:
                why = " and ".join(f"{n} {m!r} of {ranges[n][0]}" for n, m in given.items())
                missing.append(repr(made) + (f" (for {why})" if why else ""))
        if missing:
            out.append(
                f"{ast.unparse(node)}: table {table_id!r} has no row for {', '.join(missing)}"
            )
    return out
