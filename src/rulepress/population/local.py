"""One record of a drawn state (a player, the table) drawn until its own constraints hold.

Most of a format's constraints read one record only: a player's cubes that add
up to what every player owns, an Agenda line that gives one of two fields, a
hex name given once. Such a rule is asked of the record alone, as soon as it
is drawn, with its expressions compiled once and the record read as the state
check reads it (:func:`rulepress.states.quick.section_validators`), at a
fraction of the cost of checking the whole state. A rule that reads the other
records (``players``, or ``table`` from a player) is left to the whole
state's check and the sampler's mending.

What a failing rule reads is drawn again, until every rule of the record holds
or :data:`ROUNDS` tries are spent (then the whole-state mending takes over):

* a rule asked of each item of one of the record's lists, and reading nothing
  else of the record, draws the failing items again, one by one: items are
  drawn independently, so each stays uniform among the items that pass;
* any other rule draws again the record's fields it reads;
* a rule that no two items of one of the record's lists share a field's value
  (``count(True for h in table.hexes if h.id == hex.id) == 1``, asked of each
  item) has that field of the items drawn at once without putting a value back
  (:class:`_Distinct`): uniform among the lists whose values differ, as
  redrawing the clashing items until none clash would give, without the tries
  (36 hex names from a pool of 37 seldom come out distinct by redrawing);
* a rule that one of two optional fields be given, not both
  (``(met is None) != (held_after_data is None)``, of the record or of each
  item of one of its lists), has a coin pick the one given, drawn as a first
  draw would: what rejection would give, without the tries;
* a rule that is a sum of the record's integer fields equal to a value of the
  parameters (``supply + on_cards + betrayal_box == param.cubes_per_player``)
  is not left to chance: its fields are drawn at once as a composition of
  that value, uniform among those within the fields' bounds
  (:func:`composition`). Where a field has ``draw`` weights or a typical
  range, each composition is weighted by how likely its parts are as each
  field draws them: what drawing the fields alone until the sum holds would
  give, without the tries. So a typical range's share holds *before* the sum
  is asked, and the sum then reweighs it (see ``docs/spec-authors.md``).
"""

from __future__ import annotations

import ast
import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic_core import SchemaValidator, ValidationError

from rulepress.expressions.expression import (
    Expression,
    ExpressionEvalError,
    ExpressionSyntaxError,
    Steps,
    Within,
)
from rulepress.model.spec_model import Constraint, FieldSpec, Parameter
from rulepress.population.values import Drawer, chances, int_range, length_range

#: tries of one record (a check of it and a redraw of what failed) before the
#: whole-state mending is left to meet what is still refused
ROUNDS = 48
#: whole redraws of what one rule reads before the record is left to the mending
MISSES = 12
#: the names a rule of one record may read besides the record's fields: what the
#: state check gives every record and the sampler knows before any record is drawn
_CONTEXT = frozenset({"param", "sets", "n_players"})
#: a rule failed in a way no single member tells (or it could not be evaluated)
_WHOLE: frozenset[int] = frozenset({-1})
#: the widest range of a part of a sum drawn as a composition (the counting is
#: quadratic in it); a wider one is left to the redraws
MAX_SPAN = 400


@dataclass(frozen=True, slots=True)
class _Rule:
    """One constraint of a record that reads nothing but the record and the context."""

    items: Within | None
    item: str
    lets: tuple[tuple[str, Within], ...]
    test: Within
    #: the record's fields it reads: drawn again when it fails
    fields: tuple[str, ...]
    #: the record's list field it asks item by item, reading nothing else of the record
    members: str | None


@dataclass(frozen=True, slots=True)
class _Sum:
    """Integer fields of a record whose sum a rule fixes: drawn as one composition."""

    paths: tuple[tuple[str, ...], ...]
    bounds: tuple[tuple[int, int], ...]
    total: Within
    #: each part's chance of each of its values, as its ``draw`` gives it (None: uniform)
    chances: tuple[tuple[float, ...] | None, ...] = ()


@dataclass(frozen=True, slots=True)
class _Either:
    """Two optional fields of which a rule wants exactly one given: one is drawn, at even odds."""

    #: the record's list whose items hold them (None: the record itself)
    within: str | None
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class _Distinct:
    """A list of records none of which may share the value of one required field."""

    within: str
    field: str


