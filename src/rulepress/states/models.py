"""A game's state format as generated pydantic models: one validator, one schema.

The spec's ``table_states`` say which fields a table state has, of which
type, within which bounds. :func:`state_models` turns one format into
pydantic models (``create_model``, with ``Annotated`` bounds, ``Literal``
choices and a nested model per record), resolving every ``param:name``
bound against the spec's parameters once, when the models are built. The
same models validate states (:mod:`rulepress.states.validation` turns their errors
into located problems) and are the JSON Schema editors get
(:func:`state_json_schema`), so the two cannot disagree.

Two models are built per format, by the same code: the *strict* one is the
state format itself; the *lenient* one reads a state the strict one refused,
so that the constraints and player references of the rest are still checked
and every problem is reported at once. In it a value that fails its type is
nothing (:data:`OR_NONE`), and the format's own bounds are left out: a count
above its bound still adds up in a constraint, as the player wrote it.

What a state's fields are called is the spec's business, not pydantic's: each
field gets a neutral Python name and the spec's name as its alias, so that a
field called ``json`` or ``model_fields`` is an ordinary field.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    create_model,
)
from pydantic_core import CoreSchema, core_schema

from rulepress.expressions import MAX_INT
from rulepress.model.spec_model import (
    MAX_STATE_ID,
    STATE_ID_SYNTAX,
    Bound,
    FieldSpec,
    Parameter,
    StateFormat,
)
from rulepress.states.quick import (
    AtMost,
    QuickCheck,
    RecordsHold,
    RefsHold,
    player_id,
    unique_scalars,
)
from rulepress.yamlsrc.reader import CONTROLS

#: a state's text: one line with no control (the YAML reader's rule for texts, which
#: a state given as data must keep too). ``\uXXXX`` escapes mean the same in
#: pydantic's (Rust) patterns, in ECMA-262 (editors) and in Python.
ONE_LINE = (
    "^[^" + "".join(c if c == "-" else f"\\u{ord(c):04x}" for c in CONTROLS + "\r\t\n") + "]*$"
)

_STRICT = ConfigDict(strict=True, extra="forbid")
_LENIENT = ConfigDict(strict=True, extra="ignore")


def bound(value: Bound | None, params: Mapping[str, Parameter]) -> int | None:
    """A bound's number, or None when there is none (or it names no parameter)."""
    if value is None or isinstance(value, int):
        return value
    param = params.get(value.removeprefix("param:"))
    # (a parameter map is no bound: the spec check says so, at the bound)
    return param.value if param and isinstance(param.value, int) else None


def length(value: Bound | None, params: Mapping[str, Parameter]) -> int | None:
    """A list's bound as a length: None when there is none, or when it is below 0.

    A length below 0 is the spec check's to report, at the bound; the check
    builds these models meanwhile (to try defaults and the worked examples'
    states), and pydantic cannot build a list whose length bound is negative.
    """
    value_of = bound(value, params)
    return value_of if value_of is None or value_of >= 0 else None


def players_spec(fmt: StateFormat) -> FieldSpec:
    """The players of a format as a list field of player records (for one walk of both)."""
    player = FieldSpec.model_construct(
        type="record", fields=dict(fmt.players.fields), description=""
    )
    return FieldSpec.model_construct(
        type="list", min=fmt.players.min, max=fmt.players.max, item=player, description=""
    )


def state_spec(fmt: StateFormat) -> FieldSpec:
    """A whole state as one record field: ``players`` and ``table``."""
    table = FieldSpec.model_construct(type="record", fields=dict(fmt.table.fields), description="")
    return FieldSpec.model_construct(
        type="record",
        fields={"players": players_spec(fmt), "table": table},
        description=fmt.description,
    )


def _at_most(high: int) -> BeforeValidator:
    """An oversize list refused on its length, before any item is looked at (see AtMost)."""
    return BeforeValidator(AtMost(high))


PlayerId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_STATE_ID,
        pattern=ONE_LINE,
        description=f"A short name for the player: {STATE_ID_SYNTAX}.",
    ),
    AfterValidator(player_id),
]


