"""A compiled first try at reading a state into records: the quick path's reading, sooner.

The quick path reads a state with a pydantic-core validator of the strict
model's schema, each model made a call of
:class:`~rulepress.expressions.records.Record`
(:func:`rulepress.states.quick.record_schema`). That validator is the
oracle: a :class:`Reader` made of the same schema (:func:`reader_of`) reads
a state into the records it makes, or says *not known* (:data:`UNKNOWN`),
and then the validator reads it as before. A reader never refuses a state,
so it need only be sound: whatever it reads, the validator accepts, with
records equal to its own (the same keys in the same order, of the same
types all the way down: Record, list, str, int, bool, None).

Home-made, for speed: pydantic-core's walk of a nine-player Stationfall state
is most of the quick check (callgrind, see quick.py); mypyc makes each kind of
node here a native class whose ``read`` is a call through a vtable, and the
values a state repeats (ids, names, choices) are looked up rather than
validated again. It knows exactly the shapes :func:`reader_of` lists, and
only values of the exact types a state parsed from YAML or JSON holds
(``type(v) is dict``, ``list``, ``str``, ``int``, ``bool``): anything else,
which the strict model may still accept (a ``str`` subclass, a dict
subclass), is not known, and left to the validator.

The texts (patterns, lengths, a player's id) are not checked here: a
pattern of pydantic-core's Rust regex is not one of Python's ``re`` (``$``
is the end of the text there, not before a last line break), so each text
is checked by a validator of its own leaf's schema, once per distinct
value (:class:`_Texts`).

Measured (callgrind, instructions per state of reading the benchmark's
first 200 nine-player Stationfall states, freeing the records included):
pydantic-core's validator 0.670 M; this reader 0.387 M. Its record is made
empty and filled key by key as the keys come (see :class:`_Model`); other
ways cost more: each field looked up in the state (0.462 M, the fields in
lists; 0.440 M walking the keys as now, the fields in lists), or each
record a copy of a template of its keys, then filled: by lookups (0.510
M), from a list of slots filled first (0.573 M), or by a walk in the
format's order that starts again by lookups when a key comes out of order
(0.532 M: the benchmark's Agenda lines are not in the format's order).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import Any, Final, cast

from pydantic_core import CoreConfig, SchemaValidator, ValidationError

from rulepress.expressions.records import Record


class _Unknown:
    """The type of :data:`UNKNOWN` (its own, so no value of a state is ever it)."""

    __slots__ = ()


#: what a reader gives for a value it does not know: the validator then reads the state
UNKNOWN: Final = _Unknown()

#: the most distinct texts a leaf remembers: past it, it forgets them all and starts
#: again, so that a corpus of texts all different (names, free text) cannot grow memory
#: without bound (the benchmark's 200 nine-player Stationfall states leave 160 texts in
#: all eight of its leaves' memos)
MEMO_CAP: Final = 4096
#: a longer text is checked each time and not remembered (a few texts of a megabyte each
#: must not be kept 4,096 times over either)
MEMO_TEXT: Final = 256

#: keys of a schema that change nothing a reader gives (a note, how it is written out)
_INERT: Final = frozenset({"metadata", "serialization"})


class Reader:
    """Reads one value of a state as the validator would: its result, or :data:`UNKNOWN`."""

    def read(self, value: object) -> object:
        raise NotImplementedError


class _Any(Reader):
    """A state's ``game`` and ``sequence`` keys: any value, given back as it is."""

    def read(self, value: object) -> object:
        return value


class _Bool(Reader):
    def read(self, value: object) -> object:
        return value if type(value) is bool else UNKNOWN


class _Int(Reader):
    """An integer within its bounds (not a bool, which the strict model refuses)."""

    def __init__(self, low: int | None, high: int | None) -> None:
        self.low = low
        self.high = high

    def read(self, value: object) -> object:
        if type(value) is not int:
            return UNKNOWN
        n = value
        low = self.low
        high = self.high
        if (low is not None and n < low) or (high is not None and n > high):
            return UNKNOWN
        return value  # (the validator gives the same object)


class _Choice(Reader):
    """One of a literal's texts: the literal's own text object, as the validator gives."""

    def __init__(self, expected: dict[str, object]) -> None:
        self.expected = expected

    def read(self, value: object) -> object:
        if type(value) is not str:
            return UNKNOWN
        return self.expected.get(value, UNKNOWN)


