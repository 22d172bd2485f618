"""The ``sum`` operation: adds every part whose ``when`` holds."""

# annotations are objects, not postponed strings: see rulepress.render.tree
from typing import Literal

from pydantic import Field

from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import Model, Part
from rulepress.operations.parts import compile_parts
from rulepress.operations.runs import sum_run
from rulepress.scoring.components import (
    Pick,
    Run,
)


class SumComponent(Model):
    """Adds every part whose ``when`` holds."""

    op: Literal["sum"]
    """`sum`."""
    parts: list[Part] = Field(min_length=1)
    """The parts, in order."""


def _compile_sum(comp: SumComponent, pick: Pick, trace: bool) -> Run:
    return sum_run(compile_parts(comp.parts, pick), trace)


class Sum:
    """The ``sum`` operation, as the registry gives it."""

    model = SumComponent
    example = OwnExample("sum.yaml")
    #: its place among the operations in the author's reference (and the JSON Schema)
    order = 1
    #: compile() takes ``trace=False`` (see components.compile_component)
    skips_trace = True

    @staticmethod
    def check(
        checker: Checker, path: Path, comp: SumComponent, names: frozenset[str], tables: set[str]
    ) -> None:
        checker.parts(path + ("parts",), comp.parts, names)

    @staticmethod
    def compile(comp: SumComponent, pick: Pick, *, trace: bool = True) -> Run:
        return _compile_sum(comp, pick, trace)
