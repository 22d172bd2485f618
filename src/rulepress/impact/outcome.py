"""What one table's result is, reduced to what a rule change can move, and two compared.

A result is reduced to plain facts: each player's total and place, the
winners, each step's points per player, each score line's points, and
what each step changed on the table (its events and votes). Two outcomes of
the same table under two rule sets are then compared fact by fact. Only the
facts are kept per table; the full trace of a table that changed is
scored again when the report needs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulepress.scoring.result import ScoreResult

#: the kinds of change a report counts, from the one a player feels most
KINDS = ("winner", "place", "score")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The facts of one result; per-player tuples follow ``players``."""

    players: tuple[str, ...]
    totals: tuple[int, ...]
    places: tuple[int | None, ...]
    winners: tuple[str, ...] | None
    #: step number → each player's points from that step's score lines
    steps: dict[str, tuple[int, ...]]
    #: (step number, part) → each player's amount of that part of the step's score line
    #: (a faction's prestige, the sets of one size: the line's breakdown)
    lines: dict[tuple[str, str], tuple[int, ...]]
    #: step number → what the step did to the table (events, votes), comparable
    table: dict[str, tuple[Any, ...]]


def outcome(result: ScoreResult) -> Outcome:
    """The facts of ``result`` (scored with or without its trace: only points are read)."""
    players = tuple(p.id for p in result.players)
    width = len(players)
    steps: dict[str, list[int]] = {}
    lines: dict[tuple[str, str], list[int]] = {}
    totals = []
    for i, p in enumerate(result.players):
        for line in p.lines:
            steps.setdefault(line.step, [0] * width)[i] += line.points
            for part, amount in line.breakdown.items():
                lines.setdefault((line.step, part), [0] * width)[i] += amount
        # a sequence without a total (an economy) is compared on the sum of its lines
        totals.append(p.total if p.total is not None else sum(line.points for line in p.lines))
    table: dict[str, list[Any]] = {}
    for e in result.events:
        table.setdefault(e.step, []).append((e.player, e.field, _plain(e.after)))
    for t in result.tallies:
        table.setdefault(t.step, []).append(
            (t.id, tuple(sorted(t.totals.items())), tuple(t.winners))
        )
    w = result.winners
    return Outcome(
        players,
        tuple(totals),
        tuple(p.rank for p in result.players),
        tuple(w.winners) if w is not None else None,
        {k: tuple(v) for k, v in steps.items()},
        {k: tuple(v) for k, v in lines.items()},
        {k: tuple(v) for k, v in table.items()},
    )


def _plain(value: Any) -> Any:
    """A value made hashable and comparable (records and lists of a state)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _plain(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    return value


@dataclass(slots=True)
class Change:
    """How the outcome of one table under rule set B differs from A."""

    kinds: tuple[str, ...]
    #: each player's total under B minus under A
    total_diffs: tuple[int, ...]
    #: step number → each player's points under B minus under A (steps that differ only)
    step_diffs: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: steps whose lines, events or votes differ
    steps: tuple[str, ...] = ()
    #: parts of score lines whose amounts differ (step number, part)
    lines: tuple[tuple[str, str], ...] = ()


def compare(a: Outcome, b: Outcome) -> Change:
    """What differs between ``a`` and ``b``, two outcomes of the same table."""
    width = len(a.players)
    zero = (0,) * width
    total_diffs = tuple(y - x for x, y in zip(a.totals, b.totals, strict=True))
    kinds = []
    if a.winners != b.winners:
        kinds.append("winner")
    if a.places != b.places:
        kinds.append("place")
    if any(total_diffs) or a.steps != b.steps:
        kinds.append("score")
    step_diffs = {}
    for step in a.steps.keys() | b.steps.keys():
        before, after = a.steps.get(step, zero), b.steps.get(step, zero)
        if before != after:
            step_diffs[step] = tuple(y - x for x, y in zip(before, after, strict=True))
    changed_lines = tuple(
        sorted(
            key for key in a.lines.keys() | b.lines.keys() if a.lines.get(key) != b.lines.get(key)
        )
    )
    changed_steps = set(step_diffs)
    changed_steps |= {
        s for s in a.table.keys() | b.table.keys() if a.table.get(s) != b.table.get(s)
    }
    return Change(
        tuple(kinds), total_diffs, step_diffs, tuple(sorted(changed_steps)), changed_lines
    )
