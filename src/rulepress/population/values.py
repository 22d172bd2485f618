"""One field's drawn value, from its format: bounds, choices and the spec's ``draw`` weights.

Draws are uniform where the spec says nothing: an integer uniform between its
bounds, a list's length uniform between its bounds, a choice, a player and a
text uniform among the values they can take, a bool, an optional field and a
defaulted field present or not as a coin falls. A ``draw: {weights: …}``
declaration (:class:`rulepress.model.spec_model.Draw`) replaces the uniform
pick of an integer, a choice, a list's length or the number of players; a
``draw: {typical: [lo, hi], share: p}`` one draws an integer, a length or the
number of players from ``lo``–``hi`` with probability ``p`` and from the other
values otherwise, uniformly within each part (:func:`typical`): a mixture of two
uniform draws, which :class:`random.Random` gives in two calls.

An integer with a missing bound is drawn from a documented range
(:func:`int_range`): the scorer accepts any integer up to ±MAX_INT, but a
uniform draw over that would never give a value a table shows.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulepress.model.spec_model import Draw, FieldSpec, Parameter
from rulepress.population.texts import unnamed
from rulepress.states.models import bound

#: the width of an integer's range where the spec gives one bound only (or none)
UNBOUNDED_SPAN = 100


def int_range(field: FieldSpec, params: Mapping[str, Parameter]) -> tuple[int, int]:
    """The integers a drawn value of ``field`` comes from, both ends included.

    The format's bounds where it gives them. Without ``min``: down to ``-max``
    when ``max`` is above 0 (points that can be lost as well as won), else
    ``max - UNBOUNDED_SPAN``; without ``max``: ``min + UNBOUNDED_SPAN``; with
    neither: 0 to ``UNBOUNDED_SPAN``.
    A typical range (``draw: {typical: …}``) widens the range of a bound left out
    to take it in: the spec check keeps it within the bounds given.
    """
    low, high = _stated_range(field, params)
    if field.draw is not None and field.draw.typical is not None:
        lo, hi = field.draw.typical
        return min(low, lo), max(high, hi)
    return low, high


def _stated_range(field: FieldSpec, params: Mapping[str, Parameter]) -> tuple[int, int]:
    low, high = bound(field.min, params), bound(field.max, params)
    if low is None and high is None:
        return 0, UNBOUNDED_SPAN
    if low is None:
        assert high is not None
        return (-high if high > 0 else high - UNBOUNDED_SPAN), high
    if high is None:
        return low, low + UNBOUNDED_SPAN
    return low, high


def length_range(field: FieldSpec, params: Mapping[str, Parameter]) -> tuple[int, int]:
    """The lengths a drawn list of ``field`` comes from (every list has a ``max``)."""
    low = max(bound(field.min, params) or 0, 0)
    high = bound(field.max, params)
    return low, max(low, high if high is not None else low)


def weighted(rng: random.Random, draw: Draw | None, allowed: Sequence[Any]) -> Any:
    """One of ``allowed``, by the spec's weights or typical range, else uniformly.

    A value the weights leave out never comes up. A typical range is for a
    ``range`` of integers (values, lengths, numbers of players): see :func:`typical`.
    """
    return _weighted_plan(draw, allowed)(rng, (), 1)


def _parts(draw: Draw, allowed: range) -> tuple[range, range, range]:
    """``allowed`` split by ``draw``'s typical range: the values below, inside, above it."""
    assert draw.typical is not None
    lo, hi = draw.typical
    inside = range(max(lo, allowed.start), min(hi, allowed.stop - 1) + 1)
    if not inside:  # (a unique list's length, cut below the range by its values)
        return allowed, range(0), range(0)
    return range(allowed.start, inside.start), inside, range(inside.stop, allowed.stop)


def typical(rng: random.Random, draw: Draw, allowed: range) -> int:
    """A value of ``allowed`` (consecutive integers) by ``draw``'s typical range and share.

    With probability ``share`` uniform among the values of the typical range, else
    uniform among the others. Where one part has no value the other is drawn from
    (a typical range that covers every value is a uniform draw).
    """
    below, inside, above = _parts(draw, allowed)
    others = len(below) + len(above)
    share = draw.share if draw.share is not None else 1.0
    if inside and (not others or rng.random() < share):
        return inside[rng.randrange(len(inside))]
    k = rng.randrange(others)
    return below[k] if k < len(below) else above[k - len(below)]


