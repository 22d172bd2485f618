"""Drawn populations of tables: a game's state format + a seed → legal table states.

State ``i`` of a seed is drawn by its own generator, ``random.Random(f"{seed}:{i}")``,
so it depends on (seed, i) alone: any partition of the indices (chunks on other
cores or machines) draws the same tables. Product code, so no hypothesis here
(a test tool, which cannot be asked for "the i-th example of seed s" either).

A state is drawn field by field (:mod:`.values`), then checked by the same
check a table state a player writes goes through
(:func:`rulepress.states.validation.validate_state`). The cross-field
constraints (cubes that add up, votes that a player's cubes cover) are what a
field-by-field draw cannot read, so a refused draw is mended, each step kept
only if fewer problems remain:

1. each refused value is drawn again, a few times; then the list item holding
   it is dropped;
2. then the search ``rulepress state-template`` uses
   (:func:`rulepress.states.placeholders.satisfy`): lists emptied, fields
   borrowed from a worked example;
3. a state still refused is drawn afresh (bounded attempts, from the same
   generator), and a format no attempt satisfies is a located problem
   (:class:`~rulepress.errors.SpecError`), never an endless loop.
"""

from __future__ import annotations

import ast
import copy
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rulepress.errors import Problem, SpecError
from rulepress.expressions.bounds import ExpressionSyntaxError
from rulepress.expressions.syntax import parse_tree
from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import Constraint, FieldSpec, Sequence, StateFormat
from rulepress.population.texts import compared_words, spec_expressions
from rulepress.population.values import Drawer, weighted
from rulepress.scoring.engine import find_sequence
from rulepress.states.models import bound, players_spec, state_spec
from rulepress.states.placeholders import satisfy
from rulepress.states.validation import validate_state
from rulepress.yamlsrc import SourceMap, format_path

#: fresh draws of one state before its format is declared one the sampler cannot satisfy
ATTEMPTS = 12
#: passes that draw every refused value again, before list items are dropped instead
PASSES = 30


