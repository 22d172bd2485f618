"""A question (two rule sets, one population of tables), run chunk by chunk.

Each chunk is scored where the executor puts it (this process, a pool of
processes, a Dask cluster): the worker loads both rule sets once, checks
each table against each rule set's state format, scores it under both
(without the trace: only points are compared) and counts the difference.
For a table that changes, each *cause* (a ruling whose option differs, or
the edition) is tried alone, so the report can say which rulings account
for which changes. The first table of each kind of change is kept; once
the chunks are merged it is shrunk to the smallest table that still
shows that change.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from rulepress.errors import Location, RulepressError, StateError
from rulepress.expressions.budget import item_budget
from rulepress.impact.outcome import Change, Outcome, compare, outcome
from rulepress.impact.rulesets import RuleSet, chosen_options, load_rule_set_spec
from rulepress.impact.tally import Tally, merge
from rulepress.model import LoadedSpec
from rulepress.population.corpus import (
    BadRecord,
    CorpusChunk,
    corpus_chunks,
    count_records,
    read_chunk,
    read_corpus,
)
from rulepress.population.executor import available_cores, run_chunks
from rulepress.population.sampler import sampler_of
from rulepress.scoring import score
from rulepress.scoring.engine import resolve_variants
from rulepress.scoring.state import check_state
from rulepress.yamlsrc import SourceMap

#: the most tables a drawn population may have: a bound on the work one command asks for
MAX_TABLES = 10_000_000
#: tables per chunk of a drawn population, at most and at least (see chunks())
CHUNK_MOST, CHUNK_LEAST = 5_000, 100


@dataclass(frozen=True)
class Question:
    """Two rule sets and the tables to compare them over: drawn, or a recorded corpus."""

    before: RuleSet
    after: RuleSet
    sequence: str | None = None
    #: a drawn population: its seed and size (``corpus`` None)
    seed: int = 0
    tables: int = 0
    #: a recorded population: a folder of state files or a JSON Lines file
    corpus: str | None = None


@dataclass(frozen=True)
class Chunk:
    """Tables ``start`` … ``start + count - 1`` of a question's population (from 0).

    A chunk of a recorded corpus also says where its records start in the
    corpus (``records``), so that its worker reads only them.
    """

    question: Question
    start: int
    count: int
    records: CorpusChunk | None = None


def _size(total: int, workers: int) -> int:
    """Tables per chunk: a few chunks per worker, so that a slow chunk does not idle the others."""
    return min(CHUNK_MOST, max(CHUNK_LEAST, math.ceil(total / (4 * workers))))


def chunks(question: Question, total: int, workers: int) -> list[Chunk]:
    """The population cut into chunks, in order (``total``: its tables or records)."""
    size = _size(total, workers)
    if question.corpus is not None:
        return [
            Chunk(question, c.first - 1, c.count, c)
            for c in corpus_chunks(Path(question.corpus), size)
        ]
    return [Chunk(question, start, min(size, total - start)) for start in range(0, total, size)]


# --------------------------------------------------------------------- one side


@dataclass(frozen=True)
class _Side:
    loaded: LoadedSpec
    options: dict[str, str]

    def variants(self, options: dict[str, str] | None = None) -> list[str]:
        return list((self.options if options is None else options).values())


@dataclass(frozen=True)
class _Sides:
    """Both rule sets of a question, loaded, and the causes that tell them apart."""

    a: _Side
    b: _Side
    #: cause → the rule set that differs from A by that cause alone (spec, options)
    causes: dict[str, tuple[LoadedSpec, dict[str, str]]]


@lru_cache(maxsize=4)
def sides(before: RuleSet, after: RuleSet) -> _Sides:
    """Both rule sets loaded (once per process), and their causes of difference."""
    a = _Side(load_rule_set_spec(before.game_dir, before.edition), chosen_options(before))
    b = _Side(load_rule_set_spec(after.game_dir, after.edition), chosen_options(after))
    causes: dict[str, tuple[LoadedSpec, dict[str, str]]] = {}
    if a.loaded is b.loaded:
        for ruling, option in b.options.items():
            if a.options.get(ruling) != option:
                causes[ruling] = (a.loaded, {**a.options, ruling: option})
    else:
        # the later edition with A's options where it still has them: the edition alone
        known = {o.id: r.id for r in b.loaded.spec.rulings for o in r.options}
        carried = resolve_variants(b.loaded.spec, [])  # the defaults (a fresh copy)
        for option in a.options.values():
            if option in known:
                carried[known[option]] = option
        causes["edition"] = (b.loaded, carried)
        # then each ruling of the later edition whose option differs, on top of the edition
        for ruling, option in b.options.items():
            if carried.get(ruling) != option:
                causes[ruling] = (b.loaded, {**carried, ruling: option})
    return _Sides(a, b, causes)


# --------------------------------------------------------------------- one table


def _sources(origin: str) -> SourceMap:
    """Where a table's problems are located: its record (a drawn table has no file)."""
    file, _, line = origin.rpartition(":")
    where = Location(file, int(line), 1) if file and line.isdigit() else Location(origin)
    return SourceMap(values={(): where})


