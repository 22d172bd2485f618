"""The spec check of a state format's constraints (see :mod:`rulepress.states.constraints`).

Each expression of a constraint is checked with the names in scope where it
runs: the record's fields and the table-wide names, then, for a constraint
per member, the member's name, then its ``let`` names, each seen by the ones
after it. The names a constraint gives may not hide one the scope already
has (a field, ``param`` …): the expression would read another value than its
author meant. ``field`` must start with a field of the record, and its
``{name}`` part may only be the member's name.
"""

from __future__ import annotations

from rulepress.checks.base import CheckBase
from rulepress.expressions.expression import CONTEXT_FUNCTIONS, FUNCTIONS
from rulepress.model.spec_model import NAME_RE, Constraint, FieldSpec
from rulepress.states.constraints import MEMBER_PART
from rulepress.yamlsrc import DataPath

#: names an expression can only call: a let or a member may not take one
CALLABLE = frozenset(FUNCTIONS) | CONTEXT_FUNCTIONS


def check_constraint(
    check: CheckBase,
    path: DataPath,
    c: Constraint,
    scope: frozenset[str],
    field_names: frozenset[str],
    fields: dict[str, FieldSpec],
    table_fields: dict[str, FieldSpec],
) -> None:
    """Report what is wrong with constraint ``c`` at ``path``.

    ``scope``: the names its expressions may read; ``field_names``: the
    record's fields (a player's ``id`` included); ``fields``: their specs;
    ``table_fields``: the table's, read as ``table.<name>`` from a player's
    constraint.
    """
    per_member = c.items is not None
    if per_member:
        assert c.items is not None
        check.expression(path + ("items",), c.items, scope)
        _items_are_a_list(check, path + ("items",), c.items, fields, table_fields)
        if c.item in scope or c.item in CALLABLE:
            check.at(
                path + ("item",),
                f"the member's name {c.item!r} is already a name here (a field, a function,"
                " or one rulepress gives); choose another",
            )
        scope = scope | {c.item}
    elif "item" in c.model_fields_set:
        check.at(path + ("item",), "'item' names the members of 'items', which is not given")
    # the member is each of a named set given as the items: a name built from it is
    # checked for each (rulepress.checks.built_names)
    with check.ranging(c.item, c.items or ""):
        _expressions(check, path, c, scope, per_member)
    _field(check, path + ("field",), c, field_names)


def _expressions(
    check: CheckBase, path: DataPath, c: Constraint, scope: frozenset[str], per_member: bool
) -> None:
    """The constraint's ``let``, ``test`` and ``args``, and its message's placeholders."""
    for name, source in c.let.items():
        check.expression(path + ("let", name), source, scope)
        if name in scope or name in CALLABLE:
            check.at(
                path + ("let", name),
                f"let {name!r} is already a name here (a field, the member, a function,"
                " or one rulepress gives); choose another",
                key=True,
            )
        scope = scope | {name}
    check.expression(path + ("test",), c.test, scope)
    given = set(c.let) | ({c.item} if per_member else set())
    for arg, source in c.args.items():
        check.expression(path + ("args", arg), source, scope)
        if arg in given:
            check.at(
                path + ("args", arg),
                f"the message already shows {{{arg}}} (a let name or the member); drop the arg",
                key=True,
            )
    check.prose(path + ("message",), c.message, set(c.args) | given)


def _items_are_a_list(
    check: CheckBase,
    path: DataPath,
    source: str,
    fields: dict[str, FieldSpec],
    table_fields: dict[str, FieldSpec],
) -> None:
    """``items`` written as a field must be a list field (anything else is told when run)."""
    written = " ".join(source.split())
    spec = fields.get(written)
    if written.startswith("table.") and written.removeprefix("table.") in table_fields:
        spec = table_fields[written.removeprefix("table.")]
    if spec is not None and spec.type != "list":
        check.at(path, f"the members must be a list, and {written!r} is a {spec.type} field")


def _field(check: CheckBase, path: DataPath, c: Constraint, fields: frozenset[str]) -> None:
    if not c.field:
        return
    parts = c.field.split(".")
    if parts[0] not in fields:
        known = ", ".join(sorted(fields)) or "none"
        check.at(path, f"{parts[0]!r} is not a field of this record (fields: {known})")
        return
    for part in parts[1:]:
        member = MEMBER_PART.match(part)
        if member is not None:
            if c.items is None or member.group(1) != c.item:
                shown = f"{{{c.item}}}" if c.items is not None else "none, without 'items'"
                check.at(
                    path,
                    f"{part} in 'field' must be the member's name in braces ({shown})",
                )
        elif not NAME_RE.match(part):
            check.at(path, f"{part!r} in 'field' is not a field name (lower_snake_case)")
