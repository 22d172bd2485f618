"""A count across a state's records, tallied once per state: a pairwise rule in linear time.

A player's constraint may count the other players whose list names it
(Stationfall's Bribes: a player's Bribe lies on at most one card)::

    count(id in other.foreign_bribes for other in players if other.id != id)

Asked of every player, that is every pair of players: n² comparisons and n
lists searched per player, half the work of checking a nine-player state.
The state check's quick path (:mod:`rulepress.states.quick`) asks such a
count from a :class:`Tally` instead, made in one pass over the players: for
each value, how many players' lists hold it, less those whose own key is that
value; each player's count is then two dictionary lookups. The full check,
which words and places the problems, still evaluates the expression itself.

Only this shape is taken, with the names written any way:
``count(X in V.F for V in S)``, with at most one condition,
``V.K != X`` or ``X != V.K``; ``X`` and ``S`` are data names (no generator
of the expression binds them). Anywhere else in the expression it may
stand in, the rest is evaluated as written, with the count a name
(:func:`pair_counts`). The tally gives the expression's own count only for
values it compares as the expression does: ``S`` a list of records, each
with ``F`` a list of texts and ``K`` a text, and ``X`` a text (texts are
equal by ``==`` and hashed alike). For any other value no tally is made and
the caller asks the expression as written, which raises where it would.

Steps. A count from a tally charges what the expression's own evaluation
charges (see :func:`rulepress.expressions.nodes.reduction` and
``pair_compare``): one for the call, one per record gone through, and each
list searched, by its length, so the quick path's budget runs out where it
would have (or one step sooner: an expression left with a name for its one
call is a one-step expression, and is charged that step).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any, NamedTuple

from rulepress.expressions.records import Record
from rulepress.expressions.syntax import CALLABLE, parse_tree

#: the one kind of value a tally counts (see the module's docstring)
_TEXT = frozenset({str})


class Tally(NamedTuple):
    """The lists of one state's records, counted by value (see :meth:`PairCount.tally`)."""

    #: how many records' lists hold each value
    holding: dict[str, int]
    #: of those, how many records have the value as their own key (the condition leaves them out)
    own: dict[str, int]
    #: how many records there are
    size: int
    #: the lists' lengths added up, in all, and over the records of each key
    searched: int
    searched_by_key: dict[str, int]


class PairCount(NamedTuple):
    """``count(X in V.F for V in S if V.K != X)``: the names it reads, and the name it becomes."""

    sequence: str  # S
    value: str  # X
    field: str  # F
    key: str | None  # K; None when the count has no condition
    #: the name standing for the count in the rewritten expression
    name: str

    def tally(self, seq: Any) -> Tally | None:
        """``seq`` counted, or None when a value is not one the tally compares as the expression."""
        if type(seq) is not list:
            return None
        holding: dict[str, int] = {}
        own: dict[str, int] = {}
        by_key: dict[str, int] = {}
        searched = 0
        field, key = self.field, self.key
        # (plain loops and dicts: this runs once for every state checked, and most lists
        # are empty; a Counter's update and missing keys are calls into Python)
        for rec in seq:
            if type(rec) is not Record:
                return None
            listed = rec.get(field)
            if type(listed) is not list:
                return None
            mine: Any = None
            if key is not None:
                mine = rec.get(key)
                if type(mine) is not str:
                    return None
            if not listed:
                continue
            if not _TEXT.issuperset(map(type, listed)):
                return None
            searched += len(listed)
            if key is not None:
                by_key[mine] = by_key.get(mine, 0) + len(listed)
                if mine in listed:
                    own[mine] = own.get(mine, 0) + 1
            # a record counts once, however often its list holds a value
            for v in set(listed) if len(listed) > 1 else listed:
                holding[v] = holding.get(v, 0) + 1
        return Tally(holding, own, len(seq), searched, by_key)


#: the tallies made for one state's records: by what they count (the sequence's name, the
#: lists' field, the key's), each with the very sequence it was made of
Tallies = dict[tuple[str, str, str | None], tuple[Any, Tally | None]]


