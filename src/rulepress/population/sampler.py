"""Drawn populations of tables: a game's state format + a seed → legal table states.

State ``i`` of a seed is drawn by its own generator, ``random.Random(f"{seed}:{i}")``,
so it depends on (seed, i) alone: any partition of the indices (chunks on other
cores or machines) draws the same tables. Product code, so no hypothesis here
(a test tool, which cannot be asked for "the i-th example of seed s" either).

A state is drawn record by record, each field by field (:mod:`.values`), and
each record drawn again in part until the constraints that read it alone hold
(:mod:`.local`: cubes that add up, an Agenda line that gives one of two
fields). The whole state is then checked once (the check's quick path, for a
good state). The constraints across records (votes that a player's cubes
cover, Bribes on other players' cards) are what a record-by-record draw cannot
read, so a refused draw is mended, each step kept only if fewer problems
remain (where they are found without wording their messages):

1. each refused value is drawn again, a few times; then the list item holding
   it is dropped;
2. then the search ``rulepress state-template`` uses
   (:func:`rulepress.states.placeholders.satisfy`): lists emptied, fields
   borrowed from a worked example;
3. a state still refused is drawn afresh (bounded attempts, from the same
   generator; the first attempt skips step 2's search, which can cost a thousand
   checks), and a format no attempt satisfies is a located problem
   (:class:`~rulepress.errors.SpecError`), never an endless loop.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import ValidationError

from rulepress.errors import Location, Problem, SpecError
from rulepress.expressions.records import Record, fields_record
from rulepress.model.loaded import LoadedSpec
from rulepress.model.sets import spelled_out
from rulepress.model.spec_model import (
    Constraint,
    FieldSpec,
    RecordFormat,
    Sequence,
    StateFormat,
)
from rulepress.population.local import Section
from rulepress.population.texts import compared_words, spec_expressions
from rulepress.population.values import Drawer, weighted
from rulepress.scoring.engine import find_sequence
from rulepress.states.constraints import failures
from rulepress.states.models import bound, state_models, state_spec
from rulepress.states.placeholders import satisfy
from rulepress.states.quick import section_validators
from rulepress.states.template import expression_names
from rulepress.states.validation import compiled, params_record, quick_check, validate_state
from rulepress.yamlsrc import SourceMap, format_path

#: a redrawn value that is no value: the optional or defaulted field left out, as a
#: first draw leaves it out half the time
OMIT: Any = object()
#: the parts of a problem's ``where``: a key (after a dot or first) or an index in brackets
_PARTS = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
#: the place of a problem the mending finds: in no file (it reads only ``where``)
_NOWHERE = Location("<drawn state>")
#: fresh draws of one state before its format is declared one the sampler cannot satisfy
ATTEMPTS = 12
#: the fresh draws of one state mended without :func:`satisfy`'s search, before it is
#: tried too: on a Stationfall table the mending left refused, it once took 3,000
#: checks (1.7 s, more than the other 199 tables of the benchmark together) where a
#: fresh draw takes a few milliseconds; Brink's council tables, which it mends
#: quickly, are a quarter slower for it
SEARCH_FROM = 1
#: passes that draw every refused value again, before list items are dropped instead
PASSES = 12
#: passes in a row that mend nothing before the next means is tried
PATIENCE = 2
#: draws of one player's refused field, each checked with that player alone
LOCAL_TRIES = 96
#: redraws of a field whose check alone never passed, before it is not tried alone
HOPELESS = 2
#: tries of a field checked together, each as a player of its own
BATCH = 16


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
    #: a player's and the table's own rules, asked as each is drawn (None: not known here)
    sections: tuple[Section, Section] | None
    #: what every record's rules read besides the record: the parameters and named sets
    context: dict[str, Record]
    #: player field → the format its check alone uses (see :meth:`_player_format`)
    local_formats: dict[str, StateFormat] = field(default_factory=dict, compare=False)
    #: (a format's id, list names) → whether its values may hold such a list (see _lists_named)
    holding: dict[tuple[int, frozenset[str]], bool] = field(default_factory=dict, compare=False)

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
        params = spec.parameters
        validators = section_validators(state_models(fmt, params).schema)
        sections = None
        if validators is not None:
            sections = (
                Section.of(
                    validators[0],
                    fmt.players.fields,
                    fmt.players.constraints,
                    params,
                    compiled,
                    own=None,
                ),
                Section.of(
                    validators[1],
                    fmt.table.fields,
                    fmt.table.constraints,
                    params,
                    compiled,
                    own="table",
                ),
            )
        context = {"param": params_record(params), "sets": fields_record(spelled_out(spec.sets))}
        return cls(loaded, seq, fmt, drawer, state_spec(fmt), reads, sections, context)

    # ------------------------------------------------------------------ checking

    def problems(self, state: dict[str, Any], records: list[Any] | None = None) -> list[Problem]:
        """Where the state check refuses ``state`` (which it leaves as it was).

        ``records``: its records as :meth:`raw` read them (see :meth:`_located`).
        """
        return self._located(self.fmt, state, records)

    def _located(
        self, fmt: StateFormat, state: dict[str, Any], records: list[Any] | None = None
    ) -> list[Problem]:
        """The problems of ``state`` under ``fmt``: their places, not always their messages.

        The mending needs only where each problem is and how many there are. When
        every field is well formed (a drawn state's usual case) the constraints are
        asked without wording their messages (see
        :func:`rulepress.states.constraints.failures`), a fraction of the work of the
        whole check; otherwise the whole check tells.

        ``records``: each player and the table as :meth:`raw` left them read (None for
        one not read), for the whole format (see :meth:`_from_records`).
        """
        spec = self.loaded.spec
        quick = quick_check(state_models(fmt, spec.parameters), fmt)
        read = self._from_records(state, records) if records is not None else None
        if read is None:
            read = quick.records(state)
        if read is not None:
            players: list[Record] = read["players"]
            table: Record = read["table"]
            ids = {rec["id"]: i for i, rec in enumerate(players)}
            if len(ids) == len(players) and quick.refs(players, table, ids):
                context = {
                    **self.context,
                    "param": quick.params,
                    "n_players": len(players),
                    "table": table,
                    "players": players,
                }
                found: list[Problem] = []
                for i, rec in enumerate(players):
                    ns = {**context, **rec}
                    for where, _ in failures(fmt.players.constraints, rec, ns, None, compiled):
                        found.append(Problem(_NOWHERE, format_path(("players", i, *where)), ""))
                ns = {**context, **table}
                for where, _ in failures(fmt.table.constraints, table, ns, None, compiled):
                    found.append(Problem(_NOWHERE, format_path(("table", *where)), ""))
                return found
        _, found = validate_state(fmt, spec.parameters, state, SourceMap(), sets=spec.sets)
        return found

    def _from_records(self, state: dict[str, Any], records: list[Any]) -> dict[str, Any] | None:
        """The state read into records, from the readings its records' own checks made.

        Each part of the check's reading reads a record as the whole reading does
        (:func:`section_validators`), and a drawn state's other keys are well formed;
        so this is what the whole reading gives, without reading the state again. A
        record not read yet is read here; None when one is refused (the whole check
        then tells).
        """
        players = state.get("players")
        if self.sections is None or not isinstance(players, list):
            return None
        if len(records) != len(players) + 1:
            return None
        try:
            out = [
                rec if rec is not None else self.sections[0].validator.validate_python(raw)
                for rec, raw in zip(records, players, strict=False)
            ]
            table = records[-1]
            if table is None:
                table = self.sections[1].validator.validate_python(state.get("table"))
        except ValidationError:
            return None
        return {"players": out, "table": table}

    def legal(self, state: dict[str, Any]) -> bool:
        return not self.problems(state)

    # ------------------------------------------------------------------ drawing

    def player_counts(self) -> range:
        params = self.loaded.spec.parameters
        low = max(bound(self.fmt.players.min, params) or 1, 1)
        high = bound(self.fmt.players.max, params) or low
        return range(low, max(low, high) + 1)

    def raw(self, rng: random.Random, records: list[Any] | None = None) -> dict[str, Any]:
        """A state drawn record by record, before the constraints across records are met.

        Each record is drawn field by field, then drawn again in part until its own
        constraints hold (:meth:`Section.settle`), as far as a bounded search can.
        ``records`` gets each player's and the table's reading, as the settling last
        read it (None for a record it did not read, or left refused).
        """
        count = weighted(rng, self.fmt.players.draw, self.player_counts())
        ids = [f"p{k}" for k in range(1, count + 1)]
        context = {**self.context, "n_players": count}
        players = []
        for pid in ids:
            player = {"id": pid, **self.drawer.record(rng, self.fmt.players.fields, ids)}
            if self.sections is not None:
                read: list[Any] = []
                self.sections[0].settle(rng, self.drawer, player, ids, context, read)
                if records is not None:
                    records.append(read[0] if read else None)
            players.append(player)
        state: dict[str, Any] = {"sequence": self.seq.id, "players": players}
        table = self.drawer.record(rng, self.fmt.table.fields, ids)
        if self.sections is not None:
            read = []
            self.sections[1].settle(rng, self.drawer, table, ids, context, read)
            if records is not None:
                records.append(read[0] if read else None)
        state["table"] = table
        return state

    def draw(self, seed: int, index: int) -> dict[str, Any]:
        """Table state ``index`` of ``seed``: legal, and the same on every call."""
        rng = random.Random(f"{seed}:{index}")  # noqa: S311 (reproducible draws, no secret)
        for attempt in range(ATTEMPTS):
            records: list[Any] = []
            state = self.raw(rng, records)
            if self.mend(rng, state, search=attempt >= SEARCH_FROM, records=records):
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

    def mend(
        self,
        rng: random.Random,
        state: dict[str, Any],
        *,
        search: bool = True,
        records: list[Any] | None = None,
    ) -> bool:
        """Make ``state`` legal in place, if the bounded search can; whether it did.

        ``search`` False leaves out the last means, :func:`satisfy`: it can take a
        thousand checks, where a fresh draw takes a few (see :data:`SEARCH_FROM`).

        Each pass draws again every value a problem names, all at once (one check
        of the state per pass, not one per problem: a nine-player table has dozens of
        independent ones); a pass is kept if fewer problems remain. Then every list
        item holding a refused value is dropped, then :func:`satisfy` searches.

        When each record was drawn until its own constraints held (see
        :meth:`raw`), what is left ties records together (Bribes on other players'
        cards, votes their cubes must cover), which a redraw of one value seldom
        mends and dropping the items naming the refused players does: those are
        dropped first.

        ``records``: the readings :meth:`raw` made of the state's records, which its
        first check then takes as read.
        """
        problems = self.problems(state, records)
        if problems and self.sections is not None:
            problems = self._drops(rng, state, problems)
        problems = self._redraws(rng, state, problems)
        problems = self._drops(rng, state, problems)
        if problems and search:
            state.setdefault("table", {})
            problems = satisfy(self.loaded.spec, self.seq, state)
        return not problems

    def _redraws(
        self, rng: random.Random, state: dict[str, Any], problems: list[Problem]
    ) -> list[Problem]:
        """Passes that draw every refused value again, while they mend; what is left."""
        # field format → its redraws whose check with their player alone never passed:
        # past HOPELESS such a field hangs on the table or the other players, and is
        # not tried alone again in this draw (one that passed once is always tried)
        hopeless: dict[int, int] = {}
        stale = 0  # passes in a row that mended nothing: what is left needs another means
        for _ in range(PASSES):
            paths = self._paths_of(state, problems) if problems else []
            if not paths or stale >= PATIENCE:
                break
            left = len(problems)
            problems = self._pass(
                state, problems, paths, lambda path: self._redrawn(rng, state, path, hopeless)
            )
            stale = stale + 1 if len(problems) == left else 0
        return problems

    def _drops(
        self, rng: random.Random, state: dict[str, Any], problems: list[Problem]
    ) -> list[Problem]:
        """Passes that drop the list items that may hold refused values; what is left."""
        stale = 0
        for _ in range(PASSES):
            items = self._droppable(rng, state, problems) if problems else set()
            if not items or stale >= PATIENCE:
                break
            left = len(problems)
            problems = self._pass(state, problems, sorted(items, reverse=True), None)
            stale = stale + 1 if len(problems) == left else 0
        return problems

    def _droppable(
        self, rng: random.Random, state: dict[str, Any], problems: list[Problem]
    ) -> set[tuple[Any, ...]]:
        """List items whose dropping may mend ``problems``.

        The item holding each refused value; and in each list the refused records'
        constraints read, the items that name a refused player (the votes they cast,
        the Bribes of theirs that lie on other cards): half of them, at random, so
        that a pass converges in a few steps, or else one item at random.
        """
        items = {item for p in self._paths_of(state, problems) if (item := _item_path(p))}
        read: set[str] = set()
        refused: set[str] = set()
        for problem in problems:
            section = "table" if problem.where.startswith("table") else "players"
            read |= self.reads.get(section, set())
            path = self._path(state, problem.where)
            if path[:1] == ("players",) and len(path) >= 2:
                refused.add(state["players"][path[1]]["id"])
        for path in _lists_named(state, self.root, frozenset(read), self.holding):
            value = _at(state, path)
            if not isinstance(value, list) or not value:
                continue
            naming = [i for i, v in enumerate(value) if _names_player(v, refused)]
            if naming:
                chosen = rng.sample(naming, max(1, len(naming) // 2))
            else:
                chosen = [rng.randrange(len(value))]
            items.update((*path, i) for i in chosen)
        return items

    def _paths_of(self, state: dict[str, Any], problems: list[Problem]) -> list[tuple[Any, ...]]:
        """The values the problems name, outermost only, players themselves left out."""
        # ordered by length, then by what they name: a set's own order of strings changes
        # with the process's hash seed, and a draw must be the same in every process
        paths = sorted({self._path(state, p.where) for p in problems}, key=_path_order)
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
        then in reverse order, so that an index still means its item). A pass not
        kept is undone from what it replaced (no copy of the whole state).
        """
        undo: list[tuple[tuple[Any, ...], Any, Any, bool, Any]] = []
        for path in paths:
            holder = _at(state, path[:-1])
            key = path[-1]
            if redraw is None:
                if isinstance(holder, list):
                    undo.append((path, holder, key, True, holder.pop(key)))
            else:
                had = key in holder if isinstance(holder, dict) else True
                undo.append((path, holder, key, had, holder[key] if had else None))
                _put(holder, key, redraw(path))
        fewer = self.problems(state)
        if len(fewer) < len(problems):
            return fewer
        if redraw is not None and len(undo) > 1:
            # some values came right and others not (a Bribe that hangs on the other
            # players): keep the ones that did, and undo the ones still refused
            wheres = [p.where for p in fewer]
            still = [u for u in undo if any(_under(w, format_path(u[0])) for w in wheres)]
            if len(still) < len(undo):
                _undo(still, dropped=False)
                again = self.problems(state)
                if len(again) < len(problems):
                    return again
                undo = [u for u in undo if u not in still]
        _undo(undo, dropped=redraw is None)
        return problems

    def _player_format(self, name: str) -> StateFormat:
        """The format with no table and only the player constraints reported at ``name``.

        For the check of one player's field: the constraints reported elsewhere are
        not read there, and each costs an evaluation per try. Made once per field.
        """
        made = self.local_formats.get(name)
        if made is None:
            kept = [
                c
                for c in self.fmt.players.constraints
                if _PARTS.findall(c.field)[:1] == [(name, "")]
            ]
            players = self.fmt.players.model_copy(update={"constraints": kept})
            made = self.fmt.model_copy(update={"players": players, "table": RecordFormat()})
            self.local_formats[name] = made
        return made

    def _redrawn(
        self,
        rng: random.Random,
        state: dict[str, Any],
        path: tuple[Any, ...],
        hopeless: dict[int, int],
    ) -> Any:
        """A fresh value for the field at ``path`` of ``state``.

        A player's field is drawn until the check of that player alone passes there
        (bounded): cubes that must add up to what a player owns come up in one draw
        of a few dozen, and checking one player is a fraction of checking the table.
        """
        spec, name = _spec_at(self.root, path)
        ids = [p["id"] for p in state["players"]]
        if spec is None:
            return copy.deepcopy(_at(state, path))
        value = self._fresh(rng, name, spec, ids, path)
        if path[:1] != ("players",) or len(path) < 3 or hopeless.get(id(spec), 0) >= HOPELESS:
            return value
        if _names_players(spec):
            return self._alone(rng, state, path, spec, name, value, hopeless)
        return self._batched(rng, state, path, spec, name, value, hopeless)

    def _alone(
        self,
        rng: random.Random,
        state: dict[str, Any],
        path: tuple[Any, ...],
        spec: FieldSpec,
        name: str,
        value: Any,
        hopeless: dict[int, int],
    ) -> Any:
        """Redraw a field that names players until the check of its player passes there.

        The player first, the others as their ids alone, and no table (what they lack
        is reported at their own paths, which are not read). A constraint that reads
        the table or the others (votes the player's cubes must cover) is then not met
        here but in the whole check.
        """
        ids = [p["id"] for p in state["players"]]
        player = copy.deepcopy(state["players"][path[1]])
        others = [{"id": pid} for pid in ids if pid != player["id"]]
        mini: dict[str, Any] = {"players": [player, *others], "table": {}}
        local = ("players", 0, *path[2:])
        holder = _at(mini, local[:-1])
        shown = format_path(local)
        for _ in range(LOCAL_TRIES):
            _put(holder, local[-1], value)
            if not any(_under(p.where, shown) for p in self._local_problems(path[2], mini)):
                hopeless[id(spec)] = -LOCAL_TRIES  # it can pass: never give up on it
                return value
            value = self._fresh(rng, name, spec, ids, path)
        hopeless[id(spec)] = hopeless.get(id(spec), 0) + 1
        return value

    def _batched(
        self,
        rng: random.Random,
        state: dict[str, Any],
        path: tuple[Any, ...],
        spec: FieldSpec,
        name: str,
        value: Any,
        hopeless: dict[int, int],
    ) -> Any:
        """Redraw a field that names no player, a batch of tries per check.

        Each try is a copy of the player (copied along ``path`` only) with its own
        value and an id of its own; one check of the batch tells which pass. The
        first that passes, in the order drawn, is taken.
        """
        ids = [p["id"] for p in state["players"]]
        player = state["players"][path[1]]
        # a batch is a table, so no bigger than the format allows
        batch = max(1, min(BATCH, self.player_counts()[-1]))
        values = [value]
        for _ in range(-(-LOCAL_TRIES // batch)):
            values += [self._fresh(rng, name, spec, ids, path) for _ in range(batch - len(values))]
            tries = [
                _set_along({**player, "id": f"try{k}"}, path[2:], v) for k, v in enumerate(values)
            ]
            found = self._local_problems(path[2], {"players": tries, "table": {}})
            shown = [format_path(("players", k, *path[2:])) for k in range(len(values))]
            refused = {k for k, at in enumerate(shown) if any(_under(p.where, at) for p in found)}
            passed = next((k for k in range(len(values)) if k not in refused), None)
            if passed is not None:
                hopeless[id(spec)] = -LOCAL_TRIES  # it can pass: never give up on it
                return values[passed]
            values = []
        hopeless[id(spec)] = hopeless.get(id(spec), 0) + 1
        return value

    def _fresh(
        self, rng: random.Random, name: str, spec: FieldSpec, ids: list[str], path: tuple[Any, ...]
    ) -> Any:
        """A redrawn value of ``spec``, or :data:`OMIT`.

        A field a record may leave out is left out half the time, as the first draw
        does (favors that must be none but on the active player's turn).
        """
        leavable = (spec.optional or spec.default is not None) and isinstance(path[-1], str)
        if leavable and rng.random() < 0.5:
            return OMIT
        return self.drawer.value(rng, name, spec, ids)

    def _local_problems(self, name: str, mini: dict[str, Any]) -> list[Problem]:
        return self._located(self._player_format(name), mini)

    def _path(self, state: dict[str, Any], where: str) -> tuple[Any, ...]:
        """The data path in ``state`` of a problem's ``where`` (``players[0].cubes``).

        Down to the first part ``state`` lacks (a field left out, which a redraw then
        gives), or the whole path; a part no record or list has ends it.
        """
        path: list[Any] = []
        value: Any = state
        for key, index in _PARTS.findall(where):
            part: Any = int(index) if index else key
            if isinstance(value, dict) and isinstance(part, str):
                path.append(part)
                if part not in value:
                    break
            elif isinstance(value, list) and isinstance(part, int) and part < len(value):
                path.append(part)
            else:
                break
            value = value[part]
        return tuple(path)


def _undo(undo: list[tuple[tuple[Any, ...], Any, Any, bool, Any]], *, dropped: bool) -> None:
    """Put back what a pass replaced (``dropped``: list items it dropped), last first."""
    for _, holder, key, had, old in reversed(undo):
        if dropped:
            holder.insert(key, old)
        elif had:
            holder[key] = old
        else:
            holder.pop(key, None)


def _put(holder: Any, key: Any, value: Any) -> None:
    """``holder[key] = value``, or the key left out for :data:`OMIT`."""
    if value is OMIT:
        holder.pop(key, None)
    else:
        holder[key] = value


def _set_along(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """``record`` with ``value`` at ``path``: the dicts and lists along it copied, no more."""
    if not path:
        return record
    head, rest = path[0], path[1:]
    if isinstance(record, list):
        out_list = list(record)
        out_list[head] = value if not rest else _set_along(record[head], rest, value)
        return out_list
    out = dict(record)
    if rest:
        out[head] = _set_along(record[head], rest, value)
    else:
        _put(out, head, value)
    return out


def _names_players(spec: FieldSpec) -> bool:
    """Whether a value of ``spec`` can name a player (a ``player`` field, or one inside)."""
    if spec.type == "player":
        return True
    inner = [spec.item] if spec.item is not None else []
    return any(_names_players(f) for f in [*inner, *spec.fields.values()])


def _under(where: str, shown: str) -> bool:
    """Whether a problem's ``where`` is at the data path shown as ``shown`` or inside it."""
    return where == shown or where.startswith((shown + ".", shown + "["))


def _names_player(value: Any, ids: set[str]) -> bool:
    """Whether a list item is one of ``ids`` or a record with a field that is."""
    if isinstance(value, str):
        return value in ids
    if isinstance(value, dict):
        # a loop, not any() over a generator: asked of every item of the lists read
        for inner in value.values():
            if isinstance(inner, str) and inner in ids:
                return True
    return False


def _read_names(constraints: list[Constraint]) -> set[str]:
    """The names and attribute names the expressions of ``constraints`` read."""
    found: set[str] = set()
    for source in spec_expressions(constraints):
        found |= expression_names(source)
    return found


def _lists_named(
    value: Any,
    spec: FieldSpec,
    names: frozenset[str],
    memo: dict[tuple[int, frozenset[str]], bool],
    path: tuple[Any, ...] = (),
    out: list[tuple[Any, ...]] | None = None,
) -> list[tuple[Any, ...]]:
    """The paths in ``value`` (of format ``spec``) of the list fields called one of ``names``.

    Only the parts of the state whose format holds such a field are walked: a
    nine-player table has thousands of values, and a few lists are wanted.
    ``memo`` keeps what :func:`_holds_named` found, by format (the sampler's formats
    live as long as it does). A list built in one walk (``out``), not a generator
    per level: it is asked on every pass of the mending.
    """
    if out is None:
        out = []
    if not _holding(spec, names, memo):
        return out
    if isinstance(value, dict):
        fields = spec.fields
        for name, inner in value.items():
            sub = fields.get(name)
            if sub is None:
                continue
            if sub.type == "list" and name in names and path:
                out.append((*path, name))
            # asked here, not by the call: most of a player's fields hold no such list
            if _holding(sub, names, memo):
                _lists_named(inner, sub, names, memo, (*path, name), out)
    elif isinstance(value, list) and spec.item is not None:
        item = spec.item
        if _holding(item, names, memo):
            for i, inner in enumerate(value):
                _lists_named(inner, item, names, memo, (*path, i), out)
    return out


def _holding(
    spec: FieldSpec, names: frozenset[str], memo: dict[tuple[int, frozenset[str]], bool]
) -> bool:
    """:func:`_holds_named`, kept in ``memo`` by format."""
    key = (id(spec), names)
    holds = memo.get(key)
    if holds is None:
        holds = memo[key] = _holds_named(spec, names)
    return holds


def _holds_named(spec: FieldSpec, names: frozenset[str]) -> bool:
    """Whether a value of ``spec`` may hold a list field called one of ``names``."""
    inner = [spec.item] if spec.item is not None else []
    return any(
        (sub.type == "list" and key in names) or _holds_named(sub, names)
        for key, sub in spec.fields.items()
    ) or any(_holds_named(sub, names) for sub in inner)


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


#: the samplers made, by spec and sequence: a population is drawn in many chunks, and
#: reading every expression for its words costs more than a chunk of small states
_SAMPLERS: dict[tuple[int, str | None], tuple[LoadedSpec, Sampler]] = {}


def sampler_of(loaded: LoadedSpec, sequence: str | None) -> Sampler:
    """The sampler of ``sequence`` of ``loaded``, made once (a few are kept)."""
    key = (id(loaded), sequence)
    kept = _SAMPLERS.get(key)
    if kept is not None and kept[0] is loaded:
        return kept[1]
    made = Sampler.of(loaded, sequence)
    if len(_SAMPLERS) >= 16:  # a process draws from a few specs
        _SAMPLERS.pop(next(iter(_SAMPLERS)))
    _SAMPLERS[key] = (loaded, made)
    return made


def _path_order(path: tuple[Any, ...]) -> tuple[int, tuple[tuple[int, str], ...]]:
    """A path's place in a sorted list: shorter first, then by its parts (keys, indices)."""
    return len(path), tuple((0, f"{p:012d}") if isinstance(p, int) else (1, str(p)) for p in path)


def draw_states(
    loaded: LoadedSpec, sequence: str | None, *, seed: int, start: int = 0, count: int
) -> Iterator[dict[str, Any]]:
    """Legal table states of ``sequence`` for indices ``start`` … ``start + count - 1``.

    ``sequence`` None is the scorer's default; the states are plain data, as a YAML
    file gives them, each drawn by seed ``seed``.

    State ``i`` depends on (seed, i) alone. Raises :class:`~rulepress.errors.SpecError`
    when the format's constraints defeat the bounded search.
    """
    sampler = sampler_of(loaded, sequence)
    for index in range(start, start + count):
        yield sampler.draw(seed, index)


__all__ = ["Sampler", "draw_states", "sampler_of"]
