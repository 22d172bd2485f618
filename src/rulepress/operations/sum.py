"""The ``sum`` operation: adds every part whose ``when`` holds."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import Model, Part
from rulepress.operations.parts import compile_parts, part_args
from rulepress.scoring.components import (
    NO_NOTES,
    Functions,
    MakeNote,
    Pick,
    Result,
    Run,
    as_int,
)
from rulepress.scoring.result import Note


class SumComponent(Model):
    """Adds every part whose ``when`` holds."""

    op: Literal["sum"]
    """`sum`."""
    parts: list[Part] = Field(min_length=1)
    """The parts, in order."""


def _compile_sum(comp: SumComponent, pick: Pick, trace: bool) -> Run:
    parts = compile_parts(comp.parts, pick)

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
