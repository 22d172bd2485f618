"""Records: the table state as the expression language sees it.

A record is a plain mapping of field name to value (a player, the table, a
bonus character, ``param``, ``ruling``, a tally's outcome). Expressions read
a field with ``a.b`` or ``get(a, name)``; neither ever touches a Python
attribute, so the only things an expression can reach are the fields a
record holds. Records built from a validated table state hold exactly the
fields the spec's state format declares.

:class:`Record` is its own type (a ``dict`` subclass with no extra state) so
that the interpreter can tell a record from any other mapping at the cost of
one ``type(x) is Record`` test, and so that a record never has attributes of
its own: field ``keys`` is ``record["keys"]``, never the method.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # (it comes with mypy, which only the compiled build needs)

    def mypyc_attr(**_: Any) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


# A class of Python's own making even in the compiled build (rulepress.compiled): the
# class mypyc made of it gave a record a weak reference slot that its deallocation
# left set, so a weak reference to a record (hypothesis keeps some) outlived it and
# crashed the garbage collector. As written, a record has no slot for one.
@mypyc_attr(native_class=False)
class Record(dict[str, Any]):
    """A record of named fields; read by expressions as ``record.field``."""

    __slots__ = ()


def record(value: Any) -> Any:
    """Nested plain data as records: every mapping becomes a :class:`Record`, lists are copied.

    The copy is deep for mappings and lists, so the scorer may update the
    records it gets without touching the caller's state.
    """
    kind = type(value)
    if kind is dict or kind is Record:
        # copied whole (in C), then only the nested mappings and lists are replaced
        out = Record(value)
        # most records of a table state (an Agenda line, a character, the cube
        # counts) hold only scalars: that test runs in C, without a Python loop
        if _SCALARS.issuperset(map(type, value.values())):
            return out
        for k, v in value.items():
            kind = type(v)
            if kind is list:  # inline: lists of scalars (ids, names) are common
                out[k] = [x if type(x) in _SCALARS else record(x) for x in v]
            elif kind not in _SCALARS:
                out[k] = record(v)
        return out
    if kind is list:
        return [v if type(v) in _SCALARS else record(v) for v in value]
    if isinstance(value, dict):
        return Record({k: record(v) for k, v in value.items()})
    if isinstance(value, list):
        return [record(v) for v in value]
    return value


_SCALARS = frozenset({int, str, bool, type(None)})


def owned(value: Any, paths: tuple[tuple[str, ...], ...]) -> Any:
    """``value`` for a caller who will write the fields at ``paths``, the caller's left as is.

    Each path names the records down to the one written (``("character",)``
    for ``character.state``). Plain data is copied whole, as :func:`record`
    copies it. A :class:`Record` is taken to be what :func:`record` and the
    state check make, records all the way down (a record holding a plain
    dict is not one): it is shared, and only it and the records along the
    paths are copied. Copying a whole 9-player state was a tenth of scoring
    it, and the scorer writes two or three fields of it.
    """
    if type(value) is not Record:
        return record(value)
    out = Record(value)
    for path in paths:
        target = out
        for name in path:
            inner = target.get(name)
            if type(inner) is not Record:
                break  # nothing to write into: the writer reports it
            copy = Record(inner)
            target[name] = copy
            target = copy
    return out


def fields_record(values: Mapping[str, Any]) -> Record:
    """A record from names that may contain ``-`` (ids), read as ``_`` in expressions."""
    return Record({k.replace("-", "_"): record(v) for k, v in values.items()})


def plain(value: Any) -> Any:
    """The inverse of :func:`record`: plain dicts and lists (e.g. for JSON)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value
