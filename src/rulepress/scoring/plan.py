"""A sequence's steps compiled for the scorer, once per sequence.

The engine runs every step for every player of every table state. What a
step does is fixed by the spec, so reading it from the (pydantic) step
models, looking its expressions up and choosing its component's operation
happen here, once: the engine then only calls the evaluators and closures
a plan holds. Nothing here evaluates anything.

The plans are NamedTuples, read by attribute: a frozen dataclass's generated
methods were compiled each time a score imported this module.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, NamedTuple

from rulepress.expressions import Evaluate, Expression
from rulepress.expressions.expression import BASE_NAMES
from rulepress.model.spec_model import Step, Update
from rulepress.scoring import components, winners
from rulepress.states.validation import compiled
from rulepress.yamlsrc import DataPath


class UpdatePlan(NamedTuple):
    """One ``updates`` entry: its expressions' evaluators and the field it sets."""

    when: Evaluate
    value: Evaluate
    args: tuple[tuple[str, Evaluate], ...]
    #: the dotted field, as the event reports it, and split into its names
    set: str
    path: tuple[str, ...]
    note: str
    #: ``when`` and ``value`` with the fast evaluators (see Expression.fast): the
    #: engine evaluates a player again with the checked ones when these fail
    fast_when: Evaluate
    fast_value: Evaluate
    #: the first part of ``when`` (``a`` of ``a and …``, or all of it) when it reads only
    #: TABLE_NAMES, fast: false, it is false for every player (see _gate); else None
    gate: Evaluate | None = None


class ScorePlan(NamedTuple):
    """A ``score`` step: its ``let`` values, its component, what its line says."""

    id: str
    number: str
    title: str
    #: the rules its lines cite: one list, shared by the step's lines (results are read-only)
    rules: list[str]
    #: the let values that read only what every player's namespace shares (the table,
    #: the players' list, parameters, rulings): evaluated once per step, not per player …
    shared_lets: tuple[tuple[str, Evaluate], ...]
    #: … the other let values and the component, with the fast evaluators (see
    #: Expression.fast) …
    lets: tuple[tuple[str, Evaluate], ...]
    run: components.Run
    #: … and with the checked ones (every let, in order), run for a player when the fast
    #: ones fail
    checked_lets: tuple[tuple[str, Evaluate], ...]
    checked_run: components.Run
    #: the names the step writes into a player's namespace (let values, a
    #: component's item), put back by the engine once the player is done
    hidden: tuple[str, ...]
    hidden_set: frozenset[str]
    #: … of which the let values, there once the player's run succeeded (deleted), and
    #: the rest, which a component may not have written (a lines item over no items)
    written_lets: tuple[str, ...] = ()
    maybe_written: tuple[str, ...] = ()


class WinnersPlan(NamedTuple):
    """A ``winners`` step's expressions: fast, and checked for a rerun (see winners.decide)."""

    fast: winners.Evaluators
    checked: winners.Evaluators
    #: the key of the row of the winners table, when the count comes from one
    count_key: Evaluate | None
    #: what the table chooses of the rule (see engine._Run.choices), compiled as the
    #: plan's other expressions, so with the rulings folded: whether each criterion is
    #: used, and final_tie and places_among when an expression gives them (else None)
    used: tuple[Evaluate, ...]
    final_tie: Evaluate | None
    places_among: Evaluate | None
    #: whether what the table chooses (the count's key, and ``used``, ``final_tie`` and
    #: ``places_among``) reads only names fixed by the spec, the rulings, the number of
    #: players and ``places``: then every table of that size and choice of rulings
    #: chooses alike, and the engine works it out once (see engine._Run.places)
    by_size: bool
    #: what the engine worked out, by table: (places, players, ruling record) → the
    #: ruling record (kept: the key holds its id), the places and the choices; bounded.
    #: Each plan is given its own (empty) dict.
    known: dict[tuple[Any, ...], tuple[Any, ...]]


#: the names of the table a winners rule's choices may read and still be the same for every
#: table of a size and a choice of rulings (``places`` is the count of winning places)
BY_SIZE = frozenset({"param", "ruling", "sets", "n_players", "places"})


class StepPlan(NamedTuple):
    """One step in sequence order, with its data path (errors are located by it)."""

    path: DataPath
    step: Step
    updates: tuple[UpdatePlan, ...]
    score: ScorePlan | None
    winners: WinnersPlan | None


#: the names that hold the same value in every player's namespace while a score step
#: runs (score steps change no state; a tally's record is left out, as it is added
#: to the namespaces by name)
SHARED_NAMES = BASE_NAMES

