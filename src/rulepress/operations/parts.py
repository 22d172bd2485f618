"""Parts: what ``sum``, ``first`` and ``weighted_counts`` add up, compiled once.

A part (:class:`rulepress.model.spec_model.Part`) is a ``when``, a ``value`` and
the note that explains it; these helpers look its expressions up once per
component and make its note's arguments per player.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulepress.expressions.expression import Evaluate
from rulepress.model.spec_model import Part
from rulepress.scoring.components import Functions, Namespace, Pick
from rulepress.scoring.notes import Nested, snapshot
from rulepress.states.validation import compiled


def part_note(part: Part, ns: Namespace, points: int, fns: Functions) -> Nested:
    """A part's note for one player, its ``args`` evaluated (for parts run as written)."""
    if not part.args:
        return Nested(part.note, {"points": points})
    args = dict(snapshot({n: compiled(src).evaluate(ns, fns) for n, src in part.args.items()}))
    args.setdefault("points", points)
    return Nested(part.note, args)


#: a part compiled: (when, value, value source, note template, its arguments' evaluators)
CompiledPart = tuple[Evaluate, Evaluate, str, str, tuple[tuple[str, Evaluate], ...]]


def compile_parts(parts: list[Part], pick: Pick) -> list[CompiledPart]:
    """Each part's expressions looked up once, for a component run per player."""
    return [
        (
            pick(p.when),
            pick(p.value),
            p.value,
            p.note,
            tuple((name, pick(src)) for name, src in p.args.items()),
        )
        for p in parts
    ]


def part_args(
    args: tuple[tuple[str, Evaluate], ...], ns: Namespace, fns: Functions, points: int
) -> Mapping[str, Any]:
    """A part's note arguments, as :func:`part_note` makes them (``points`` unless given)."""
    if not args:
        return {"points": points}
    # snapshot() gives back the dict it is given, or a new one: either is this note's own
    out = snapshot({name: evaluate(ns, fns) for name, evaluate in args})
    out.setdefault("points", points)
    return out
