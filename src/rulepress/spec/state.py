"""Validating a table state against the state format its game's spec declares.

A table state is what happened at the table, as the scorer needs it:
``players`` (a list of records, each with an ``id``) and an optional
``table`` record. The spec's ``table_state`` section says which fields exist,
their types, bounds (integers or ``param:name``), defaults and cross-field
constraints. Every problem is reported with its source position; nothing is
scored from a state that has any.

Whatever the format says, a state's integers lie within ±``MAX_INT`` (the
YAML reader refuses others; here a bound the format leaves out is that one),
a player's id is a table-state id (:func:`~rulepress.spec.model.is_state_id`),
and a text is one line: a table state is written by a player, and its texts
and ids are printed in reports, where a line break or a tab would let it
forge a line.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulepress.errors import Problem
from rulepress.spec.expr import MAX_INT, Expression, ExpressionEvalError, parse
from rulepress.spec.expr_eval import type_name
from rulepress.spec.model import (
    STATE_ID_SYNTAX,
    Bound,
    FieldSpec,
    Parameter,
    RecordFormat,
    StateFormat,
    is_state_id,
)
from rulepress.spec.records import Record, fields_record
from rulepress.spec.text import PlainContext, to_plain
from rulepress.spec.yamlsrc import DataPath, SourceMap, format_path

#: keys a state document may have besides the two sections
_STATE_KEYS = ("game", "sequence", "players", "table")


@dataclass
class StateCheck:
    """The running check of one state document."""

    sources: SourceMap
    prefix: DataPath
    params: Mapping[str, Parameter]
    problems: list[Problem] = field(default_factory=list)

    def at(self, path: DataPath, message: str, *, key: bool = False) -> None:
        full = self.prefix + path
        self.problems.append(
            Problem(self.sources.locate(full, key=key), format_path(full), message)
        )

    def bound(self, value: Bound | None) -> int | None:
        if value is None or isinstance(value, int):
            return value
        name = value.removeprefix("param:")
        param = self.params.get(name)
        return param.value if param else None


def check_value(chk: StateCheck, spec: FieldSpec, value: Any, path: DataPath) -> Any:
    """Check one value against its field spec; return it normalised (defaults filled)."""
    kind = spec.type
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            chk.at(path, f"expected an integer, got {type_name(value, in_state=True)}")
            return None
        # a bound the format leaves out is the global one (the YAML reader already
        # keeps to it; a state given as data, not read from a file, may not)
        low, high = chk.bound(spec.min), chk.bound(spec.max)
        low = -MAX_INT if low is None else low
        high = MAX_INT if high is None else high
        if value < low:
            word = "negative" if low == 0 else f"below {low}"
            chk.at(path, f"{_shown_int(value)} is {word}; the least allowed is {low}")
        if value > high:
            chk.at(path, f"{_shown_int(value)} is more than the most allowed, {high}")
        # a value past the global bound reaches no constraint (nor its arithmetic)
        return value if -MAX_INT <= value <= MAX_INT else None
    if kind == "bool":
        if not isinstance(value, bool):
            chk.at(path, f"expected true or false, got {type_name(value, in_state=True)}")
            return None
        return value
    if kind in ("text", "player"):
        if not isinstance(value, str) or not value:
            chk.at(path, f"expected text, got {type_name(value, in_state=True)}")
            return None
        if "\n" in value or "\t" in value:
            chk.at(path, "a text in a table state is one line, with no line break or tab")
            return None
        return value
    if kind == "choice":
        if value not in spec.choices:
            options = ", ".join(spec.choices)
            chk.at(path, f"expected one of {options}, got {value!r}")
            return None
        return value
    if kind == "list":
        return _check_list(chk, spec, value, path)
    return _check_record(chk, spec.fields, value, path)


def _shown_int(value: int) -> str:
    """An integer as a message shows it: whole if it is short, else by its number of digits."""
    if -MAX_INT <= value <= MAX_INT:
        return str(value)
    # str() of more than 4,300 digits raises; bit_length() gives the size at once
    if value.bit_length() > 10_000:
        return "an integer of thousands of digits"
    return f"an integer of {len(str(abs(value)))} digits"


def _check_list(chk: StateCheck, spec: FieldSpec, value: Any, path: DataPath) -> Any:
    if not isinstance(value, list):
        chk.at(path, f"expected a list, got {type_name(value, in_state=True)}")
        return None
    low, high = chk.bound(spec.min), chk.bound(spec.max)
    if low is not None and len(value) < low:
        chk.at(path, f"needs at least {low} entries, has {len(value)}")
    if high is not None and len(value) > high:
        # the length is checked before any item, and an oversize list stops
        # here: its items are never checked, so the work stays bounded by the
        # game (one problem, not one per item of a list a player inflated)
        chk.at(path, f"allows at most {high} entries, has {len(value)}")
        return None
    assert spec.item is not None  # the spec check guarantees it
    out = [check_value(chk, spec.item, v, path + (i,)) for i, v in enumerate(value)]
    if spec.unique:
        seen: set[Any] = set()
        for i, v in enumerate(out):
            if isinstance(v, str | int) and v in seen:
                chk.at(path + (i,), f"{v!r} is listed twice")
            seen.add(v)
    return out


def _check_record(
    chk: StateCheck, fields: Mapping[str, FieldSpec], value: Any, path: DataPath
) -> Any:
    if not isinstance(value, dict):
        chk.at(path, f"expected a mapping, got {type_name(value, in_state=True)}")
        return None
    out = Record()
    for key in value:
        if key not in fields and not (key == "id" and _is_player(path)):
            known = ", ".join(sorted(fields))
            chk.at(path + (key,), f"unknown field {key!r} (known: {known})", key=True)
    for name, spec in fields.items():
        if name in value:
            out[name] = check_value(chk, spec, value[name], path + (name,))
        elif spec.default is not None:
            # a default goes through the same checks, so that a record default
            # such as {state: live} gets its own optional sub-fields filled in
            out[name] = check_value(chk, spec, copy.deepcopy(spec.default), path + (name,))
        elif spec.optional:
            out[name] = None
        elif spec.type == "list":
            # a list left out is an empty one, which must still have its least length
            low = chk.bound(spec.min)
            if low:
                chk.at(path, f"missing field {name!r} (a list of at least {low} entries)")
            out[name] = []
        else:
            chk.at(path, f"missing field {name!r}")
            out[name] = None
    return out


def _is_player(path: DataPath) -> bool:
    return len(path) == 2 and path[0] == "players" and isinstance(path[1], int)


def _constraints(
    chk: StateCheck,
    fmt: RecordFormat,
    record: Mapping[str, Any],
    context: Mapping[str, Any],
    path: DataPath,
) -> None:
    plain = PlainContext({n: p.value for n, p in chk.params.items()}, {}, {})
    # the table-wide names, then the record's own fields (these win, as in the scorer)
    ns = {**context, **record}
    for c in fmt.constraints:
        try:
            ok = compiled(c.test).evaluate(ns)
        except ExpressionEvalError:
            continue  # a field it reads is already reported as missing or wrong
        if not ok:
            target = path + tuple(c.field.split(".")) if c.field else path
            args = {name: compiled(src).evaluate(ns) for name, src in c.args.items()}
            chk.at(target, to_plain(c.message, plain, args))


class _Compiled(dict[str, Expression]):
    """Expressions by source, each parsed on first use."""

    def __missing__(self, source: str) -> Expression:
        expr = self[source] = parse(source)
        return expr


#: Parse an expression once; the spec check has already reported bad ones. A
#: bound dict lookup: the scorer asks for an expression ~100 times per state.
compiled: Callable[[str], Expression] = _Compiled().__getitem__


def params_record(params: Mapping[str, Parameter]) -> Record:
    """The spec's parameters as the record ``param`` of expressions."""
    return fields_record({name: p.value for name, p in params.items()})