@dataclass(frozen=True)
class Section:
    """How the records of one kind (players, or the table) are drawn and checked alone."""

    validator: SchemaValidator
    fields: Mapping[str, FieldSpec]
    rules: tuple[_Rule, ...]
    sums: tuple[_Sum, ...]
    eithers: tuple[_Either, ...]
    #: the name the record's rules read it by besides its fields ("table"), if any
    own: str | None
    distincts: tuple[_Distinct, ...] = ()

    @classmethod
    def of(
        cls,
        validator: SchemaValidator,
        fields: Mapping[str, FieldSpec],
        constraints: Sequence[Constraint],
        params: Mapping[str, Parameter],
        compiled: Any,
        *,
        own: str | None,
    ) -> Section:
        """The section of ``fields`` and ``constraints``; ``own``: "table" for the table."""
        rules: list[_Rule] = []
        sums: list[_Sum] = []
        eithers: list[_Either] = []
        distincts: list[_Distinct] = []
        for c in constraints:
            try:
                made = _rule(c, fields, compiled, own)
            except ExpressionSyntaxError:  # the spec check reports it
                continue
            if made is None:
                continue
            rules.append(made)
            found = _sum(c, fields, params, compiled, own)
            if found is not None:
                sums.append(found)
            either = _either(c, fields, made.members)
            if either is not None:
                eithers.append(either)
            distinct = _distinct(c, fields, made.members, own)
            if distinct is not None:
                distincts.append(distinct)
        return cls(
            validator, fields, tuple(rules), tuple(sums), tuple(eithers), own, tuple(distincts)
        )

    def settle(
        self,
        rng: random.Random,
        drawer: Drawer,
        raw: dict[str, Any],
        ids: Sequence[str],
        context: Mapping[str, Any],
        read: list[Any] | None = None,
    ) -> bool:
        """Draw again what ``raw``'s own rules refuse, in place, within :data:`ROUNDS`.

        ``context``: the names every record reads (``param``, ``sets``,
        ``n_players``). Whether every rule of the record now holds; when they do
        after a reading of the record, that reading is added to ``read`` (the
        whole state's first check then need not read the record again).
        """
        if not self.rules:
            return True  # nothing of the record's own to meet: not even a check of it
        for total in self.sums:
            self._compose(rng, raw, total, context)
        for either in self.eithers:
            self._one_of(rng, drawer, raw, either, ids, None)
        for distinct in self.distincts:
            self._differ(rng, drawer, raw, distinct, None)
        # whole redraws of one rule that still failed: a rule that few draws of
        # its fields meet (no more than one Shield Lattice among 30 hexes) is the
        # mending's, which drops items, not the redraws'
        misses: dict[int, int] = {}
        for _ in range(ROUNDS):
            try:
                rec = self.validator.validate_python(raw)
            except ValidationError:
                return False  # a value the field checks refuse: the state check tells
            ns = {**context, **rec}
            if self.own is not None:
                ns[self.own] = rec
            for rule in self.rules:
                failed = _failed(rule, ns)
                if failed is None:
                    continue
                if failed is _WHOLE or rule.members is None:
                    misses[id(rule)] = misses.get(id(rule), 0) + 1
                    if misses[id(rule)] > MISSES:
                        return False
                    self._redraw(rng, drawer, raw, rule.fields, ids, context)
                else:
                    self._redraw_items(rng, drawer, raw, rule.members, failed, ids)
                break
            else:
                if read is not None:
                    read.append(rec)
                return True
        return False

    def _redraw(
        self,
        rng: random.Random,
        drawer: Drawer,
        raw: dict[str, Any],
        names: Iterable[str],
        ids: Sequence[str],
        context: Mapping[str, Any],
    ) -> None:
        """Draw the fields ``names`` again, as a first draw does (the sums they hold included)."""
        for name in names:
            spec = self.fields[name]
            if (spec.optional or spec.default is not None) and rng.random() < 0.5:
                raw.pop(name, None)
            else:
                raw[name] = drawer.value(rng, name, spec, ids)
        for total in self.sums:
            if any(path[0] in names for path in total.paths):
                self._compose(rng, raw, total, context)
        for either in self.eithers:
            if (either.within or either.first) in names or either.second in names:
                self._one_of(rng, drawer, raw, either, ids, None)
        for distinct in self.distincts:
            if distinct.within in names:
                self._differ(rng, drawer, raw, distinct, None)

    def _redraw_items(
        self,
        rng: random.Random,
        drawer: Drawer,
        raw: dict[str, Any],
        name: str,
        indices: frozenset[int],
        ids: Sequence[str],
    ) -> None:
        """Draw again the items at ``indices`` of the list field ``name``."""
        spec = self.fields[name]
        assert spec.item is not None  # only a list field has members (see _rule)
        room = length_range(spec, drawer.params)[1]
        items = raw[name]
        for index in indices:
            items[index] = drawer.value(rng, name, spec.item, ids, room)
        for either in self.eithers:
            if either.within == name:
                self._one_of(rng, drawer, raw, either, ids, indices)
        for distinct in self.distincts:
            if distinct.within == name:
                self._differ(rng, drawer, raw, distinct, indices)

    def _differ(
        self,
        rng: random.Random,
        drawer: Drawer,
        raw: dict[str, Any],
        distinct: _Distinct,
        indices: frozenset[int] | None,
    ) -> None:
        """Give the items at ``indices`` (or all) values of the field no other item has.

        Drawn without putting a value back from the values a first draw picks from;
        where too few are left, the items are left as drawn (the rule's redraws and
        the mending tell).
        """
        spec = self.fields[distinct.within]
        assert spec.item is not None  # a list of records (see _distinct)
        room = length_range(spec, drawer.params)[1]
        pool = drawer.values_of(distinct.field, spec.item.fields[distinct.field], room)
        items = raw.get(distinct.within)
        if pool is None or not isinstance(items, list):
            return
        chosen = range(len(items)) if indices is None else sorted(indices)
        kept = {
            repr(item.get(distinct.field))
            for i, item in enumerate(items)
            if i not in chosen and isinstance(item, dict)
        }
        free = [v for v in pool if repr(v) not in kept]
        targets = [i for i in chosen if isinstance(items[i], dict)]
        if len(free) < len(targets):
            return
        for i, value in zip(targets, rng.sample(free, len(targets)), strict=True):
            items[i][distinct.field] = value

    def _one_of(
        self,
        rng: random.Random,
        drawer: Drawer,
        raw: dict[str, Any],
        either: _Either,
        ids: Sequence[str],
        indices: frozenset[int] | None,
    ) -> None:
        """Give exactly one of the pair in the record (or the items at ``indices``, or all).

        Each field of the pair is given half the time by a first draw, so among the
        draws that give one of them each is as likely: a coin picks it, and it is
        drawn as it would have been.
        """
        room = 1  # as a first draw gives it: a list's items draw their texts with its room
        if either.within is None:
            holders: list[Any] = [raw]
            specs = self.fields
        else:
            spec = self.fields[either.within]
            assert spec.item is not None  # a list field (see _either)
            specs = spec.item.fields
            room = length_range(spec, drawer.params)[1]
            found = raw.get(either.within) or []
            holders = [found[i] for i in sorted(indices)] if indices is not None else found
        for holder in holders:
            if not isinstance(holder, dict):
                continue
            keep, drop = (either.first, either.second)
            if rng.random() < 0.5:
                keep, drop = drop, keep
            holder.pop(drop, None)
            if keep not in holder:
                holder[keep] = drawer.value(rng, keep, specs[keep], ids, room)

    def _compose(
        self, rng: random.Random, raw: dict[str, Any], total: _Sum, context: Mapping[str, Any]
    ) -> None:
        """Give the sum's fields a composition of its total drawn uniformly (if one exists)."""
        try:
            wanted = total.total(context, Steps())
        except ExpressionEvalError:
            return
        if type(wanted) is not int:
            return
        parts = composition(rng, total.bounds, wanted, total.chances or None)
        if parts is None:
            return  # no composition within the bounds: the check and the mending tell
        for path, value in zip(total.paths, parts, strict=True):
            holder = raw
            for name in path[:-1]:
                holder = holder.setdefault(name, {})
            holder[path[-1]] = value