class _Texts(Reader):
    """A text leaf (patterns, lengths, a player's id): its own validator, once per value.

    The leaf's validation is a function of the value alone (no model, no
    list, no function but the pure ones :func:`reader_of` is told of), so
    what it gave for a text it gives again. Values repeat heavily across
    states (ids p0..p8, identities, locations): a miss is rare.
    """

    def __init__(self, validator: SchemaValidator) -> None:
        self.validator = validator
        self.memo: dict[str, object] = {}

    def read(self, value: object) -> object:
        if type(value) is not str:
            return UNKNOWN
        text = value
        memo = self.memo
        made = memo.get(text, UNKNOWN)
        if made is UNKNOWN:
            try:
                made = self.validator.validate_python(text)
            except ValidationError:
                return UNKNOWN  # (not remembered: a bad state goes to the full check anyway)
            if len(text) <= MEMO_TEXT:
                if len(memo) >= MEMO_CAP:
                    memo.clear()
                memo[text] = made
        return made


class _List(Reader):
    """A list within its length bounds, its items read; a new list, as the validator makes."""

    def __init__(self, item: Reader, low: int, high: int, once: bool) -> None:
        self.item = item
        self.low = low
        self.high = high
        #: no item twice (quick._no_item_twice): the items are scalars, so hashable
        self.once = once

    def read(self, value: object) -> object:
        if type(value) is not list:
            return UNKNOWN
        items = cast(list[object], value)
        n = len(items)
        if n < self.low or n > self.high:
            return UNKNOWN
        item = self.item
        # appended to: a list made whole first ([None] * n, each item set in its place)
        # read a Stationfall state in 0.408 M instructions, against 0.387 M so
        out: list[object] = []
        for x in items:
            made = item.read(x)
            if made is UNKNOWN:
                return UNKNOWN
            out.append(made)
        if self.once and n > 1 and len(set(out)) != n:
            return UNKNOWN
        return out


class _Fill:
    """What a model's field left out of a state is given."""

    def make(self) -> object:
        raise NotImplementedError


class _Value(_Fill):
    """A default of an immutable scalar: the very object (pydantic-core copies no such default)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def make(self) -> object:
        return self.value


class _Factory(_Fill):
    def __init__(self, factory: Callable[[], object]) -> None:
        self.factory = factory

    def make(self) -> object:
        return self.factory()


class _ReadDefault(_Fill):
    """A default validated where it is used (``validate_default``): read by the field's reader."""

    def __init__(self, source: _Fill, reader: Reader) -> None:
        self.source = source
        self.reader = reader

    def make(self) -> object:
        return self.reader.read(self.source.make())


class _Field:
    """One field of a record: its reader, its default (None: required), the field after it."""

    def __init__(self, name: str, reader: Reader, fill: _Fill | None, place: int) -> None:
        self.name = name
        self.reader = reader
        self.fill = fill
        self.place = place
        self.after: _Field | None = None


class _Model(Reader):
    """A record: an exact dict of text keys, each a field; the fields in the schema's order.

    The fields are a chain of native objects rather than lists of readers and
    defaults: an attribute of a native class is read with no check of its
    type, where an item of a list was checked as it was taken (callgrind, per
    Stationfall state read, 0.440 M instructions to 0.387 M).
    """

    def __init__(self, fields: list[_Field]) -> None:
        for before, field in pairwise(fields):
            before.after = field
        self.first: _Field | None = fields[0] if fields else None
        #: each field by name
        self.index = {field.name: field for field in fields}

    def read(self, value: object) -> object:
        if type(value) is not dict:
            return UNKNOWN
        # The state's keys are walked in their order beside the fields in theirs, and
        # the record made in the fields' order as it goes (as the validator makes it):
        # a key that is the next field's name is read with no lookup (a state written
        # in the format's order, a program's mostly, is read with none). Another key is
        # looked up: a field after the next puts the fields before it in place first
        # (a default, or None until a required one comes); one before it was put in
        # place so, and is now given its value, in the same place.
        out = Record()
        after = self.first  # the next field not yet in place (None: all are)
        waiting = 0  # required fields put in place before their key came
        for key, given in value.items():
            # keys of any other type than str are refused by the validator, or, for a
            # str subclass, taken as the field's name: either way not known here (and
            # the lookup below then compares texts only, never an object's own __eq__)
            if type(key) is not str:
                return UNKNOWN
            if after is not None and after.name == key:
                field = after
            else:
                found = self.index.get(key)
                if found is None:
                    return UNKNOWN  # a key that is no field
                field = found
                if after is None or field.place < after.place:
                    # (each key comes once: a field before the next was put in place)
                    if field.fill is None:
                        waiting -= 1
                else:
                    while after is not None and after is not field:
                        fill = after.fill
                        if fill is None:
                            out[after.name] = None
                            waiting += 1
                        else:
                            made = fill.make()
                            if made is UNKNOWN:
                                return UNKNOWN
                            out[after.name] = made
                        after = after.after
            made = field.reader.read(given)
            if made is UNKNOWN:
                return UNKNOWN
            out[field.name] = made
            if field is after:
                after = field.after
        if waiting:
            return UNKNOWN  # a required field left out
        while after is not None:
            fill = after.fill
            if fill is None:
                return UNKNOWN  # a required field left out
            made = fill.make()
            if made is UNKNOWN:
                return UNKNOWN
            out[after.name] = made
            after = after.after
        return out


