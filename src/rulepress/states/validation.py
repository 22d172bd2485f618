"""Validating a table state against the state format its game's spec declares.

A table state is what happened at the table, as the scorer needs it:
``players`` (a list of records, each with an ``id``) and an optional
``table`` record. The spec's ``table_states`` section says which fields exist,
their types, bounds (integers or ``param:name``), defaults and cross-field
constraints. Every problem is reported with its source position; nothing is
scored from a state that has any.

The fields' types and bounds are checked by the pydantic models generated
from the format (:mod:`rulepress.states.models`); this module words their
errors as the rest of rulepress does and places them in the state's file.
What a model cannot say is checked here, on the state the model made: a
player's id used twice, a ``player`` field naming no player, an item listed
twice in a ``unique`` list, and the format's constraints (expressions).

Each stage asks the quick path of :mod:`rulepress.states.quick` first (the
state read into records, the references and the constraints each asked as
one yes or not known), and does its located work only when that is not
known; a good state, the common case, takes the quick path end to end.
The full check alone (:func:`full_validate_state`) is what the quick path
is tested against: the two must accept the same states, with the same
records, and give the same problems.

Whatever the format says, a state's integers lie within ±``MAX_INT`` (the
YAML reader refuses others; here a bound the format leaves out is that one),
a player's id is a table-state id (:func:`~rulepress.model.spec_model.is_state_id`),
and a text is one line without controls: a table state is written by a
player, and its texts and ids are printed in reports, where a line break or
a tab would let it forge a line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from rulepress.errors import DataPath, Problem
from rulepress.expressions import MAX_INT, Expression, parse
from rulepress.expressions.expression import Steps
from rulepress.expressions.records import Record, fields_record, record
from rulepress.expressions.runtime import type_name
from rulepress.model.sets import spelled_out
from rulepress.model.spec_model import (
    STATE_ID_SYNTAX,
    FieldSpec,
    Parameter,
    RecordFormat,
    StateFormat,
    every_number,
    is_state_id,
)
from rulepress.model.text import PlainContext
from rulepress.states.constraints import failures
from rulepress.states.models import (
    Refs,
    StateModels,
    bound,
    quick_refs,
    records_hold,
    refs,
    refs_hold,
    state_models,
    value_model,
)
from rulepress.states.pairs import Tallies
from rulepress.states.quick import QuickCheck, Rules, record_reading
from rulepress.yamlsrc.reader import CONTROLS, SourceMap, describe_char, format_path

#: keys a state document may have besides the two sections
_STATE_KEYS = ("game", "sequence", "players", "table")


@dataclass
class StateCheck:
    """The running check of one state document (or one value: a field's default)."""

    sources: SourceMap
    prefix: DataPath
    params: Mapping[str, Parameter]
    problems: list[Problem] = field(default_factory=list)

    def at(self, path: DataPath, message: str, *, key: bool = False) -> None:
        full = self.prefix + path
        self.problems.append(
            Problem(self.sources.locate(full, key=key), format_path(full), message)
        )

    def bound(self, value: Any) -> int | None:
        return bound(value, self.params)


def _shown_int(value: int) -> str:
    """An integer as a message shows it: whole if it is short, else by its number of digits."""
    if -MAX_INT <= value <= MAX_INT:
        return str(value)
    # str() of more than 4,300 digits raises; bit_length() gives the size at once
    if value.bit_length() > 10_000:
        return "an integer of thousands of digits"
    return f"an integer of {len(str(abs(value)))} digits"


def _spec_at(root: FieldSpec, loc: tuple[Any, ...]) -> FieldSpec | None:
    """The field spec of the value at ``loc`` below ``root`` (None past what it declares)."""
    spec: FieldSpec | None = root
    for part in loc:
        if spec is None:
            return None
        spec = spec.item if isinstance(part, int) else spec.fields.get(part)
    return spec


def _value_at(data: Any, loc: tuple[Any, ...]) -> Any:
    for part in loc:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def _text_message(value: Any) -> str:
    if not isinstance(value, str) or not value:
        return f"expected text, got {type_name(value, in_state=True)}"
    control = next((c for c in value if c in CONTROLS), None)
    if control is None:  # a line break or a tab
        return "a text in a table state is one line, with no line break or tab"
    return f"the text holds the control character {describe_char(control)}, which is not allowed"


def _message(
    err: ErrorDetails,
    spec: FieldSpec | None,
    parent: FieldSpec | None,
    params: Mapping[str, Parameter],
) -> str:
    """Pydantic's error as rulepress words it, from the field spec it is about."""
    kind, value = err["type"], err.get("input")
    ctx = err.get("ctx") or {}
    name = err["loc"][-1] if err["loc"] else ""
    got = type_name(value, in_state=True)
    if kind == "missing":
        low = bound(spec.min, params) if spec is not None and spec.type == "list" else None
        return f"missing field {name!r}" + (f" (a list of at least {low} entries)" if low else "")
    if kind == "extra_forbidden":
        known = ", ".join(sorted(parent.fields)) if parent is not None else ""
        return f"unknown field {name!r} (known: {known})"
    if kind == "greater_than_equal":
        low = ctx["ge"]
        word = "negative" if low == 0 else f"below {low}"
        return f"{_shown_int(value)} is {word}; the least allowed is {low}"
    if kind == "less_than_equal":
        return f"{_shown_int(value)} is more than the most allowed, {ctx['le']}"
    if kind.startswith("string"):
        return _text_message(value)
    if kind == "literal_error":
        options = ", ".join(spec.choices) if spec is not None else ctx.get("expected", "")
        return f"expected one of {options}, got {value!r}"
    if kind == "too_long":
        return f"allows at most {ctx['max_length']} entries, has {len(value)}"
    if kind == "too_short":
        return f"needs at least {ctx['min_length']} entries, has {len(value)}"
    words = {
        "int_type": "an integer",
        "bool_type": "true or false",
        "list_type": "a list",
        "model_type": "a mapping",
    }
    return f"expected {words.get(kind, kind)}, got {got}"


def _players_message(err: ErrorDetails) -> str | None:
    """The message of an error about the list of players or a player's id, else None."""
    kind, loc, value = err["type"], err["loc"], err.get("input")
    if loc == ("players",):
        if kind == "too_long":
            return f"{len(value)} players; the game allows at most {err['ctx']['max_length']}"
        if kind == "too_short":
            return f"{len(value)} players; the game needs at least {err['ctx']['min_length']}"
        return "'players' must be a list of players"
    if len(loc) == 3 and loc[2] == "id":
        if kind in ("missing", "string_type", "string_too_short"):
            return "every player needs an 'id' (a short name)"
        # shown as repr(), which escapes what could break the message's line
        return f"player id {value!r} is not an id ({STATE_ID_SYNTAX})"
    return None


def _report(
    chk: StateCheck, errors: list[ErrorDetails], root: FieldSpec, data: Any, *, state: bool = True
) -> None:
    """Each error as a located problem.

    ``root`` is the field spec of ``data``: a whole state's (``state``), or one value's.
    """
    short = {err["loc"] for err in errors if err["type"] == "too_short"}
    for err in errors:
        loc, kind = tuple(err["loc"]), err["type"]
        path: DataPath = loc
        players = state and loc[:1] == ("players",) and len(loc) != 2
        message = _players_message(err) if players else None
        if message is not None and kind in ("missing", "string_type", "string_too_short"):
            path = loc[:-1] if kind == "missing" else loc[:2]
        elif message is None:
            spec, parent = _spec_at(root, loc), _spec_at(root, loc[:-1])
            message = _message(err, spec, parent, chk.params)
            if kind == "missing":
                path = loc[:-1]
        chk.at(path, message, key=kind == "extra_forbidden")
        # pydantic checks a list's least length only once its items are valid
        for depth in range(1, len(loc)):
            _least_length(chk, root, data, loc[:depth], short)


def _least_length(
    chk: StateCheck, root: FieldSpec, data: Any, loc: tuple[Any, ...], done: set[Any]
) -> None:
    spec = _spec_at(root, loc)
    if loc in done or spec is None or spec.type != "list":
        return
    done.add(loc)
    value, low = _value_at(data, loc), chk.bound(spec.min)
    if isinstance(value, list) and low is not None and len(value) < low:
        if loc == ("players",):
            chk.at(loc, f"{len(value)} players; the game needs at least {low}")
        else:
            chk.at(loc, f"needs at least {low} entries, has {len(value)}")


def _document_problems(chk: StateCheck, errors: list[ErrorDetails], game: str | None) -> bool:
    """The state's own keys and its players list; True when no player can be looked at."""
    unusable = False
    for err in errors:
        loc, kind = tuple(err["loc"]), err["type"]
        if loc == ():
            chk.at(
                (), f"a table state must be a mapping, got {type_name(err['input'], in_state=True)}"
            )
            return True
        if len(loc) == 1 and kind == "extra_forbidden":
            shown = ", ".join(_STATE_KEYS)
            chk.at(loc, f"unknown key {loc[0]!r} (a state has {shown})", key=True)
        elif loc == ("game",):
            chk.at(loc, f"this state is for {err['input']!r}, not {game!r}")
        elif loc == ("players",) and kind != "too_short":
            # Refused before any player is looked at: checking each of 10,000
            # players (and the constraints across them) is work the game never
            # needs, and the other problems of such a state are beside the point.
            message = _players_message(err)
            assert message is not None
            chk.at(loc if kind != "missing" else (), message)
            unusable = True
    return unusable


#: the record of a spec's named sets, by the identity of its ``sets`` section
_SETS_RECORDS: dict[int, tuple[Mapping[str, list[Any]], Record]] = {}


def _sets_record(sets: Mapping[str, list[Any]]) -> Record:
    """The named sets as the record constraints read: made once per spec, not per state.

    Every worked example's state is validated against the same spec, and a set
    may hold tens of thousands of ids; the record is read only, never changed.
    """
    cached = _SETS_RECORDS.get(id(sets))
    if cached is not None and cached[0] is sets:
        return cached[1]
    made = fields_record(spelled_out(sets))
    if len(_SETS_RECORDS) >= 8:  # a process loads a few specs
        _SETS_RECORDS.pop(next(iter(_SETS_RECORDS)))
    _SETS_RECORDS[id(sets)] = (sets, made)
    return made


def validate_state(
    fmt: StateFormat,
    params: Mapping[str, Parameter],
    data: Any,
    sources: SourceMap,
    prefix: DataPath = (),
    game_id: str | None = None,
    sets: Mapping[str, list[Any]] | None = None,
) -> tuple[dict[str, Any], list[Problem]]:
    """Check ``data`` against ``fmt``; return the normalised state and all problems.

    ``sets``: the spec's named sets, which the constraints read as
    ``sets.<name>``, members spelled out (as the scorer's expressions do).

    Every record of the state (players, the table, nested records) is a
    :class:`~rulepress.expressions.records.Record` from the start, records all the
    way down: the scorer reads such a state without copying it (see
    :func:`~rulepress.expressions.records.owned`), and the constraints here read it
    as it is.
    """
    return _validate(fmt, params, data, sources, prefix, game_id, sets, fast=True)


def full_validate_state(
    fmt: StateFormat,
    params: Mapping[str, Parameter],
    data: Any,
    sources: SourceMap,
    prefix: DataPath = (),
    game_id: str | None = None,
    sets: Mapping[str, list[Any]] | None = None,
) -> tuple[dict[str, Any], list[Problem]]:
    """:func:`validate_state` without its quick path: each stage's located work, always.

    What the quick path is tested against; slower, and otherwise the same.
    """
    return _validate(fmt, params, data, sources, prefix, game_id, sets, fast=False)


def _validate(
    fmt: StateFormat,
    params: Mapping[str, Parameter],
    data: Any,
    sources: SourceMap,
    prefix: DataPath,
    game_id: str | None,
    sets: Mapping[str, list[Any]] | None,
    *,
    fast: bool,
) -> tuple[dict[str, Any], list[Problem]]:
    chk = StateCheck(sources, prefix, params)
    models = state_models(fmt, params, game_id)
    quick = quick_check(models, fmt)
    players: list[Record]
    table: Record
    ids: dict[str, int] = {}
    read = quick.records(data) if fast else None
    if read is not None:
        players = read["players"]
        indices = list(range(len(players)))
        table = read["table"]
        for i, rec in enumerate(players):
            pid = rec["id"]  # an id: the strict model checked it
            if pid in ids:
                chk.at(("players", i, "id"), f"player id {pid!r} is used twice")
            ids.setdefault(pid, i)
    else:
        found = _full_records(chk, models, data, game_id)
        if found is None:
            return {}, chk.problems
        players, indices, table, ids = found
    # the quick walk leaves out what the quick reading checked: only for what it read
    if not (read is not None and quick.refs(players, table, ids)):
        for i, rec in zip(indices, players, strict=True):
            _walk(chk, models.player_refs, rec, ids, ("players", i))
        _walk(chk, models.table_refs, table, ids, ("table",))
    # Cross-field constraints run on every record, even one with other problems:
    # a field that failed its own check is None, so a constraint reading it
    # fails to evaluate and is skipped instead of piling a second message on.
    context = {
        "param": quick.params,
        "sets": _sets_record(sets or {}),
        "n_players": len(players),
        "table": table,
        "players": players,
    }
    # asked quickly first: for a good state that is the end of it; else the full
    # check asks again, record by record, to word and place each failure
    # (a count across the players, such as Stationfall's Bribes, is tallied once for them all)
    steps, tallies = Steps(), Tallies()
    held = fast and quick.players.hold([{**context, **rec} for rec in players], steps, tallies)
    if not (held and quick.table.hold([{**context, **table}], steps, tallies)):
        plain = PlainContext(every_number(params), {}, {})
        for i, rec in zip(indices, players, strict=True):
            _constraints(chk, fmt.players, rec, context, plain, ("players", i))
        _constraints(chk, fmt.table, table, context, plain, ("table",))
    return {"players": players, "table": table}, chk.problems


def quick_check(models: StateModels, fmt: StateFormat) -> QuickCheck:
    """The quick path of ``fmt`` with the models' parameters: made once, kept with the models."""
    if models.quick is None:
        # the validator and its compiled first try, of one record schema
        validator, reader = record_reading(models.schema, models.root)
        models.quick = QuickCheck(
            validator,
            Rules.of(fmt.players.constraints, compiled),
            Rules.of(fmt.table.constraints, compiled),
            params_record(models.params),
            # (the walk of a state the reading has read: see quick_refs)
            records_hold(quick_refs(models.player_refs)),
            refs_hold(quick_refs(models.table_refs)),
            reader,
        )
    return models.quick


def _full_records(
    chk: StateCheck, models: StateModels, data: Any, game_id: str | None
) -> tuple[list[Record], list[int], Record, dict[str, int]] | None:
    """The players (with their places), the table and the ids, each problem reported on the way.

    None when the state has no players to look at (it is not a mapping, or
    its players are not a list of a size the game allows).
    """
    try:
        valid = models.strict.model_validate(data).model_dump(by_alias=True)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        if _document_problems(chk, errors, game_id):
            return None
        inner = [e for e in errors if e["loc"][:1] in (("players",), ("table",))]
        _report(chk, inner, models.root, data)
        # read again, each value the strict model refused as nothing (see state_model)
        valid = models.lenient.model_validate(data).model_dump(by_alias=True)
    players: list[Record] = []
    ids: dict[str, int] = {}
    indices: list[int] = []
    for i, raw in enumerate(valid["players"]):
        if raw is None:
            continue  # not a mapping: reported
        pid = raw["id"]
        # missing, or not an id (reported; the lenient model takes any id as written)
        if not isinstance(pid, str) or not is_state_id(pid):
            pid = raw["id"] = f"#{i + 1}"
        elif pid in ids:
            chk.at(("players", i, "id"), f"player id {pid!r} is used twice")
        ids.setdefault(pid, i)
        players.append(record(raw))
        indices.append(i)
    return players, indices, record(valid["table"] or {}), ids


def _walk(
    chk: StateCheck, plan: Refs | None, value: Any, ids: Mapping[str, int] | None, here: DataPath
) -> None:
    """What the model cannot check: ``player`` fields name players, ``unique`` lists."""
    if value is None or plan is None:
        return
    if plan.player:
        if ids is not None and isinstance(value, str) and value not in ids:
            chk.at(here, f"no player {value!r} in this state (players: {', '.join(ids)})")
    elif isinstance(value, list):
        if plan.unique:
            seen: set[Any] = set()
            for i, v in enumerate(value):
                if isinstance(v, str | int) and v in seen:
                    chk.at(here + (i,), f"{v!r} is listed twice")
                seen.add(v)
        if plan.item is not None:
            for i, v in enumerate(value):
                _walk(chk, plan.item, v, ids, here + (i,))
    elif isinstance(value, dict):
        for name, sub in plan.fields:
            _walk(chk, sub, value.get(name), ids, here + (name,))


def check_value(chk: StateCheck, spec: FieldSpec, value: Any, path: DataPath) -> Any:
    """Check one value (a field's default) against its field spec; return it normalised."""
    try:
        checked = value_model(spec, chk.params).model_validate({"value": value})
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        for err in errors:
            err["loc"] = err["loc"][1:]  # below the value, not the model holding it
        here = StateCheck(chk.sources, chk.prefix + path, chk.params, chk.problems)
        _report(here, errors, spec, value, state=False)
        return None
    out = checked.model_dump(by_alias=True)["value"]
    _walk(chk, refs(spec), out, None, path)
    return out


def _constraints(
    chk: StateCheck,
    fmt: RecordFormat,
    record: Mapping[str, Any],
    context: Mapping[str, Any],
    plain: PlainContext,
    path: DataPath,
) -> None:
    # the table-wide names, then the record's own fields (these win, as in the scorer)
    ns = {**context, **record}
    for where, message in failures(fmt.constraints, record, ns, plain, compiled):
        chk.at(path + where, message)


class _Compiled(dict[str, Expression]):
    """Expressions by source, each parsed on first use."""

    def __missing__(self, source: str) -> Expression:
        expr = self[source] = parse(source)
        return expr


#: Parse an expression once; the spec check has already reported bad ones. A
#: bound dict lookup: the scorer asks for an expression ~100 times per state.
compiled: Callable[[str], Expression] = _Compiled().__getitem__


def params_record(params: Mapping[str, Parameter]) -> Record:
    """The spec's parameters as the record ``param`` of expressions (a map as a record)."""
    return fields_record(
        {
            name: p.value if isinstance(p.value, int) else fields_record(p.value)
            for name, p in params.items()
        }
    )