class Table:
    """One table under both rule sets: checked once per format, scored once per rule set."""

    def __init__(
        self,
        s: _Sides,
        sequence: str | None,
        origin: str,
        raw: Any,
        sources: SourceMap | None = None,
        key: tuple[Any, ...] | None = None,
    ) -> None:
        self.sides, self.origin, self.key = s, origin, key
        sources = sources or _sources(origin)
        self.state_a = check_state(s.a.loaded, raw, sources, origin, sequence)
        self.state_b = (
            self.state_a
            if s.b.loaded is s.a.loaded
            else check_state(s.b.loaded, raw, sources, origin, sequence)
        )

    def outcome(self, loaded: LoadedSpec, options: dict[str, str]) -> Outcome:
        state = self.state_a if loaded is self.sides.a.loaded else self.state_b
        return outcome(score(loaded, state, variants=list(options.values()), trace=False))

    def change(self) -> tuple[Change, dict[str, tuple[str, ...]]]:
        """How B differs from A on this table, and what each cause alone changes."""
        s = self.sides
        before = _BEFORE.get(self.key) if self.key is not None else None
        if before is None:
            before = self.outcome(s.a.loaded, s.a.options)
            if self.key is not None:
                if len(_BEFORE) >= _KEPT:
                    del _BEFORE[next(iter(_BEFORE))]
                _BEFORE[self.key] = before
        change = compare(before, self.outcome(s.b.loaded, s.b.options))
        causes: dict[str, tuple[str, ...]] = {}
        if change.kinds:
            if len(s.causes) == 1:  # the one cause accounts for all of it
                causes = {next(iter(s.causes)): change.kinds}
            else:
                for cause, (loaded, options) in s.causes.items():
                    alone = compare(before, self.outcome(loaded, options)).kinds
                    if alone:
                        causes[cause] = alone
        return change, causes


#: the outcomes of drawn tables under a question's first rule set, kept a while: the site
#: asks one question per ruling option, all against the same defaults over the same
#: tables, and scoring those again is half its work (key: rule set A, the drawn table)
_BEFORE: dict[tuple[Any, ...], Outcome] = {}
_KEPT = 4096


def drawn_origin(question: Question, index: int) -> str:
    return f"seed {question.seed}, table {index}"


def drawn_key(question: Question, index: int) -> tuple[Any, ...]:
    """What names a drawn table: the spec and sequence it is drawn for, the seed, its index."""
    q = question
    return (q.after.game_dir, q.after.edition, q.sequence, q.seed, index)


def _population(
    chunk: Chunk,
) -> Iterator[tuple[int, str, Callable[[], Any], SourceMap | None, str | None]]:
    """(index, origin, how to get its state, where its values were written, problem) of each.

    A drawn table is drawn when asked for, inside the table's own budget.
    """
    q = chunk.question
    if q.corpus is None:
        for index in range(chunk.start, chunk.start + chunk.count):
            yield index, drawn_origin(q, index), partial(_drawn, *drawn_key(q, index)), None, None
        return
    records = read_corpus(Path(q.corpus)) if chunk.records is None else read_chunk(chunk.records)
    for index, record in enumerate(records, start=chunk.start):
        if isinstance(record, BadRecord):
            yield index, record.origin, _nothing, None, record.problem
        else:
            yield index, record.origin, partial(_given, record.state), record.sources, None


@lru_cache(maxsize=4096)
def _drawn(
    game_dir: str, edition: str | None, sequence: str | None, seed: int, index: int
) -> dict[str, Any]:
    """Drawn table ``index`` of ``seed``, kept a while.

    The site asks a question per ruling option over the same tables, and drawing
    one costs more than scoring it twice.
    Nothing downstream changes a drawn state (the state check copies what it keeps,
    and the shrinker works on copies).
    """
    sampler = sampler_of(load_rule_set_spec(game_dir, edition), sequence)
    return sampler.draw(seed, index)


def _nothing() -> None:
    return None


def _given(state: dict[str, Any]) -> dict[str, Any]:
    return state


def run_chunk(chunk: Chunk) -> Tally:
    """Score a chunk's tables under both rule sets (the executor's job: runs in a worker)."""
    q = chunk.question
    s = sides(q.before, q.after)
    tally = Tally()
    for index, origin, state_of, sources, problem in _population(chunk):
        if problem is not None:
            tally.bad_record(problem)
            continue
        # each table is bounded alone, as one `rulepress score` of it would be
        with item_budget():
            raw = state_of()
            key = (q.before, *drawn_key(q, index)) if q.corpus is None else None
            try:
                table = Table(s, q.sequence, origin, raw, sources, key)
                change, causes = table.change()
            except RulepressError as exc:  # a state one rule set refuses, or cannot score
                tally.refuse(_first_problem(exc))
                continue
        tally.add(index, origin, raw, change, causes)
    return tally


def _first_problem(exc: RulepressError) -> str:
    if exc.problems:
        more = len(exc.problems) - 1
        first = str(exc.problems[0])
        return f"{first} (+{more})" if more else first
    return exc.summary


def population_size(question: Question) -> int:
    """How many tables (records, for a corpus) the question reads."""
    if question.corpus is None:
        return question.tables
    return count_records(Path(question.corpus))


def run(question: Question, *, workers: int | None = None, scheduler: str | None = None) -> Tally:
    """The question's tally over its whole population (every core, unless ``workers`` says)."""
    # the specs load here first: a spec or variant problem stops the question before any work
    sides(question.before, question.after)
    total = population_size(question)
    spread = 16 if scheduler is not None else (workers or available_cores())
    pieces = chunks(question, total, spread)
    if not pieces:
        return Tally()
    return run_chunks(run_chunk, pieces, merge, workers=workers, scheduler=scheduler)


def changes_kind(question: Question, kind: str) -> Any:
    """``holds(state)``: whether a table shows ``kind`` of change (for the shrinker)."""
    s = sides(question.before, question.after)

    def holds(raw: dict[str, Any]) -> bool:
        with item_budget():  # each candidate is bounded alone, as each table of the question
            try:
                change, _ = Table(s, question.sequence, "shrunk table", raw).change()
            except (StateError, RulepressError):
                return False
        return kind in change.kinds

    return holds
