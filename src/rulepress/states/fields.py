"""The fields of table-state formats, resolved once: the one place a field's type is told.

A field of a state format gives its ``type`` itself, or reuses a named field
type of the spec's ``field_types`` (``use: supply``); a record may declare
its fields as the members of a named set (``keys: sets.colours``), each of
the one type its ``item`` gives. :func:`resolve_field` turns every such
field into a plain one (a ``type``, and the ``item`` or ``fields`` it has)
when a spec is loaded. The state models (:mod:`rulepress.states.models`),
the spec check, the state template and the texts extracted for translation
(:mod:`rulepress.states.texts`) all read fields resolved here, so that
they cannot disagree about what a field is.

A record keyed by a set keeps its ``keys`` beside the fields made from them
(the spec check looks at its ``item`` once, not once per member), and each
field made from a member has no title of its own: readers see the
vocabulary's word for the member, translated once, with the vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulepress.errors import Problem
from rulepress.expressions import current
from rulepress.model.spec_model import NAME_RE, FieldSpec, Spec, StateFormat
from rulepress.yamlsrc import DataPath, SourceMap, format_path

#: how deep ``use`` may chain (deeper is taken for a cycle)
MAX_USE_DEPTH = 8
#: most fields a state format's players or table may expand to, walked as a tree (every
#: item and field where it stands, as the state models build them); the shipped games'
#: largest has 43 (Stationfall's players), so this leaves a hundredfold room
MAX_FORMAT_FIELDS = 5_000

#: called with the place (below the field) and the message of each problem found
Report = Callable[[DataPath, str], None]


def _ignore(path: DataPath, message: str) -> None:
    """A report that keeps nothing: what reads plain data leaves its problems to the loader."""


def resolve_field(
    field: FieldSpec,
    shared: Mapping[str, FieldSpec],
    path: DataPath = (),
    report: Report = _ignore,
    depth: int = 0,
) -> FieldSpec:
    """``field`` with every ``use`` and ``keys`` in it (and below it) resolved."""
    return Resolver(shared, report).field(field, path, depth)


class Resolver:
    """Resolves the fields of one spec, each named field type once.

    A field type may use others, and be used many times: resolved afresh at
    every use, types whose fields use the next one (each twice, eight deep)
    took 2^8 times the work of one, and ten fields each took ten to the eighth.
    So each named type is resolved once, where it is first used (a problem in
    it is reported there), and every later use shares the result; a type
    that uses itself, however far round, is reported at once instead of being
    expanded until the depth bound. What the shared results expand into
    when walked as a tree is bounded by :func:`expanded_size`.
    """

    def __init__(self, shared: Mapping[str, FieldSpec], report: Report = _ignore) -> None:
        self.shared = shared
        self.report = report
        self.done: dict[str, FieldSpec] = {}
        self.open: list[str] = []
        self.budget = current()

    def field(self, field: FieldSpec, path: DataPath = (), depth: int = 0) -> FieldSpec:
        """``field`` with every ``use`` and ``keys`` in it (and below it) resolved."""
        report = self.report
        self.budget.charge(1 + len(field.fields), "the state formats' field types", path)
        if field.use is not None:
            return self._used(field, path, depth)
        if field.type is None:
            report(path, "a field needs 'type' (or 'use')")
            return field
        if field.translate and field.type != "text":
            report(path + ("translate",), "only a text field can be translated (translate: true)")
        item = self.field(field.item, path + ("item",), depth) if field.item else None
        # two records or lists are told apart by no one id, so only single values can be
        # unique (the state check compares them as they are written)
        if field.unique and (field.type != "list" or (item and item.type in ("record", "list"))):
            report(
                path + ("unique",),
                "only a list of single values (int, text, choice, player) can be unique",
            )
        fields = {n: self.field(f, path + ("fields", n), depth) for n, f in field.fields.items()}
        if field.keys:
            self.budget.charge(len(field.keys), "the state formats' field types", path)
            fields = _keyed(field, item, fields, path, report)
        return field.model_copy(update={"item": item, "fields": fields})

    def _used(self, field: FieldSpec, path: DataPath, depth: int) -> FieldSpec:
        """A field that reuses a named field type, with its own description, title, flags, draw."""
        report, name = self.report, field.use or ""
        found = self.shared.get(name)
        if field.type is not None:
            report(path, "give either 'type' or 'use', not both")
        if field.keys:
            report(path + ("keys",), "give either 'keys' or 'use', not both")
        if found is None or depth > MAX_USE_DEPTH or name in self.open:
            known = ", ".join(sorted(self.shared)) or "none"
            report(path + ("use",), f"no field type {field.use!r} (field_types: {known})")
            return field
        update: dict[str, Any] = {"description": field.description}
        for attr in ("title", "default", "draw"):
            if getattr(field, attr) is not None:
                update[attr] = getattr(field, attr)
        for flag in ("optional", "translate"):
            if getattr(field, flag):
                update[flag] = True
        # a problem inside the shared type is reported where it is first used: the
        # loader resolves only the fields of formats (a type nothing uses is never read)
        resolved = self.done.get(name)
        if resolved is None:
            self.open.append(name)
            try:
                resolved = self.field(found, path, depth + 1)
            finally:
                self.open.pop()
            self.done[name] = resolved
        resolved = resolved.model_copy(update=update)
        if field.translate and resolved.type != "text":
            report(path + ("translate",), "only a text field can be translated (translate: true)")
        return resolved


def expanded_size(field: FieldSpec, memo: dict[int, int] | None = None) -> int:
    """How many fields ``field`` is when walked as a tree (itself, its items and fields).

    Counted over the shared results (by identity) in time linear in the spec:
    the state models, the JSON Schema and the state template walk a format as
    a tree, and field types that use each other can make that tree exponential.
    """
    memo = {} if memo is None else memo
    key = id(field)
    known = memo.get(key)
    if known is not None:
        return known
    size = 1 + (expanded_size(field.item, memo) if field.item is not None else 0)
    for inner in field.fields.values():
        size += expanded_size(inner, memo)
    memo[key] = size
    return size


def _keyed(
    field: FieldSpec,
    item: FieldSpec | None,
    fields: dict[str, FieldSpec],
    path: DataPath,
    report: Report,
) -> dict[str, FieldSpec]:
    """The fields of a record keyed by a set: one per member, each of type ``item``."""
    here = path + ("keys",)
    if field.type != "record":
        report(here, "only a record's fields can be the members of a set (type: record)")
    elif fields:
        report(here, "give either 'fields' or 'keys', not both")
    elif item is None:
        report(path, "a record with 'keys' needs 'item', the type of each of its fields")
    else:
        # a field is read by its name in expressions (influence.komek)
        unnamed = [m for m in field.keys if not NAME_RE.match(m)]
        if unnamed:
            shown = ", ".join(map(repr, unnamed))
            report(here, f"a field's name is lower_snake_case: {shown} cannot name a field")
        return {
            member: item.model_copy(update={"description": f"{label}: {item.description}"})
            for member, label in field.keys.items()
        }
    return fields


def resolve_format(
    fmt: StateFormat, shared: Mapping[str, FieldSpec], path: DataPath, report: Report = _ignore
) -> StateFormat:
    """A state format with the fields of its players and table resolved."""
    parts: dict[str, Any] = {}
    resolver = Resolver(shared, report)
    for section in ("players", "table"):
        record = getattr(fmt, section)
        base = path + (section, "fields")
        fields = {n: resolver.field(f, base + (n,)) for n, f in record.fields.items()}
        memo: dict[int, int] = {}
        size = sum(expanded_size(f, memo) for f in fields.values())
        if size > MAX_FORMAT_FIELDS:
            whose = "the players'" if section == "players" else "the table's"
            report(
                path + (section,),
                f"{whose} fields expand to {size:,} fields, more than the bound of "
                f"{MAX_FORMAT_FIELDS:,} (field types that use each other multiply)",
            )
            fields = {}  # nothing walks the expansion: the problem stops the load
        parts[section] = record.model_copy(update={"fields": fields})
    return fmt.model_copy(update=parts)


def resolve_field_types(spec: Spec, sources: SourceMap) -> tuple[Spec, list[Problem]]:
    """``spec`` with every state format's fields resolved; the problems found, located.

    Done once at load time, so that the checks, the state validator and the
    JSON Schema only ever see plain field definitions.
    """
    problems: list[Problem] = []

    def report(path: DataPath, message: str) -> None:
        problems.append(Problem(sources.locate(path), format_path(path), message))

    formats = {
        fmt_id: resolve_format(fmt, spec.field_types, ("table_states", fmt_id), report)
        for fmt_id, fmt in spec.table_states.items()
    }
    return spec.model_copy(update={"table_states": formats}), problems
