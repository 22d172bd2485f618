"""Pydantic's validation errors as located problems, each at the deepest place that exists.

The loader validates a whole spec, and the procedures' checks validate an
operation's settings again, through the same translation.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from rulepress.errors import DataPath, Location, Problem
from rulepress.yamlsrc.reader import SourceMap, format_path

_MESSAGES = {
    "int_type": "expected an integer",
    "int_parsing": "expected an integer",
    "int_from_float": "expected an integer",
    "string_type": "expected text",
    "bool_type": "expected true or false",
    "list_type": "expected a list",
    "dict_type": "expected a mapping",
    "model_type": "expected a mapping",
    "model_attributes_type": "expected a mapping",
    "too_short": "must not be empty",
}


def _message(err: ErrorDetails) -> str:
    kind = err["type"]
    if kind == "missing":
        return f"missing required key {err['loc'][-1]!r}"
    if kind == "extra_forbidden":
        return f"unknown key {err['loc'][-1]!r}"
    if kind == "value_error":
        msg = str(err["msg"])
        return msg.removeprefix("Value error, ")
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        ctx = err.get("ctx") or {}
        expected = ctx.get("expected_tags", "")
        return f"'op' must be one of {expected}"
    if kind == "literal_error":
        ctx = err.get("ctx") or {}
        return f"expected one of {ctx.get('expected', '?')}, got {err.get('input')!r}"
    base = _MESSAGES.get(kind)
    if base is None:
        return str(err["msg"]).replace("Input should be", "expected")
    if kind in ("too_short",):
        return base
    return f"{base}, got {_shown(err.get('input'))}"


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def pydantic_problems(
    exc: ValidationError, sources: SourceMap, prefix: DataPath = ()
) -> list[Problem]:
    """Translate pydantic's errors into located problems.

    Pydantic inserts segments that are not data keys (the tag of a
    discriminated union, the member of a plain union, a missing key); only the
    segments that name a place in the source document are kept, so each
    problem points at the deepest place that exists.
    """
    problems: list[Problem] = []
    for err in exc.errors():
        path: DataPath = prefix
        for seg in err["loc"]:
            candidate = path + (seg,)
            if candidate in sources.values or candidate in sources.keys:
                path = candidate
        key = err["type"] == "extra_forbidden"
        where = format_path(path[len(prefix) :])
        problems.append(Problem(sources.locate(path, key=key), where, _message(err)))
    return _dedupe_union(problems)


def _dedupe_union(problems: list[Problem]) -> list[Problem]:
    """A value that fits no member of a union yields one error per member: merge them."""
    by_place: dict[tuple[Location, str], list[str]] = {}
    for p in problems:
        by_place.setdefault((p.location, p.where), []).append(p.message)
    out = []
    for (loc, where), messages in by_place.items():
        unique = list(dict.fromkeys(messages))
        out.append(Problem(loc, where, "; or ".join(unique)))
    return out
