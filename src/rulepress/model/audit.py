"""The record of an audit of a spec's provenance, kept as data beside the spec.

Fluent readers of the source documents read them end to end against the spec
and record, for every entry, the kind and the quotes they checked and what
they found, and for every ruling, each reading of the sources a player could
hold. ``rulepress provenance GAME --audit`` compares the spec as it is now with
that record (:mod:`rulepress.games.provenance_report`): an entry whose kind or
quotes changed since, or that no audit has read, is due for the next audit,
and a ruling that offers fewer options than the readings the audit found is
reported, which no check of the spec alone can see.

The record is editorial, for rules editors; readers of the rules never see it,
so its texts are plain strings (not translated).
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rulepress.model.provenance import Kind

#: what the audit found of an entry
Verdict = Literal["stated", "honestly-marked", "fixed"]
VERDICTS: tuple[Verdict, ...] = ("stated", "honestly-marked", "fixed")


class _Frozen(BaseModel):
    # as rulepress.model.spec_model.Model: unknown keys are errors, instances immutable;
    # the fields' docstrings are their descriptions (read when shown: model.field_docs), and
    # the validator is built when first used (defer_build), not on import
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


class Reader(_Frozen):
    """Who read the sources for the audit, and in which language."""

    name: str
    """The reader, as the project knows them."""
    language: Annotated[str, Field(pattern=r"^[a-z]{2,3}$")]
    """The language they read the sources in, fluently."""


class AuditedEntry(_Frozen):
    """One entry as the audit read it."""

    entry: str
    """The entry as `rulepress provenance` names it (`rule 16.4.7`, `glossary term bribe`)."""
    kind: Kind
    """Its kind when read."""
    quotes: list[str] = []
    """Its quotes when read, checked against the source by the reader."""
    verdict: Verdict
    """`stated`: the quotes state it; `honestly-marked`: inferred, from the components or
    the table state, and marked so; `fixed`: the audit found it wrong and it was fixed."""
    note: str = ""
    """What the reader found, for the next audit."""


class AuditedRuling(_Frozen):
    """One ruling as the audit read it: the readings of the sources a player could hold."""

    ruling: str
    """The ruling's id."""
    readings: list[str] = Field(min_length=1)
    """Each reading, in a few words; the ruling must offer an option for each."""
    note: str = ""


class Audit(_Frozen):
    """The last audit of the spec's provenance (`audit:` in the spec's `audit.yaml`)."""

    date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    """When it was finished (YYYY-MM-DD)."""
    readers: list[Reader] = Field(min_length=1)
    """Who read the sources; not the authors of the entries they read."""
    entries: list[AuditedEntry] = []
    rulings: list[AuditedRuling] = []
