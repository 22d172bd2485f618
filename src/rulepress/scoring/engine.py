"""The reference scorer: runs one of a game's sequences over a table state.

``score(loaded, state)`` is a pure function of the spec and the state. It
walks the sequence step by step, in the spec's order, doing what each step
declares: ``updates`` change the table state (Antimatter annihilates,
Evidence clears guilt), ``tally`` settles a vote, ``score`` adds one line
per player, ``winners`` settles the game. Every line, event, vote and
tie-break step cites the rules of the step that produced it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rulepress.errors import Problem, StateError, UsageError
from rulepress.scoring import components, winners
from rulepress.scoring.notes import Listing, Names, NoteRenderer, Template, snapshot
from rulepress.scoring.result import (
    RESULT_FORMAT,
    Event,
    Line,
    PlayerResult,
    ScoreResult,
    TallyResult,
    WinnerResult,
)
from rulepress.scoring.tally import run_tally
from rulepress.spec.expr import ExpressionEvalError
from rulepress.spec.loaded import LoadedSpec
from rulepress.spec.model import Sequence, Spec, Step, Update, Winners
from rulepress.spec.records import Record, fields_record, plain, record
from rulepress.spec.state import compiled, params_record
from rulepress.spec.yamlsrc import DataPath
from rulepress.uitext import ui_plural

#: interface sentence for the number of winning places
PLACES_NOTE = ui_plural(
    "winners.places",
    "{places} winning place with {players} players.",
    "{places} winning places with {players} players.",
    "places",
)


def resolve_variants(spec: Spec, chosen: list[str]) -> dict[str, str]:
    """Ruling id → chosen option id; unknown or conflicting variants are usage errors."""
    choice = {r.id: r.default for r in spec.rulings}
    owner = {o.id: r.id for r in spec.rulings for o in r.options}
    problems: list[str] = []
    picked: dict[str, str] = {}
    for name in chosen:
        ruling = owner.get(name)
        if ruling is None:
            known = ", ".join(sorted(owner)) or "none"
            problems.append(f"unknown variant {name!r} (known: {known})")
        elif ruling in picked and picked[ruling] != name:
            problems.append(f"variants {picked[ruling]!r} and {name!r} answer the same ruling")
        else:
            picked[ruling] = name
            choice[ruling] = name
    if problems:
        raise UsageError("; ".join(problems))
    return choice


def find_sequence(spec: Spec, sequence_id: str | None) -> tuple[int, Sequence]:
    """The sequence to run: the one named, or the scorer's default."""
    wanted = sequence_id or spec.scorer.sequence
    for index, seq in enumerate(spec.sequences):
        if seq.id == wanted:
            return index, seq
    known = ", ".join(s.id for s in spec.sequences)
    raise UsageError(f"{spec.game.id} has no sequence {wanted!r} (sequences: {known})")


def _walk(steps: list[Step], path: DataPath) -> Iterator[tuple[DataPath, Step]]:
    for i, step in enumerate(steps):
        yield (*path, i), step
        yield from _walk(step.steps, (*path, i, "steps"))


#: what scoring reads from a spec on every run, worked out once per spec:
#: spec → (the spec, its range tables, the ``param`` record, its vocabulary).
#: The spec is kept in the value so that its id cannot be reused while cached.
_SPEC_DATA: dict[int, tuple[Spec, dict[str, dict[int, int]], Record, dict[str, str]]] = {}


def _spec_data(spec: Spec) -> tuple[dict[str, dict[int, int]], Record, dict[str, str]]:
    cached = _SPEC_DATA.get(id(spec))
    if cached is None or cached[0] is not spec:
        tables = {t.id: components.table_values(t, spec.parameters) for t in spec.tables}
        # expressions cannot change a record, and the scorer never updates param
        cached = _SPEC_DATA[id(spec)] = (
            spec,
            tables,
            params_record(spec.parameters),
            dict(spec.vocabulary),
        )
    return cached[1], cached[2], cached[3]


_ENGLISH: dict[int, tuple[Spec, NoteRenderer]] = {}


def english(spec: Spec) -> NoteRenderer:
    """The spec's default (English) renderer, made once: it caches the templates it splits."""
    cached = _ENGLISH.get(id(spec))
    if cached is None or cached[0] is not spec:
        cached = _ENGLISH[id(spec)] = (spec, NoteRenderer.english(spec))
    return cached[1]


_STEPS: dict[tuple[int, int], tuple[Sequence, list[tuple[DataPath, Step]]]] = {}