def _failed(rule: _Rule, ns: dict[str, Any]) -> frozenset[int] | None:
    """None when ``rule`` holds; else the members that fail (:data:`_WHOLE` for all)."""
    steps = Steps()
    try:
        if rule.items is None and not rule.lets:
            return None if rule.test(ns, steps) else _WHOLE
        local = dict(ns)
        members: Any = (None,)
        if rule.items is not None:
            members = rule.items(local, steps)
            if type(members) is not list and type(members) is not tuple:
                return _WHOLE
        failed: set[int] = set()
        for index, member in enumerate(members):
            if rule.items is not None:
                local[rule.item] = member
            for name, let in rule.lets:
                local[name] = let(local, steps)
            if not rule.test(local, steps):
                failed.add(index)
    except ExpressionEvalError:
        return _WHOLE
    if not failed:
        return None
    return frozenset(failed) if rule.items is not None else _WHOLE


def _read(expressions: Iterable[Expression], own: str | None) -> set[str]:
    """The free names ``expressions`` read, ``own.field`` read as ``field``."""
    names: set[str] = set()
    for expr in expressions:
        names |= expr.names
        if own is not None:
            names |= {attr for base, attr in expr.attributes if base == own}
    return names


def _rule(
    c: Constraint, fields: Mapping[str, FieldSpec], compiled: Any, own: str | None
) -> _Rule | None:
    """``c`` as a rule of one record, or None when it reads another record."""
    items = None if c.items is None else compiled(c.items)
    lets = [(name, compiled(source)) for name, source in c.let.items()]
    test = compiled(c.test)
    exprs = [test, *(e for _, e in lets), *([items] if items is not None else [])]
    bound = {c.item, *c.let} if items is not None else set(c.let)
    read = _read(exprs, own) - bound
    if own is not None:
        read.discard(own)
    other = {"players", "table"} - ({own} if own else set())
    if read & other:
        return None
    reads = tuple(sorted(read & set(fields)))
    members = None
    if items is not None:
        source = " ".join(c.items.split()) if c.items else ""
        name = source.removeprefix(f"{own}.") if own else source
        spec = fields.get(name)
        if spec is not None and spec.type == "list" and not spec.unique and reads == (name,):
            members = name
    if not reads:
        return None  # nothing of the record to draw again: the mending's to meet
    return _Rule(
        None if items is None else items.within,
        c.item,
        tuple((name, e.within) for name, e in lets),
        test.within,
        reads,
        members,
    )


