"""Placeholder values for a table state, built from its state format, that pass its checks.

The values are the format's own: a field's default, else the lowest value its
type and bounds allow, and one item in each list (so that a starter state
shows the list's shape). Cross-field constraints can refuse such values (a
player's cubes must add up to what they own); :func:`satisfy` then drops list
items where that helps, and a field still refused takes the value of the same
field in one of the spec's worked examples for the format, which the spec
check has proved valid. ``rulepress state-template`` writes the result; the
property tests turn generated states into valid ones with the same search.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rulepress.errors import Problem
from rulepress.model.spec_model import (
    FieldSpec,
    Parameter,
    RecordFormat,
    Sequence,
    Spec,
    StateFormat,
)

# one reading of a bound for the checks and the placeholders that must pass them
from rulepress.states.models import bound
from rulepress.states.validation import validate_state
from rulepress.yamlsrc import SourceMap


@dataclass
class Ids:
    """Player ids handed out in turn to the fields that name a player (p2, p1, p2 …)."""

    ids: list[str]
    turn: int = 1

    def take(self) -> str:
        pid = self.ids[self.turn % len(self.ids)]
        self.turn += 1
        return pid


def placeholders(
    fmt: StateFormat, params: Mapping[str, Parameter], ids: list[str]
) -> dict[str, Any]:
    """A placeholder state: players with ``ids`` and the table, each field filled in."""
    taker = Ids(ids)
    players = [{"id": pid, **_record(fmt.players.fields, None, params, taker)} for pid in ids]
    return {"players": players, "table": _record(fmt.table.fields, None, params, taker)}


def _record(
    fields: Mapping[str, FieldSpec], given: Any, params: Mapping[str, Parameter], ids: Ids
) -> dict[str, Any]:
    """A record's placeholder: the values ``given`` (a record default) and the rest filled in."""
    out: dict[str, Any] = {}
    for name, spec in fields.items():
        if isinstance(given, Mapping) and name in given:
            out[name] = placeholder(name, spec, given[name], params, ids)
        elif not spec.optional:
            out[name] = placeholder(name, spec, spec.default, params, ids)
    return out


def placeholder(
    name: str, spec: FieldSpec, given: Any, params: Mapping[str, Parameter], ids: Ids
) -> Any:
    """One field's placeholder (``given``: its default, or None)."""
    if spec.type == "record":
        return _record(spec.fields, given, params, ids)
    if given is not None:
        return copy.deepcopy(given)
    return _fresh(name, spec, params, ids)


def _fresh(name: str, spec: FieldSpec, params: Mapping[str, Parameter], ids: Ids) -> Any:
    """The placeholder of a field without a default: the least its type and bounds allow."""
    low, high = bound(spec.min, params), bound(spec.max, params)
    if spec.type == "int":
        value = 0 if low is None else max(low, 0) if high is None else min(max(low, 0), high)
        return value if high is None or value <= high else high
    if spec.type == "bool":
        return False
    if spec.type == "choice":
        return spec.choices[0]
    if spec.type == "player":
        return ids.take()
    if spec.type == "list":
        assert spec.item is not None  # the spec check guarantees it
        count = max(low or 0, 1)
        if high is not None:
            count = min(count, high)
        if spec.unique and spec.item.type == "choice":
            return list(spec.item.choices[:count])
        if spec.unique and spec.item.type == "player":
            return [ids.take() for _ in range(count)]
        return [placeholder(name, spec.item, spec.item.default, params, ids) for _ in range(count)]
    if spec.type == "record":
        return _record(spec.fields, None, params, ids)
    return spec.title or name.replace("_", " ").capitalize()  # text


def _check(spec: Spec, fmt: StateFormat, state: dict[str, Any]) -> list[Problem]:
    _, problems = validate_state(
        fmt, spec.parameters, copy.deepcopy(state), SourceMap(), sets=spec.sets
    )
    return problems


def _lists(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every non-empty list in ``value``, innermost first."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _lists(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _lists(inner, (*path, i))
        if value:
            yield path


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def satisfy(spec: Spec, seq: Sequence, state: dict[str, Any]) -> list[Problem]:
    """Make ``state`` (plain data, changed in place) pass the check of ``seq``'s format.

    Returns the problems left (none, for every sequence of the real specs).

    A greedy search, kept only where it helps: a state format holds a handful
    of constraints, and each try is one check of a two-player state.
    """
    fmt = spec.table_states[seq.state]
    ids = [p["id"] for p in state["players"]]
    problems = _check(spec, fmt, state)
    for path in list(_lists(state)) if problems else []:
        if path[0] == "players" and len(path) == 1:
            continue
        holder, key = _at(state, path[:-1]), path[-1]
        kept = holder[key]
        holder[key] = []
        fewer = _check(spec, fmt, state)
        if len(fewer) < len(problems):
            problems = fewer
        else:
            holder[key] = kept
        if not problems:
            break
    for example in _examples(spec, seq) if problems else []:
        problems = _borrow(spec, fmt, state, example, ids, problems)
        if not problems:
            break
    return problems


def _examples(spec: Spec, seq: Sequence) -> Iterator[dict[str, Any]]:
    """The normalised states of the worked examples written in ``seq``'s state format."""
    formats = {s.id: s.state for s in spec.sequences}
    for example in spec.examples:
        if formats.get(example.sequence or spec.scorer.sequence) != seq.state:
            continue
        fmt = spec.table_states[seq.state]
        state, problems = validate_state(
            fmt, spec.parameters, example.state, SourceMap(), sets=spec.sets
        )
        if not problems:
            yield state


def _borrow(
    spec: Spec,
    fmt: StateFormat,
    state: dict[str, Any],
    example: dict[str, Any],
    ids: list[str],
    problems: list[Problem],
) -> list[Problem]:
    """Take fields from ``example`` where fewer problems remain: one at a time, then whole records.

    A constraint can tie two fields together (a ship's class and its hexes):
    then neither helps alone, and the record is taken whole.
    """
    theirs = [p["id"] for p in example["players"]]
    rename = dict(zip(theirs, ids, strict=False))
    targets: list[tuple[dict[str, Any], Any, RecordFormat]] = [
        (player, example["players"][i % len(theirs)], fmt.players)
        for i, player in enumerate(state["players"])
    ]
    targets.append((state["table"], example["table"], fmt.table))
    for names in ("one", "all"):
        for ours, source, record_fmt in targets:
            given = {n: f for n, f in record_fmt.fields.items() if source.get(n) is not None}
            groups = [[n] for n in given] if names == "one" else [list(given)]
            for group in groups:
                kept = {n: ours[n] for n in group if n in ours}
                for n in group:
                    ours[n] = _renamed(given[n], _plain(source[n]), rename)
                fewer = _check(spec, fmt, state)
                if len(fewer) < len(problems):
                    problems = fewer
                else:
                    for n in group:
                        del ours[n]
                    ours.update(kept)
                if not problems:
                    return problems
    return problems


def _plain(value: Any) -> Any:
    """A normalised state's value as plain data (records are dict subclasses)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _renamed(spec: FieldSpec, value: Any, rename: Mapping[str, str]) -> Any:
    """``value`` with the example's player ids replaced by the template's."""
    if spec.type == "player" and isinstance(value, str):
        return rename.get(value, value)
    if spec.type == "list" and spec.item is not None and isinstance(value, list):
        return [_renamed(spec.item, v, rename) for v in value]
    if spec.type == "record" and isinstance(value, dict):
        return {
            k: _renamed(spec.fields[k], v, rename) if k in spec.fields else v
            for k, v in value.items()
        }
    return value
