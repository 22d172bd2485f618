"""Every entry that names a source, as readers find it: by kind, with its place on the site.

The spec's checks walk the same entries by their data paths
(:func:`rulepress.checks.sources.entries`); readers need other things
of them: what kind of entry each is (a heading of the Sources page and of
the rulebook's appendix), the anchor of its place on the site, and the spec
texts that name it (a step by its number, title and sequence, a table row
by its keys and its table). :func:`source_entries` lists them in reading
order, one list per kind, for the site's pages and the print appendix alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from rulepress.model import Provenance
from rulepress.model.spec_model import Sequence, Step, Table, TableRow, all_rules
from rulepress.render.context import RenderContext
from rulepress.render.markup import rule_label, term_label
from rulepress.uitext import ui

EntryKind = Literal["rule", "step", "parameter", "row", "term", "card"]

#: each kind of entry, in the order the Sources page and the appendix list them
KIND_TITLES: dict[EntryKind, str] = {
    "rule": ui("page.sources", "Rules"),
    "step": ui("page.sources", "Steps of the sequences"),
    "parameter": ui("page.sources", "Numbers in the rules"),
    "row": ui("page.sources", "Rows of the tables"),
    "term": ui("page.sources", "Glossary entries"),
    # also the heading of the table of card exceptions (rulepress.render.sources)
    "card": ui("page.sources", "Exceptions on the cards"),
}
#: the rows of a table a source covers, by their keys: "Rows 1–2, 5"
ROWS = ui("page.sources", "Rows {rows}")


@dataclass(frozen=True)
class SourceEntry:
    """One entry with a source, as readers name it."""

    kind: EntryKind
    #: the anchor of its place on the site (a rule's section, a step's card …)
    anchor: str
    #: literal text shown before the title: a rule's or a step's number, a row's keys
    lead: str
    #: its title or name, spec text (inline markup allowed)
    title: str
    #: spec text naming what holds it (a step's sequence, a row's table), or ""
    within: str
    source: Provenance


def step_label(seq: Sequence, step: Step) -> str:
    """A step card's permanent anchor, the same in every language: ``step-final-scoring-4a``."""
    return f"step-{seq.id}-{step.number.lower()}"


def parameter_label(name: str) -> str:
    """A parameter's anchor on the Sources page: ``parameter-revolt-divisor``."""
    return "parameter-" + name.replace("_", "-")


def table_label(table: Table) -> str:
    """A table's section on the scoring page."""
    return f"table-{table.id}"


#: the table of card exceptions on the scoring page, which each card's entry points to
CARDS_LABEL = "card-exceptions"


def row_groups(ctx: RenderContext, table: Table) -> list[tuple[list[str], Provenance]]:
    """A table's rows grouped by a shared source, in order: (the rows' keys, the source).

    Rows need not be neighbours to share a group: a marker names one source
    once, with every row it covers.
    """
    keys = [key for key, _ in ctx.table_rows(table)]
    groups: list[tuple[list[str], Provenance]] = []
    for key, row in zip(keys, table.rows, strict=True):
        if row.source is None:
            continue
        for covered, source in groups:
            if source == row.source:
                covered.append(key)
                break
        else:
            groups.append(([key], row.source))
    return groups


def _steps(seq: Sequence, steps: list[Step]) -> Iterator[SourceEntry]:
    for step in steps:
        if step.source is not None:
            yield SourceEntry(
                "step", step_label(seq, step), step.number, step.title, seq.title, step.source
            )
        yield from _steps(seq, step.steps)


def _rows(ctx: RenderContext, table: Table) -> Iterator[SourceEntry]:
    keys = [key for key, _ in ctx.table_rows(table)]
    row: TableRow
    for key, row in zip(keys, table.rows, strict=True):
        if row.source is not None:
            yield SourceEntry("row", table_label(table), key, table.title, "", row.source)


def source_entries(ctx: RenderContext) -> dict[EntryKind, list[SourceEntry]]:
    """Every entry with a source, by kind (each kind present, maybe empty), in reading order."""
    spec = ctx.spec
    out: dict[EntryKind, list[SourceEntry]] = {kind: [] for kind in KIND_TITLES}
    for rule in all_rules(spec.rules):
        if rule.source is not None:
            out["rule"].append(
                SourceEntry(
                    "rule", rule_label(rule.number), rule.number, rule.title, "", rule.source
                )
            )
    for seq in spec.sequences:
        out["step"] += _steps(seq, seq.steps)
    for name, param in spec.parameters.items():
        if param.source is not None:
            out["parameter"].append(
                SourceEntry(
                    "parameter", parameter_label(name), "", param.description, "", param.source
                )
            )
    for table in spec.tables:
        out["row"] += _rows(ctx, table)
    # the glossary in the language's order, as its page has it
    for term in ctx.glossary():
        if term.source is not None:
            out["term"].append(
                SourceEntry("term", term_label(term.id), "", term.term, "", term.source)
            )
    for card in spec.card_exceptions:
        if card.source is not None:
            # named by the vocabulary's word for the card: what the table shows
            name = spec.vocabulary.get(card.id, card.id)
            out["card"].append(SourceEntry("card", CARDS_LABEL, "", name, "", card.source))
    return out