#: an expression's source → the compiled expression a plan uses (see compile_step)
Parse = Callable[[str], Expression]


#: the names that hold the same value in every player's namespace while a step's updates
#: run: an update changes a field of a player (so ``players``, which lists the records
#: updates replace, is not one)
TABLE_NAMES = frozenset({"param", "ruling", "sets", "n_players", "table"})


def _gate(source: str, expression: Parse) -> Evaluate | None:
    """The first part of an update's ``when`` if it reads only :data:`TABLE_NAMES`.

    ``table.antimatter.armed and …`` is false for every player of a table
    whose Antimatter is not armed: evaluated once, not once per player. The
    part is compiled from its own text in the checked source, parsed as
    :func:`~rulepress.expressions.syntax.parse_tree` parses it (by
    :func:`ast.parse`, never run), with the plan's other expressions.
    """
    wrapped = "(" + source.strip() + "\n)"  # as parse_tree wraps it
    body = ast.parse(wrapped, mode="eval").body
    first = (
        body.values[0] if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And) else body
    )
    segment = ast.get_source_segment(wrapped, first)
    if segment is None:
        return None
    part = expression(segment)
    return part.fast if part.names <= TABLE_NAMES else None


def _update(upd: Update, expression: Parse) -> UpdatePlan:
    return UpdatePlan(
        expression(upd.when).evaluate,
        expression(upd.value).evaluate,
        tuple((name, expression(src).evaluate) for name, src in upd.args.items()),
        upd.set,
        tuple(upd.set.split(".")),
        upd.note,
        expression(upd.when).fast,
        expression(upd.value).fast,
        _gate(upd.when, expression),
    )


def compile_step(
    path: DataPath,
    step: Step,
    tables: components.Tables,
    expression: Parse = compiled,
    *,
    trace: bool = True,
) -> StepPlan:
    """The plan of one step (``tables``: the spec's range tables, for the sets operation).

    ``expression(source)`` compiles each expression: :func:`compiled`, or a
    compilation with the run's constant records folded in (see the engine).
    Without ``trace``, its component makes no notes (see
    :func:`components.compile_component`).
    """

    def fast(source: str) -> Evaluate:
        return expression(source).fast

    def checked(source: str) -> Evaluate:
        return expression(source).evaluate

    score = None
    if step.score is not None:
        sc = step.score
        hidden = tuple(dict.fromkeys([*sc.let, *components.writes(sc.component)]))
        # A let that reads only names every player's namespace shares gives every
        # player the same value: what Institutions hold after Provide Data reads every
        # player's Data, and evaluating it once per player made scoring a nine-player
        # table nine times that work.
        shared: list[tuple[str, Evaluate]] = []
        own: list[tuple[str, Evaluate]] = []
        table_wide = set(SHARED_NAMES)
        for name, src in sc.let.items():
            if expression(src).names <= table_wide:
                shared.append((name, fast(src)))
                table_wide.add(name)
            else:
                own.append((name, fast(src)))
        score = ScorePlan(
            sc.id,
            step.number,
            sc.title,
            list(step.rules),
            tuple(shared),
            tuple(own),
            components.compile_component(sc.component, tables, fast, trace=trace),
            tuple((name, checked(src)) for name, src in sc.let.items()),
            components.compile_component(sc.component, tables, checked, trace=trace),
            hidden,
            frozenset(hidden),
            tuple(sc.let),
            tuple(name for name in hidden if name not in sc.let),
        )
    decide = None
    if step.winners is not None:
        rule = step.winners
        chosen = [c.when for c in rule.criteria]
        chosen += [] if rule.final_tie in winners.FINAL_TIES else [rule.final_tie]
        chosen += [] if rule.places_among in winners.PLACES_AMONG else [rule.places_among]
        chosen += [] if isinstance(rule.count, int) else [rule.count.key]
        decide = WinnersPlan(
            winners.evaluators(rule, fast=True),
            winners.evaluators(rule, fast=False),
            None if isinstance(rule.count, int) else compiled(rule.count.key).evaluate,
            tuple(checked(c.when) for c in rule.criteria),
            None if rule.final_tie in winners.FINAL_TIES else checked(rule.final_tie),
            None if rule.places_among in winners.PLACES_AMONG else checked(rule.places_among),
            all(compiled(src).names <= BY_SIZE for src in chosen),
            {},
        )
    updates = tuple(_update(u, expression) for u in step.updates)
    return StepPlan(path, step, updates, score, decide)