def _steps(seq: Sequence, index: int) -> list[tuple[DataPath, Step]]:
    """Every step of a sequence in order with its data path (worked out once per sequence)."""
    cached = _STEPS.get((id(seq), index))
    if cached is None or cached[0] is not seq:
        walked = list(_walk(seq.steps, ("sequences", index, "steps")))
        cached = _STEPS[(id(seq), index)] = (seq, walked)
    return cached[1]


def _set_path(rec: Record, dotted: str, value: Any) -> Any:
    """Set field ``dotted`` (``a.b``) of a record; the spec check proved the path exists."""
    *parents, last = dotted.split(".")
    target = rec
    for name in parents:
        target = target[name]
    before = target[last]
    target[last] = value
    return before


def _get_path(rec: Record, dotted: str) -> Any:
    value: Any = rec
    for name in dotted.split("."):
        value = value[name]
    return value


@dataclass
class _Run:
    loaded: LoadedSpec
    sequence: Sequence
    variants: dict[str, str]
    renderer: NoteRenderer
    players: list[Record]
    table: Record
    scores: dict[str, dict[str, int]] = field(default_factory=dict)
    #: per player, the decisions of earlier steps, read as ``chosen.<score id>``
    chosen: dict[str, Record] = field(default_factory=dict)
    lines: dict[str, list[Line]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    tallies: list[TallyResult] = field(default_factory=list)
    winner_result: WinnerResult | None = None
    rule: Winners | None = None
    eligible: set[str] | None = None
    ranks: dict[str, int] = field(default_factory=dict)
    #: the player being evaluated, named in error messages
    current: str = "the table"
    #: per player, the table's names and the player's fields merged (until either changes)
    flat: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        spec = self.loaded.spec
        by_id = {p["id"]: p for p in self.players}
        tables, params, vocabulary = _spec_data(spec)
        self.tables = tables

        def player(pid: str) -> Record:
            if pid not in by_id:
                raise ValueError(f"no player {pid!r}")
            return by_id[pid]

        def lookup(table_id: str, key: int) -> int:
            if key not in tables[table_id]:
                raise ValueError(f"table {table_id!r} has no row for {key}")
            return tables[table_id][key]

        def label(key: str) -> str:
            return vocabulary.get(key, key)

        #: the context functions expressions may call (apart from the data names)
        self.functions: dict[str, Callable[..., Any]] = {
            "label": label,
            "player": player,
            "lookup": lookup,
        }
        self.base: dict[str, Any] = {
            "param": params,
            "ruling": fields_record(self.variants),
            "n_players": len(self.players),
            "table": self.table,
            "players": self.players,
        }
        for p in self.players:
            self.scores[p["id"]] = {}
            self.chosen[p["id"]] = Record()
            self.lines[p["id"]] = []

    def namespace(self, player: Record) -> dict[str, Any]:
        """A player's names: the table's, then the player's fields, scores and decisions.

        One flat dict, built by C-level merges: no record is copied.
        """
        pid = player["id"]
        self.current = f"player {pid}"
        scores = self.scores[pid]
        flat = self.flat.get(pid)
        if flat is None:
            flat = self.flat[pid] = {**self.base, **player}
        ns = flat.copy()
        ns.update(scores)
        ns["chosen"] = self.chosen[pid]
        ns["total"] = sum(scores.values())
        return ns

    def update(self, step: Step, upd: Update) -> None:
        for p in self.players:
            ns = self.namespace(p)
            fns = self.functions
            if not compiled(upd.when).evaluate(ns, fns):
                continue
            after = compiled(upd.value).evaluate(ns, fns)
            before = _get_path(p, upd.set)
            if before == after:
                continue
            _set_path(p, upd.set, after)
            self.flat.pop(p["id"], None)
            args = {n: compiled(src).evaluate(ns, fns) for n, src in upd.args.items()}
            args.update(player=p["id"], before=before, after=after)
            note = self.renderer.note(upd.note, snapshot(args))
            self.events.append(
                Event(
                    step.number, step.title, list(step.rules), p["id"], upd.set, before, after, note
                )
            )

    def tally(self, step: Step) -> None:
        assert step.tally is not None
        self.current = "the table"
        outcome = run_tally(step.tally, dict(self.base), self.functions)
        self.base[step.tally.id] = outcome.record
        self.flat.clear()
        ballots = [
            replace(b, note=self.renderer.note(b.note.template, b.note.args))
            for b in outcome.ballots
        ]
        self.tallies.append(
            TallyResult(
                step.tally.id,
                step.number,
                step.tally.title,
                list(step.rules),
                outcome.totals,
                outcome.ranking,
                outcome.winners,
                ballots,
                [self.renderer.note(t, a) for t, a in outcome.tie_notes],
                outcome.flows,
            )
        )

    def score_step(self, step: Step) -> None:
        score = step.score
        assert score is not None
        tables = self.tables
        fns = self.functions
        notes_of = self.renderer.notes
        # read from the (pydantic) step once, not once per player
        lets = [(name, compiled(src).evaluate) for name, src in score.let.items()]
        component, sid, title, number = score.component, score.id, score.title, step.number
        for p in self.players:
            ns = self.namespace(p)
            for name, evaluate in lets:
                ns[name] = evaluate(ns, fns)
            outcome = components.evaluate(component, ns, tables, fns)
            pid = p["id"]
            self.scores[pid][sid] = outcome.points
            if outcome.export:
                self.chosen[pid][sid] = record(outcome.export)
            notes = notes_of(outcome.notes)
            self.lines[pid].append(
                Line(sid, number, title, list(step.rules), outcome.points, notes, outcome.breakdown)
            )

    def places(self, rule: Winners) -> int:
        if isinstance(rule.count, int):
            return rule.count
        key = compiled(rule.count.key).evaluate(self.base, self.functions)
        try:
            return int(self.functions["lookup"](rule.count.table, key))
        except ValueError as exc:  # no row for that many players
            raise ExpressionEvalError(str(exc)) from None

    def decide(self, step: Step) -> None:
        rule = step.winners
        assert rule is not None
        places = self.places(rule)
        by_id = {p["id"]: p for p in self.players}
        outcome = winners.decide(
            rule,
            places,
            list(by_id),
            lambda pid: self.namespace(by_id[pid]),
            self.functions,
        )
        self.ranks = outcome.ranks
        self.eligible = set(outcome.eligible)
        trace = [
            replace(
                row,
                note=self.renderer.note(
                    row.note.template,
                    {
                        "criterion": Template(row.label),
                        "values": Listing(row.values),
                        "winners": Names(row.winners_so_far),
                        "tied": Names(row.still_tied),
                    },
                ),
            )
            for row in outcome.trace
        ]
        self.winner_result = WinnerResult(
            step.number,
            list(step.rules),
            places,
            self.renderer.note(PLACES_NOTE, {"places": places, "players": len(self.players)}),
            outcome.eligible,
            outcome.winners,
            outcome.decided_by,
            outcome.shared,
            trace,
            self.renderer.note(
                outcome.conclusion,
                {
                    "winners": Names(outcome.winners),
                    "tied": Names(trace[-1].still_tied if trace else []),
                    "count": len(outcome.eligible),
                    "places": places,
                },
            ),
        )
        self.rule = rule


def score(
    loaded: LoadedSpec,
    state: Mapping[str, Any],
    *,
    sequence: str | None = None,
    variants: list[str] | None = None,
    renderer: NoteRenderer | None = None,
) -> ScoreResult:
    """Run a sequence over a validated table state (see :mod:`rulepress.scoring.state`)."""
    spec = loaded.spec
    index, seq = find_sequence(spec, sequence or state.get("sequence"))
    run = _Run(
        loaded,
        seq,
        resolve_variants(spec, variants or []),
        renderer or english(spec),
        # record() builds new records and lists, so the caller's state is never mutated
        record(list(state["players"])),
        record(dict(state.get("table", {}))),
    )
    step_path: DataPath = ("sequences", index)
    step: Step | None = None
    try:
        for path, step in _steps(seq, index):
            step_path = path
            for upd in step.updates:
                run.update(step, upd)
            if step.tally is not None:
                run.tally(step)
            if step.score is not None:
                run.score_step(step)
            if step.winners is not None:
                run.decide(step)
    except ExpressionEvalError as exc:
        # The spec check proves that every name exists; what remains is a
        # value the state format let through but an expression cannot use.
        where = f"step {step.number} ({step.title})" if step else seq.id
        raise StateError(
            "the table state cannot be scored",
            [Problem(loaded.locate(step_path), where, f"{run.current}: {exc}")],
        ) from None
    return _result(run)


def _result(run: _Run) -> ScoreResult:
    seq = run.sequence
    players = []
    for p in run.players:
        pid = p["id"]
        is_eligible = pid in run.eligible if run.eligible is not None else True
        reason = None
        if not is_eligible and run.rule is not None:
            reason = run.renderer.note(run.rule.eligible.fails, {})
        shown = {name: plain(_get_path(p, name)) for name in seq.show}  # plain data for JSON
        total = sum(run.scores[pid].values()) if seq.total_label is not None else None
        players.append(
            PlayerResult(pid, run.lines[pid], total, is_eligible, reason, run.ranks.get(pid), shown)
        )
    spec = run.loaded.spec
    return ScoreResult(
        RESULT_FORMAT,
        spec.game.id,
        spec.game.version,
        seq.id,
        run.renderer.language,
        run.variants,
        players,
        run.events,
        run.tallies,
        run.winner_result,
    )
