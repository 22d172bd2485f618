"""The ``first`` operation: the first part whose ``when`` holds scores (a case analysis)."""

# annotations are objects, not postponed strings: see rulepress.render.tree
from typing import Literal

from pydantic import Field

from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import Model, Part
from rulepress.operations.parts import compile_parts
from rulepress.operations.runs import first_run
from rulepress.scoring.components import (
    Pick,
    Run,
)


class FirstComponent(Model):
    """Takes the first part whose ``when`` holds (a case analysis)."""

    op: Literal["first"]
    """`first`."""
    parts: list[Part] = Field(min_length=1)
    """The cases, in order; the first that holds scores."""


def _compile_first(comp: FirstComponent, pick: Pick, trace: bool) -> Run:
    return first_run(compile_parts(comp.parts, pick), trace)


class First:
    """The ``first`` operation, as the registry gives it."""

    model = FirstComponent
    example = OwnExample("first.yaml")
    #: its place among the operations in the author's reference (and the JSON Schema)
    order = 2
    #: compile() takes ``trace=False`` (see components.compile_component)
    skips_trace = True

    @staticmethod
    def check(
        checker: Checker,
        path: Path,
        comp: FirstComponent,
        names: frozenset[str],
        tables: set[str],
    ) -> None:
        checker.parts(path + ("parts",), comp.parts, names)

    @staticmethod
    def compile(comp: FirstComponent, pick: Pick, *, trace: bool = True) -> Run:
        return _compile_first(comp, pick, trace)
