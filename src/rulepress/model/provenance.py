"""Where each statement of a spec comes from: its source documents and provenance.

A spec made from documents (a rulebook, a reference card) lists them in its
``sources`` section, each with an id. From then on every rule, step,
parameter, table row and glossary entry says where it comes from in a
``source`` field (:class:`Provenance`):

* ``document``, ``lines`` and ``quote``: the passage of a listed document
  that states it (``lines`` counts the lines of the copy the spec was made
  from) and the words of that passage, in the document's own language, that
  state it: one quote per place where a statement combines several;
* ``rulings``: the rulings that infer what the document does not say, or
  settle what it leaves unclear (a quoted passage may stand beside them as
  the evidence the ruling weighs);
* ``components``: facts a player reads off the components (a character
  card, the board, a player aid) and no document gives, each named by its
  entry of ``not_in_source``;
* ``table_state``: values no document gives, which the table state
  supplies (the fields named).

Each entry is of exactly one :data:`Kind`, the first that applies in that
order: *inferred* (a ruling), *components*, *table-state*, *stated*.

:mod:`rulepress.checks.sources` checks that every entry has one, that each
names what exists, and, for a document the spec ships, that every quote is
in the lines it cites. The documents themselves are
:class:`rulepress.model.spec_model.SourceText`, whose title is prose.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, model_validator

from rulepress.lazy_pattern import LazyPattern

#: the most digits of a line number: a document's line count is an integer of the spec,
#: below 10^15 (and ``int()`` refuses a text of more than 4,300 digits with a traceback)
LINE_DIGITS = 15
_LINE = rf"[1-9][0-9]{{0,{LINE_DIGITS - 1}}}"
#: line numbers: ``181``, ``179-190``, or several: ``151, 181``
LINES_RE = LazyPattern(rf"^{_LINE}(-{_LINE})?(, {_LINE}(-{_LINE})?)*$")
_DIGITS = LazyPattern(r"[0-9]+")
_ID_RE = LazyPattern(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_NAME_RE = LazyPattern(r"^[a-z][a-z0-9_]*$")
#: a table-state field: ``table.<name>`` or ``players.<name>``
_FIELD_RE = LazyPattern(r"^(table|players)\.[a-z][a-z0-9_]*$")

#: what an entry's provenance makes it, as ``rulepress provenance --kind`` filters
Kind = Literal["stated", "inferred", "components", "table-state"]
KINDS: tuple[Kind, ...] = ("stated", "inferred", "components", "table-state")
#: the longest quote: the few words that state the point, not the passage
QUOTE_CHARS = 400
_SPACE = LazyPattern(r"\s+")


def fold(text: str) -> str:
    """``text`` as quotes are compared: NFKC-normalised, with no whitespace at all.

    Whitespace is dropped rather than collapsed so that a quote may run across
    a line break of the document, in Czech (where the break stood for a space)
    and in Japanese (where it stood for nothing) alike.
    """
    return _SPACE.sub("", unicodedata.normalize("NFKC", text))


def _quote(value: str) -> str:
    if not fold(value):
        raise ValueError("a quote gives the words of the source that state the point")
    if len(value) > QUOTE_CHARS:
        raise ValueError(
            f"a quote of {len(value)} characters; quote the words that state the point"
            f" (at most {QUOTE_CHARS})"
        )
    return value


Quote = Annotated[str, AfterValidator(_quote)]


def _matching(regex: re.Pattern[str], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if not regex.match(value):
            raise ValueError(f"{value!r} is not {what}")
        return value

    return AfterValidator(check)


class _Frozen(BaseModel):
    # as rulepress.model.spec_model.Model: unknown keys are errors, instances immutable;
    # the fields' docstrings are their descriptions (read when shown: model.field_docs), and
    # the validator is built when first used (defer_build), not on import
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


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


class _Cited:
    """What a cited passage offers its checks: its line ranges and its quotes."""

    if TYPE_CHECKING:  # the models' own fields (declared here, pydantic would take them as fields)
        lines: str | None
        quote: str | list[str] | None

    def ranges(self) -> list[tuple[int, int]]:
        """The passage's line ranges, each as (first, last); none without a passage."""
        return line_ranges(self.lines) if self.lines else []

    def quotes(self) -> list[str]:
        """The quotes, as a list (one, several or none)."""
        if self.quote is None:
            return []
        return [self.quote] if isinstance(self.quote, str) else list(self.quote)


class Passage(_Cited, _Frozen):
    """Lines of a source document and the words of them that matter, quoted.

    What a ruling's question or an entry of ``not_in_source`` shows of what the
    sources *do* say: the reader weighs the ruling, or the gap, against it.
    """

    document: Annotated[str, _matching(_ID_RE, "a document id")]
    """The id of the document (an entry of `sources`)."""
    lines: Annotated[str, AfterValidator(_line_numbers)]
    """The lines quoted: `181`, `179-190`, or several joined by `, `."""
    quote: Quote | list[Quote]
    """The words of those lines, in the document's language; one per place."""


class Provenance(_Cited, _Frozen):
    """Where a rule, step, parameter, table row or glossary entry comes from."""

    document: Annotated[str, _matching(_ID_RE, "a document id")] | None = None
    """The id of the document (an entry of `sources`) whose passage states it."""
    lines: Annotated[str, AfterValidator(_line_numbers)] | None = None
    """The lines of the document's passage: `181`, `179-190`, or several joined by `, `."""
    quote: Quote | list[Quote] | None = None
    """The words of those lines that state it, in the document's language; one per place."""
    rulings: list[Annotated[str, _matching(_NAME_RE, "a ruling id (lower_snake_case)")]] = []
    """The rulings that settle or infer what the document does not say plainly."""
    components: list[Annotated[str, _matching(_ID_RE, "an entry id of not_in_source")]] = []
    """Facts read off the components, each named by its `not_in_source` entry (`engineer-card`)."""
    table_state: list[Annotated[str, _matching(_FIELD_RE, "a field 'table.<name>'")]] = []
    """Values no document gives, supplied by these table-state fields (`table.council_track`)."""

    @model_validator(mode="after")
    def _says_something(self) -> Provenance:
        if self.lines is not None and self.document is None:
            raise ValueError("lines are lines of a document: name the document")
        if self.quote is not None and self.lines is None:
            raise ValueError("a quote is of a document's lines: name the document and its lines")
        if (
            self.document is None
            and not self.rulings
            and not self.components
            and not self.table_state
        ):
            raise ValueError(
                "a source names a document, a ruling, components or table-state fields"
            )
        if self.document is not None and self.lines is None:
            raise ValueError("name the passage of the document: its lines")
        return self

    @property
    def kind(self) -> Kind:
        """The first that applies: ``inferred``, ``components``, ``table-state``, ``stated``."""
        if self.rulings:
            return "inferred"
        if self.components:
            return "components"
        if self.table_state:
            return "table-state"
        return "stated"