def _field_of(node: ast.expr, var: str) -> str | None:
    """The field ``F`` when ``node`` is ``var.F``, else None."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == var
    ):
        return node.attr
    return None


def _name_of(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _match(node: ast.AST, bound: frozenset[str]) -> tuple[str, str, str, str | None] | None:
    """(S, X, F, K) when ``node`` is a count of the shape taken here, else None."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "count"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.GeneratorExp)
        and len(node.args[0].generators) == 1
    ):
        return None
    gen = node.args[0]
    loop = gen.generators[0]
    var = _name_of(loop.target)
    seq = _name_of(loop.iter)
    elt = gen.elt
    if (
        var is None
        or seq is None
        or len(loop.ifs) > 1
        or not isinstance(elt, ast.Compare)
        or len(elt.ops) != 1
        or not isinstance(elt.ops[0], ast.In)
    ):
        return None
    value, field = _name_of(elt.left), _field_of(elt.comparators[0], var)
    if value is None or field is None or {value, seq} & (bound | {var}):
        return None
    key = None
    if loop.ifs:
        cond = loop.ifs[0]
        if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1):
            return None
        left, right = cond.left, cond.comparators[0]
        key = _field_of(left, var) if _name_of(right) == value else None
        key = key or (_field_of(right, var) if _name_of(left) == value else None)
        if key is None or not isinstance(cond.ops[0], ast.NotEq):
            return None
    return seq, value, field, key


def pair_counts(
    source: str, taken: Iterable[str], bound: Iterable[str] = ()
) -> tuple[str, tuple[PairCount, ...]] | None:
    """``source`` with each pairwise count made a name, and the counts; None when it has none.

    ``taken``: names the new ones must not be (every name the rule reads or
    sets); ``bound``: names the caller sets while asking the rule (its
    ``let`` names), which no count may read, since it is tallied before they
    are set. Raises :class:`~rulepress.expressions.ExpressionSyntaxError`
    for a source that is no expression.
    """
    tree, _ = parse_tree(source)
    avoid = set(taken) | set(CALLABLE)
    # names a generator binds are no data names: a count reading one is not taken
    generated = frozenset(
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.comprehension)
        for target in ast.walk(node.target)
        if isinstance(target, ast.Name)
    )
    shut = frozenset(bound) | generated
    found: list[PairCount] = []
    body = _Rewrite(shut, avoid, found).visit(tree.body)
    if not found:
        return None
    return ast.unparse(body), tuple(found)


class _Rewrite(ast.NodeTransformer):
    """Each count of the shape taken here made a fresh name, added to ``found``.

    Defined at the module's level, taking this call's ``shut``, ``avoid`` and
    ``found``: a class defined inside a function cannot be compiled (mypyc). A count
    is not looked into.
    """

    def __init__(self, shut: frozenset[str], avoid: set[str], found: list[PairCount]) -> None:
        self.shut = shut
        self.avoid = avoid
        self.found = found

    def visit_Call(self, node: ast.Call) -> ast.AST:
        shape = _match(node, self.shut)
        if shape is None:
            return self.generic_visit(node)
        name = _fresh(self.avoid)
        self.avoid.add(name)
        self.found.append(PairCount(*shape, name=name))
        return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)


def _fresh(avoid: set[str]) -> str:
    """A name not in ``avoid`` (a data name: no leading underscore, which the language refuses)."""
    i = 0
    while f"pair_count{i}" in avoid:
        i += 1
    return f"pair_count{i}"


def put_counts(
    pairs: tuple[PairCount, ...],
    ns: dict[str, Any],
    tallies: Tallies,
) -> int | None:
    """Each count of ``pairs`` set in ``ns`` under its name; the steps they charge.

    None when one of them has no tally for the values ``ns`` holds (then the
    rule is asked as written). ``tallies`` keeps the tallies made, by what they
    count (two counts of the same lists share one), each with the sequence it
    was made of, for the other records of the same state.
    """
    steps = 0
    for pair in pairs:
        seq = ns.get(pair.sequence)
        what = (pair.sequence, pair.field, pair.key)
        kept = tallies.get(what)
        if kept is None or kept[0] is not seq:
            kept = tallies[what] = (seq, pair.tally(seq))
        tally = kept[1]
        value = ns.get(pair.value)
        if tally is None or type(value) is not str:
            return None
        holding = tally.holding.get(value, 0)
        steps += 1 + tally.size + tally.searched
        if pair.key is not None:
            holding -= tally.own.get(value, 0)
            steps -= tally.searched_by_key.get(value, 0)
        ns[pair.name] = holding
    return steps