class _OrNone:
    """A value that fails its type is None (pydantic-core's ``on_error``: no Python call)."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.with_default_schema(handler(source), default=None, on_error="default")


OR_NONE = _OrNone()


@dataclass
class _Builder:
    """Builds the models of one format; ``lenient`` for the repair model."""

    params: Mapping[str, Parameter]
    lenient: bool

    def value_type(self, spec: FieldSpec, name: str, **first: Any) -> Any:
        """The type of a field's value; ``first``: fields a record has before its own (an id)."""
        kind = spec.type
        if kind == "record":
            return self.record(spec.fields, name, **first)
        if kind == "list":
            item = self.value_type(spec.item, name, **first) if spec.item is not None else Any
            low, high = length(spec.min, self.params), length(spec.max, self.params)
            if self.lenient:
                item, low = Annotated[item, OR_NONE], None
            extra: dict[str, Any] | None = {"uniqueItems": True} if spec.unique else None
            meta = Field(min_length=low, max_length=high, json_schema_extra=extra)
            checks = [_at_most(high)] if high is not None else []
            return Annotated[(list[item], meta, *checks)]  # type: ignore[valid-type]
        if kind == "int":
            # a bound the format leaves out is the one every integer of a state keeps
            low, high = bound(spec.min, self.params), bound(spec.max, self.params)
            if self.lenient:
                low = high = None
            ge, le = (-MAX_INT if low is None else low), (MAX_INT if high is None else high)
            return Annotated[int, Field(ge=ge, le=le)]
        if kind == "bool":
            return bool
        if kind in ("text", "player"):
            return Annotated[str, Field(min_length=1, pattern=ONE_LINE)]
        # a choice without choices is reported by the spec check; it accepts nothing
        return Literal[tuple(spec.choices) or ("\x00",)]

    def entry(self, spec: FieldSpec, name: str, alias: str) -> tuple[Any, Any]:
        kind = self.value_type(spec, name)
        if self.lenient:
            kind = Annotated[kind, OR_NONE]
        info: dict[str, Any] = {"alias": alias, "description": spec.description}
        if spec.default is not None:
            # checked like a value, so a record default such as {state: live}
            # gets its own sub-fields' defaults
            return kind, Field(spec.default, validate_default=True, **info)
        if spec.optional:
            return kind, Field(None, **info)
        if spec.type == "list" and (self.lenient or not length(spec.min, self.params)):
            # a list left out is an empty one (one with a least length is missing)
            return kind, Field(default_factory=list, **info)
        return kind, Field(None if self.lenient else ..., **info)

    def record(self, fields: Mapping[str, FieldSpec], name: str, **first: Any) -> type[BaseModel]:
        entries = dict(first)
        for i, (key, spec) in enumerate(fields.items()):
            entries[f"f{i}"] = self.entry(spec, f"{name}.{key}", key)
        config = _LENIENT if self.lenient else _STRICT
        model: type[BaseModel] = create_model(name, __config__=config, **entries)
        return model

    def state(
        self, root: FieldSpec, game: str | None = None, sequence: str | None = None
    ) -> type[BaseModel]:
        """The model of a whole state (``root``: :func:`state_spec`)."""
        pid: Any = (PlayerId, Field(..., alias="id"))
        if self.lenient:
            pid = (Any, Field(None, alias="id"))  # checked once, by the strict model
        players = self.value_type(root.fields["players"], "player", id=pid)
        table = self.value_type(root.fields["table"], "table")
        if self.lenient:
            table = Annotated[table, OR_NONE]
        config = _LENIENT if self.lenient else _STRICT
        model: type[BaseModel] = create_model(
            "state",
            __config__=config,
            __doc__=root.description,
            game=(_const(game), None),
            sequence=(_const(sequence), None),
            players=(players, ...),
            table=(table, Field(default_factory=dict, validate_default=True)),
        )
        return model


def _const(value: str | None) -> Any:
    """The type of a state's ``game`` or ``sequence`` key: that value, or any."""
    return Any if value is None else Literal[value]


# The strict model's core schema, written out directly. The quick path of the state
# check (rulepress.states.quick) reads a state with a validator made from that schema,
# and a good state, the common case, needs nothing else of the model. Building the
# model (create_model: a class per record, its schema generated, a validator and a
# serializer built for each, and pydantic's plugins looked up among every installed
# distribution the first time) took about a seventh of a warm `rulepress score`; this
# takes well under a millisecond, and the model is built when a state is refused or a
# JSON Schema is asked for. A test holds the two to the same schema for every format.


class SchemaRecord:
    """The class a record's model schema names (a model schema must name one).

    Nothing of its own runs: the quick path reads records as typed dicts, and a
    validator made straight from the schema would only set an instance's fields.
    """


