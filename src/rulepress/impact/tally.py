"""The counts of a question over many tables, merged in chunk order.

A chunk of tables gives one :class:`Tally`; tallies merge by adding their
counts, keeping the first few messages in order and the first table of
each kind of change (the lowest index). Chunks are merged in their own
order, so the merged tally is the same however the chunks were spread over
processes or machines.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rulepress.impact.outcome import Change

#: how many refusal and bad-record messages a report quotes (all are counted)
QUOTED = 20


@dataclass(frozen=True, slots=True)
class Found:
    """The first table showing a kind of change: its index, where it came from, its state."""

    index: int
    origin: str
    state: dict[str, Any]


def _add_nested(into: dict[Any, Counter[Any]], other: dict[Any, Counter[Any]]) -> None:
    for key, counts in other.items():
        into.setdefault(key, Counter()).update(counts)


@dataclass
class Tally:
    """Counts over the tables of one or more chunks (see the module docstring)."""

    #: tables scored under both rule sets
    tables: int = 0
    #: player results compared (a player of each scored table)
    players: int = 0
    #: tables one of the rule sets refuses (its state format or its scorer), with reasons
    refused: int = 0
    refusals: list[str] = field(default_factory=list)
    #: records of a corpus that could not be read, with reasons
    bad_records: int = 0
    bad: list[str] = field(default_factory=list)
    #: kind of change → tables that show it
    changed: Counter[str] = field(default_factory=Counter)
    #: a player's total under B minus under A (nonzero) → how many player results
    total_diffs: Counter[int] = field(default_factory=Counter)
    #: step number → nonzero difference of a player's points from it → how many
    step_diffs: dict[str, Counter[int]] = field(default_factory=dict)
    #: step number → kind → tables of that kind of change where the step differs
    steps: dict[str, Counter[str]] = field(default_factory=dict)
    #: (step number, score id) → kind → tables of that kind where the line differs
    lines: dict[tuple[str, str], Counter[str]] = field(default_factory=dict)
    #: cause (a ruling id, or "edition") → kind → tables where that cause alone changes it
    causes: dict[str, Counter[str]] = field(default_factory=dict)
    #: kind → the first table that shows it
    first: dict[str, Found] = field(default_factory=dict)

    def add(
        self,
        index: int,
        origin: str,
        state: dict[str, Any],
        change: Change,
        causes: dict[str, tuple[str, ...]],
    ) -> None:
        """Count one scored table (``causes``: each cause → the kinds it alone changes)."""
        self.tables += 1
        self.players += len(change.total_diffs)
        for diff in change.total_diffs:
            if diff:
                self.total_diffs[diff] += 1
        for step, diffs in change.step_diffs.items():
            counts = self.step_diffs.setdefault(step, Counter())
            for diff in diffs:
                if diff:
                    counts[diff] += 1
        if not change.kinds:
            return
        self.changed.update(change.kinds)
        for step in change.steps:
            self.steps.setdefault(step, Counter()).update(change.kinds)
        for line in change.lines:
            self.lines.setdefault(line, Counter()).update(change.kinds)
        for cause, kinds in causes.items():
            self.causes.setdefault(cause, Counter()).update(kinds)
        for kind in change.kinds:
            if kind not in self.first:
                self.first[kind] = Found(index, origin, state)

    def refuse(self, message: str) -> None:
        self.refused += 1
        if len(self.refusals) < QUOTED:
            self.refusals.append(message)

    def bad_record(self, message: str) -> None:
        self.bad_records += 1
        if len(self.bad) < QUOTED:
            self.bad.append(message)

    def merged(self, other: Tally) -> Tally:
        """The tally of this chunk and a later chunk's, added (this one's messages and tables first)."""
        out = Tally(
            self.tables + other.tables,
            self.players + other.players,
            self.refused + other.refused,
            (self.refusals + other.refusals)[:QUOTED],
            self.bad_records + other.bad_records,
            (self.bad + other.bad)[:QUOTED],
            self.changed + other.changed,
            self.total_diffs + other.total_diffs,
        )
        for mine, theirs, into in (
            (self.step_diffs, other.step_diffs, out.step_diffs),
            (self.steps, other.steps, out.steps),
            (self.lines, other.lines, out.lines),
            (self.causes, other.causes, out.causes),
        ):
            _add_nested(into, mine)
            _add_nested(into, theirs)
        out.first = dict(self.first)
        for kind, found in other.first.items():
            if kind not in out.first or found.index < out.first[kind].index:
                out.first[kind] = found
        return out


def merge(a: Tally, b: Tally) -> Tally:
    """``a`` then ``b``, merged (the executor's merge function)."""
    return a.merged(b)