def _either(c: Constraint, fields: Mapping[str, FieldSpec], members: str | None) -> _Either | None:
    """The rule ``c`` as "exactly one of two optional fields is given", or None.

    ``(a is None) != (b is None)`` of the record's fields, or of the item's
    (``line.met``) when the rule asks each item of the list ``members``.
    """
    if c.let or (c.items is not None and members is None):
        return None
    try:
        tree = ast.parse(f"({c.test}\n)", mode="eval").body
    except (SyntaxError, RecursionError, ValueError):
        return None
    if not (
        isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.NotEq)
    ):
        return None
    names = [
        _is_none(side, c.item if members else None) for side in (tree.left, tree.comparators[0])
    ]
    first, second = names
    if first is None or second is None or first == second:
        return None
    level = fields
    if members is not None:
        item = fields[members].item
        if item is None or item.type != "record":
            return None
        level = item.fields
    for name in (first, second):
        spec = level.get(name)
        if spec is None or not spec.optional or spec.default is not None:
            return None
    return _Either(members, first, second)


def _distinct(
    c: Constraint, fields: Mapping[str, FieldSpec], members: str | None, own: str | None
) -> _Distinct | None:
    """The rule ``c`` as "no two items of the list ``members`` share a field", or None.

    ``count(True for h in <the list> if h.f == item.f) == 1`` (either side of each
    ``==``), asked of each item, ``let`` names inlined; ``f`` a required field of the
    items with no ``draw`` (a weighted draw without putting back is no longer as
    weighted).
    """
    if members is None or c.items is None:
        return None
    sides = _equality(c)
    if sides is None:
        return None
    one = [s for s in sides if isinstance(s, ast.Constant) and s.value == 1 and s.value is not True]
    calls = [s for s in sides if isinstance(s, ast.Call)]
    if len(one) != 1 or len(calls) != 1:
        return None
    call = calls[0]
    if not (isinstance(call.func, ast.Name) and call.func.id == "count" and len(call.args) == 1):
        return None
    gen = call.args[0]
    if not (isinstance(gen, ast.GeneratorExp) and len(gen.generators) == 1):
        return None
    loop = gen.generators[0]
    if not (isinstance(gen.elt, ast.Constant) and gen.elt.value is True and len(loop.ifs) == 1):
        return None
    if not isinstance(loop.target, ast.Name) or _path(loop.iter, own) != (members,):
        return None
    test = loop.ifs[0]
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    if not isinstance(test.ops[0], ast.Eq):
        return None
    found = {
        (node.value.id, node.attr)
        for node in (test.left, test.comparators[0])
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    }
    names = {name for name, _ in found}
    attrs = {attr for _, attr in found}
    if names != {loop.target.id, c.item} or len(attrs) != 1 or loop.target.id == c.item:
        return None
    (attr,) = attrs
    item = fields[members].item
    if item is None or item.type != "record":
        return None
    spec = item.fields.get(attr)
    if spec is None or spec.optional or spec.default is not None or spec.draw is not None:
        return None
    return _Distinct(members, attr)


