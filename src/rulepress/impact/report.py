"""The report of a question: the tally as data, and the smallest table of each change.

The report is plain data (JSON with ``--format json``, its schema from the
models) and holds ids and numbers only; the writers put the words in the
reader's language (:mod:`rulepress.render.impact_tree`). The smallest
tables are found here, after the chunks are merged: the first table of each
kind of change is shrunk (:mod:`rulepress.population.shrink`) and written
out as a worked example.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from rulepress.impact.example import example_entry, example_yaml
from rulepress.impact.outcome import KINDS, compare, outcome
from rulepress.impact.question import Question, Table, changes_kind, sides
from rulepress.impact.rulesets import RuleSet
from rulepress.impact.tally import Tally
from rulepress.invisible import json_text
from rulepress.model.spec_model import all_steps
from rulepress.population.shrink import shrink
from rulepress.scoring import score
from rulepress.scoring.engine import find_sequence, resolve_variants

#: bumped when a field is removed or changes meaning
REPORT_FORMAT = 1


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Side(_Data):
    """One rule set: its edition (None: as it is now) and the options that are not defaults."""

    edition: str | None
    options: dict[str, str]


class Population(_Data):
    kind: str  # "drawn" or "recorded"
    seed: int | None = None
    corpus: str | None = None
    sequence: str


class StepImpact(_Data):
    """A step: tables of each kind of change where it differs, and its players' differences."""

    step: str
    changed: dict[str, int]
    #: [difference, how many player results], nonzero differences, in increasing order
    diffs: list[tuple[int, int]]


class LineImpact(_Data):
    """A part of a step's score line (a faction's prestige, sets of one size)."""

    step: str
    part: str
    changed: dict[str, int]


class CauseImpact(_Data):
    """A cause (a ruling, or ``edition``): tables where it alone changes each kind."""

    cause: str
    before: str | None
    after: str | None
    changed: dict[str, int]


class Smallest(_Data):
    """The smallest table found that shows one kind of change, scored under both rule sets."""

    kind: str
    origin: str
    index: int
    state: dict[str, Any]
    totals_before: dict[str, int]
    totals_after: dict[str, int]
    winners_before: list[str] | None
    winners_after: list[str] | None
    #: the table as a worked example (a list item of ``examples:``), scored under the later rule set
    example: str


class ImpactReport(_Data):
    format: int = REPORT_FORMAT
    game: str
    population: Population
    before: Side
    after: Side
    tables: int
    players: int
    refused: int
    refusals: list[str]
    bad_records: int
    bad: list[str]
    changed: dict[str, int]
    #: [difference, how many player results], nonzero differences of totals (B minus A)
    total_diffs: list[tuple[int, int]]
    steps: list[StepImpact]
    lines: list[LineImpact]
    causes: list[CauseImpact]
    smallest: list[Smallest]

    def to_json(self) -> str:
        return json_text(self.model_dump(mode="json"), indent=2, sort_keys=False)

    def share(self, kind: str) -> float:
        """The share of scored tables that show ``kind`` of change (0 for no tables)."""
        return self.changed.get(kind, 0) / self.tables if self.tables else 0.0


def _side(rules: RuleSet, options: dict[str, str], defaults: dict[str, str]) -> Side:
    return Side(
        edition=rules.edition,
        options={r: o for r, o in options.items() if defaults.get(r) != o},
    )


def _kinds(counts: dict[str, int]) -> dict[str, int]:
    return {k: counts.get(k, 0) for k in KINDS}


def build_report(question: Question, tally: Tally, *, shrink_budget: int = 2000) -> ImpactReport:
    """The report of ``question`` from its merged ``tally``, smallest tables shrunk."""
    s = sides(question.before, question.after)
    spec_b, spec_a = s.b.loaded.spec, s.a.loaded.spec
    defaults_b, defaults_a = resolve_variants(spec_b, []), resolve_variants(spec_a, [])
    _, seq = find_sequence(spec_b, question.sequence)
    order = {step: i for i, step in enumerate(step.number for step in all_steps(seq.steps))}
    steps = sorted(
        tally.steps.keys() | tally.step_diffs.keys(), key=lambda st: (order.get(st, len(order)), st)
    )
    population = Population(
        kind="recorded" if question.corpus is not None else "drawn",
        seed=None if question.corpus is not None else question.seed,
        corpus=question.corpus,
        sequence=seq.id,
    )
    return ImpactReport(
        game=spec_b.game.id,
        population=population,
        before=_side(question.before, s.a.options, defaults_a),
        after=_side(question.after, s.b.options, defaults_b),
        tables=tally.tables,
        players=tally.players,
        refused=tally.refused,
        refusals=tally.refusals,
        bad_records=tally.bad_records,
        bad=tally.bad,
        changed=_kinds(tally.changed),
        total_diffs=sorted(tally.total_diffs.items()),
        steps=[
            StepImpact(
                step=st,
                changed=_kinds(tally.steps.get(st, {})),
                diffs=sorted(tally.step_diffs.get(st, {}).items()),
            )
            for st in steps
        ],
        lines=[
            LineImpact(step=st, part=part, changed=_kinds(tally.lines[(st, part)]))
            for st, part in sorted(
                tally.lines, key=lambda key: (order.get(key[0], len(order)), key)
            )
        ],
        causes=[
            CauseImpact(
                cause=cause,
                before=None if cause == "edition" else s.a.options.get(cause),
                after=None if cause == "edition" else s.b.options.get(cause),
                changed=_kinds(tally.causes.get(cause, {})),
            )
            for cause in s.causes
        ],
        smallest=[
            _smallest(question, kind, tally, shrink_budget) for kind in KINDS if kind in tally.first
        ],
    )


def _smallest(question: Question, kind: str, tally: Tally, budget: int) -> Smallest:
    s = sides(question.before, question.after)
    found = tally.first[kind]
    state = shrink(
        s.b.loaded, question.sequence, found.state, changes_kind(question, kind), budget=budget
    )
    table = Table(s, question.sequence, found.origin, state)
    before = score(s.a.loaded, table.state_a, variants=s.a.variants())
    after = score(s.b.loaded, table.state_b, variants=s.b.variants())
    change = compare(outcome(before), outcome(after))
    defaults = resolve_variants(s.b.loaded.spec, [])
    variants = [o for r, o in s.b.options.items() if defaults.get(r) != o]
    entry = example_entry(
        s.b.loaded,
        f"impact-{kind}-change",
        state,
        after,
        variants,
        sorted(change.step_diffs),
        _SUMMARY[kind],
    )
    return Smallest(
        kind=kind,
        origin=found.origin,
        index=found.index,
        state=state,
        totals_before={p.id: _total(p) for p in before.players},
        totals_after={p.id: _total(p) for p in after.players},
        winners_before=list(before.winners.winners) if before.winners else None,
        winners_after=list(after.winners.winners) if after.winners else None,
        example=example_yaml(entry),
    )


def _total(p: Any) -> int:
    return int(p.total if p.total is not None else sum(line.points for line in p.lines))


#: the first draft of a found example's title (English, as the spec's examples are written)
_SUMMARY = {
    "winner": "the ruling changes who wins",
    "place": "the ruling changes the players' places",
    "score": "the ruling changes a score",
}
