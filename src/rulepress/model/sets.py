"""Named sets: a list of ids written once (the spec's ``sets:``) and used by name.

A game names the same things in many places: the factions a vote is over,
the kinds a set-collection step groups, the choices a state field allows,
the colours an expression walks over. A named set lists them once::

    sets:
      factions: [komek, henko, magnomi, ventus]
      colours: [sets.factions, sorelia, ua]     # another set's members, then more

and every place that takes such a list takes ``sets.factions`` instead:
``kinds`` and ``candidates`` (whose labels are then the spec's
``vocabulary`` words, written once too), a state field's ``choices``, and
expressions (``for c in sets.colours``).

The references are resolved while the spec model is validated (see
:func:`resolving`), so the scorer, the pages and the checks only ever see
plain lists and mappings. A resolved value remembers the set it came from
and serializes back to its reference: a translated spec (which is rebuilt
from the dump of the English one) takes its labels from the translated
vocabulary, and the labels are messages in one place only.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NamedTuple

from rulepress.expressions import current
from rulepress.yamlsrc import DataPath

#: how a spec names a set where it could write the list itself
SET_REF_RE = re.compile(r"^sets\.([a-z][a-z0-9_]*)$")
#: how a message describes that syntax
SET_REF_SYNTAX = "'sets.<name>'"


class SetList(list[str]):
    """A list resolved from a named set; it serializes back to its reference."""

    ref: str

    def __init__(self, items: list[str], ref: str) -> None:
        super().__init__(items)
        self.ref = ref


class SetLabels(dict[str, str]):
    """Ids mapped to labels, resolved from a named set and the vocabulary."""

    ref: str

    def __init__(self, items: Mapping[str, str], ref: str) -> None:
        super().__init__(items)
        self.ref = ref


class Expanded(NamedTuple):
    """Every set with its members spelled out, and what is wrong with the section."""

    members: dict[str, list[str]]
    problems: list[tuple[DataPath, str]]


def expand(section: Any) -> Expanded:
    """The ``sets`` section as raw data, each set's entries spelled out in order.

    An entry is an id or ``sets.<name>`` (that set's members, in its order).
    Unknown sets, cycles and ids given twice are problems at the entry that
    causes them; what is not a list of text is left to the model's own
    validation (and skipped here).
    """
    out = Expanded({}, [])
    if not isinstance(section, dict):
        return out
    raw = {k: v for k, v in section.items() if isinstance(k, str) and isinstance(v, list)}
    done: dict[str, list[str]] = {}
    budget = current()

    def spell(name: str, stack: tuple[str, ...]) -> list[str]:
        if name in done:
            return done[name]
        members: list[str] = []
        # the members as a set too: the check for an id given twice is then linear in
        # the set's size (a list's ``in`` made a set of 50,000 ids take minutes)
        seen: set[str] = set()
        for i, entry in enumerate(raw[name]):
            if not isinstance(entry, str):
                continue
            match = SET_REF_RE.match(entry)
            if match is None:
                items = [entry]
            elif match[1] not in raw:
                out.problems.append(
                    (("sets", name, i), f"no set {match[1]!r} (sets: {', '.join(sorted(raw))})")
                )
                continue
            elif match[1] in stack or match[1] == name:
                cycle = " → ".join((*stack, name, match[1]))
                out.problems.append((("sets", name, i), f"the sets include each other: {cycle}"))
                continue
            else:
                items = spell(match[1], (*stack, name))
            budget.charge(len(items), f"the named set {name!r}", ("sets", name, i))
            twice = []
            for item in items:
                if item in seen:
                    twice.append(item)
                else:
                    seen.add(item)
                    members.append(item)
            if twice:  # one problem per entry: a set included again repeats all its ids
                more = f" (and {len(twice) - 1} more)" if len(twice) > 1 else ""
                out.problems.append((("sets", name, i), f"{twice[0]!r}{more} is in the set twice"))
        done[name] = members
        return members

    for name in raw:
        out.members[name] = spell(name, ())
    return out


class _Scope(NamedTuple):
    members: dict[str, list[str]]
    vocabulary: dict[str, str]


#: the sets of the spec being validated (set by :func:`resolving`)
_CURRENT: ContextVar[_Scope | None] = ContextVar("rulepress_named_sets", default=None)


@contextmanager
def resolving(data: Any) -> Iterator[None]:
    """While validating spec ``data``, resolve ``sets.<name>`` from its own sections.

    A context variable rather than pydantic's validation context: every
    ``Spec.model_validate`` (the loader's, and the one that rebuilds a
    translated spec) resolves the same way without each caller passing it.
    """
    section = data.get("sets") if isinstance(data, dict) else None
    words = data.get("vocabulary") if isinstance(data, dict) else None
    vocabulary = (
        {k: v for k, v in words.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(words, dict)
        else {}
    )
    token = _CURRENT.set(_Scope(expand(section).members, vocabulary))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def _lookup(ref: str) -> tuple[_Scope, list[str]]:
    scope = _CURRENT.get()
    match = SET_REF_RE.match(ref)
    if match is None:
        raise ValueError(f"{ref!r} is neither a list nor a set ({SET_REF_SYNTAX})")
    if scope is None:
        raise ValueError(f"{ref!r}: a named set is known only inside a whole spec")
    if match[1] not in scope.members:
        known = ", ".join(sorted(scope.members)) or "none"
        raise ValueError(f"no set {match[1]!r} (sets: {known})")
    members = scope.members[match[1]]
    # every reference is spelled out where it stands: a huge set named many times costs
    current().charge(len(members), f"the uses of the named set {match[1]!r}")
    return scope, members


def set_list(value: Any, handler: Callable[[Any], Any]) -> Any:
    """Pydantic wrap validator: a list, or ``sets.<name>`` resolved to its members."""
    if not isinstance(value, str):
        return handler(value)
    _, members = _lookup(value)
    return SetList(handler(list(members)), value)


def set_labels(value: Any, handler: Callable[[Any], Any]) -> Any:
    """Pydantic wrap validator: ids → labels, or ``sets.<name>`` labelled by the vocabulary."""
    if not isinstance(value, str):
        return handler(value)
    scope, members = _lookup(value)
    unnamed = [m for m in members if m not in scope.vocabulary]
    if unnamed:
        raise ValueError(
            f"{value} labels its members with the vocabulary, which has no word for "
            f"{', '.join(map(repr, unnamed))}"
        )
    return SetLabels(handler({m: scope.vocabulary[m] for m in members}), value)


def as_written(value: Any, handler: Callable[[Any], Any]) -> Any:
    """Pydantic wrap serializer: a resolved value dumps as the reference it was written as."""
    if isinstance(value, SetList | SetLabels):
        return value.ref
    return handler(value)


def spelled_out(section: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Each set of a validated spec's ``sets`` with its members spelled out.

    Callers that need it for every state keep it per spec (the scorer's
    per-spec data, the state check's sets record).
    """
    return expand(dict(section)).members