@dataclass(frozen=True)
class Sampler:
    """What drawing states of one sequence needs, worked out once."""

    loaded: LoadedSpec
    seq: Sequence
    fmt: StateFormat
    drawer: Drawer
    #: the whole state as one record field (players and table), for finding a path's format
    root: FieldSpec
    #: "players" / "table" → the names their constraints read (fields among them)
    reads: dict[str, set[str]]

    @classmethod
    def of(cls, loaded: LoadedSpec, sequence: str | None) -> Sampler:
        spec = loaded.spec
        _, seq = find_sequence(spec, sequence)
        fmt = spec.table_states[seq.state]
        drawer = Drawer(spec.parameters, compared_words(spec))
        reads = {
            "players": _read_names(fmt.players.constraints),
            "table": _read_names(fmt.table.constraints),
        }
        return cls(loaded, seq, fmt, drawer, state_spec(fmt), reads)

    # ------------------------------------------------------------------ checking

    def problems(self, state: dict[str, Any]) -> list[Problem]:
        """What the state check refuses in ``state`` (which it leaves as it was)."""
        spec = self.loaded.spec
        _, found = validate_state(self.fmt, spec.parameters, state, SourceMap(), sets=spec.sets)
        return found

    def legal(self, state: dict[str, Any]) -> bool:
        return not self.problems(state)

    # ------------------------------------------------------------------ drawing

    def player_counts(self) -> range:
        params = self.loaded.spec.parameters
        low = max(bound(self.fmt.players.min, params) or 1, 1)
        high = bound(self.fmt.players.max, params) or low
        return range(low, max(low, high) + 1)

    def raw(self, rng: random.Random) -> dict[str, Any]:
        """A state drawn field by field, before its cross-field constraints are met."""
        count = weighted(rng, self.fmt.players.draw, self.player_counts())
        ids = [f"p{k}" for k in range(1, count + 1)]
        players = [
            {"id": pid, **self.drawer.record(rng, self.fmt.players.fields, ids)} for pid in ids
        ]
        state: dict[str, Any] = {"sequence": self.seq.id, "players": players}
        state["table"] = self.drawer.record(rng, self.fmt.table.fields, ids)
        return state

    def draw(self, seed: int, index: int) -> dict[str, Any]:
        """Table state ``index`` of ``seed``: legal, and the same on every call."""
        rng = random.Random(f"{seed}:{index}")  # noqa: S311 (reproducible draws, no secret)
        for _ in range(ATTEMPTS):
            state = self.raw(rng)
            if self.mend(rng, state):
                return state
        fmt_where = ("table_states", self.seq.state)
        raise SpecError(
            f"{self.loaded.spec.game.id}: cannot draw table states of {self.seq.id!r}",
            [
                Problem(
                    self.loaded.locate(fmt_where),
                    format_path(fmt_where),
                    f"no state drawn from this format met its constraints in {ATTEMPTS}"
                    " attempts (state {index} of seed {seed}); give the fields the"
                    " constraints tie together bounds or choices that can meet them".replace(
                        "{index}", str(index)
                    ).replace("{seed}", str(seed)),
                )
            ],
        )

    # ------------------------------------------------------------------ mending

    def mend(self, rng: random.Random, state: dict[str, Any]) -> bool:
        """Make ``state`` legal in place, if the bounded search can; whether it did.

        Each pass draws again every value a problem names, all at once (one check
        of the state per pass, not one per problem: a nine-player table has dozens of
        independent ones); a pass is kept if fewer problems remain. Then every list
        item holding a refused value is dropped, then :func:`satisfy` searches.
        """
        problems = self.problems(state)
        for _ in range(PASSES):
            if not problems:
                return True
            paths = self._paths_of(state, problems)
            if not paths:
                break
            problems = self._pass(
                state, problems, paths, lambda path: self._redrawn(rng, state, path)
            )
        for _ in range(PASSES):
            if not problems:
                return True
            items = self._droppable(rng, state, problems)
            if not items:
                break
            problems = self._pass(state, problems, sorted(items, reverse=True), None)
        if problems:
            state.setdefault("table", {})
            problems = satisfy(self.loaded.spec, self.seq, state)
        return not problems

    def _droppable(
        self, rng: random.Random, state: dict[str, Any], problems: list[Problem]
    ) -> set[tuple[Any, ...]]:
        """List items whose dropping may mend ``problems``.

        The item holding each refused value, and one item, at random, of each list
        the refused records' constraints read (the Bribes that count a player twice
        lie in the other players' lists).
        """
        items = {item for p in self._paths_of(state, problems) if (item := _item_path(p))}
        read: set[str] = set()
        for problem in problems:
            read |= self.reads.get(
                (problem.where.startswith("table") and "table") or "players", set()
            )
        for path in _paths(state):
            if len(path) < 2 or not isinstance(path[-1], str) or path[-1] not in read:
                continue
            value = _at(state, path)
            if isinstance(value, list) and value and path != ("players",):
                items.add((*path, rng.randrange(len(value))))
        return items

    def _paths_of(self, state: dict[str, Any], problems: list[Problem]) -> list[tuple[Any, ...]]:
        """The values the problems name, outermost only, players themselves left out."""
        paths = sorted({self._path(state, p.where) for p in problems}, key=len)
        out: list[tuple[Any, ...]] = []
        for path in paths:
            if (len(path) <= 2 and path[:1] == ("players",)) or not path:
                continue
            if not any(path[: len(o)] == o for o in out):
                out.append(path)
        return out

    def _pass(
        self,
        state: dict[str, Any],
        problems: list[Problem],
        paths: list[tuple[Any, ...]],
        redraw: Callable[[tuple[Any, ...]], Any] | None,
    ) -> list[Problem]:
        """Redraw the value at each of ``paths``; keep the pass if fewer problems remain.

        With ``redraw`` None the list item at each path is dropped instead (``paths``
        then in reverse order, so that an index still means its item).
        """
        kept = copy.deepcopy(state)
        for path in paths:
            holder = _at(state, path[:-1])
            if redraw is None:
                if isinstance(holder, list):
                    del holder[path[-1]]
            else:
                holder[path[-1]] = redraw(path)
        fewer = self.problems(state)
        if len(fewer) < len(problems):
            return fewer
        state.clear()
        state.update(kept)
        return problems

    def _redrawn(self, rng: random.Random, state: dict[str, Any], path: tuple[Any, ...]) -> Any:
        """A fresh value for the field at ``path`` of ``state``."""
        spec, name = _spec_at(self.root, path)
        ids = [p["id"] for p in state["players"]]
        if spec is None:
            return copy.deepcopy(_at(state, path))
        return self.drawer.value(rng, name, spec, ids)

    def _path(self, state: dict[str, Any], where: str) -> tuple[Any, ...]:
        """The data path in ``state`` of a problem's ``where`` (``players[0].cubes``).

        The longest path that exists: a problem may be about a field left out.
        """
        best: tuple[Any, ...] = ()
        for path in _paths(state):
            shown = format_path(path)
            if (where == shown or where.startswith((shown + ".", shown + "["))) and len(path) > len(
                best
            ):
                best = path
        return best


def _read_names(constraints: list[Constraint]) -> set[str]:
    """The names and attribute names the expressions of ``constraints`` read."""
    found: set[str] = set()
    for source in spec_expressions(constraints):
        try:
            tree, _ = parse_tree(source)
        except ExpressionSyntaxError:  # the spec check reports it
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
    return found


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, (*path, i))


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _item_path(path: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The innermost list item on ``path`` (not a player: players are not dropped here)."""
    for end in range(len(path), 0, -1):
        if isinstance(path[end - 1], int) and end > 2:
            return path[:end]
    return None


def _spec_at(root: FieldSpec, path: tuple[Any, ...]) -> tuple[FieldSpec | None, str]:
    """The format of the value at ``path`` and the name of the field it is (or is an item of)."""
    spec: FieldSpec | None = root
    name = ""
    for part in path:
        if spec is None:
            return None, name
        if isinstance(part, int):
            spec = spec.item
        else:
            name = part
            spec = spec.fields.get(part)
    return spec, name


def draw_states(
    loaded: LoadedSpec, sequence: str | None, *, seed: int, start: int = 0, count: int
) -> Iterator[dict[str, Any]]:
    """Legal table states of ``sequence`` for indices ``start`` … ``start + count - 1``.

    ``sequence`` None is the scorer's default; the states are plain data, as a YAML
    file gives them, each drawn by seed ``seed``.

    State ``i`` depends on (seed, i) alone. Raises :class:`~rulepress.errors.SpecError`
    when the format's constraints defeat the bounded search.
    """
    sampler = Sampler.of(loaded, sequence)
    for index in range(start, start + count):
        yield sampler.draw(seed, index)


__all__ = ["Sampler", "draw_states", "players_spec"]
