"""The reference scorer: runs a game's scoring sequence over a table state.

``score(loaded, state)`` is a pure function of the spec and the state. It
walks the sequence the spec names (``scorer.sequence``) step by step, in the
spec's order, doing what each step declares: ``updates`` change the table
state (Antimatter annihilates, Evidence clears guilt), ``score`` adds one
line per player, ``winners`` settles the game. Every line, event and
tie-break step cites the rules of the step that produced it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from rulepress.errors import Problem, StateError, UsageError
from rulepress.scoring import components, winners
from rulepress.scoring.notes import Listing, Names, Nested, NoteRenderer, Template
from rulepress.scoring.result import (
    RESULT_FORMAT,
    Event,
    Line,
    PlayerResult,
    ScoreResult,
    TieBreakStep,
    WinnerResult,
)
from rulepress.spec.expr import ExpressionEvalError, from_record, scope, to_record
from rulepress.spec.loaded import LoadedSpec
from rulepress.spec.model import Spec, Step, Update, Winners
from rulepress.spec.state import compiled, params_record
from rulepress.spec.yamlsrc import DataPath

#: interface sentence for the number of winning places
PLACES_NOTE = "{places} winning place(s) with {players} players."


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


def _walk(steps: list[Step], path: DataPath) -> Iterator[tuple[DataPath, Step]]:
    for i, step in enumerate(steps):
        yield (*path, i), step
        yield from _walk(step.steps, (*path, i, "steps"))


def _set_path(record: SimpleNamespace, dotted: str, value: Any) -> Any:
    *parents, last = dotted.split(".")
    target = record
    for name in parents:
        target = getattr(target, name)
    before = getattr(target, last)
    setattr(target, last, value)
    return before


def _get_path(record: Any, dotted: str) -> Any:
    for name in dotted.split("."):
        record = getattr(record, name)
    return record


@dataclass
class _Run:
    loaded: LoadedSpec
    variants: dict[str, str]
    renderer: NoteRenderer
    players: list[SimpleNamespace]
    table: SimpleNamespace
    scores: dict[str, dict[str, int]] = field(default_factory=dict)
    lines: dict[str, list[Line]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    winner_result: WinnerResult | None = None
    rule: Winners | None = None
    eligible: set[str] | None = None
    ranks: dict[str, int] = field(default_factory=dict)
    #: the player being evaluated, named in error messages
    current: str = "the table"

    def __post_init__(self) -> None:
        spec = self.loaded.spec
        self.base: dict[str, Any] = {
            "param": params_record(spec.parameters),
            "ruling": SimpleNamespace(**{k.replace("-", "_"): v for k, v in self.variants.items()}),
            "n_players": len(self.players),
            "table": self.table,
            "players": self.players,
        }
        for p in self.players:
            self.scores[p.id] = {}
            self.lines[p.id] = []

    def namespace(self, player: SimpleNamespace) -> dict[str, Any]:
        self.current = f"player {player.id}"
        scores = self.scores[player.id]
        ns = scope(self.base, vars(player), scores)
        ns["total"] = sum(scores.values())
        return ns

    def update(self, step: Step, upd: Update) -> None:
        for p in self.players:
            ns = self.namespace(p)
            if not compiled(upd.when).evaluate(ns):
                continue
            after = compiled(upd.value).evaluate(ns)
            before = _get_path(p, upd.set)
            if before == after:
                continue
            _set_path(p, upd.set, after)
            args = {n: compiled(src).evaluate(ns) for n, src in upd.args.items()}
            args.update(player=p.id, before=before, after=after)
            self.events.append(
                Event(
                    step.number,
                    step.title,
                    list(step.rules),
                    p.id,
                    upd.set,
                    before,
                    after,
                    self.renderer.note(upd.note, args),
                )
            )

    def score_step(self, step: Step) -> None:
        assert step.score is not None
        for p in self.players:
            ns = self.namespace(p)
            for name, src in step.score.let.items():
                ns[name] = compiled(src).evaluate(ns)
            points, raw = components.evaluate(step.score.component, ns)
            self.scores[p.id][step.score.id] = points
            notes = [self.renderer.note(n.template, _nested(n.args)) for n in raw]
            self.lines[p.id].append(
                Line(step.score.id, step.number, step.score.title, list(step.rules), points, notes)
            )

    def places(self, rule: Winners) -> int:
        if isinstance(rule.count, int):
            return rule.count
        key = compiled(rule.count.key).evaluate(self.base)
        table = next(t for t in self.loaded.spec.tables if t.id == rule.count.table)
        for row in table.rows:
            if row.min <= key and (row.max is None or key <= row.max):
                return row.value
        raise ExpressionEvalError(f"table {table.id!r} has no row for {key}")

    def decide(self, step: Step) -> None:
        rule = step.winners
        assert rule is not None
        places = self.places(rule)
        by_id = {p.id: p for p in self.players}
        outcome = winners.decide(
            rule, places, [p.id for p in self.players], lambda pid: self.namespace(by_id[pid])
        )
        self.ranks = outcome.ranks
        self.eligible = set(outcome.eligible)
        trace = [
            TieBreakStep(
                row.criterion,
                row.label,
                row.values,
                row.winners_so_far,
                row.still_tied,
                self.renderer.note(
                    row.template,
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


def _nested(args: Mapping[str, Any]) -> dict[str, Any]:
    return {
        k: Nested(v.template, _nested(v.args)) if isinstance(v, components.RawNote) else v
        for k, v in args.items()
    }


def score(
    loaded: LoadedSpec,
    state: Mapping[str, Any],
    *,
    variants: list[str] | None = None,
    renderer: NoteRenderer | None = None,
) -> ScoreResult:
    """Score a validated table state (see :func:`rulepress.scoring.state.load_state`)."""
    spec = loaded.spec
    chosen = resolve_variants(spec, variants or [])
    run = _Run(
        loaded,
        chosen,
        renderer or NoteRenderer.english(spec),
        # to_record builds new records and lists, so the caller's state is never mutated
        to_record(list(state["players"])),
        to_record(dict(state.get("table", {}))),
    )
    index = next(i for i, s in enumerate(spec.sequences) if s.id == spec.scorer.sequence)
    step_path: DataPath = ("sequences", index)
    try:
        for path, step in _walk(spec.sequences[index].steps, ("sequences", index, "steps")):
            step_path = path
            for upd in step.updates:
                run.update(step, upd)
            if step.score is not None:
                run.score_step(step)
            if step.winners is not None:
                run.decide(step)
    except ExpressionEvalError as exc:
        # The spec check proves that every name exists; what remains is a
        # value the state format let through but an expression cannot use.
        where = f"step {step.number} ({step.title})"
        raise StateError(
            "the table state cannot be scored",
            [Problem(loaded.locate(step_path), where, f"{run.current}: {exc}")],
        ) from None
    return _result(run, chosen)


def _result(run: _Run, chosen: dict[str, str]) -> ScoreResult:
    spec = run.loaded.spec
    eligible, ranks, rule = run.eligible, run.ranks, run.rule
    players = []
    for p in run.players:
        ns = run.namespace(p)
        is_eligible = p.id in eligible if eligible is not None else True
        reason = None
        if not is_eligible and rule is not None:
            reason = run.renderer.note(rule.eligible.fails, {})
        shown = {name: from_record(_get_path(p, name)) for name in spec.scorer.show}
        players.append(
            PlayerResult(
                p.id,
                run.lines[p.id],
                ns["total"],
                is_eligible,
                reason,
                ranks.get(p.id),
                shown,
            )
        )
    return ScoreResult(
        RESULT_FORMAT,
        spec.game.id,
        spec.game.version,
        run.renderer.language,
        chosen,
        players,
        run.events,
        run.winner_result,
    )
