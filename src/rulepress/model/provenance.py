"""Where each statement of a spec comes from: its source documents and provenance.

A spec made from documents (a rulebook, a reference card) lists them in its
``sources`` section, each with an id. From then on every rule, step,
parameter, table row and glossary entry says where it comes from in a
``source`` field (:class:`Provenance`):

* ``document`` and ``lines``: the passage of a listed document that states
  it (``lines`` counts the lines of the copy the spec was made from);
* ``rulings``: the rulings that settle what the document leaves unclear, or
  infer what it does not say (then the entry is *ruled*, whether or not a
  passage is given as evidence);
* ``table_state``: values the entry needs that no document gives, which the
  table state supplies (the fields named).

:mod:`rulepress.checks.sources` checks that every entry has one and that
each names what exists. The documents themselves are
:class:`rulepress.model.spec_model.SourceText`, whose title is prose.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, model_validator

#: the most digits of a line number: a document's line count is an integer of the spec,
#: below 10^15 (and ``int()`` refuses a text of more than 4,300 digits with a traceback)
LINE_DIGITS = 15
_LINE = rf"[1-9][0-9]{{0,{LINE_DIGITS - 1}}}"
#: line numbers: ``181``, ``179-190``, or several: ``151, 181``
LINES_RE = re.compile(rf"^{_LINE}(-{_LINE})?(, {_LINE}(-{_LINE})?)*$")
_DIGITS = re.compile(r"[0-9]+")
_ID_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
#: a table-state field: ``table.<name>`` or ``players.<name>``
_FIELD_RE = re.compile(r"^(table|players)\.[a-z][a-z0-9_]*$")

#: what an entry's provenance makes it, as ``rulepress provenance --kind`` filters
Kind = Literal["source", "ruling", "table-state"]
KINDS: tuple[Kind, ...] = ("source", "ruling", "table-state")


def _matching(regex: re.Pattern[str], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if not regex.match(value):
            raise ValueError(f"{value!r} is not {what}")
        return value

    return AfterValidator(check)


class _Frozen(BaseModel):
    # as rulepress.model.spec_model.Model: unknown keys are errors, instances immutable
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )


def _line_numbers(value: str) -> str:
    longest = max((len(digits) for digits in _DIGITS.findall(value)), default=0)
    if longest > LINE_DIGITS:
        # said before the pattern's message, which would quote every digit
        raise ValueError(f"a line number of {longest} digits; at most {LINE_DIGITS}")
    if not LINES_RE.match(value):
        raise ValueError(f"{value!r} is not line numbers such as '181' or '151, 179-190'")
    return value


def line_ranges(lines: str) -> list[tuple[int, int]]:
    """The ranges of ``lines`` as written (``151, 179-190``), each as (first, last)."""
    out = []
    for part in lines.split(", "):
        first, _, last = part.partition("-")
        out.append((int(first), int(last or first)))
    return out


class Provenance(_Frozen):
    """Where a rule, step, parameter, table row or glossary entry comes from."""

    document: Annotated[str, _matching(_ID_RE, "a document id")] | None = None
    """The id of the document (an entry of `sources`) whose passage states it."""
    lines: Annotated[str, AfterValidator(_line_numbers)] | None = None
    """The lines of the document's passage: `181`, `179-190`, or several joined by `, `."""
    rulings: list[Annotated[str, _matching(_NAME_RE, "a ruling id (lower_snake_case)")]] = []
    """The rulings that settle or infer what the document does not say plainly."""
    table_state: list[Annotated[str, _matching(_FIELD_RE, "a field 'table.<name>'")]] = []
    """Values no document gives, supplied by these table-state fields (`table.council_track`)."""

    @model_validator(mode="after")
    def _says_something(self) -> Provenance:
        if self.lines is not None and self.document is None:
            raise ValueError("lines are lines of a document: name the document")
        if self.document is None and not self.rulings and not self.table_state:
            raise ValueError("a source names a document, a ruling or table-state fields")
        if self.document is not None and self.lines is None:
            raise ValueError("name the passage of the document: its lines")
        return self

    @property
    def kind(self) -> Kind:
        """``ruling`` if a ruling settles it, else ``table-state`` or ``source``."""
        if self.rulings:
            return "ruling"
        if self.table_state:
            return "table-state"
        return "source"

    def ranges(self) -> list[tuple[int, int]]:
        """The passage's line ranges, each as (first, last); none without a passage."""
        return line_ranges(self.lines) if self.lines else []
