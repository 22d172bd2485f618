"""The ``lines`` operation: a list of lines, continuation lines depending on their base line."""

# annotations are objects, not postponed strings: see rulepress.render.tree
from typing import Literal

from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import Condition, ExprText, Model, Name, Text
from rulepress.operations.runs import LinesParts, lines_run
from rulepress.scoring.components import (
    Pick,
    Run,
)
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
    return lines_run(
        LinesParts(
            items_of=pick(comp.items),
            items_source=comp.items,
            strict_of=pick(comp.restriction_voids_continuation),
            label_of=pick(comp.label),
            continues=pick(comp.continuation),
            value_of=pick(comp.value),
            conditions=[(pick(c.test), c.fails) for c in comp.conditions],
            restrictions=[(pick(c.test), c.fails) for c in comp.restrictions],
            item_name=comp.item,
            source=comp.value,
            voided=comp.voided_note,
            unnamed=comp.unnamed,
            scored=LINE_SCORED,
            failed=LINE_FAILED,
        ),
        trace,
    )


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
