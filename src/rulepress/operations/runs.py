"""What the built-in ``sum``, ``first`` and ``lines`` operations run for each player.

The closures their ``compile`` returns, apart from the component models that
describe them: a module without pydantic models, which the compiled build
(rulepress.compiled, mypyc) can compile, where a model class cannot be. They
take what the models compiled (evaluators, texts), never a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulepress.expressions.expression import Evaluate
from rulepress.operations.parts import CompiledPart, part_args
from rulepress.scoring.components import (
    NO_NOTES,
    Functions,
    MakeNote,
    Result,
    Run,
    as_int,
    as_list,
)
from rulepress.scoring.notes import Nested
from rulepress.scoring.result import Note


def sum_run(parts: list[CompiledPart], trace: bool) -> Run:
    """``sum``: every part whose ``when`` holds is added."""

    def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        total = 0
        notes: list[Note] = [] if trace else NO_NOTES
        for when, value, source, note, args in parts:
            if not when(ns, fns):
                continue
            points = value(ns, fns)
            if type(points) is not int:
                points = as_int(points, source)
            total += points
            if trace:  # else the note's arguments are read by nobody
                notes.append(make(note, part_args(args, ns, fns, points)))
        return total, notes, {}, None

    return run


def first_run(parts: list[CompiledPart], trace: bool) -> Run:
    """``first``: the first part whose ``when`` holds scores."""

    def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        for when, value, source, note, args in parts:
            if when(ns, fns):
                points = value(ns, fns)
                if type(points) is not int:
                    points = as_int(points, source)
                if not trace:  # the note's arguments are read by nobody
                    return points, NO_NOTES, {}, None
                return points, [make(note, part_args(args, ns, fns, points))], {}, None
        return 0, [] if trace else NO_NOTES, {}, None

    return run


@dataclass(frozen=True)
class LinesParts:
    """A ``lines`` component compiled: its evaluators and texts (see LinesComponent)."""

    items_of: Evaluate
    items_source: str
    strict_of: Evaluate
    label_of: Evaluate
    continues: Evaluate
    value_of: Evaluate
    conditions: list[tuple[Evaluate, str]]
    restrictions: list[tuple[Evaluate, str]]
    item_name: str
    source: str
    voided: str
    unnamed: str
    #: the interface sentences of a line scored and a line failed (lines.py)
    scored: str
    failed: str


def _first_failed(
    tests: list[tuple[Evaluate, str]], scope: dict[str, Any], fns: Functions
) -> str | None:
    for test, fails in tests:
        if not test(scope, fns):
            return fails
    return None


def lines_run(comp: LinesParts, trace: bool) -> Run:
    """``lines``: each met line scores, a continuation line while its base line is met."""
    items_of, strict_of, label_of = comp.items_of, comp.strict_of, comp.label_of
    continues, value_of = comp.continues, comp.value_of
    conditions, restrictions = comp.conditions, comp.restrictions
    item_name, source, voided, unnamed = comp.item_name, comp.source, comp.voided, comp.unnamed
    one_condition = conditions[0] if len(conditions) == 1 else None
    one_restriction = restrictions[0] if len(restrictions) == 1 else None
    first_failed = _first_failed
    items_source, line_scored, line_failed = comp.items_source, comp.scored, comp.failed

    def run(scope: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        # the item and its index are written into the player's namespace itself
        # (the engine puts back what they hid once the step is done)
        items = as_list(items_of(scope, fns), items_source)
        strict_base = bool(strict_of(scope, fns))
        total = 0
        notes: list[Note] = [] if trace else NO_NOTES
        base_label: str | Nested = ""
        label: str | Nested = ""
        base_ok = True
        for index, item in enumerate(items, start=1):
            scope[item_name] = item
            scope["index"] = index
            if trace:  # (without a trace nothing shows the label: it is not evaluated)
                label = str(label_of(scope, fns)) or Nested(unnamed, {"index": index})
            is_continuation = bool(continues(scope, fns))
            # one condition and one restriction is the usual shape: tested inline, and
            # several conditions are gone through here, not in a call per line
            if one_condition is not None:
                unmet = None if one_condition[0](scope, fns) else one_condition[1]
            else:
                unmet = None
                for test, fails in conditions:
                    if not test(scope, fns):
                        unmet = fails
                        break
            if unmet is not None:
                barred = None
            elif one_restriction is not None:
                barred = None if one_restriction[0](scope, fns) else one_restriction[1]
            else:
                barred = first_failed(restrictions, scope, fns)
            if is_continuation and not base_ok:
                if trace:
                    reason = Nested(voided, {"base": base_label})
                    notes.append(make(line_failed, {"label": label, "reason": reason}))
            elif unmet is not None or barred is not None:
                if trace:
                    failed = unmet if unmet is not None else barred
                    assert failed is not None
                    reason = Nested(failed, {})
                    notes.append(make(line_failed, {"label": label, "reason": reason}))
            else:
                points = value_of(scope, fns)
                if type(points) is not int:
                    points = as_int(points, source)
                total += points
                if trace:
                    notes.append(make(line_scored, {"label": label, "points": points}))
            if not is_continuation:
                base_ok = unmet is None and not (strict_base and barred is not None)
                base_label = label
        return total, notes, {}, None

    return run
