"""The ``sets`` operation: units of several kinds grouped into the best-scoring sets.

The grouping itself (optimal, with wild units) is
:func:`rulepress.scoring.grouping.groupings`; this module reads the spec's
fields, checks them, and explains the grouping found.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
from collections.abc import Callable, Mapping
from typing import Any, Literal

from rulepress.expressions.expression import ExpressionEvalError
from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import ExprText, Id, Labelled, Model, Name, Text
from rulepress.scoring.components import (
    Functions,
    MakeNote,
    Namespace,
    Outcome,
    Pick,
    Result,
    Run,
    Tables,
    as_int,
)
from rulepress.scoring.grouping import groupings
from rulepress.scoring.notes import Joined, Nested, Template
from rulepress.states.validation import compiled
from rulepress.uitext import ui

#: The most kinds a ``sets`` component may group. The optimal grouping
#: (rulepress.scoring.grouping) enumerates set-size vectors, about
#: N**(K-1) / (K! (K-1)!) of them for N units of K kinds: polynomial in the
#: state's counts only while K is a small constant of the spec (Brink has 4).
MAX_SET_KINDS = 6


class SetsComponent(Model):
    """Groups units of several kinds into sets of distinct kinds, scored by set size.

    Wild units stand in for any kind missing from a set (two wilds in one set
    stand for two different kinds). The grouping is optimal: no other
    grouping of the same units scores more. ``values`` names a table from set
    size to points; sets are at most as large as there are kinds.
    """

    op: Literal["sets"]
    """`sets`."""
    kinds: Labelled
    """The kinds, with the words readers see, or `sets.<name>` (the words are then the
    vocabulary's)."""
    kind: Name = "kind"
    """The name the kind is read by in `count`."""
    count: ExprText
    """How many units of the kind the player has."""
    wild: ExprText = "0"
    """How many wild units the player has."""
    wild_label: Text = "wild"
    """What a wild unit is called in the notes (only read when `wild` gives some)."""
    wild_per_set: ExprText = "None"
    """The most wild units one set may hold (`None`: as many as the set has room for)."""
    values: Id
    """The table from set size to points."""


#: interface sentences of the sets operation (translated with rulepress's own catalog)
SET_NOTE = ui("score.sets", "set of {size}: {members}: {points}")
# the grouping chosen against the best grouping of other set sizes
GROUPING_OVER = ui(
    "score.sets",
    "grouped as sets of {sizes}: {points}; the best other grouping, sets of {other_sizes},"
    " would give {other_points}",
)
WILD_AS = ui("score.sets", "{wild} as {kind}")
#: what the pages call the sets of one size in a score's breakdown
SETS_OF = ui("page.example", "sets of {size}")


def sets_key(size: int) -> str:
    """The breakdown key of a sets operation's sets of ``size`` (examples may state them)."""
    return f"sets_of_{size}"


def _units(value: Any, source: str) -> int:
    """A number of units to group: an integer, 0 or more (the grouping counts them out)."""
    units = as_int(value, source)
    if units < 0:
        # no grouping places -1 units: the search found none and failed an assertion
        raise ExpressionEvalError(
            f"{source!r} must give a number of units, 0 or more, gave {units}"
        )
    return units


def _sets(comp: SetsComponent, ns: Namespace, tables: Tables, fns: Functions) -> Outcome:
    scope = ns if isinstance(ns, dict) else dict(ns)
    counts: dict[str, int] = {}
    for kind in comp.kinds:
        scope[comp.kind] = kind
        counts[kind] = _units(compiled(comp.count).evaluate(scope, fns), comp.count)
    wild = _units(compiled(comp.wild).evaluate(scope, fns), comp.wild)
    # a set's size keys the table: a table keyed by a named set has no such rows
    values = {k: v for k, v in tables[comp.values].items() if isinstance(k, int)}
    missing = [size for size in range(1, len(counts) + 1) if size not in values]
    if missing:
        raise ExpressionEvalError(f"table {comp.values!r} gives no value for a set of {missing[0]}")
    cap = compiled(comp.wild_per_set).evaluate(scope, fns)
    per_set = None if cap is None else as_int(cap, comp.wild_per_set)
    if per_set is not None and per_set < 1:
        raise ExpressionEvalError(f"wild_per_set gave {per_set}: a set must have room for a wild")
    found = groupings(counts, wild, values, per_set)
    total, groups = found.total, found.groups
    notes = []
    if found.other is not None:
        other_points, other_sizes = found.other
        notes.append(
            Nested(
                GROUPING_OVER,
                {
                    "sizes": Joined([g.size for g in groups]),
                    "points": total,
                    "other_sizes": Joined(_sizes(other_sizes)),
                    "other_points": other_points,
                },
            )
        )
    for group in groups:
        members: list[Any] = [Template(comp.kinds[k]) for k in group.kinds]
        members += [
            Nested(WILD_AS, {"wild": Template(comp.wild_label), "kind": Template(comp.kinds[k])})
            for k in group.wilds
        ]
        notes.append(
            Nested(
                SET_NOTE,
                {"size": group.size, "members": Joined(members), "points": values[group.size]},
            )
        )
    breakdown = {sets_key(size): sum(1 for g in groups if g.size == size) for size in values}
    return Outcome(total, notes, {k: v for k, v in breakdown.items() if v})


def _sizes(sizes: Mapping[int, int]) -> list[int]:
    """Set sizes as a list, the largest first ({4: 1, 1: 2} → 4, 1, 1)."""
    return [size for size in sorted(sizes, reverse=True) for _ in range(sizes[size])]


class Sets:
    """The ``sets`` operation, as the registry gives it."""

    model = SetsComponent
    example = OwnExample("sets.yaml")
    #: its place among the operations in the author's reference (and the JSON Schema)
    order = 4
    #: ``compile`` is also given the spec's range tables (``values`` names one)
    reads_tables = True

    @staticmethod
    def check(
        checker: Checker, path: Path, comp: SetsComponent, names: frozenset[str], tables: set[str]
    ) -> None:
        if len(comp.kinds) > MAX_SET_KINDS:
            checker.at(
                path + ("kinds",),
                f"{len(comp.kinds)} kinds; a sets component groups at most {MAX_SET_KINDS}",
            )
        # the kind is each of the kinds: a name built from it is checked for each
        with checker.ranging(comp.kind, "the kinds", tuple(comp.kinds)):
            checker.expression(path + ("count",), comp.count, names | {comp.kind})
        checker.expression(path + ("wild",), comp.wild, names)
        checker.expression(path + ("wild_per_set",), comp.wild_per_set, names)
        if comp.values not in tables:
            checker.at(path + ("values",), f"no table {comp.values!r}")

    @staticmethod
    def compile(comp: SetsComponent, pick: Pick, tables: Tables) -> Run:
        # no benchmark game scores sets per state: run as written, not compiled
        def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
            outcome = _sets(comp, ns, tables, fns)
            notes = [make(n.template, n.args) for n in outcome.notes]
            return outcome.points, notes, outcome.breakdown, outcome.export

        return run

    @staticmethod
    def writes(comp: SetsComponent) -> tuple[str, ...]:
        # each kind is written into the player's namespace
        return (comp.kind,)

    @staticmethod
    def breakdown_names(
        comp: SetsComponent, words: Callable[[str], str], say: Callable[..., str]
    ) -> dict[str, str]:
        """What the pages call each key of the score's breakdown: the sets of each size."""
        # no set is larger than the kinds
        return {
            sets_key(size): say(SETS_OF, size=str(size)) for size in range(1, len(comp.kinds) + 1)
        }
