"""The generic scoring operations a spec composes into scoring steps.

Each operation turns one player's namespace into points and explanatory
notes. None of them knows a game: every value, condition and sentence comes
from the spec. New games add operations here when their scoring needs a
shape that the existing ones cannot express.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rulepress.spec.model import (
    Component,
    Condition,
    FirstComponent,
    LinesComponent,
    Part,
    SumComponent,
)
from rulepress.spec.state import compiled

Namespace = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class RawNote:
    template: str
    args: dict[str, Any]


def _int(value: Any, source: str) -> int:
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        raise TypeError(f"{source!r} must give an integer, gave {value!r}")
    return value


def _part_note(part: Part, ns: Namespace, points: int) -> RawNote:
    args = {name: compiled(src).evaluate(ns) for name, src in part.args.items()}
    args.setdefault("points", points)
    return RawNote(part.note, args)


def _sum(comp: SumComponent, ns: Namespace) -> tuple[int, list[RawNote]]:
    total = 0
    notes: list[RawNote] = []
    for part in comp.parts:
        if not compiled(part.when).evaluate(ns):
            continue
        points = _int(compiled(part.value).evaluate(ns), part.value)
        total += points
        notes.append(_part_note(part, ns, points))
    return total, notes


def _first(comp: FirstComponent, ns: Namespace) -> tuple[int, list[RawNote]]:
    for part in comp.parts:
        if compiled(part.when).evaluate(ns):
            points = _int(compiled(part.value).evaluate(ns), part.value)
            return points, [_part_note(part, ns, points)]
    return 0, []


#: interface sentences of the lines operation (translated with rulepress's own catalog)
LINE_SCORED = "{label}: {points}"
LINE_FAILED = "{label}: 0 ({reason})"


def _first_failed(conditions: list[Condition], scope: Namespace) -> Condition | None:
    return next((c for c in conditions if not compiled(c.test).evaluate(scope)), None)


def _lines(comp: LinesComponent, ns: Namespace) -> tuple[int, list[RawNote]]:
    items = compiled(comp.items).evaluate(ns)
    scope = ns if isinstance(ns, dict) else dict(ns)
    strict_base = bool(compiled(comp.restriction_voids_continuation).evaluate(ns))
    total = 0
    notes: list[RawNote] = []
    base_label = ""
    base_ok = True
    for index, item in enumerate(items, start=1):
        scope[comp.item] = item
        scope["index"] = index
        label = str(compiled(comp.label).evaluate(scope)) or f"#{index}"
        is_continuation = bool(compiled(comp.continuation).evaluate(scope))
        unmet = _first_failed(comp.conditions, scope)
        barred = _first_failed(comp.restrictions, scope) if unmet is None else None
        if is_continuation and not base_ok:
            reason = RawNote(comp.voided_note, {"base": base_label})
            notes.append(RawNote(LINE_FAILED, {"label": label, "reason": reason}))
        elif unmet is not None or barred is not None:
            failed = unmet or barred
            assert failed is not None
            notes.append(
                RawNote(LINE_FAILED, {"label": label, "reason": RawNote(failed.fails, {})})
            )
        else:
            points = _int(compiled(comp.value).evaluate(scope), comp.value)
            total += points
            notes.append(RawNote(LINE_SCORED, {"label": label, "points": points}))
        if not is_continuation:
            base_ok = unmet is None and not (strict_base and barred is not None)
            base_label = label
    return total, notes


_OPERATIONS: dict[str, Callable[[Any, Namespace], tuple[int, list[RawNote]]]] = {
    "sum": _sum,
    "first": _first,
    "lines": _lines,
}


def evaluate(component: Component, ns: Namespace) -> tuple[int, list[RawNote]]:
    """Points and notes of one component for the player whose namespace is ``ns``."""
    return _OPERATIONS[component.op](component, ns)