class _ShapeError(Exception):
    """A schema of a shape :func:`reader_of` does not know: no reader for it."""


class _Builder:
    """Makes the readers of one record schema (see :func:`reader_of`)."""

    def __init__(
        self,
        config: CoreConfig,
        at_most: type,
        pure: tuple[Callable[[Any], Any], ...],
        once: Callable[[Any], Any],
    ) -> None:
        self.config = config
        self.at_most = at_most
        self.pure = pure
        self.once = once

    def reader(self, schema: Mapping[str, Any]) -> Reader:
        kind = schema.get("type")
        if kind == "chain":
            return self.model(schema)
        if kind == "any":
            _keys(schema, set())
            return _Any()
        if kind == "bool":
            _keys(schema, {"strict"})
            _strict(schema)
            return _Bool()
        if kind == "int":
            _keys(schema, {"strict", "ge", "le"})
            _strict(schema)
            return _Int(_bound(schema, "ge"), _bound(schema, "le"))
        if kind == "literal":
            _keys(schema, {"expected"})
            expected = schema["expected"]
            if not expected or any(type(e) is not str for e in expected):
                raise _ShapeError
            return _Choice({e: e for e in expected})
        if kind == "list":
            return self.listed(schema, None, once=False)
        if kind == "function-before":
            _keys(schema, {"function", "schema"})
            bound = self.function(schema)
            if not isinstance(bound, self.at_most):
                raise _ShapeError
            # refuses a list longer than its bound before its items, and passes all else
            # on as it is: the same lists as the inner list's with the lower bound
            high = getattr(bound, "high", None)
            if type(high) is not int:
                raise _ShapeError
            return self.listed(schema["schema"], high, once=False)
        if kind == "function-after":
            _keys(schema, {"function", "schema"})
            if self.function(schema) is self.once:
                return self.listed(schema["schema"], None, once=True)
        if self.text(schema):
            return _Texts(SchemaValidator(cast(Any, dict(schema)), config=self.config))
        raise _ShapeError

    def function(self, schema: Mapping[str, Any]) -> object:
        """The function of a plain (no-info) validator function's schema."""
        function = schema["function"]
        if function.get("type") != "no-info" or set(function) != {"type", "function"}:
            raise _ShapeError
        return cast(object, function["function"])

    def listed(self, schema: Mapping[str, Any], high: int | None, *, once: bool) -> Reader:
        if schema.get("type") != "list":
            raise _ShapeError
        _keys(schema, {"items_schema", "min_length", "max_length", "strict"})
        _strict(schema)
        if "items_schema" not in schema:
            raise _ShapeError
        item = self.reader(schema["items_schema"])
        if once and type(item) not in (_Texts, _Choice, _Int, _Bool):
            raise _ShapeError  # (a set of records or lists cannot be made)
        low = _bound(schema, "min_length")
        top = _bound(schema, "max_length")
        bounds = [b for b in (high, top) if b is not None]
        return _List(item, low or 0, min(bounds) if bounds else sys.maxsize, once)

    def text(self, schema: Mapping[str, Any]) -> bool:
        """Whether ``schema`` is a leaf whose value is a text, validated as a function of it."""
        kind = schema.get("type")
        if kind == "str":
            _keys(schema, {"pattern", "min_length", "max_length", "strict"})
            _strict(schema)
            return True
        if kind == "union":
            _keys(schema, {"choices", "mode"})
            choices = schema["choices"]
            return bool(choices) and all(type(c) is dict and self.text(c) for c in choices)
        if kind == "function-after":
            _keys(schema, {"function", "schema"})
            return self.function(schema) in self.pure and self.text(schema["schema"])
        return False

    def model(self, schema: Mapping[str, Any]) -> Reader:
        # [an instance of dict, then Record called with its fields as keyword arguments]
        _keys(schema, {"steps"})
        steps = schema["steps"]
        if len(steps) != 2:
            raise _ShapeError
        first, call = steps
        _keys(first, {"cls"})
        _keys(call, {"arguments_schema", "function"})
        if first.get("type") != "is-instance" or first["cls"] is not dict:
            raise _ShapeError
        if call.get("type") != "call" or call["function"] is not Record:
            raise _ShapeError
        arguments = call["arguments_schema"]
        _keys(arguments, {"arguments_schema"})
        if arguments.get("type") != "arguments":
            raise _ShapeError
        fields: list[_Field] = []
        for parameter in arguments["arguments_schema"]:
            if set(parameter) != {"name", "schema", "mode"} or parameter["mode"] != "keyword_only":
                raise _ShapeError
            name = parameter["name"]
            if type(name) is not str or any(f.name == name for f in fields):
                raise _ShapeError
            inner = parameter["schema"]
            fill: _Fill | None = None
            if inner.get("type") == "default":
                reader = self.reader(inner["schema"])
                fill = _default(inner, reader)
            else:
                reader = self.reader(inner)
            # the key as the validator gives it, interned (see quick._model)
            fields.append(_Field(sys.intern(name), reader, fill, len(fields)))
        return _Model(fields)


