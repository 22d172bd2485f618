"""The state check's quick path: a good state accepted without the work of placing problems.

Most states a program checks are good (the sampler's draws, a recorded
corpus): for them the check's work is reading the state into records and
asking the format's constraints. The full check
(:func:`~rulepress.states.validation.validate_state`) also words and places
every problem, through the pydantic models, a dump of them, and each
constraint asked record by record with the means to name a failing member.
That work is only needed when there is a problem, so the quick path tries
first, and says only *good* or *not known*; on *not known* the full check
runs as it always did, from the start of the stage that was not known. A
state the quick path accepts is one the full check accepts, with the same
records, so the messages and places of a bad state are the full check's.

* The validator :func:`record_reading` makes reads a state straight into records: the strict
  model's core schema (:func:`rulepress.states.models.strict_schema`, which a
  test holds equal to the model's own), with each model made a call of
  :class:`~rulepress.expressions.records.Record` with its fields as keyword
  arguments (an unknown key refused as an unexpected one). Every field's schema
  (types, bounds, patterns, the id check, defaults) is the strict model's, so
  the two cannot disagree; only the model instances and the dump after them
  are left out. A schema of a
  shape this does not know gives no validator: such a format always takes
  the full check. Two things differ, each for speed: a list below the
  players is refused on its length by its own ``max_length`` rather than by
  a call into Python first (:class:`AtMost`), and a ``unique`` list of
  scalars is refused as it is read when an item is in it twice, which the
  strict model leaves to the walk after it (:func:`unique_scalars`).
* :func:`record_reading` also makes a compiled first try at that reading
  (:mod:`rulepress.states.reader`) of the very schema the validator is made
  of: it reads a state of exact dicts, lists, texts, numbers and truth
  values into the same records, or says *not known*, and the validator then
  reads the state as before. pydantic-core stays the oracle (a test holds
  the two equal over every format, drawn and mutated states alike) and the
  fallback. Home-made for speed (callgrind, per nine-player Stationfall
  state, the benchmark's first 200: the validator's reading 0.670 M
  instructions, the reader's 0.387 M; the check 0.959 M to 0.672 M): each
  kind of node a mypyc native class, texts checked by their own leaf's
  validator once per distinct value (not by Python's ``re``, whose ``$``
  is not pydantic-core's).
* :class:`Rules` asks a record format's constraints, each expression parsed
  once per format, with one step budget (``MAX_STEPS``) for the whole state
  rather than one per constraint and record. Each rule is one closure asked
  once per state, of all the state's records in turn, which sets its names
  (let values, member) in each record's namespace rather than in a copy of
  it when no other rule reads them. Every test holding, no
  evaluation failing and the budget not spent is *good*; anything else is
  *not known*. The budget stays a bound: however many records and members a
  state has, the quick path takes at most ``MAX_STEPS`` steps before it
  gives up. A count across the records of the shape of Stationfall's
  Bribes (each player's Bribe looked for on every other player's card) is
  asked from one tally per state (:mod:`rulepress.states.pairs`) rather than
  of every pair of players, at the same steps.

Measured and left as it is (callgrind, instructions per nine-player
Stationfall state, the benchmark's first states; the reading was 0.727 M of
the check's 1.348 M): pydantic-core's own walk is most of the reading (its
records as plain typed dicts, no Record at all: 0.677 M; typed dicts made
Records by an after-validator: 0.791 M; ``arguments_v3_schema``, which
refuses a list itself: 0.788 M; the other Python calls, the patterns and
the id union are a few per cent each, and each is needed as it is). Asking
the constraints column by column (one pass in C per node over all records,
no namespaces made) cost more than these closures, 0.577 M against 0.560 M
with the namespaces: at nine records a pass costs what a call does.

Reading with msgspec did not pay either (issue 32; the same count, first
200 states, compiled build: the check 1.031 M, of it the reading 0.642 M).
``msgspec.convert`` into Structs made from the strict model's core schema
(``defstruct``, ``Meta`` bounds, unknown keys refused, the patterns in
Python's ``re`` with ``\\A``/``\\Z`` and lone surrogates refused) checks a
state in 0.27 M; but msgspec cannot make a ``dict`` subclass, and the
records made after it in Python (field order, defaults, every value's exact
type looked at: msgspec takes a tuple for a list and keeps a ``str``
subclass, where the strict model refuses the one and gives ``str`` for the
other) took 0.57 M more, so the check took 1.238 M. Records made of
msgspec's own Structs (``Record(asdict(s))`` each) cost as much, timed.
pydantic-core makes each record in one call from Rust (54 k per state).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from pydantic_core import (
    CoreSchema,
    PydanticCustomError,
    PydanticKnownError,
    SchemaValidator,
    ValidationError,
    core_schema,
)

from rulepress.expressions.expression import (
    EVAL_FAILURES,
    Expression,
    ExpressionSyntaxError,
    Steps,
    Within,
)
from rulepress.expressions.records import Record
from rulepress.model.spec_model import MAX_STATE_ID, Constraint, FieldSpec, is_state_id
from rulepress.states.pairs import PairCount, Tallies, pair_counts, put_counts
from rulepress.states.reader import Reader, reader_of

#: the core schema kinds a state model is made of (see rulepress.states.models); any other
#: (a definition reference, a union …) is a shape the quick path leaves to the full check
_KNOWN = frozenset(
    {"model", "default", "function-before", "function-after", "list", "literal", "str", "int"}
    | {"bool"}
)


#: what a state model's config may say (strict, no unknown keys; the title is for the schema)
_CONFIG = frozenset({"strict", "extra_fields_behavior", "title"})


@dataclass(frozen=True, slots=True)
class AtMost:
    """The strict model's check of a list's length, before any item is looked at.

    pydantic's own ``max_length`` stops one item past the bound, after
    validating the items before it; refusing first keeps the work of an
    oversize list (of 10,000 players, say) at one problem and no item. The
    quick path leaves it out below the players (see _schema): there it is a
    call into Python per list, some 7 % of reading a Stationfall state.
    """

    high: int

    def __call__(self, value: Any) -> Any:
        if type(value) is list and len(value) > self.high:
            ctx = {"field_type": "List", "max_length": self.high, "actual_length": len(value)}
            raise PydanticKnownError("too_long", ctx)
        return value


def player_id(value: str) -> str:
    """The strict model's check of a player's id: a table-state id (see is_state_id).

    A letter of any script is more than a pattern can say; the quick path's
    reading asks an ASCII id of a pattern first (see :data:`ASCII_ID`).
    """
    if not is_state_id(value):
        raise PydanticCustomError("state_id", "not a table-state id")
    return value


#: the ASCII ids :func:`~rulepress.model.spec_model.is_state_id` accepts, as a pattern
#: pydantic-core matches in Rust (``$``: the end of the text, with no line break before it)
ASCII_ID = f"^[A-Za-z][A-Za-z0-9_-]{{0,{MAX_STATE_ID - 1}}}$"


class _UnknownShapeError(Exception):
    """A schema of a shape :func:`record_schema` does not turn into records."""


def record_schema(schema: CoreSchema, root: FieldSpec | None = None) -> CoreSchema | None:
    """A schema of what ``schema`` accepts whose value is records; None if it cannot be made.

    ``schema`` is the core schema of a whole state's strict model (see
    :func:`rulepress.states.models.strict_schema`): its ``game`` and ``sequence``
    keys may be of any value, nothing below them.

    With ``root`` (the field spec of the whole state the model was built
    from, see :func:`rulepress.states.models.state_spec`), a list of texts,
    numbers or choices that the format says is ``unique`` is refused as it
    is read when an item is in it twice (see :func:`unique_scalars`): the
    walk after the reading then need not go down to it.
    """
    try:
        return _model(schema, root, top=True, unique=root is not None)
    except _UnknownShapeError:
        return None


def record_reading(
    schema: CoreSchema, root: FieldSpec | None = None
) -> tuple[SchemaValidator | None, Reader | None]:
    """A validator of :func:`record_schema`'s schema, and its compiled first try (reader.py).

    Both are made of the one schema :func:`record_schema` makes of ``schema``
    and ``root``, worked out once, so the validator is the reader's oracle and
    its fallback. The reader is None when that schema has a shape or a key it
    does not know: that format is read by the validator alone; both are None
    where :func:`record_schema` gives no schema.
    """
    top = record_schema(schema, root)
    if top is None:
        return None, None
    reader = reader_of(top, _STRICT, at_most=AtMost, pure=(player_id,), once=_no_item_twice)
    return SchemaValidator(top, config=_STRICT), reader


def unique_scalars(spec: FieldSpec) -> bool:
    """Whether ``spec`` is a ``unique`` list whose items are scalars: what the reading checks.

    The strict model leaves ``unique`` to the walk after it (it words the
    problem); the quick path's reading refuses such a list at once, and its
    walk (:func:`rulepress.states.models.quick_refs`) leaves it out.
    """
    return (
        spec.type == "list"
        and spec.unique
        and spec.item is not None
        and spec.item.type not in ("record", "list")
    )


def _no_item_twice(value: Any) -> Any:
    """A list with no item equal to one before it (1 and true equal, as in the walk)."""
    if type(value) is list and len(value) > 1 and len(set(value)) != len(value):
        raise PydanticCustomError("unique", "an item is listed twice")
    return value


def _once(schema: CoreSchema) -> CoreSchema:
    return core_schema.no_info_after_validator_function(_no_item_twice, schema)


def _model(
    schema: Mapping[str, Any], spec: FieldSpec | None, *, top: bool = False, unique: bool = False
) -> CoreSchema:
    """A model schema as the call of Record with the same fields, each checked as the model does.

    ``spec``: the record's field spec, whose fields the model's are (None
    with ``unique`` False: the lists are not looked at).
    """
    config = schema.get("config") or {}
    fields = schema["schema"]
    if (
        schema.get("custom_init")
        or schema.get("root_model")
        or schema.get("post_init")
        or fields.get("type") != "model-fields"
        or fields.get("computed_fields")
        or config.get("extra_fields_behavior") != "forbid"
        or config.get("strict") is not True
        or not _CONFIG.issuperset(config)
    ):
        raise _UnknownShapeError
    out: list[core_schema.ArgumentsParameter] = []
    for name, field in fields["fields"].items():
        inner = field["schema"]
        # the key a state writes is the field's alias (see rulepress.states.models)
        key = field.get("validation_alias", name)
        if not isinstance(key, str):
            raise _UnknownShapeError
        sub = spec.fields.get(key) if spec is not None else None
        if unique and sub is None and not (key == "id" or (top and key in ("game", "sequence"))):
            raise _UnknownShapeError  # a field the format does not say (and the model has)
        if top and name in ("game", "sequence"):
            made = _schema(inner, None, any_ok=True)
        else:
            # the players (of which a state may list 10,000) are refused on their
            # number before one is looked at, on the quick path too
            made = _schema(inner, sub, length_first=top and name == "players", unique=unique)
        if unique and sub is not None and unique_scalars(sub):
            # (items of a scalar kind, read: set() takes them); inside a default, which
            # must stay the field's own schema for a field left out to be given it
            if made["type"] == "default":
                made = cast(CoreSchema, {**made, "schema": _once(made["schema"])})
            else:
                made = _once(made)
        # (a field with a default may be left out: its schema is the default's). The key
        # is interned: pydantic-core makes every record's keys of the very string given
        # here, and the scorer's expressions read fields by interned names (Python's
        # parser interns them), so a lookup is met by identity, without comparing texts
        out.append(core_schema.arguments_parameter(sys.intern(key), made, mode="keyword_only"))
    # The record is made by calling Record with the fields as keyword arguments: in
    # pydantic-core, one step that refuses a key no field has (an unexpected keyword)
    # and makes the record, where a typed dict refusing unknown keys, then a call of
    # Record on the dict it made, took 9 % longer for a Stationfall state. A mapping
    # only (arguments are also read from a list or tuple of positional ones); the
    # model's config (strict, checked above) is the whole validator's (see _STRICT).
    made_record = core_schema.call_schema(core_schema.arguments_schema(out), Record)
    return core_schema.chain_schema([core_schema.is_instance_schema(dict), made_record])


#: the config of a validator :func:`_model` makes: every state model's (see _CONFIG)
_STRICT = core_schema.CoreConfig(strict=True)


def _schema(
    schema: Mapping[str, Any],
    spec: FieldSpec | None,
    *,
    any_ok: bool = False,
    length_first: bool = False,
    unique: bool = False,
) -> CoreSchema:
    """``schema`` with every model in it made a call of Record (see _model).

    ``spec``: the field spec ``schema`` was made from (see _model).

    The strict model's :class:`AtMost` checks are left out, but where
    ``length_first`` (a whole state's players): the list's own ``max_length``
    refuses the same lists, after looking at no more than the bound's items
    and one (each item bounded in turn).
    """
    kind = schema["type"]
    if kind == "any" and any_ok:
        # a state's own game and sequence keys: checked, then left out of the records
        return dict(schema)
    if kind not in _KNOWN:
        raise _UnknownShapeError
    if kind == "model":
        return _model(schema, spec, unique=unique)
    if kind == "function-after" and schema["function"].get("function") is player_id:
        # a player's id, mostly ASCII: asked of the pattern first, without a call into
        # Python (which was 5 % of reading a Stationfall state); any other, as the
        # strict model asks it
        return core_schema.union_schema(
            [core_schema.str_schema(pattern=ASCII_ID, strict=True), dict(schema)],
            mode="left_to_right",
        )
    if (
        kind == "function-before"
        and not length_first
        and isinstance(schema["function"].get("function"), AtMost)
    ):
        inner = schema["schema"]
        if (
            inner.get("type") != "list"
            or inner.get("max_length") != schema["function"]["function"].high
        ):
            raise _UnknownShapeError  # the list's own bound must say what the check says
        return _schema(inner, spec, any_ok=any_ok, unique=unique)
    out = dict(schema)
    for key in ("schema", "items_schema"):
        if key in out:
            below = kind in ("default", "function-before")
            out[key] = _schema(
                out[key],
                spec.item if key == "items_schema" and spec is not None else spec,
                any_ok=any_ok and kind == "default",
                length_first=length_first and below,
                unique=unique,
            )
    if kind == "list" and "items_schema" not in out:
        # items of any value would be the caller's own objects, not records
        raise _UnknownShapeError
    if kind == "default" and out.get("validate_default") is True and "default" in out:
        default = out.pop("default")
        if type(default) in (list, dict):
            # pydantic deep-copies a default that is a list or a mapping before it
            # validates it (a tenth of the work of a whole state, for the table's
            # two); validated, it is made anew as records and lists in any case
            out["default_factory"] = lambda: default
        else:
            out["default"] = default
            if _valid_as_is(out["schema"], default):
                # validated once, here: a scalar's schema gives the same each time
                del out["validate_default"]
    return out


#: the schemas of scalars, whose validation of a value is the same every time (no function)
_SCALAR_KINDS = frozenset({"int", "bool", "str", "literal"})


def _valid_as_is(schema: CoreSchema, value: Any) -> bool:
    """Whether ``schema`` accepts ``value`` as it is (the same type and value).

    A field's default validated at every state it is left out of (some
    eighty times a nine-player Stationfall state: each Agenda line's
    ``plus``, ``possession`` and ``holder``) is, for a scalar, the same
    work with the same result each time. A default the schema refuses, or
    changes, is still validated where it is used, so a state leaving it out
    is refused as the strict model refuses it.
    """
    if schema.get("type") not in _SCALAR_KINDS or type(value) not in (bool, int, str):
        return False
    try:
        made = SchemaValidator(schema, config=_STRICT).validate_python(value)
    except ValidationError:
        return False
    return type(made) is type(value) and made == value


#: how the quick path evaluates one expression, given the namespace and the state's steps
_Quick = Callable[[Mapping[str, Any], Steps], Any]


def _quick(expr: Expression) -> _Quick:
    """``expr.within``, or, for an expression that is one step, its root closure.

    An expression that neither loops nor calls (see Expression.plain) takes
    one step whatever it reads: its step is charged with the rule's others
    (see _Rule.cost), and the closure called with no frame (it reads its
    second argument only as a frame, and a budget of steps is none).
    """
    return expr.plain if expr.plain is not None else expr.within


@dataclass(frozen=True, slots=True)
class _Asked:
    """The expressions a rule asks of each member: its ``let`` values, then its ``test``."""

    lets: tuple[tuple[str, _Quick], ...]
    test: _Quick
    #: the steps of its expressions that are one step each (see _quick), per member:
    #: charged at once, before they run (the others take theirs as they go)
    cost: int

    @classmethod
    def of(
        cls, lets: Mapping[str, str], test: str, compiled: Callable[[str], Expression]
    ) -> _Asked:
        exprs = [compiled(source) for source in (*lets.values(), test)]
        return cls(
            tuple((name, _quick(e)) for name, e in zip(lets, exprs[:-1], strict=True)),
            _quick(exprs[-1]),
            sum(1 for e in exprs if e.plain is not None),
        )


@dataclass(frozen=True, slots=True)
class _Counted:
    """A rule with each pairwise count in it a name, set from a tally (see rulepress.states.pairs)."""

    pairs: tuple[PairCount, ...]
    asked: _Asked


@dataclass(frozen=True, slots=True)
class _Rule:
    """One constraint, its expressions parsed: what the quick path asks of a record."""

    items: Within | None
    item: str
    asked: _Asked
    #: it sets names (the member, its let values, its counts): asked in a namespace of its own
    binds: bool
    #: the same rule with its pairwise counts tallied once per state, or None: it has none
    counted: _Counted | None = None
    #: the data name ``items`` is, when it is one (read in place: see _checker)
    items_name: str | None = None


def _data_name(source: str, compiled: Callable[[str], Expression]) -> str | None:
    """``source`` when it is a data name alone (``agenda``), else None."""
    name = source.strip()
    return name if name.isidentifier() and compiled(source).names == {name} else None


def _counted(c: Constraint, compiled: Callable[[str], Expression]) -> _Counted | None:
    """``c`` with its pairwise counts made names (see rulepress.states.pairs), if it has any."""
    sources = {**c.let, "": c.test}
    # the new names must not be any the rule reads or sets: they share its namespace
    taken = {c.item, *c.let}
    for source in (*sources.values(), *([c.items] if c.items is not None else [])):
        taken |= compiled(source).names
    pairs: list[PairCount] = []
    rewritten: dict[str, str] = {}
    for name, source in sources.items():
        made = pair_counts(source, taken, bound=c.let)
        if made is not None:
            rewritten[name], found = made
            taken |= {p.name for p in found}
            pairs += found
        else:
            rewritten[name] = source
    if not pairs:
        return None
    test = rewritten.pop("")
    try:
        return _Counted(tuple(pairs), _Asked.of(rewritten, test, compiled))
    except ExpressionSyntaxError:  # (not seen: a name for a call is as short) asked as written
        return None


#: one rule asked of every record of a state: their namespaces, the state's steps and
#: tallies, and whether it may set its names in those namespaces (else in a copy of each);
#: True when it holds for them all
_Check = Callable[[list[dict[str, Any]], Steps, Tallies, bool], Any]


def _checker(rule: _Rule) -> _Check:
    """The closure that asks ``rule`` of every record of a state, made for its shape.

    Each asks as :func:`_asked_each` does (the general case), with less
    work per record where the shape allows: this runs for every rule of every
    state checked, and asks it of each record in its own loop (one call per
    rule and state, not per rule and record). A rule's one-step expressions
    may be charged for all its records (or members) before any is asked: the
    steps spent by a rule that holds are the same, and one that runs out is
    not known either way.
    """
    asked, items, item, counted = rule.asked, rule.items, rule.item, rule.counted
    test, cost, lets = asked.test, asked.cost, asked.lets
    if (counted is not None and items is not None) or (items is not None and lets):
        return partial(_asked_each, rule)
    if counted is not None:
        pairs, tallied = counted.pairs, counted.asked

        def counting(
            spaces: list[dict[str, Any]], steps: Steps, tallies: Tallies, share: bool
        ) -> Any:
            for names in spaces:
                ns = names if share else dict(names)
                charged = put_counts(pairs, ns, tallies)
                now = asked if charged is None else tallied  # (see _asked_each)
                steps.left -= now.cost + (charged or 0)
                if steps.left < 0:
                    return False
                for name, let in now.lets:
                    ns[name] = let(ns, steps)
                if not now.test(ns, steps):
                    return False
            return True

        return counting
    if not rule.binds:

        def plain(spaces: list[dict[str, Any]], steps: Steps, tallies: Tallies, share: bool) -> Any:
            steps.left -= cost * len(spaces)
            if steps.left < 0:
                return False
            for ns in spaces:  # noqa: SIM110 (all() of a generator: a frame more)
                if not test(ns, steps):
                    return False
            return True

        return plain
    if items is None:

        def with_lets(
            spaces: list[dict[str, Any]], steps: Steps, tallies: Tallies, share: bool
        ) -> Any:
            steps.left -= cost * len(spaces)
            if steps.left < 0:
                return False
            for names in spaces:
                ns = names if share else dict(names)
                for name, let in lets:
                    ns[name] = let(ns, steps)
                if not test(ns, steps):
                    return False
            return True

        return with_lets

    named = rule.items_name
    if named is not None:
        # ``items: agenda``: the name read here, as its expression reads it (a name not
        # there fails, and is not known), with its one step: not two calls per record
        # (within, then the name's closure). The member loop is each's, written out again
        # on purpose: a helper for it would be a call per record, what this saves

        def each_of_name(
            spaces: list[dict[str, Any]], steps: Steps, tallies: Tallies, share: bool
        ) -> Any:
            for names in spaces:
                ns = names if share else dict(names)
                members = ns[named]  # (KeyError: a failure, not known; see Rules.hold)
                if type(members) is not list and type(members) is not tuple:
                    return False
                steps.left -= 1 + cost * len(members)
                if steps.left < 0:
                    return False
                for member in members:
                    ns[item] = member
                    if not test(ns, steps):
                        return False
            return True

        return each_of_name

    def each(spaces: list[dict[str, Any]], steps: Steps, tallies: Tallies, share: bool) -> Any:
        for names in spaces:
            ns = names if share else dict(names)
            members = items(ns, steps)
            if type(members) is not list and type(members) is not tuple:
                return False
            steps.left -= cost * len(members)
            if steps.left < 0:
                return False
            for member in members:
                ns[item] = member
                if not test(ns, steps):
                    return False
        return True

    return each


def _asked_each(
    rule: _Rule, spaces: list[dict[str, Any]], steps: Steps, tallies: Tallies, share: bool
) -> bool:
    """``rule`` asked of each record, of each member, with its counts from the state's tallies."""
    for names in spaces:
        # as the full check: one namespace per rule and record, the member and its let
        # values set anew in it for each member
        ns = names if share else dict(names)
        members: Any = (None,)
        if rule.items is not None:
            members = rule.items(ns, steps)
            if type(members) is not list and type(members) is not tuple:
                return False
        for member in members:
            if rule.items is not None:
                ns[rule.item] = member
            asked = rule.asked
            if rule.counted is not None:
                # the counts for this member from the state's tallies, when they can be
                # had; else the rule's own expressions count as written
                charged = put_counts(rule.counted.pairs, ns, tallies)
                if charged is not None:
                    steps.left -= charged
                    asked = rule.counted.asked
            steps.left -= asked.cost
            if steps.left < 0:
                return False
            for name, let in asked.lets:
                ns[name] = let(ns, steps)
            if not asked.test(ns, steps):
                return False
    return True