def _is_none(node: ast.expr, item: str | None) -> str | None:
    """``x is None`` (``item.x`` when ``item`` is given) as ``x``; else None."""
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return None
    side = node.left
    if item is None:
        return side.id if isinstance(side, ast.Name) else None
    if isinstance(side, ast.Attribute) and isinstance(side.value, ast.Name):
        return side.attr if side.value.id == item else None
    return None


def _equality(c: Constraint) -> tuple[ast.expr, ast.expr] | None:
    """The two sides of the rule ``c`` if it is one ``==`` (``let`` names inlined), or None."""
    try:
        tree = _inlined(c.test, c.let)
    except (SyntaxError, RecursionError, ValueError):
        return None
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1):
        return None
    if not isinstance(tree.ops[0], ast.Eq):
        return None
    return tree.left, tree.comparators[0]


def _sum(
    c: Constraint,
    fields: Mapping[str, FieldSpec],
    params: Mapping[str, Parameter],
    compiled: Any,
    own: str | None,
) -> _Sum | None:
    """The rule ``c`` as a sum of the record's int fields equal to a context value, or None."""
    if c.items is not None:
        return None
    sides = _equality(c)
    if sides is None:
        return None
    left, right = sides
    for terms_side, total_side in ((left, right), (right, left)):
        terms = _terms(terms_side)
        if terms is None:
            continue
        total = compiled(ast.unparse(total_side))
        if not total.names <= _CONTEXT:
            continue
        paths = [_path(t, own) for t in terms]
        if any(p is None for p in paths) or len(set(paths)) != len(paths):
            return None
        specs = [_int_field(fields, p) for p in paths if p is not None]
        bounds = [None if f is None else int_range(f, params) for f in specs]
        if any(b is None or b[1] - b[0] > MAX_SPAN for b in bounds):
            return None
        kept = [b for b in bounds if b is not None]
        weights = tuple(
            None if f is None else chances(f.draw, range(b[0], b[1] + 1))
            for f, b in zip(specs, kept, strict=True)
        )
        return _Sum(
            tuple(p for p in paths if p is not None),
            tuple(kept),
            total.within,
            weights if any(w is not None for w in weights) else (),
        )
    return None


