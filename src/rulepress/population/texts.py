"""The words a table state's text fields are drawn from: those the spec's rules compare them with.

A text field (a Secret Identity's name, a location) holds words no format
lists, so a drawn text cannot be uniform over all strings: every rule that
reads the field would then be dead (no random name is ever the Engineer). The
words a rule can tell apart are the ones its expressions compare the field
with: ``identity == 'engineer'``, ``named_in(identity, sets.win_while_guilty)``,
``location in ['bridge', 'hold']``. Those are found by reading every expression
of the spec once; a field is known by its name, as the expressions read it
(``identity``, ``character.location``). To them each field adds values no rule
names, shared by every text field so that two fields compared with each other
(a character's location and the Antimatter's) can agree.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from rulepress.expressions.bounds import ExpressionSyntaxError
from rulepress.expressions.syntax import parse_tree
from rulepress.model.spec_model import Spec
from rulepress.states.template import expression_sources

#: the values no rule names, in the order fields take them (one each, or more for a list)
UNNAMED_PREFIX = "unnamed-"
#: the functions whose first argument is a text tested against the ids that follow it
_NAME_TESTS = frozenset({"named_in"})


def unnamed(count: int) -> list[str]:
    """The first ``count`` values no rule names (``unnamed-1`` …)."""
    return [f"{UNNAMED_PREFIX}{i}" for i in range(1, count + 1)]


#: what holds no rule's expressions: worked examples' states and results, defaults
_NO_RULES = frozenset({"examples", "state", "expect", "default"})


def spec_expressions(obj: Any) -> Iterator[str]:
    """Every expression source in ``obj`` (a spec or any part of it), sub-steps included."""
    return expression_sources(obj, skip=_NO_RULES, targets=False)


def compared_words(spec: Spec) -> dict[str, list[str]]:
    """Field name → the words the spec's expressions compare a field of that name with.

    In the order first met, each once; a name no expression compares with a word
    is absent.
    """
    found: dict[str, dict[str, None]] = {}
    for source in spec_expressions(spec):
        try:
            tree, _ = parse_tree(source)
        except ExpressionSyntaxError:  # the spec check reports it
            continue
        for name, words in _comparisons(tree, spec.sets):
            found.setdefault(name, {}).update(dict.fromkeys(words))
    return {name: list(words) for name, words in found.items()}


def _comparisons(tree: ast.AST, sets: Mapping[str, list[Any]]) -> Iterator[tuple[str, list[str]]]:
    """(field name, words) for each comparison of a field with words in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for (left, right), op in zip(itertools.pairwise(sides), node.ops, strict=True):
                if not isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn):
                    continue
                yield from _pair(left, right, sets)
                if isinstance(op, ast.Eq | ast.NotEq):
                    yield from _pair(right, left, sets)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _NAME_TESTS
            and len(node.args) >= 2
        ):
            for other in node.args[1:]:
                yield from _pair(node.args[0], other, sets)


def _pair(
    field: ast.expr, other: ast.expr, sets: Mapping[str, list[Any]]
) -> Iterator[tuple[str, list[str]]]:
    name = _field_name(field)
    words = _words(other, sets)
    if name is not None and words:
        yield name, words


def _field_name(node: ast.expr) -> str | None:
    """The field an operand reads: ``identity`` or ``character.location`` (its last name)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _words(node: ast.expr, sets: Mapping[str, list[Any]]) -> list[str]:
    """The texts an operand stands for: a text, a list or tuple of texts, or ``sets.<name>``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [w for elt in node.elts for w in _words(elt, sets)]
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "sets"
    ):
        return [m for m in sets.get(node.attr, []) if isinstance(m, str)]
    return []
