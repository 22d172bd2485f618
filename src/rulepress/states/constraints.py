"""The constraints of a state format, asked of each record of a table state.

A constraint (:class:`~rulepress.model.spec_model.Constraint`) is written in one of
two ways. Plainly, its ``test`` is asked once of the record (a player, or
the table). Per member, ``items`` gives a collection and ``test`` is asked
once for each member, which ``item`` names; every member that fails is a
problem of its own, with its own message, at the place ``field`` names::

    constraints:
      - items: sets.colours
        item: colour
        let:
          voted: sum(v.count for v in table.votes if v.player == id and v.cube == colour)
          held: get(influence, colour)
        test: voted <= held
        field: influence.{colour}
        message: votes {voted} {colour} cube(s) but holds only {held}

``let`` names values worked out once (once per member), in order, for the
``test``, the ``args`` and the message; the message may show a ``let``
name and the member as placeholders, besides its ``args``. Before this
form, such a rule was written as one ``all(...)`` for the test and one
``first(...)`` per message argument, each repeating the test to find the
failing member again, and only the first failing member was told.

``{name}`` in ``field`` (the member's name in braces) stands for the
member: its key in a record (``influence.{colour}`` is ``influence.komek``)
or its place in a list (``ships.{ship}`` is ``ships[2]``), so each
problem points at the value it is about.

Work. Every expression one constraint evaluates for one record (``items``,
each member's ``let`` values and ``test``, a failing member's ``args``)
takes its steps from one budget of ``MAX_STEPS``
(:class:`~rulepress.expressions.expression.Steps`): a constraint over 10,000 members
costs what one expression may, not 10,000 times that. A record whose
constraint runs out of steps is refused with a problem naming the bound,
never accepted unchecked.

A member whose expressions cannot be evaluated (a field they read is
missing or of the wrong kind, which the field checks have already
reported) is skipped, as a plain constraint is; the other members are
still asked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rulepress.expressions.expression import (
    Expression,
    ExpressionEvalError,
    ExpressionLimitError,
    ExpressionSyntaxError,
    Steps,
    parse,
)
from rulepress.expressions.runtime import type_name
from rulepress.lazy_pattern import LazyPattern
from rulepress.model.spec_model import Constraint
from rulepress.model.text import PlainContext, to_plain
from rulepress.yamlsrc import DataPath

#: a part of ``field`` that stands for the member: its name in braces
MEMBER_PART = LazyPattern(r"^\{([a-z][a-z0-9_]*)\}$")


def failures(
    constraints: list[Constraint],
    record: Mapping[str, Any],
    names: Mapping[str, Any],
    plain: PlainContext | None,
    compiled: Callable[[str], Expression] = parse,
) -> Iterator[tuple[DataPath, str]]:
    """(path below the record, message) for each way ``record`` breaks ``constraints``.

    ``plain`` None leaves the messages (and the ``args`` they show) out, each
    message then "": for a caller who needs only where the problems are (the
    sampler's mending), which is most of the work of a refused record.

    ``names``: what the expressions read (the table-wide names, then the
    record's own fields); ``plain`` renders the messages; ``compiled``
    gives an expression for its source (the state check's cache).
    """
    for c in constraints:
        steps = Steps()
        try:
            yield from _failures(c, record, names, plain, steps, compiled)
        except ExpressionLimitError as exc:
            # refused, not skipped: a state the check cannot finish is not known to be good
            yield (
                _field_path(c.field, None, None, record),
                f"the state format's check {' '.join(c.test.split())!r} went past a bound"
                f" of the expression language ({exc.message})",
            )


def _failures(
    c: Constraint,
    record: Mapping[str, Any],
    names: Mapping[str, Any],
    plain: PlainContext | None,
    steps: Steps,
    compiled: Callable[[str], Expression],
) -> Iterator[tuple[DataPath, str]]:
    try:
        items = None if c.items is None else compiled(c.items)
        lets = [(name, compiled(source)) for name, source in c.let.items()]
        test = compiled(c.test)
        more = [(name, compiled(source)) for name, source in c.args.items()]
    except ExpressionSyntaxError:
        return  # not an expression: the spec check reports it where it is written
    if items is None:
        members: list[Any] | tuple[Any, ...] = [None]
    else:
        try:
            found = items.within(names, steps)
        except ExpressionLimitError:
            raise
        except ExpressionEvalError:
            return  # a field it reads is already reported as missing or wrong
        if found is None:
            return  # a list field that failed its own check: reported there
        if not isinstance(found, list | tuple):
            # the spec's mistake, seen only now: told, so the rule is not silently skipped
            yield (
                (),
                f"the check's items ({' '.join(items.source.split())}) gave"
                f" {type_name(found)}, not a list",
            )
            return
        members = found
    ns = dict(names)  # one namespace, the member and its let values set anew for each
    for member in members:
        if c.items is not None:
            ns[c.item] = member
        try:
            for name, expr in lets:
                ns[name] = expr.within(ns, steps)
            if test.within(ns, steps):
                continue
            if plain is None:
                yield (
                    _field_path(c.field, c.item if c.items is not None else None, member, record),
                    "",
                )
                continue
            args = {name: expr.within(ns, steps) for name, expr in more}
        except ExpressionLimitError:
            raise
        except ExpressionEvalError:
            continue  # a field it reads is already reported as missing or wrong
        shown = {name: ns[name] for name in c.let}
        if c.items is not None:
            shown[c.item] = member
        yield (
            _field_path(c.field, c.item if c.items is not None else None, member, record),
            to_plain(c.message, plain, {**shown, **args}),
        )


def _field_path(field: str, item: str | None, member: Any, record: Mapping[str, Any]) -> DataPath:
    """Where ``field`` points for ``member``: its parts, ``{item}`` made the member's key."""
    if not field:
        return ()
    out: list[str | int] = []
    value: Any = record
    for part in field.split("."):
        wanted = MEMBER_PART.match(part)
        if wanted is None:
            out.append(part)
            value = value.get(part) if isinstance(value, Mapping) else None
            continue
        if item is None or wanted.group(1) != item:
            break  # refused by the spec check; the field itself is the place
        key = _member_key(value, member)
        if key is None:
            break  # the member is not in that field: the field is the place
        out.append(key)
        value = value[key] if isinstance(key, int) or key in (value or {}) else None
    return tuple(out)


def _member_key(container: Any, member: Any) -> str | int | None:
    """The member's key in a record, or its place in a list (the very item, or an equal id)."""
    if isinstance(container, list):
        for i, value in enumerate(container):
            if value is member:
                return i
        if isinstance(member, str | int):
            for i, value in enumerate(container):
                if type(value) is type(member) and value == member:
                    return i
        return None
    if isinstance(member, str) and (container is None or isinstance(container, Mapping)):
        return member
    return None