def validate_state(
    fmt: StateFormat,
    params: Mapping[str, Parameter],
    data: Any,
    sources: SourceMap,
    prefix: DataPath = (),
    game_id: str | None = None,
) -> tuple[dict[str, Any], list[Problem]]:
    """Check ``data`` against ``fmt``; return the normalised state and all problems.

    Every record of the state (players, the table, nested records) is a
    :class:`~rulepress.spec.records.Record` from the start, records all the
    way down: the scorer reads such a state without copying it (see
    :func:`~rulepress.spec.records.owned`), and the constraints here read it
    as it is.
    """
    chk = StateCheck(sources, prefix, params)
    if not isinstance(data, dict):
        chk.at((), f"a table state must be a mapping, got {type_name(data, in_state=True)}")
        return {}, chk.problems
    for key in data:
        if key not in _STATE_KEYS:
            chk.at((key,), f"unknown key {key!r} (a state has {', '.join(_STATE_KEYS)})", key=True)
    if game_id is not None and "game" in data and data["game"] != game_id:
        chk.at(("game",), f"this state is for {data['game']!r}, not {game_id!r}")
    players_raw = data.get("players")
    if not isinstance(players_raw, list):
        chk.at(("players",) if "players" in data else (), "'players' must be a list of players")
        return {}, chk.problems
    low, high = chk.bound(fmt.players.min), chk.bound(fmt.players.max)
    if low is not None and len(players_raw) < low:
        chk.at(("players",), f"{len(players_raw)} players; the game needs at least {low}")
    if high is not None and len(players_raw) > high:
        # Refused before any player is looked at: checking each of 10,000
        # players (and the constraints across them) is work the game never
        # needs, and the other problems of such a state are beside the point.
        chk.at(("players",), f"{len(players_raw)} players; the game allows at most {high}")
        return {}, chk.problems
    players: list[dict[str, Any]] = []
    ids: dict[str, int] = {}
    indices: list[int] = []
    for i, raw in enumerate(players_raw):
        path: DataPath = ("players", i)
        rec = _check_record(chk, fmt.players.fields, raw, path)
        if rec is None:
            continue
        pid = raw.get("id")
        if not isinstance(pid, str) or not pid:
            chk.at(path, "every player needs an 'id' (a short name)")
            pid = f"#{i + 1}"
        elif not is_state_id(pid):
            # shown as repr(), which escapes what could break the message's line
            chk.at(path + ("id",), f"player id {pid!r} is not an id ({STATE_ID_SYNTAX})")
            pid = f"#{i + 1}"
        elif pid in ids:
            chk.at(path + ("id",), f"player id {pid!r} is used twice")
        ids.setdefault(pid, i)
        player = Record(id=pid)
        player.update(rec)
        players.append(player)
        indices.append(i)
    table_raw = data.get("table", {})
    table = _check_record(chk, fmt.table.fields, table_raw, ("table",)) or Record()
    for i, rec in zip(indices, players, strict=True):
        _check_player_refs(chk, fmt.players.fields, rec, ids, ("players", i))
    _check_player_refs(chk, fmt.table.fields, table, ids, ("table",))
    # Cross-field constraints run on every record, even one with other problems:
    # a field that failed its own check is None, so a constraint reading it
    # fails to evaluate and is skipped instead of piling a second message on.
    context = {
        "param": params_record(params),
        "n_players": len(players),
        "table": table,
        "players": players,
    }
    for i, rec in zip(indices, players, strict=True):
        _constraints(chk, fmt.players, rec, context, ("players", i))
    _constraints(chk, fmt.table, table, context, ("table",))
    return {"players": players, "table": table}, chk.problems


def _check_player_refs(
    chk: StateCheck,
    fields: Mapping[str, FieldSpec],
    record: Mapping[str, Any],
    ids: Mapping[str, int],
    path: DataPath,
) -> None:
    def walk(spec: FieldSpec, value: Any, here: DataPath) -> None:
        if value is None:
            return
        if spec.type == "player" and isinstance(value, str) and value not in ids:
            chk.at(here, f"no player {value!r} in this state (players: {', '.join(ids)})")
        elif spec.type == "list" and spec.item is not None and isinstance(value, list):
            for i, v in enumerate(value):
                walk(spec.item, v, here + (i,))
        elif spec.type == "record" and isinstance(value, dict):
            for name, sub in spec.fields.items():
                walk(sub, value.get(name), here + (name,))

    for name, spec in fields.items():
        walk(spec, record.get(name), path + (name,))