def strict_schema(
    root: FieldSpec,
    params: Mapping[str, Parameter],
    game: str | None = None,
    sequence: str | None = None,
) -> CoreSchema:
    """The core schema of the strict model of a whole state (``root``: :func:`state_spec`)."""
    build = _Schemas(params)
    pid = core_schema.no_info_after_validator_function(
        player_id, core_schema.str_schema(min_length=1, max_length=MAX_STATE_ID, pattern=ONE_LINE)
    )
    first = {"id": core_schema.model_field(pid, validation_alias="id", serialization_alias="id")}
    table = core_schema.with_default_schema(
        build.value(root.fields["table"], "table", {}),
        default_factory=dict,
        default_factory_takes_data=False,
        validate_default=True,
    )
    fields = {
        "game": core_schema.with_default_schema(_const_schema(game), default=None),
        "sequence": core_schema.with_default_schema(_const_schema(sequence), default=None),
        "players": build.value(root.fields["players"], "player", first),
        "table": table,
    }
    return _record_schema({k: core_schema.model_field(v) for k, v in fields.items()}, "state")


def _const_schema(value: str | None) -> CoreSchema:
    return core_schema.any_schema() if value is None else core_schema.literal_schema([value])


def _record_schema(fields: dict[str, core_schema.ModelField], name: str) -> CoreSchema:
    """A strict record of ``fields`` that refuses other keys (as _Builder.record's model)."""
    return core_schema.model_schema(
        SchemaRecord,
        core_schema.model_fields_schema(fields, model_name=name, computed_fields=[]),
        custom_init=False,
        root_model=False,
        config=core_schema.CoreConfig(strict=True, extra_fields_behavior="forbid", title=name),
    )


@dataclass
class _Schemas:
    """The core schemas of one format's values: _Builder's strict types, as schemas."""

    params: Mapping[str, Parameter]

    def value(
        self, spec: FieldSpec, name: str, first: dict[str, core_schema.ModelField]
    ) -> CoreSchema:
        """A field's value; ``first``: fields a record has before its own (a player's id)."""
        kind = spec.type
        if kind == "record":
            fields = dict(first)
            for i, (key, sub) in enumerate(spec.fields.items()):
                fields[f"f{i}"] = core_schema.model_field(
                    self.entry(sub, f"{name}.{key}"), validation_alias=key, serialization_alias=key
                )
            return _record_schema(fields, name)
        if kind == "list":
            item: CoreSchema = core_schema.any_schema()
            if spec.item is not None:
                item = self.value(spec.item, name, first)
            low, high = length(spec.min, self.params), length(spec.max, self.params)
            listed = core_schema.list_schema(item, min_length=low, max_length=high)
            if high is None:
                return listed
            return core_schema.no_info_before_validator_function(AtMost(high), listed)
        if kind == "int":
            low, high = bound(spec.min, self.params), bound(spec.max, self.params)
            return core_schema.int_schema(
                ge=-MAX_INT if low is None else low, le=MAX_INT if high is None else high
            )
        if kind == "bool":
            return core_schema.bool_schema()
        if kind in ("text", "player"):
            return core_schema.str_schema(min_length=1, pattern=ONE_LINE)
        return core_schema.literal_schema(list(spec.choices) or ["\x00"])

    def entry(self, spec: FieldSpec, name: str) -> CoreSchema:
        """A record's field: its value, with its default when it may be left out."""
        kind = self.value(spec, name, {})
        if spec.default is not None:
            return core_schema.with_default_schema(
                kind, default=spec.default, validate_default=True
            )
        if spec.optional:
            return core_schema.with_default_schema(kind, default=None)
        if spec.type == "list" and not length(spec.min, self.params):
            return core_schema.with_default_schema(
                kind, default_factory=list, default_factory_takes_data=False
            )
        return kind


