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


def audit_report(spec: Spec) -> dict[str, Any]:
    """The spec's entries and rulings against the record of its last audit (``spec.audit``).

    Each entry has its kind, its quotes and a status: ``audited`` (read as it is
    now), ``changed`` (its kind or quotes differ from what the audit read) or
    ``unaudited``. Each ruling has its options and the readings the audit
    found; ``findings`` lists everything due for the next audit, an entry the
    record names that the spec no longer has, and every ruling that offers
    fewer options than the readings the audit found.
    """
    audit = spec.audit
    read = {e.entry: e for e in audit.entries} if audit else {}
    readings = {r.ruling: r for r in audit.rulings} if audit else {}
    findings: list[str] = []
    rows = []
    seen = set()
    for _, what, source in entries(spec):
        seen.add(what)
        kind = source.kind if source is not None else "none"
        quotes = source.quotes() if source is not None else []
        was = read.get(what)
        if was is None:
            status = "unaudited"
            findings.append(f"{what}: not audited")
        elif was.kind != kind or was.quotes != quotes:
            status = "changed"
            then = f"{was.kind}, {len(was.quotes)} quote(s)"
            findings.append(f"{what}: changed since the audit (then {then}; now {kind})")
        else:
            status = "audited"
        row = {"entry": what, "kind": kind, "quotes": quotes, "status": status}
        if was is not None:
            row["verdict"] = was.verdict
        rows.append(row)
    findings += [
        f"{name}: audited, but the spec has no such entry" for name in read if name not in seen
    ]
    rulings = []
    for ruling in spec.rulings:
        found = readings.get(ruling.id)
        options = [o.id for o in ruling.options]
        if found is None:
            findings.append(f"ruling {ruling.id}: not audited")
        elif len(found.readings) > len(options):
            findings.append(
                f"ruling {ruling.id}: the audit found {len(found.readings)} readings of the"
                f" sources, the ruling offers {len(options)} option(s): give each reading an option"
            )
        rulings.append(
            {
                "ruling": ruling.id,
                "options": options,
                "readings": list(found.readings) if found else [],
            }
        )
    known = {r.id for r in spec.rulings}
    findings += [
        f"ruling {name}: audited, but the spec has no such ruling"
        for name in readings
        if name not in known
    ]
    return {
        "format": FORMAT,
        "game": spec.game.id,
        "audit": (
            {"date": audit.date, "readers": [r.model_dump() for r in audit.readers]}
            if audit
            else None
        ),
        "entries": rows,
        "rulings": rulings,
        "findings": findings,
    }


def audit_lines(report: dict[str, Any]) -> list[str]:
    """The audit report as text: the record, an entry per line, the rulings, the findings."""
    audit = report["audit"]
    if audit is None:
        lines = [f"{report['game']}: no audit recorded (audit: in the spec's audit.yaml)"]
    else:
        readers = ", ".join(f"{r['name']} ({r['language']})" for r in audit["readers"])
        lines = [f"{report['game']}: audited {audit['date']} by {readers}"]
    rows = report["entries"]
    width = max((len(r["entry"]) for r in rows), default=0)
    for r in rows:
        quotes = " / ".join(f"“{q}”" for q in r["quotes"]) or "-"
        lines.append(f"{r['entry']:<{width}}  {r['kind']:<11}  {r['status']:<9}  {quotes}")
    for r in report["rulings"]:
        lines.append(
            f"ruling {r['ruling']}: options {', '.join(r['options'])};"
            f" readings found {len(r['readings'])}"
        )
    lines += [f"finding: {f}" for f in report["findings"]]
    return lines
