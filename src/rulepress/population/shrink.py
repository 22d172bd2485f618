"""The smallest table that shows something: a drawn state shrunk, as hypothesis shrinks.

``rulepress impact`` finds tables where a ruling changes the winner; a report
shows each kind of change with the smallest table that has it, ready to paste
as a worked example. Shrinking runs passes to a fixpoint, each change kept
only if the state stays legal (the state check accepts it) and the fact
still holds. The passes follow hypothesis's shrinker
(``hypothesis/internal/conjecture/shrinker.py``):

- fewer players (with what names them: their votes, their Bribes elsewhere);
- shorter lists: blocks of items out, half the list first, then smaller
  blocks down to one item (hypothesis's adaptive deletion); players and
  items are tried again after each integer's search that moved something;
- optional fields left out, defaulted fields back to their default (left out);
- each integer toward 0 (or the nearest bound) in one search: the target
  first, then a few steps, then steps doubled and the last gap bisected
  (hypothesis's ``find_integer``), rather than one step per pass;
- integers lowered *together* by one common amount, found the same way:
  the same field of every player (of every item of a list), the integers
  that are equal, and all of them (hypothesis's ``lower_common_block_offset``
  and ``minimize_duplicated_blocks``). This is what a fact about a relation
  needs: "A leads B by 10" holds while both go down, not while either does;
- choices toward the first, bools toward False, texts toward the shortest
  value the sampler draws.

Home-made rather than hypothesis's shrinker: hypothesis shrinks the choices
that made an example, from inside its own test run, and cannot start from a
state it did not draw (one from a recorded corpus, or drawn by
:mod:`.sampler` on another machine); nor is it a product dependency.

A change is only tried if it makes the state strictly smaller in
:func:`size`, a tuple of counts compared in order (a well-founded order), so
the passes end; ``budget`` bounds the checks (each a state check and one call
of ``holds``) all the same, and a candidate already checked is not checked
again. Deterministic: the same state and predicate give the same result.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import FieldSpec
from rulepress.population.sampler import Sampler, sampler_of
from rulepress.population.values import int_range

State = dict[str, Any]
Path = tuple[Any, ...]

#: how many of the integers furthest from their targets are lowered two at a time
#: (every pair of them: 15 pairs, a few checks each)
_FURTHEST = 6


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
    shrinker = _Shrinker(sampler_of(loaded, sequence), copy.deepcopy(state), holds, budget)
    shrinker.run()
    return shrinker.best


def size(sampler: Sampler, state: State) -> tuple[int, ...]:
    """How big ``state`` is: each accepted change makes this strictly smaller (compared in order).

    Players, list items, fields given, the integers' distance from their
    targets, the choices' positions, the texts' lengths, the bools that are true.
    """
    items = fields = ints = choices = texts = bools = 0
    for path, spec, value in _fields(sampler.root, state):
        fields += 1
        if isinstance(value, list) and path != ("players",):
            items += len(value)
        elif isinstance(value, bool):
            bools += value
        elif spec.type == "int" and isinstance(value, int):
            ints += abs(value - _target(sampler, spec))
        elif spec.type == "choice" and value in spec.choices:
            choices += spec.choices.index(value)
        elif isinstance(value, str):
            texts += len(value)
    return (len(state.get("players", [])), items, fields, ints, choices, texts, bools)


class _Shrinker:
    """One shrinking run: the best state so far, and the checks left."""

    def __init__(
        self, sampler: Sampler, state: State, holds: Callable[[State], bool], budget: int
    ) -> None:
        self.sampler = sampler
        self.best = state
        self.best_size = size(sampler, state)
        self.holds = holds
        self.left = budget
        #: candidates already checked (as canonical JSON) and the answer
        self.seen: dict[str, bool] = {}
        #: the size of the state whose players and list items were last tried out
        self.structure_tried: tuple[int, ...] = ()

    def run(self) -> None:
        passes = (
            self.fewer_players,
            self.shorter_lists,
            self.fields_out,
            self.lower_together,
            self.lower_each,
            self.simpler_values,
        )
        while self.left > 0:
            before = self.best_size
            for one_pass in passes:
                one_pass()
            if self.best_size == before:
                return

    def consider(self, candidate: State) -> bool:
        """Keep ``candidate`` if it is smaller, legal and still shows the fact."""
        smaller = size(self.sampler, candidate)
        if smaller >= self.best_size:
            return False
        key = json.dumps(candidate, sort_keys=True, default=str)
        answer = self.seen.get(key)
        if answer is None:
            if self.left <= 0:
                return False
            self.left -= 1
            answer = self.sampler.legal(copy.deepcopy(candidate)) and self.holds(
                copy.deepcopy(candidate)
            )
            self.seen[key] = answer
        if answer:
            self.best, self.best_size = candidate, smaller
        return answer

    # ------------------------------------------------------------------ passes

    def fewer_players(self) -> None:
        """Each player out in turn (the last first), with what names them."""
        i = len(self.best["players"]) - 1
        while i >= 0 and len(self.best["players"]) > 1 and self.left > 0:
            if i < len(self.best["players"]):
                gone = self.best["players"][i]["id"]
                out = copy.deepcopy(self.best)
                del out["players"][i]
                self.consider(_unnamed(out, gone))
            i -= 1

    def structure_again(self) -> None:
        """Players and list items out again, if integers moved since they were last tried.

        A player or an item that could not leave may, once a score has moved:
        the greedy shrinker found such moments by starting over after each
        step, and without this the integers' searches walk past them (a table
        of three players where two would do).
        """
        if self.best_size != self.structure_tried:
            self.structure_tried = self.best_size
            self.fewer_players()
            self.shorter_lists()

    def shorter_lists(self) -> None:
        """Blocks of items out of each list: half the list, then smaller blocks, to one item."""
        for path in [p for p, _, v in _fields(self.sampler.root, self.best) if _is_list(p, v)]:
            block = len(_at(self.best, path) or []) // 2 or 1
            while block >= 1 and self.left > 0 and self.blocks_out(path, block):
                block //= 2

    def blocks_out(self, path: Path, block: int) -> bool:
        """Blocks of ``block`` items out of the list at ``path``, the last first.

        False when the list is gone (a bigger cut took it: the next round sees the rest).
        """
        start = len(_at(self.best, path) or []) - block
        while start >= 0 and self.left > 0:
            value = _at(self.best, path)
            if not isinstance(value, list):
                return False
            if start + block <= len(value):
                self.consider(_replaced(self.best, path, value[:start] + value[start + block :]))
            start -= 1 if block == 1 else block
        return True

    def fields_out(self) -> None:
        """Optional fields left out, defaulted fields back to their default."""
        for path, spec, _ in list(_fields(self.sampler.root, self.best)):
            optional = (spec.optional or spec.default is not None) and len(path) > 1
            if optional and _at(self.best, path) is not None and self.left > 0:
                self.consider(_without(self.best, path))

    def lower_each(self) -> None:
        """Each integer toward its target in one search (hypothesis's ``Integer.shrink``)."""
        for path, spec, _ in list(self.ints()):
            self.lower([(path, _target(self.sampler, spec))])
            self.structure_again()

    def lower_together(self) -> None:
        """Integers moved toward their targets by one common amount.

        The groups: the same field of every player (of every item of a list),
        the integers that are equal, every pair of the few furthest from their
        targets (two fields that the fact compares, such as two players'
        prestige from different sources), then all of them.
        """
        ints = [(path, _target(self.sampler, spec), value) for path, spec, value in self.ints()]
        groups: list[list[tuple[Path, int]]] = []
        by_field: dict[Path, list[tuple[Path, int]]] = {}
        by_value: dict[int, list[tuple[Path, int]]] = {}
        for path, target, value in ints:
            shape = tuple("*" if isinstance(p, int) else p for p in path)
            by_field.setdefault(shape, []).append((path, target))
            by_value.setdefault(value, []).append((path, target))
        groups.extend(by_field.values())
        groups.extend(by_value.values())
        far = sorted(ints, key=lambda i: -abs(i[2] - i[1]))[:_FURTHEST]
        groups.extend([(a[0], a[1]), (b[0], b[1])] for a, b in itertools.combinations(far, 2))
        groups.append([(path, target) for path, target, _ in ints])
        done: set[tuple[Path, ...]] = set()
        for group in groups:
            paths = tuple(path for path, _ in group)
            if len(group) > 1 and paths not in done:
                done.add(paths)
                self.lower(group)
                self.structure_again()

    def simpler_values(self) -> None:
        """Choices toward the first, bools toward False, texts toward the shortest drawn."""
        for path, spec, _ in list(_fields(self.sampler.root, self.best)):
            value = _at(self.best, path)
            for simpler in _simpler(self.sampler, path, spec, value):
                if self.left <= 0 or self.consider(_replaced(self.best, path, simpler)):
                    break

    # ------------------------------------------------------------------ helpers

    def ints(self) -> Iterator[tuple[Path, FieldSpec, int]]:
        """(path, format, value) of every integer of the best state."""
        for path, spec, value in _fields(self.sampler.root, self.best):
            if spec.type == "int" and isinstance(value, int) and not isinstance(value, bool):
                yield path, spec, value

    def lower(self, group: list[tuple[Path, int]]) -> None:
        """Move every integer of ``group`` toward its target by one amount, as far as it holds.

        Those already at their target stay out of the group; the amount is
        at most the smallest distance left, so that no integer passes its
        target (which would change the relation between them); when one
        reaches its target, the rest go on without it.
        """
        while self.left > 0:
            start = {path: _at(self.best, path) for path, _ in group}
            moving = [
                (path, target)
                for path, target in group
                if isinstance(start[path], int) and start[path] != target
            ]
            if not moving:
                return
            room = min(abs(start[path] - target) for path, target in moving)

            def moved(
                n: int,
                moving: list[tuple[Path, int]] = moving,
                start: dict[Path, Any] = start,
                room: int = room,
            ) -> bool:
                if n > room:
                    return False
                out = copy.deepcopy(self.best)
                for path, target in moving:
                    value = start[path]
                    _put(out, path, value - n if value > target else value + n)
                return self.consider(out)

            if not moved(room):
                _find_integer(moved)
                return
            group = moving  # one reached its target: the rest go on without it


def _find_integer(holds: Callable[[int], bool]) -> int:
    """The largest ``n`` found with ``holds(n)`` (0 if not even 1), in O(log n) calls.

    Hypothesis's ``find_integer``: a few small steps first (most shrinks are
    small), then doubling, then bisecting the last gap. ``holds(0)`` is taken as true.
    """
    for n in range(1, 5):
        if not holds(n):
            return n - 1
    low, high = 4, 8
    while holds(high):
        low, high = high, high * 2
    while low + 1 < high:
        middle = (low + high) // 2
        if holds(middle):
            low = middle
        else:
            high = middle
    return low


def _target(sampler: Sampler, spec: FieldSpec) -> int:
    """Where an integer of ``spec`` shrinks to: 0, or the nearest end of its range."""
    low, high = int_range(spec, sampler.drawer.params)
    return min(max(0, low), high)


def _is_list(path: Path, value: Any) -> bool:
    return isinstance(value, list) and bool(value) and path != ("players",)


def _unnamed(value: Any, pid: str) -> Any:
    """``value`` with every list item that is ``pid``, or a record naming it, left out."""
    if isinstance(value, dict):
        return {k: _unnamed(v, pid) for k, v in value.items()}
    if isinstance(value, list):
        kept = [
            v
            for v in value
            if v != pid and not (isinstance(v, dict) and pid in v.values() and "id" not in v)
        ]
        return [_unnamed(v, pid) for v in kept]
    return value


def _fields(root: FieldSpec, state: State) -> Iterator[tuple[Path, FieldSpec, Any]]:
    """(path, format, value) of every value in ``state`` that its format describes."""

    def walk(spec: FieldSpec, value: Any, path: Path) -> Iterator[Any]:
        yield path, spec, value
        if isinstance(value, list) and spec.item is not None:
            for i, item in enumerate(value):
                yield from walk(spec.item, item, (*path, i))
        elif isinstance(value, dict):
            for name, inner in value.items():
                sub = spec.fields.get(name)
                if sub is not None:
                    yield from walk(sub, inner, (*path, name))

    for name in ("players", "table"):
        if name in state:
            spec = root.fields[name]
            yield from walk(spec, state[name], (name,))


def _simpler(sampler: Sampler, path: Path, spec: FieldSpec, value: Any) -> Iterator[Any]:
    """Simpler values than ``value`` for a choice, bool or text of ``spec``, the simplest first."""
    if spec.type == "bool" and value is True:
        yield False
    elif spec.type == "choice" and value in spec.choices:
        yield from spec.choices[: spec.choices.index(value)]
    elif spec.type == "text" and isinstance(value, str):
        name = next((p for p in reversed(path) if isinstance(p, str)), "")
        shorter = [w for w in sampler.drawer.texts(name, 1) if len(w) < len(value)]
        yield from sorted(shorter, key=lambda w: (len(w), w))


def _at(state: State, path: Path) -> Any:
    """The value at ``path`` in ``state``, or None if it is not there (any more)."""
    holder: Any = state
    for part in path:
        inside = (
            part in holder
            if isinstance(holder, dict)
            else isinstance(holder, list) and isinstance(part, int) and 0 <= part < len(holder)
        )
        if not inside:
            return None
        holder = holder[part]
    return holder


def _put(state: State, path: Path, value: Any) -> None:
    holder: Any = state
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = value


def _replaced(state: State, path: Path, value: Any) -> State:
    out = copy.deepcopy(state)
    _put(out, path, value)
    return out


def _without(state: State, path: Path) -> State:
    out = copy.deepcopy(state)
    holder = _at(out, path[:-1])
    if isinstance(holder, dict):
        holder.pop(path[-1], None)
    return out
