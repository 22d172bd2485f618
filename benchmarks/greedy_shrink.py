"""The shrinker as it was before hypothesis's passes: greedy, one field at a time.

Kept as the yardstick the new shrinker (:mod:`rulepress.population.shrink`)
is measured against (benchmarks/bench_shrink.py) and tested against (its
examples must come out no larger than these): fewer players, shorter lists
an item at a time, optional fields out, integers bisected toward 0 with the
passes started again after every step kept.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import FieldSpec
from rulepress.population.sampler import Sampler, sampler_of

# the walks over a state are the shrinker's own: only the search strategy is the old one
from rulepress.population.shrink import _fields, _unnamed
from rulepress.population.values import int_range

State = dict[str, Any]


class _Budget:
    """The checks left; a candidate past the budget is not tried."""

    def __init__(self, checks: int) -> None:
        self.left = checks

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def shrink(
    loaded: LoadedSpec,
    sequence: str | None,
    state: dict[str, Any],
    holds: Callable[[dict[str, Any]], bool],
    *,
    budget: int = 2000,
) -> dict[str, Any]:
    """A smaller legal state than ``state`` (itself legal) for which ``holds`` is still true.

    ``state`` is plain data (as :func:`~rulepress.population.sampler.draw_states`
    gives it) and is not changed; ``holds`` is given copies it may keep.
    """
    sampler = sampler_of(loaded, sequence)
    spent = _Budget(budget)
    best = copy.deepcopy(state)

    def accept(candidate: State) -> bool:
        if not spent.spend():
            return False
        return sampler.legal(copy.deepcopy(candidate)) and holds(copy.deepcopy(candidate))

    changed = True
    while changed and spent.left > 0:
        changed = False
        for candidate in _candidates(sampler, best):
            if spent.left <= 0:
                break
            if accept(candidate):
                best = candidate
                changed = True
                break  # the candidates of the smaller state, from the start
    return best


def _candidates(sampler: Sampler, state: State) -> Iterator[State]:
    """Smaller states than ``state``, the biggest cuts first."""
    yield from _fewer_players(state)
    for path, _, value in _fields(sampler.root, state):
        if isinstance(value, list) and value and path != ("players",):
            for i in reversed(range(len(value))):
                yield _replaced(state, path, value[:i] + value[i + 1 :])
    for path, spec, _ in _fields(sampler.root, state):
        if (spec.optional or spec.default is not None) and len(path) > 1:
            yield _without(state, path)
    for path, spec, value in _fields(sampler.root, state):
        for smaller in _simpler(sampler, path, spec, value):
            yield _replaced(state, path, smaller)


def _fewer_players(state: State) -> Iterator[State]:
    """``state`` without one of its players (the last first), and what names them."""
    players = state["players"]
    if len(players) <= 1:
        return
    for i in reversed(range(len(players))):
        gone = players[i]["id"]
        out = copy.deepcopy(state)
        del out["players"][i]
        yield _unnamed(out, gone)


def _simpler(sampler: Sampler, path: tuple[Any, ...], spec: FieldSpec, value: Any) -> Iterator[Any]:
    """Simpler values than ``value`` for a field of ``spec``, the simplest first."""
    if spec.type == "bool" and value is True:
        yield False
    elif spec.type == "choice" and value in spec.choices:
        yield from spec.choices[: spec.choices.index(value)]
    elif spec.type == "int" and isinstance(value, int) and not isinstance(value, bool):
        low, high = int_range(spec, sampler.drawer.params)
        target = min(max(0, low), high)
        if value != target:
            # the target, then halfway, then one step: a bisection toward it
            yield target
            half = value - (value - target) // 2
            if half not in (value, target):
                yield half
            step = value - 1 if value > target else value + 1
            if step not in (value, target, half):
                yield step
    elif spec.type == "text" and isinstance(value, str):
        name = next((p for p in reversed(path) if isinstance(p, str)), "")
        shorter = [w for w in sampler.drawer.texts(name, 1) if len(w) < len(value)]
        yield from sorted(shorter, key=lambda w: (len(w), w))


def _replaced(state: State, path: tuple[Any, ...], value: Any) -> State:
    out = copy.deepcopy(state)
    holder = out
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = value
    return out


def _without(state: State, path: tuple[Any, ...]) -> State:
    out = copy.deepcopy(state)
    holder = out
    for part in path[:-1]:
        holder = holder[part]
    if isinstance(holder, dict):
        holder.pop(path[-1], None)
    return out
