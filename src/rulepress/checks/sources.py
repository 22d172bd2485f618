"""The provenance checks: every statement says where it comes from, and that place exists.

Once a spec lists the documents it was made from (its ``sources`` section),
every rule, step, parameter, table row and glossary entry must carry a
``source`` (:class:`rulepress.model.provenance.Provenance`). A spec that lists
none is written by its own author (a new game, a fixture): nothing is
demanded of it, but a ``source`` it gives is still checked. What is checked:

* the entry has a source at all;
* the document it names is listed, and its lines lie within that document;
* a document the game ships (``file``) is the copy cited (its ``sha256``),
  decodes with its ``encoding`` and has the lines it declares; then every
  citation of it quotes the words it relies on, and each quote is in the
  lines cited (:mod:`rulepress.checks.quotes`). A document the game cannot
  ship leaves its citations unchecked, which ``rulepress provenance`` says;
* each ruling it names exists, and each component names an entry of
  ``not_in_source``;
* each table-state field it names is a field of one of the game's state formats,
  as each field named by an entry of ``not_in_source`` (what players need that
  no document gives) must be.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rulepress.checks.base import CheckBase
from rulepress.checks.quotes import Document, quote_problems, read_document
from rulepress.model import Provenance, Rule, Spec, Step
from rulepress.model.provenance import Passage
from rulepress.model.spec_model import SourceText
from rulepress.yamlsrc import DataPath


def entries(spec: Spec) -> Iterator[tuple[DataPath, str, Provenance | None]]:
    """Every entry that must name a source: its path, what editors call it, its source."""

    def rules(
        items: list[Rule], path: DataPath
    ) -> Iterator[tuple[DataPath, str, Provenance | None]]:
        for i, rule in enumerate(items):
            yield path + (i,), f"rule {rule.number}", rule.source
            yield from rules(rule.rules, path + (i, "rules"))

    def steps(
        seq: str, items: list[Step], path: DataPath
    ) -> Iterator[tuple[DataPath, str, Provenance | None]]:
        for i, step in enumerate(items):
            yield path + (i,), f"step {step.number} of {seq}", step.source
            yield from steps(seq, step.steps, path + (i, "steps"))

    yield from rules(spec.rules, ("rules",))
    for i, seq in enumerate(spec.sequences):
        yield from steps(seq.id, seq.steps, ("sequences", i, "steps"))
    for name, param in spec.parameters.items():
        yield ("parameters", name), f"parameter {name}", param.source
    for i, table in enumerate(spec.tables):
        for j, row in enumerate(table.rows):
            yield ("tables", i, "rows", j), f"row {j + 1} of table {table.id}", row.source
    for i, term in enumerate(spec.glossary):
        yield ("glossary", i), f"glossary term {term.id}", term.source
    for i, card in enumerate(spec.card_exceptions):
        yield ("card_exceptions", i), f"card exception {card.id}", card.source


def quotes(spec: Spec) -> Iterator[str]:
    """Every quote of a source document the spec holds: citations, rulings, gaps."""
    for _, _, source in entries(spec):
        if source is not None:
            yield from source.quotes()
    for ruling in spec.rulings:
        for passage in ruling.says:
            yield from passage.quotes()
    for item in spec.not_in_source:
        for passage in item.nearby:
            yield from passage.quotes()


def _state_fields(chk: CheckBase) -> frozenset[str]:
    names: set[str] = set()
    for fmt in chk.spec.table_states.values():
        names.update(f"table.{name}" for name in fmt.table.fields)
        names.update(f"players.{name}" for name in fmt.players.fields)
    return frozenset(names)


def _passage(
    chk: CheckBase,
    here: DataPath,
    cited: Provenance | Passage,
    documents: Mapping[str, SourceText],
    texts: Mapping[str, Document],
) -> None:
    """The problems of one cited passage: its document, its lines, its quotes."""
    assert cited.document is not None
    doc = documents.get(cited.document)
    if doc is None:
        known = ", ".join(documents) or "none listed under 'sources'"
        chk.at(here + ("document",), f"unknown document {cited.document!r} ({known})")
        return
    for first, last in cited.ranges():
        if last < first or last > doc.lines:
            chk.at(
                here + ("lines",),
                f"lines {first}-{last} are not lines of {doc.id} (it has {doc.lines})",
            )
    text = texts.get(doc.id)
    if text is not None:
        for below, message in quote_problems(cited, text):
            chk.at(here + below, message)


def check_sources(chk: CheckBase) -> None:
    """Add a located problem for each entry without a source, or naming what is not there."""
    spec = chk.spec
    chk.unique("sources", spec.sources)
    documents = {doc.id: doc for doc in spec.sources}
    texts: dict[str, Document] = {}
    for i, shipped in enumerate(spec.sources):
        if shipped.file is None:
            continue
        text, problems = read_document(chk.loaded.directory, shipped)
        for name, message in problems:
            chk.at(("sources", i, name), message)
        if text is not None:
            texts[shipped.id] = text
    missing = {item.id for item in spec.not_in_source}
    fields = _state_fields(chk)
    for path, what, source in entries(spec):
        if source is None:
            if documents:
                chk.at(
                    path,
                    f"{what} has no source: give 'source:' with a document's lines, the rulings"
                    " that settle it, or the table-state fields that supply it",
                )
            continue
        here = path + ("source",)
        if source.document is not None:
            _passage(chk, here, source, documents, texts)
        for k, ruling in enumerate(source.rulings):
            if ruling not in chk.ruling_ids:
                chk.at(here + ("rulings", k), f"unknown ruling {ruling!r}")
        for k, name in enumerate(source.components):
            if name not in missing:
                known = ", ".join(sorted(missing)) or "none"
                chk.at(
                    here + ("components", k),
                    f"no entry {name!r} under not_in_source, which says what a component"
                    f" gives ({known})",
                )
        for k, name in enumerate(source.table_state):
            if name not in fields:
                chk.at(here + ("table_state", k), f"no table-state field {name!r}")
    for i, decided in enumerate(spec.rulings):
        for k, passage in enumerate(decided.says):
            _passage(chk, ("rulings", i, "says", k), passage, documents, texts)
    chk.unique("not_in_source", spec.not_in_source)
    for i, item in enumerate(spec.not_in_source):
        for k, passage in enumerate(item.nearby):
            _passage(chk, ("not_in_source", i, "nearby", k), passage, documents, texts)
        for k, name in enumerate(item.table_state):
            if name not in fields:
                chk.at(("not_in_source", i, "table_state", k), f"no table-state field {name!r}")
