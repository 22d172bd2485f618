"""The ``lines`` operation: a list of lines, continuation lines depending on their base line."""

from __future__ import annotations

from typing import Any, Literal

from rulepress.expressions.expression import Evaluate
from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import Condition, ExprText, Model, Name, Text
from rulepress.scoring.components import (
    NO_NOTES,
    Functions,
    MakeNote,
    Pick,
    Result,
    Run,
    as_int,
    as_list,
)
from rulepress.scoring.notes import Nested
from rulepress.scoring.result import Note
from rulepress.uitext import ui


class LinesComponent(Model):
    """Scores a list of lines; continuation lines depend on the nearest base line.

    ``conditions`` decide whether a line is met; a continuation line scores
    only while its base line is met. ``restrictions`` can stop a met line from
    scoring; whether that also voids its continuations is the expression
    ``restriction_voids_continuation`` (usually a ruling).
    """

    op: Literal["lines"]
    """`lines`."""
    items: ExprText
    """The list of lines (each a record, usually one of the player's fields)."""
    item: Name = "line"
    """The name each line is read by in the expressions below."""
    continuation: ExprText = "False"
    """Whether the line continues the nearest base line above it (a `+` line)."""
    conditions: list[Condition] = []  # noqa: RUF012  (pydantic copies a default)
    """What a line needs to be met; the first that fails is shown."""
    restrictions: list[Condition] = []  # noqa: RUF012  (pydantic copies a default)
    """What can stop a met line from scoring."""
    restriction_voids_continuation: ExprText = "False"
    """Whether a base line stopped by a restriction also voids its continuation lines (read
    once per player: usually a ruling)."""
    value: ExprText
    """A met line's points."""
    label: ExprText = "''"
    """What names the line in the notes."""
    unnamed: Text = "line {index}"
    """What names a line whose `label` is empty (`{index}`: its place, from 1)."""
    voided_note: Text
    """Why a continuation line scores nothing (`{base}`: its base line)."""


#: interface sentences of the lines operation (translated with rulepress's own catalog)
LINE_SCORED = ui("score.line", "{label}: {points}")
LINE_FAILED = ui("score.line", "{label}: nothing ({reason})")


def _compile_lines(comp: LinesComponent, pick: Pick, trace: bool) -> Run:
    items_of = pick(comp.items)
    strict_of = pick(comp.restriction_voids_continuation)
    label_of = pick(comp.label)
    continues = pick(comp.continuation)
    value_of = pick(comp.value)
    conditions = [(pick(c.test), c.fails) for c in comp.conditions]
    restrictions = [(pick(c.test), c.fails) for c in comp.restrictions]
    item_name, source, voided, unnamed = comp.item, comp.value, comp.voided_note, comp.unnamed
    one_condition = conditions[0] if len(conditions) == 1 else None
    one_restriction = restrictions[0] if len(restrictions) == 1 else None

    def first_failed(
        tests: list[tuple[Evaluate, str]], scope: dict[str, Any], fns: Functions
    ) -> str | None:
        for test, fails in tests:
            if not test(scope, fns):
                return fails
        return None

    def run(scope: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        # the item and its index are written into the player's namespace itself
        # (the engine puts back what they hid once the step is done)
        items = as_list(items_of(scope, fns), comp.items)
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
                    notes.append(make(LINE_FAILED, {"label": label, "reason": reason}))
            elif unmet is not None or barred is not None:
                if trace:
                    failed = unmet if unmet is not None else barred
                    assert failed is not None
                    reason = Nested(failed, {})
                    notes.append(make(LINE_FAILED, {"label": label, "reason": reason}))
            else:
                points = value_of(scope, fns)
                if type(points) is not int:
                    points = as_int(points, source)
                total += points
                if trace:
                    notes.append(make(LINE_SCORED, {"label": label, "points": points}))
            if not is_continuation:
                base_ok = unmet is None and not (strict_base and barred is not None)
                base_label = label
        return total, notes, {}, None

    return run


class Lines:
    """The ``lines`` operation, as the registry gives it."""

    model = LinesComponent
    example = OwnExample("lines.yaml")
    #: its place among the operations in the author's reference (and the JSON Schema)
    order = 3
    #: compile() takes ``trace=False`` (see components.compile_component)
    skips_trace = True

    @staticmethod
    def check(
        checker: Checker,
        path: Path,
        comp: LinesComponent,
        names: frozenset[str],
        tables: set[str],
    ) -> None:
        item_names = frozenset(names | {comp.item, "index"})
        checker.expression(path + ("items",), comp.items, names)
        checker.expression(
            path + ("restriction_voids_continuation",),
            comp.restriction_voids_continuation,
            names,
        )
        for attr in ("continuation", "value", "label"):
            checker.expression(path + (attr,), getattr(comp, attr), item_names)
        for group in ("conditions", "restrictions"):
            for i, cond in enumerate(getattr(comp, group)):
                checker.expression(path + (group, i, "test"), cond.test, item_names)
        checker.prose(path + ("voided_note",), comp.voided_note, {"base"})
        checker.prose(path + ("unnamed",), comp.unnamed, {"index"})

    @staticmethod
    def compile(comp: LinesComponent, pick: Pick, *, trace: bool = True) -> Run:
        return _compile_lines(comp, pick, trace)

    @staticmethod
    def writes(comp: LinesComponent) -> tuple[str, ...]:
        # the line and its index are written into the player's namespace
        return (comp.item, "index")