def comparable(schema: Any) -> Any:
    """A core schema without what validation never reads: classes, references, JSON Schema notes."""
    if isinstance(schema, list):
        return [comparable(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    return {k: comparable(v) for k, v in schema.items() if k not in ("cls", "ref", "metadata")}


class Refs(NamedTuple):
    """Where a value holds what no model checks: player ids (``player``), ``unique`` lists.

    Built once per format, so that the check after the model walks only the
    fields that hold such things, not every count and choice of a state.
    """

    player: bool = False
    unique: bool = False
    item: Refs | None = None
    fields: tuple[tuple[str, Refs], ...] = ()
    #: a ``unique`` list the quick path's reading checks (see quick.unique_scalars)
    read_unique: bool = False


def refs(spec: FieldSpec) -> Refs | None:
    """The :class:`Refs` of a field, or None when it holds neither."""
    if spec.type == "player":
        return Refs(player=True)
    if spec.type == "list":
        item = refs(spec.item) if spec.item is not None else None
        if not (spec.unique or item):
            return None
        return Refs(unique=spec.unique, item=item, read_unique=unique_scalars(spec))
    if spec.type == "record":
        fields = tuple((n, r) for n, f in spec.fields.items() if (r := refs(f)) is not None)
        return Refs(fields=fields) if fields else None
    return None


def quick_refs(plan: Refs | None) -> Refs | None:
    """``plan`` without the ``unique`` lists the quick path's reading has checked.

    For a state that reading has read (see
    :func:`rulepress.states.quick.record_reading` with the state's field
    spec); a state read otherwise is walked with the whole plan.
    """
    if plan is None or plan.player:
        return plan
    if plan.fields:
        fields = tuple((n, q) for n, sub in plan.fields if (q := quick_refs(sub)) is not None)
        return Refs(fields=fields) if fields else None
    unique = plan.unique and not plan.read_unique
    item = quick_refs(plan.item)
    return Refs(unique=unique, item=item) if unique or item else None


#: a field that names a player, and a list of them: what records_hold asks of all records at once
_PLAYER = Refs(player=True)
_PLAYERS = Refs(item=_PLAYER)
_LIST_OR_NONE = frozenset((list, type(None)))


def records_hold(plan: Refs | None) -> RecordsHold | None:
    """:func:`refs_hold` of each record of a list (a state's players): True when all hold.

    When every field ``plan`` looks at names a player or is a list of
    players (a Stationfall player's foreign Bribes), the ids of all the
    records are gathered and looked up at once, in C; else each record is
    asked in turn. For records the quick path's reading made (a field of
    each kind is there, a list or None); any other value is asked in turn.
    """
    one = refs_hold(plan)
    if one is None or plan is None:
        return None

    def each(records: list[Any], ids: Mapping[str, int]) -> bool:
        return all(one(rec, ids) for rec in records)

    if (
        plan.player
        or not plan.fields
        or any(sub not in (_PLAYER, _PLAYERS) for _, sub in plan.fields)
    ):
        return each
    named = tuple(itemgetter(n) for n, sub in plan.fields if sub == _PLAYER)
    listed = tuple(itemgetter(n) for n, sub in plan.fields if sub == _PLAYERS)

    def together(records: list[Any], ids: Mapping[str, int]) -> bool:
        try:
            found: set[Any] = set()
            for get in named:
                found.update(map(get, records))
            found.discard(None)  # an optional field left out
            for get in listed:
                lists = list(map(get, records))
                if not _LIST_OR_NONE.issuperset(map(type, lists)):
                    return each(records, ids)
                found.update(chain.from_iterable(filter(None, lists)))
            # (a value that is no id, of any kind, is not found: left to the walk)
            return ids.keys() >= found
        except (KeyError, TypeError):
            return each(records, ids)

    return together


def refs_hold(plan: Refs | None) -> RefsHold | None:
    """What :func:`~rulepress.states.validation._walk` looks for, asked as yes or not known (quickly).

    Yes when no ``player`` field names an unknown player and no ``unique``
    list has an item twice; None when ``plan`` has nothing to look for. The
    walk's own order of kinds is kept: a value of another kind than its plan
    expects holds nothing to report.
    """
    if plan is None:
        return None
    if plan.player:

        def player(value: Any, ids: Mapping[str, int]) -> bool:
            return not isinstance(value, str) or value in ids

        return player
    if plan.fields:
        fields = tuple((name, f) for name, sub in plan.fields if (f := refs_hold(sub)) is not None)

        # (loops, not all() of a generator: this runs for every record of every state)
        def record(value: Any, ids: Mapping[str, int]) -> bool:
            if not isinstance(value, dict):
                return True
            for name, f in fields:  # noqa: SIM110 (a generator's frame per record)
                if not f(value.get(name), ids):
                    return False
            return True

        return record
    item = refs_hold(plan.item)
    unique = plan.unique
    players = item is not None and plan.item is not None and plan.item.player

    def listed(value: Any, ids: Mapping[str, int]) -> bool:
        if not isinstance(value, list):
            return True
        try:
            # no item equal to one before it (the walk compares texts and numbers so;
            # any other item, even one it would let pass twice, is left to the walk)
            if unique and len(set(value)) != len(value):
                return False
            if players:
                # every id a player's (an item that is no text is left to the walk)
                return ids.keys() >= set(value)
        except TypeError:
            return False
        if item is not None:
            for v in value:
                if not item(v, ids):
                    return False
        return True

    return listed


@dataclass
class StateModels:
    """The generated models of one state format, with what they were built from.

    The strict model's core schema is made at once (see :func:`strict_schema`);
    the models themselves when first asked for.
    """

    params: Mapping[str, Parameter]
    #: the strict model's core schema, built directly: what the quick path reads states with
    schema: CoreSchema
    game: str | None
    #: the whole state as one field spec, to tell which field an error is about
    root: FieldSpec
    sequence: str | None = None
    _strict: type[BaseModel] | None = None
    _lenient: type[BaseModel] | None = None
    #: the quick path of the state check, made by it on first use (see rulepress.states.quick)
    quick: QuickCheck | None = None
    player_refs: Refs | None = field(init=False)
    table_refs: Refs | None = field(init=False)

    def __post_init__(self) -> None:
        players = self.root.fields["players"].item
        self.player_refs = refs(players) if players is not None else None
        self.table_refs = refs(self.root.fields["table"])

    @property
    def strict(self) -> type[BaseModel]:
        """The state format's model, built the first time a state is refused (or for a schema)."""
        if self._strict is None:
            self._strict = _Builder(self.params, lenient=False).state(
                self.root, self.game, self.sequence
            )
        return self._strict

    @property
    def lenient(self) -> type[BaseModel]:
        """The repair model, built the first time a state of this format is refused."""
        if self._lenient is None:
            self._lenient = _Builder(self.params, lenient=True).state(self.root)
        return self._lenient


#: by id(format): (the format, the parameters, the game, the sequence) -> its models
_CACHE: dict[int, dict[tuple[int, str | None, str | None], StateModels]] = {}


def state_models(
    fmt: StateFormat,
    params: Mapping[str, Parameter],
    game: str | None = None,
    sequence: str | None = None,
) -> StateModels:
    """The models of ``fmt`` with ``params``' bounds; built once per loaded format.

    ``game`` and ``sequence``, when given, are the only values the state's own
    keys may have. The cache holds a format's models while the format lives.
    """
    key = id(fmt)
    per_format = _CACHE.get(key)
    if per_format is None:
        per_format = _CACHE[key] = {}
        weakref.finalize(fmt, _CACHE.pop, key, None)
    wanted = (id(params), game, sequence)
    found = per_format.get(wanted)
    if found is None or found.params is not params:
        root = state_spec(fmt)
        found = StateModels(
            params, strict_schema(root, params, game, sequence), game, root, sequence
        )
        per_format[wanted] = found
    return found


def value_model(spec: FieldSpec, params: Mapping[str, Parameter]) -> type[BaseModel]:
    """A model of one field, ``value``: how the spec check tries a field's default."""
    builder = _Builder(params, lenient=False)
    kind, info = builder.entry(spec.model_copy(update={"default": None}), "value", "value")
    return create_model("value", __config__=_STRICT, value=(kind, info))


def state_json_schema(models: StateModels) -> dict[str, Any]:
    """The strict model's JSON Schema, inlined and without pydantic's generated titles."""
    raw = models.strict.model_json_schema()
    defs = raw.pop("$defs", {})

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(v) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            # a state format is never recursive: each record is written out in place
            node = {**defs[ref.rsplit("/", 1)[1]], **{k: v for k, v in node.items() if k != "$ref"}}
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "title" or (key == "default" and value is None):
                continue  # a generated title; "null" is no value a state may give
            if key == "properties":
                out[key] = {name: clean(sub) for name, sub in value.items()}
            else:
                out[key] = clean(value)
        return out

    schema: dict[str, Any] = clean(raw)
    for name in ("game", "sequence"):
        prop = schema["properties"][name]
        schema["properties"][name] = {"const": prop["const"]} if "const" in prop else {}
    return schema