def chances(draw: Draw | None, allowed: range) -> tuple[float, ...] | None:
    """How likely each value of ``allowed`` is, as :func:`weighted` draws it (None: uniformly).

    For a sum's parts drawn at once (:func:`rulepress.population.local.composition`),
    which weighs each way of making the sum by how likely its parts are.
    """
    if draw is None:
        return None
    if draw.typical is not None:
        below, inside, above = _parts(draw, allowed)
        others = len(below) + len(above)
        share = draw.share if draw.share is not None else 1.0
        if not inside or not others:
            return None
        out, into = (1 - share) / others, share / len(inside)
        return tuple(into if v in inside else out for v in allowed)
    total = sum(draw.weight(v) for v in allowed)
    if not total:
        return None
    return tuple(draw.weight(v) / total for v in allowed)


#: one field's drawn value: from the generator, the table's player ids and the room its
#: list gives its texts (see :meth:`Drawer.value`)
Plan = Callable[[random.Random, Sequence[str], int], Any]


@dataclass(frozen=True)
class Drawer:
    """Draws field values for one state format: its parameters, players and text words.

    Each field format is worked out once into a :data:`Plan` (its bounds, pool of
    texts, weights), which then asks the generator exactly what reading the format
    afresh would: the same draws, without reading the format per value (a
    nine-player Stationfall table is some 500 values).
    """

    params: Mapping[str, Parameter]
    #: field name → the words the spec's rules compare a field of that name with
    words: Mapping[str, list[str]]
    #: (field format's id, name) → (the format, its plan): the format is kept, so its id
    #: is never another's
    _plans: dict[tuple[int, str], tuple[FieldSpec, Plan]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: (fields' id) → (the fields, the record's plan)
    _records: dict[int, tuple[Mapping[str, FieldSpec], Plan]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: (name, room) → the texts a field is drawn from
    _pools: dict[tuple[str, int], list[str]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def texts(self, name: str, room: int) -> list[str]:
        """The values a text field named ``name`` is drawn from.

        The words rules compare it with, then values no rule names (one, or ``room``
        for a list's items).
        """
        named = self.words.get(name, [])
        return [*named, *(w for w in unnamed(max(room, 1)) if w not in named)]

    def _pool(self, name: str, room: int) -> list[str]:
        """:meth:`texts`, worked out once (not to be changed by the caller)."""
        pool = self._pools.get((name, room))
        if pool is None:
            pool = self._pools[name, room] = self.texts(name, room)
        return pool

    def value(
        self, rng: random.Random, name: str, spec: FieldSpec, ids: Sequence[str], room: int = 1
    ) -> Any:
        """A value of ``spec`` (a field called ``name``) as a YAML file would give it.

        ``room``: how many items the list holding it may have (its text values grow with it).
        """
        return self.plan(name, spec)(rng, ids, room)

    def plan(self, name: str, spec: FieldSpec) -> Plan:
        """How a value of ``spec`` (a field called ``name``) is drawn, worked out once."""
        kept = self._plans.get((id(spec), name))
        if kept is not None and kept[0] is spec:
            return kept[1]
        made = self._plan(name, spec)
        self._plans[id(spec), name] = (spec, made)
        return made

    def _plan(self, name: str, spec: FieldSpec) -> Plan:
        """A field's plan: an integer between its bounds (or weighted), a coin, a pick."""
        kind = spec.type
        if kind == "int":
            low, high = int_range(spec, self.params)
            if spec.draw is not None:
                return _weighted_plan(spec.draw, range(low, high + 1))
            # choice() over the range picks as randint() does, through one call less
            span = range(low, high + 1)
            return lambda rng, ids, room: rng.choice(span)
        if kind == "bool":
            return lambda rng, ids, room: rng.random() < 0.5
        if kind == "choice":
            return _weighted_plan(spec.draw, spec.choices)
        if kind == "player":
            return lambda rng, ids, room: rng.choice(ids)
        if kind == "text":
            pool = self._pool

            def text(rng: random.Random, ids: Sequence[str], room: int) -> Any:
                return rng.choice(pool(name, room))

            return text
        if kind == "list":
            return self._items_plan(name, spec)
        return self.record_plan(spec.fields)

    def items(
        self, rng: random.Random, name: str, spec: FieldSpec, ids: Sequence[str]
    ) -> list[Any]:
        """A list: its length uniform (or as ``draw`` says) in its bounds, then each item.

        A ``unique`` list of scalars is drawn without putting a value back, so its
        length is also bounded by how many values there are.
        """
        return self.plan(name, spec)(rng, ids, 1)  # type: ignore[no-any-return]

    def _items_plan(self, name: str, spec: FieldSpec) -> Plan:
        """The plan of :meth:`items`."""
        item = spec.item
        assert item is not None  # the spec check guarantees it
        low, high = length_range(spec, self.params)
        draw = spec.draw
        if spec.unique and item.type in ("choice", "player", "text", "bool", "int"):
            # the values not put back: the table's ids for players, else fixed
            fixed = None if item.type == "player" else self._domain(name, item, (), high)

            def unique(rng: random.Random, ids: Sequence[str], room: int) -> Any:
                domain = fixed if fixed is not None else list(ids)
                top = max(low, min(high, len(domain)))
                lengths = range(low, top + 1)
                count = weighted(rng, draw, lengths) if draw else rng.randint(low, top)
                return rng.sample(domain, min(count, len(domain)))

            return unique
        one = self.plan(name, item)
        lengths = range(low, high + 1)
        pick = _weighted_plan(draw, lengths) if draw else None

        def items(rng: random.Random, ids: Sequence[str], room: int) -> Any:
            count = pick(rng, ids, room) if pick is not None else rng.choice(lengths)
            return [one(rng, ids, high) for _ in range(count)]

        return items

    def values_of(self, name: str, spec: FieldSpec, room: int) -> list[Any] | None:
        """Every value a scalar field ``name`` of ``spec`` is drawn from.

        None for a record or a list, and for a player (the ids are the table's).
        """
        if spec.type == "player":
            return None
        return self._domain(name, spec, (), room)

    def _domain(
        self, name: str, item: FieldSpec, ids: Sequence[str], room: int
    ) -> list[Any] | None:
        """Every value a unique list's scalar items can take, or None (records, lists)."""
        if item.type == "choice":
            return list(item.choices)
        if item.type == "player":
            return list(ids)
        if item.type == "text":
            return self.texts(name, room)
        if item.type == "bool":
            return [False, True]
        if item.type == "int":
            low, high = int_range(item, self.params)
            return list(range(low, high + 1))
        return None

    def record(
        self, rng: random.Random, fields: Mapping[str, FieldSpec], ids: Sequence[str], room: int = 1
    ) -> dict[str, Any]:
        """A record: each field drawn, an optional or defaulted one only half the time."""
        return self.record_plan(fields)(rng, ids, room)  # type: ignore[no-any-return]

    def record_plan(self, fields: Mapping[str, FieldSpec]) -> Plan:
        """The plan of :meth:`record` for ``fields``, worked out once."""
        kept = self._records.get(id(fields))
        if kept is not None and kept[0] is fields:
            return kept[1]
        # the fields' plans are made when the record is first drawn, not now: a record
        # may hold a list of its own kind, whose item plan is then this one, kept below
        steps: list[tuple[str, bool, Plan]] = []
        plan = self.plan

        def record(rng: random.Random, ids: Sequence[str], room: int) -> Any:
            if len(steps) < len(fields):
                steps[:] = [
                    (name, spec.optional or spec.default is not None, plan(name, spec))
                    for name, spec in fields.items()
                ]
            out: dict[str, Any] = {}
            for name, leavable, one in steps:
                if leavable and rng.random() < 0.5:
                    continue
                out[name] = one(rng, ids, room)
            return out

        self._records[id(fields)] = (fields, record)
        return record


def _weighted_plan(draw: Draw | None, allowed: Sequence[Any]) -> Plan:
    """How :func:`weighted` picks for fixed ``draw`` and ``allowed``, worked out once.

    The weights' running totals are given to :meth:`random.Random.choices` as
    ``cum_weights``, which it would otherwise add up on every call: the same pick.
    """
    if draw is not None and draw.typical is not None and isinstance(allowed, range):
        return lambda rng, ids, room: typical(rng, draw, allowed)
    if draw is not None and draw.weights:
        values = [v for v in allowed if draw.weight(v) > 0]
        if values:
            totals = list(itertools.accumulate(draw.weight(v) for v in values))
            return lambda rng, ids, room: rng.choices(values, cum_weights=totals)[0]
    # choice() picks as allowed[randrange(len(allowed))] would, through one call less
    return lambda rng, ids, room: rng.choice(allowed)
