"""The provenance of every entry of a spec, as ``rulepress provenance GAME`` lists it.

A rules editor traces each rule, step, parameter, table row and glossary
entry to the passage of a source document, the rulings that settle it, or
the table-state fields that supply what the source lacks, and filters for
what is ruled (everything a ruling infers or settles). Pure data: the CLI
writes it as text or JSON.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rulepress.checks.sources import entries
from rulepress.model import Spec
from rulepress.model.provenance import KINDS
from rulepress.yamlsrc import format_path

#: the version of the JSON document ``rulepress provenance --json`` writes
FORMAT = 2


def provenance_report(spec: Spec, kinds: Collection[str] = KINDS) -> dict[str, Any]:
    """The spec's documents and every entry's provenance whose kind is one of ``kinds``.

    An entry without a source (a spec that lists no documents) has the kind
    ``none``, listed only when ``kinds`` asks for it.
    """
    shipped = {d.id for d in spec.sources if d.file is not None}
    rows = []
    for path, what, source in entries(spec):
        kind = source.kind if source is not None else "none"
        if kind not in kinds:
            continue
        document = source.document if source else None
        rows.append(
            {
                "entry": what,
                "path": format_path(path),
                "kind": kind,
                "document": document,
                "lines": source.lines if source else None,
                "quotes": source.quotes() if source else [],
                # a quote of a shipped document was checked by validate; others cannot be
                "checked": document in shipped if document else None,
                "rulings": list(source.rulings) if source else [],
                "components": list(source.components) if source else [],
                "table_state": list(source.table_state) if source else [],
            }
        )
    return {
        "format": FORMAT,
        "game": spec.game.id,
        "documents": [
            {
                "id": d.id,
                "title": d.title,
                "language": d.language,
                "lines": d.lines,
                "file": d.file,
                "sha256": d.sha256,
            }
            for d in spec.sources
        ],
        "entries": rows,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The report as lines of text: the documents, then an entry per line, aligned."""
    lines = [
        f"{d['id']}: {d['title']} ({d['language']}, {d['lines']} lines, "
        + (f"shipped as {d['file']})" if d["file"] else "not shipped: its citations are unchecked)")
        for d in report["documents"]
    ]
    rows = report["entries"]
    width = max((len(r["entry"]) for r in rows), default=0)
    for r in rows:
        parts = []
        if r["document"]:
            # one line ("40") or several ("11-16", "151, 181")
            several = any(mark in r["lines"] for mark in "-,")
            parts.append(f"{r['document']} {'lines' if several else 'line'} {r['lines']}")
            if r["quotes"]:
                parts.append(" / ".join(f"“{q}”" for q in r["quotes"]))
            if not r["checked"]:
                parts.append("unchecked")
        if r["rulings"]:
            parts.append(
                ("rulings " if len(r["rulings"]) > 1 else "ruling ") + ", ".join(r["rulings"])
            )
        if r["components"]:
            parts.append("components " + ", ".join(r["components"]))
        if r["table_state"]:
            parts.append("table state " + ", ".join(r["table_state"]))
        lines.append(f"{r['entry']:<{width}}  {r['kind']:<11}  {'; '.join(parts) or '-'}")
    return lines