def _inlined(test: str, lets: Mapping[str, str]) -> ast.expr:
    """The tree of ``test`` with each ``let`` name replaced by its expression's tree."""
    # parenthesised, as the expression parser does, for sources folded over lines
    trees = {name: ast.parse(f"({source}\n)", mode="eval").body for name, source in lets.items()}

    class _Inline(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return trees.get(node.id, node)

    return _Inline().visit(ast.parse(f"({test}\n)", mode="eval").body)  # type: ignore[no-any-return]


def _terms(node: ast.expr) -> list[ast.expr] | None:
    """The terms of a sum (``a + b + c``), or None when ``node`` is no sum of two or more."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return None
    out: list[ast.expr] = []
    for side in (node.left, node.right):
        inner = _terms(side)
        out.extend(inner if inner is not None else [side])
    return out


def _path(node: ast.expr, own: str | None) -> tuple[str, ...] | None:
    """A dotted name (``cubes.supply``) as its parts, ``own.`` left off; else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    parts.reverse()
    if own is not None and parts[0] == own:
        parts = parts[1:]
    return tuple(parts) or None


def _int_field(fields: Mapping[str, FieldSpec], path: tuple[str, ...]) -> FieldSpec | None:
    """The required int field at ``path`` of required records, or None."""
    spec: FieldSpec | None = None
    level: Mapping[str, FieldSpec] = fields
    for name in path:
        spec = level.get(name)
        if spec is None or spec.optional or spec.default is not None:
            return None
        level = spec.fields
    if spec is None or spec.type != "int":
        return None
    return spec


#: a part's chance of each of its values (``None``: each value counts once, uniformly)
Chances = tuple[float, ...] | None


def composition(
    rng: random.Random,
    bounds: Sequence[tuple[int, int]],
    total: int,
    chances: Sequence[Chances] | None = None,
) -> list[int] | None:
    """Integers within ``bounds`` (each both ends included) that add up to ``total``.

    Uniform among all such lists: each part is drawn weighted by how many ways
    the parts after it can make up the rest. With ``chances`` (per part, the
    chance of each of its values, or None for a uniform part) each list counts as
    the product of its parts' chances: the parts drawn by their own draws, kept
    only when they make the total. None when there is no such list.
    """
    weights: tuple[Chances, ...] = tuple(chances) if chances else (None,) * len(bounds)
    key = (tuple(bounds), total, weights)
    counts = _counts(*key)
    if not counts[0].get(total, 0):
        return None
    picks = _PICKS.get(key)
    if picks is None:
        if len(_PICKS) >= 64:  # a sampler draws a few sums
            _PICKS.pop(next(iter(_PICKS)))
        picks = _PICKS[key] = [{} for _ in bounds]
    out: list[int] = []
    rest = total
    for i, (low, high) in enumerate(bounds):
        made = picks[i].get(rest)
        if made is None:
            after = counts[i + 1]
            own = weights[i]
            values = [v for v in range(low, high + 1) if after.get(rest - v, 0)]
            if own is None:  # integer counts: a uniform sum draws as it always has
                ways: list[float] = [after[rest - v] for v in values]
            else:
                ways = [after[rest - v] * own[v - low] for v in values]
            # running totals, as choices() adds the weights up itself: the same pick
            made = picks[i][rest] = (values, list(itertools.accumulate(ways)))
        value = rng.choices(made[0], cum_weights=made[1])[0]
        out.append(value)
        rest -= value
    return out


#: (bounds, total, chances) → per part, the rest still to make → the part's values and
#: the running totals of their ways: worked out once, a sum is drawn for every record
_PICKS: dict[
    tuple[tuple[tuple[int, int], ...], int, tuple[Chances, ...]],
    list[dict[int, tuple[list[int], list[float]]]],
] = {}


@lru_cache(maxsize=64)
def _counts(
    bounds: tuple[tuple[int, int], ...], total: int, weights: tuple[Chances, ...]
) -> list[dict[int, float]]:
    """``counts[i][r]``: the ways parts ``i`` … of ``bounds`` add up to ``r`` (r ≤ total).

    A way counts as the product of its parts' chances (``weights``; a uniform part
    counts each value once, so an all-uniform sum counts in exact integers).
    """
    counts: list[dict[int, float]] = [{} for _ in bounds] + [{0: 1}]
    # with no part below 0, a partial sum above the total can never come back down
    prune = all(low >= 0 for low, _ in bounds)
    for i in range(len(bounds) - 1, -1, -1):
        low, high = bounds[i]
        own = weights[i]
        row: dict[int, float] = {}
        for rest, ways in counts[i + 1].items():
            for v in range(low, high + 1):
                if not prune or v + rest <= total:
                    add = ways if own is None else ways * own[v - low]
                    row[v + rest] = row.get(v + rest, 0) + add
        counts[i] = row
    return counts