def _names(
    c: Constraint, counted: _Counted | None, compiled: Callable[[str], Expression]
) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``c`` reads and those it sets (its member, let values and counts' names).

    What it reads is what any of its expressions reads, as written or with
    its counts tallied (a count reads its sequence and its value).
    """
    sources = [*c.let.values(), c.test, *([c.items] if c.items is not None else [])]
    reads = frozenset().union(*(compiled(source).names for source in sources))
    sets = frozenset(c.let) | ({c.item} if c.items is not None else set())
    if counted is not None:
        sets |= {p.name for p in counted.pairs}
        reads |= {n for p in counted.pairs for n in (p.sequence, p.value)}
    return reads, sets


class Rules:
    """The constraints of one record format, parsed once, asked as one yes-or-not-known."""

    __slots__ = ("_checks", "_share")

    def __init__(self, checks: tuple[_Check, ...] | None, share: bool = False) -> None:
        self._checks = checks
        #: whether each rule may set its names in the records' namespaces: no rule reads
        #: or sets a name another sets (else each sets them in a copy: see hold)
        self._share = share

    @classmethod
    def of(cls, constraints: list[Constraint], compiled: Callable[[str], Expression]) -> Rules:
        """The rules of ``constraints``; one that is no expression makes them all not known."""
        made: list[_Check] = []
        names: list[tuple[frozenset[str], frozenset[str]]] = []
        try:
            for c in constraints:
                items = None if c.items is None else compiled(c.items).within
                counted = _counted(c, compiled)
                binds = items is not None or bool(c.let) or counted is not None
                asked = _Asked.of(c.let, c.test, compiled)
                named = None if c.items is None else _data_name(c.items, compiled)
                made.append(_checker(_Rule(items, c.item, asked, binds, counted, named)))
                names.append(_names(c, counted, compiled))
        except ExpressionSyntaxError:
            # the spec check reports it; the full check skips that constraint
            return cls(None)
        # A rule may set its names in a record's own namespace (no copy of it per rule
        # and record) when no other rule reads or sets any of them: then what one rule
        # leaves there (a field it hides included) is seen by no other, as if each had a
        # namespace of its own; and each record's namespace is asked of each rule once.
        share = not any(
            i != j and not sets.isdisjoint(reads | others)
            for i, (_, sets) in enumerate(names)
            for j, (reads, others) in enumerate(names)
        )
        return cls(tuple(made), share)

    def hold(
        self,
        spaces: list[dict[str, Any]],
        steps: Steps,
        tallies: Tallies | None = None,
    ) -> bool:
        """True when every rule holds for every record: every member, no failure, within ``steps``.

        ``spaces``: each record's namespace (the table-wide names, then its
        own fields), as the full check gives it, made for this call alone: a
        rule may set its member, let values and counts in it, when no other
        rule reads or sets them (else each rule sets them in a copy). False
        means not known: a rule failed, an
        evaluation failed, the steps ran out, or the rules are not all
        expressions; the full check tells which. ``tallies``: the pairwise
        counts' tallies made so far for this state's records (see
        rulepress.states.pairs), shared by the calls for its records; a call
        without it makes its own.

        Each rule is asked of every record before the next rule is: the steps
        of records that hold are the same in any order, and records that fail
        or run out are not known in any order.
        """
        checks = self._checks
        if checks is None:
            return False
        if tallies is None:
            tallies = {}
        share = self._share
        try:
            for check in checks:  # (a loop, not all(): a generator frame per state)
                if not check(spaces, steps, tallies, share):
                    return False
        except EVAL_FAILURES:  # ExpressionEvalError (a bound included), or a plain one's
            return False
        return True


#: whether a value holds nothing the state check's walk would report, given the players' ids
RefsHold = Callable[[Any, Mapping[str, int]], bool]
#: the same of every record of a list (a state's players)
RecordsHold = Callable[[list[Any], Mapping[str, int]], bool]


@dataclass(frozen=True, slots=True)
class QuickCheck:
    """The quick path of one state format with one set of parameters (made once, kept)."""

    #: reads a state the strict model accepts into records (None: this format has none)
    validator: SchemaValidator | None
    players: Rules
    table: Rules
    #: the parameters as the record ``param`` constraints read (the same for every state)
    params: Record
    player_refs: RecordsHold | None
    table_refs: RefsHold | None
    #: the compiled first try at the reading (None: this format has none; see record_reading)
    reader: Reader | None = None

    def refs(self, players: list[Record], table: Record, ids: Mapping[str, int]) -> bool:
        """True when no player field names an unknown player and no unique list repeats.

        For a state :meth:`records` read (its walk leaves out what the reading checked).
        """
        if self.player_refs is not None and not self.player_refs(players, ids):
            return False
        return self.table_refs is None or self.table_refs(table, ids)

    def records(self, data: Any) -> dict[str, Any] | None:
        """The state read into records when the strict model accepts it, else None."""
        reader = self.reader
        if reader is not None:
            # a record, or not known (then the validator reads it, as if this were not here)
            made = reader.read(data)
            if type(made) is Record:
                return cast(dict[str, Any], made)
        if self.validator is None:
            return None
        try:
            out: dict[str, Any] = self.validator.validate_python(data)
        except ValidationError:
            return None
        return out


def section_validators(
    schema: CoreSchema,
) -> tuple[SchemaValidator, SchemaValidator] | None:
    """Validators of one player record and of the table, read into records as the state's.

    The parts of :func:`record_schema`'s schema, so a record they accept is
    the record the whole check would make of it (defaults given, optional
    fields None). For a sampler that checks a record before the state it is
    part of exists. None when the state's schema is of a shape not known here.
    """
    try:
        top = _model(schema, None, top=True)
        fields = {p["name"]: p["schema"] for p in _parameters(top)}
        player = _find(fields["players"], "list")["items_schema"]
        table = _find(fields["table"], "chain")
    except (_UnknownShapeError, KeyError):
        return None
    return SchemaValidator(player, config=_STRICT), SchemaValidator(table, config=_STRICT)


def _parameters(record: Mapping[str, Any]) -> list[core_schema.ArgumentsParameter]:
    """The fields of a record's schema as :func:`_model` makes it (its call's arguments)."""
    parameters: list[core_schema.ArgumentsParameter] = record["steps"][1]["arguments_schema"][
        "arguments_schema"
    ]
    return parameters


def _find(schema: Mapping[str, Any], kind: str) -> Any:
    """The first schema of ``kind`` down the ``schema`` keys of ``schema`` (or itself)."""
    while schema.get("type") != kind:
        schema = schema["schema"]
    return schema