def _default(schema: Mapping[str, Any], reader: Reader) -> _Fill:
    """What a field of this ``default`` schema is given when a state leaves it out."""
    _keys(
        schema,
        {"schema", "default", "default_factory", "default_factory_takes_data"}
        | {"validate_default"},
    )
    source: _Fill
    if "default_factory" in schema:
        if "default" in schema or schema.get("default_factory_takes_data", False) is not False:
            raise _ShapeError
        source = _Factory(schema["default_factory"])
    elif "default" in schema:
        source = _Value(schema["default"])
    else:
        raise _ShapeError
    validate = schema.get("validate_default", False)
    if validate is True:
        return _ReadDefault(source, reader)
    if validate is not False:
        raise _ShapeError
    if isinstance(source, _Value) and type(source.value) not in (type(None), bool, int, str):
        # pydantic-core gives a copy of a default that is not hashable; a shared one of
        # another kind would be the callers' to change
        raise _ShapeError
    return source


def _keys(schema: Mapping[str, Any], known: set[str]) -> None:
    """Refuses a schema with a key that is not its type, one of ``known`` or an inert one."""
    for key in schema:
        if key != "type" and key not in known and key not in _INERT:
            raise _ShapeError


def _strict(schema: Mapping[str, Any]) -> None:
    """A schema's own ``strict`` may only say what the validator's config says."""
    if schema.get("strict", True) is not True:
        raise _ShapeError


def _bound(schema: Mapping[str, Any], key: str) -> int | None:
    value = schema.get(key)
    if value is not None and type(value) is not int:
        raise _ShapeError
    return value


def reader_of(
    schema: Mapping[str, Any],
    config: CoreConfig,
    *,
    at_most: type,
    pure: tuple[Callable[[Any], Any], ...],
    once: Callable[[Any], Any],
) -> Reader | None:
    """A reader of what ``SchemaValidator(schema, config=config)`` reads; None if none is made.

    ``config`` must be strict (the readers take no value the strict types
    would convert). Known: a record (``chain`` of an ``is-instance`` of dict
    and a ``call`` of Record on keyword-only ``arguments``, each maybe a
    ``default``), ``list``, ``int`` (``ge``, ``le``), ``bool``, a ``literal`` of
    texts, ``any``, a ``function-before`` of ``at_most`` (a class whose
    instances have ``high``) on a list, a ``function-after`` of ``once`` (no
    item twice) on a list of scalars, and text leaves: ``str``, a ``union`` of
    text leaves, a ``function-after`` of one of ``pure`` (a check of the
    value alone) on a text leaf. Any other kind or key: None.
    """
    if config.get("strict") is not True or not {"strict", "title"}.issuperset(config):
        return None
    try:
        return _Builder(config, at_most, pure, once).reader(schema)
    except _ShapeError:
        return None
