"""JSON Schemas for editors: of the spec format, and of one game's table states.

``rulepress schema`` prints the first so that editors (VS Code's YAML
extension, JetBrains IDEs) validate and complete ``rules_spec/*.yaml``;
``rulepress schema --state GAME`` prints the second for table-state files.
"""

from __future__ import annotations

from typing import Any

from rulepress.spec.expr_base import MAX_INT
from rulepress.spec.model import (
    MAX_STATE_ID,
    STATE_ID_SYNTAX,
    Bound,
    FieldSpec,
    Parameter,
    RecordFormat,
    Spec,
)
from rulepress.spec.yamlsrc import CONTROLS

DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: a state's text: one line with no control (the loader's rule, as an editor can check
#: it: ``\uXXXX`` escapes mean the same in ECMA-262 and Python patterns)
_ONE_LINE = (
    "^[^" + "".join(c if c == "-" else f"\\u{ord(c):04x}" for c in CONTROLS + "\r\t\n") + "]*$"
)


def spec_schema() -> dict[str, Any]:
    """The schema of one spec *file*: any subset of the spec's sections."""
    full = Spec.model_json_schema()
    full.pop("required", None)
    full["$schema"] = DRAFT
    full["title"] = "rulepress rules spec file"
    full["description"] = (
        "One YAML file of rules_spec/<game>/. A game's files together must give every "
        "required section: game, rules, table_states and scorer."
    )
    return full


def _bound(value: Bound | None, params: dict[str, Parameter]) -> int | None:
    if isinstance(value, str):
        param = params.get(value.removeprefix("param:"))
        return param.value if param else None
    return value


def _field(spec: FieldSpec, params: dict[str, Parameter]) -> dict[str, Any]:
    out: dict[str, Any] = {"description": spec.description}
    low, high = _bound(spec.min, params), _bound(spec.max, params)
    if spec.type == "int":
        out["type"] = "integer"
        out["minimum"] = -MAX_INT if low is None else low
        out["maximum"] = MAX_INT if high is None else high
    elif spec.type == "bool":
        out["type"] = "boolean"
    elif spec.type in ("text", "player"):
        out["type"] = "string"
        out["pattern"] = _ONE_LINE
    elif spec.type == "choice":
        out["enum"] = list(spec.choices)
    elif spec.type == "list":
        out["type"] = "array"
        if spec.item is not None:
            out["items"] = _field(spec.item, params)
        if low is not None:
            out["minItems"] = low
        if high is not None:
            out["maxItems"] = high
        if spec.unique:
            out["uniqueItems"] = True
    else:
        out.update(_record(spec.fields, params))
    if spec.default is not None:
        out["default"] = spec.default
    return out


def _record(fields: dict[str, FieldSpec], params: dict[str, Parameter]) -> dict[str, Any]:
    required = [
        n for n, f in fields.items() if f.default is None and not f.optional and f.type != "list"
    ]
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {n: _field(f, params) for n, f in fields.items()},
        "required": required,
    }


def state_schema(spec: Spec, sequence_id: str | None = None) -> dict[str, Any]:
    """The schema of a table-state file for one of ``spec``'s sequences (default: the scorer's)."""
    wanted = sequence_id or spec.scorer.sequence
    seq = next((s for s in spec.sequences if s.id == wanted), None)
    if seq is None:
        known = ", ".join(s.id for s in spec.sequences)
        raise ValueError(f"{spec.game.id} has no sequence {wanted!r} (sequences: {known})")
    fmt = spec.table_states[seq.state]
    params = dict(spec.parameters)
    player: dict[str, Any] = _record(dict(fmt.players.fields), params)
    player["properties"] = {
        "id": {
            "type": "string",
            "description": f"A short name for the player: {STATE_ID_SYNTAX}.",
            "minLength": 1,
            "maxLength": MAX_STATE_ID,
            "pattern": _ONE_LINE,
        },
        **player["properties"],
    }
    player["required"] = ["id", *player["required"]]
    players: dict[str, Any] = {"type": "array", "items": player}
    if (low := _bound(fmt.players.min, params)) is not None:
        players["minItems"] = low
    if (high := _bound(fmt.players.max, params)) is not None:
        players["maxItems"] = high
    table: RecordFormat = fmt.table
    return {
        "$schema": DRAFT,
        "title": f"{spec.game.title} table state",
        "description": fmt.description,
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "game": {"const": spec.game.id},
            "sequence": {"const": seq.id},
            "players": players,
            "table": _record(dict(table.fields), params),
        },
    }
