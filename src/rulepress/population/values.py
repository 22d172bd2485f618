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

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    if draw is not None and draw.typical is not None and isinstance(allowed, range):
        return typical(rng, draw, allowed)
    if draw is not None and draw.weights:
        values = [v for v in allowed if draw.weight(v) > 0]
        if values:
            return rng.choices(values, [draw.weight(v) for v in values])[0]
    return allowed[rng.randrange(len(allowed))]


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


@dataclass(frozen=True)
class Drawer:
    """Draws field values for one state format: its parameters, players and text words."""

    params: Mapping[str, Parameter]
    #: field name → the words the spec's rules compare a field of that name with
    words: Mapping[str, list[str]]

    def texts(self, name: str, room: int) -> list[str]:
        """The values a text field named ``name`` is drawn from.

        The words rules compare it with, then values no rule names (one, or ``room``
        for a list's items).
        """
        named = self.words.get(name, [])
        return [*named, *(w for w in unnamed(max(room, 1)) if w not in named)]

    def value(
        self, rng: random.Random, name: str, spec: FieldSpec, ids: Sequence[str], room: int = 1
    ) -> Any:
        """A value of ``spec`` (a field called ``name``) as a YAML file would give it.

        ``room``: how many items the list holding it may have (its text values grow with it).
        """
        kind = spec.type
        if kind == "int":
            low, high = int_range(spec, self.params)
            if spec.draw is not None:
                return weighted(rng, spec.draw, range(low, high + 1))
            return rng.randint(low, high)
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "choice":
            return weighted(rng, spec.draw, spec.choices)
        if kind == "player":
            return ids[rng.randrange(len(ids))]
        if kind == "text":
            pool = self.texts(name, room)
            return pool[rng.randrange(len(pool))]
        if kind == "list":
            return self.items(rng, name, spec, ids)
        return self.record(rng, spec.fields, ids, room)

    def items(
        self, rng: random.Random, name: str, spec: FieldSpec, ids: Sequence[str]
    ) -> list[Any]:
        """A list: its length uniform (or as ``draw`` says) in its bounds, then each item.

        A ``unique`` list of scalars is drawn without putting a value back, so its
        length is also bounded by how many values there are.
        """
        item = spec.item
        assert item is not None  # the spec check guarantees it
        low, high = length_range(spec, self.params)
        domain = self._domain(name, item, ids, high) if spec.unique else None
        if domain is not None:
            high = max(low, min(high, len(domain)))
        lengths = range(low, high + 1)
        count = weighted(rng, spec.draw, lengths) if spec.draw else rng.randint(low, high)
        if domain is not None:
            return rng.sample(domain, min(count, len(domain)))
        return [self.value(rng, name, item, ids, high) for _ in range(count)]

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
        out: dict[str, Any] = {}
        for name, spec in fields.items():
            if (spec.optional or spec.default is not None) and rng.random() < 0.5:
                continue
            out[name] = self.value(rng, name, spec, ids, room)
        return out
