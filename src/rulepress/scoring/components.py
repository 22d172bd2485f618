"""The generic scoring operations a spec composes into scoring steps.

Each operation turns one player's namespace into points and explanatory
notes. None of them knows a game: every value, condition and sentence comes
from the spec. A game whose scoring needs a shape none of them has brings its
own operation as a plugin (:mod:`rulepress.scoring.plugins`) instead of
editing this module.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulepress.expressions import Evaluate, ExpressionEvalError
from rulepress.expressions.records import fields_record
from rulepress.model import operations
from rulepress.model.spec_model import (
    TIE_RULES,
    Component,
    FirstComponent,
    ItemUses,
    LinesComponent,
    MajoritiesComponent,
    Parameter,
    Part,
    PluginComponent,
    SetsComponent,
    SumComponent,
    Table,
    Use,
    WeightedCountsComponent,
    bound_value,
)
from rulepress.scoring.grouping import groupings
from rulepress.scoring.notes import Joined, Names, Nested, Summed, Template, snapshot
from rulepress.scoring.result import Note
from rulepress.states.validation import compiled
from rulepress.uitext import ui

Namespace = Mapping[str, Any]
#: the context functions the scorer supplies to expressions (``lookup``, ``player``, ``label``)
Functions = Mapping[str, Callable[..., Any]]
#: a spec's range tables: table id → {key: value}
Tables = Mapping[str, dict[int, int]]
#: makes one note from a template and its arguments (see :func:`compile_component`)
MakeNote = Callable[[str, Any], Note]
#: what a component gives one player: points, notes, breakdown by kind, decisions (or None)
Result = tuple[int, list[Note], dict[str, int], dict[str, Any] | None]
Run = Callable[[dict[str, Any], Functions, MakeNote], Result]
#: an expression's source → the evaluator a compiled component calls
Pick = Callable[[str], Evaluate]


def checked(source: str) -> Evaluate:
    """The evaluator that raises located errors (:attr:`Expression.evaluate`)."""
    return compiled(source).evaluate


def unchecked(source: str) -> Evaluate:
    """The one-call-less evaluator; its caller runs again checked on failure (``fast``)."""
    return compiled(source).fast


@dataclass(slots=True)  # made per player and step: not frozen, for a cheap __init__
class Outcome:
    """What a component gives one player: points, why, a breakdown, and its decisions.

    ``breakdown`` splits the points by kind (examples may state them);
    ``export`` holds the decisions later steps can read as ``chosen.<score id>``.
    """

    points: int
    notes: list[Nested]
    breakdown: dict[str, int] = field(default_factory=dict)
    export: dict[str, Any] = field(default_factory=dict)


def _int(value: Any, source: str) -> int:
    if type(value) is int:  # the common case, tested first: this runs per line and part
        return value
    if isinstance(value, bool):
        return int(value)
    raise ExpressionEvalError(f"{source!r} must give an integer, gave {value!r}")


def as_list(value: Any, source: str) -> list[Any] | tuple[Any, ...]:
    """What an expression gave for a component to go through item by item: a list.

    The spec check cannot tell what an expression gives (``items: guilt``
    reads an integer field), so the value is checked where it is used, as
    :func:`_int` checks a number: anything else would fail unlocated, or go
    through a text letter by letter.
    """
    if type(value) is list or type(value) is tuple:
        return value
    raise ExpressionEvalError(f"{source!r} must give a list, gave {value!r}")


def _part_note(part: Part, ns: Namespace, points: int, fns: Functions) -> Nested:
    if not part.args:
        return Nested(part.note, {"points": points})
    args = dict(snapshot({n: compiled(src).evaluate(ns, fns) for n, src in part.args.items()}))
    args.setdefault("points", points)
    return Nested(part.note, args)


#: a part compiled: (when, value, value source, note template, its arguments' evaluators)
_CompiledPart = tuple[Evaluate, Evaluate, str, str, tuple[tuple[str, Evaluate], ...]]


def _compile_parts(parts: list[Part], pick: Pick) -> list[_CompiledPart]:
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


def _part_args(
    args: tuple[tuple[str, Evaluate], ...], ns: Namespace, fns: Functions, points: int
) -> Mapping[str, Any]:
    """A part's note arguments, as :func:`_part_note` makes them (``points`` unless given)."""
    if not args:
        return {"points": points}
    # snapshot() gives back the dict it is given, or a new one: either is this note's own
    out = snapshot({name: evaluate(ns, fns) for name, evaluate in args})
    out.setdefault("points", points)
    return out


def _compile_sum(comp: SumComponent, pick: Pick) -> Run:
    parts = _compile_parts(comp.parts, pick)

    def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        total = 0
        notes: list[Note] = []
        for when, value, source, note, args in parts:
            if not when(ns, fns):
                continue
            points = value(ns, fns)
            if type(points) is not int:
                points = _int(points, source)
            total += points
            notes.append(make(note, _part_args(args, ns, fns, points)))
        return total, notes, {}, None

    return run


def _compile_first(comp: FirstComponent, pick: Pick) -> Run:
    parts = _compile_parts(comp.parts, pick)

    def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        for when, value, source, note, args in parts:
            if when(ns, fns):
                points = value(ns, fns)
                if type(points) is not int:
                    points = _int(points, source)
                return points, [make(note, _part_args(args, ns, fns, points))], {}, None
        return 0, [], {}, None

    return run


#: interface sentences of the lines operation (translated with rulepress's own catalog)
LINE_SCORED = ui("score.line", "{label}: {points}")
LINE_FAILED = ui("score.line", "{label}: nothing ({reason})")


def _compile_lines(comp: LinesComponent, pick: Pick) -> Run:
    items_of = pick(comp.items)
    strict_of = pick(comp.restriction_voids_continuation)
    label_of = pick(comp.label)
    continues = pick(comp.continuation)
    value_of = pick(comp.value)
    conditions = [(pick(c.test), c.fails) for c in comp.conditions]
    restrictions = [(pick(c.test), c.fails) for c in comp.restrictions]
    item_name, source, voided, unnamed = comp.item, comp.value, comp.voided_note, comp.unnamed
    one_condition = conditions[0] if len(conditions) == 1 else None
    one_restriction = restrictions[0] if len(restrictions) == 1 else None

    def first_failed(
        tests: list[tuple[Evaluate, str]], scope: dict[str, Any], fns: Functions
    ) -> str | None:
        for test, fails in tests:
            if not test(scope, fns):
                return fails
        return None

    def run(scope: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        # the item and its index are written into the player's namespace itself
        # (the engine puts back what they hid once the step is done)
        items = as_list(items_of(scope, fns), comp.items)
        strict_base = bool(strict_of(scope, fns))
        total = 0
        notes: list[Note] = []
        base_label: str | Nested = ""
        base_ok = True
        for index, item in enumerate(items, start=1):
            scope[item_name] = item
            scope["index"] = index
            label: str | Nested = str(label_of(scope, fns)) or Nested(unnamed, {"index": index})
            is_continuation = bool(continues(scope, fns))
            # one condition and one restriction is the usual shape: tested inline
            if one_condition is not None:
                unmet = None if one_condition[0](scope, fns) else one_condition[1]
            else:
                unmet = first_failed(conditions, scope, fns)
            if unmet is not None:
                barred = None
            elif one_restriction is not None:
                barred = None if one_restriction[0](scope, fns) else one_restriction[1]
            else:
                barred = first_failed(restrictions, scope, fns)
            if is_continuation and not base_ok:
                reason = Nested(voided, {"base": base_label})
                notes.append(make(LINE_FAILED, {"label": label, "reason": reason}))
            elif unmet is not None or barred is not None:
                failed = unmet if unmet is not None else barred
                assert failed is not None
                reason = Nested(failed, {})
                notes.append(make(LINE_FAILED, {"label": label, "reason": reason}))
            else:
                points = value_of(scope, fns)
                if type(points) is not int:
                    points = _int(points, source)
                total += points
                notes.append(make(LINE_SCORED, {"label": label, "points": points}))
            if not is_continuation:
                base_ok = unmet is None and not (strict_base and barred is not None)
                base_label = label
        return total, notes, {}, None

    return run


#: interface sentences of the majorities operation
MAJORITY_PLACE = ui("score.majorities", "{area}: place {place} with {presence}: {points}")
MAJORITY_TIED = ui(
    "score.majorities", "{area}: place {place}, tied with {others} on {presence}: {points}"
)


def _tied_points(rule: str, covered: list[int]) -> int:
    """What each of a tied group scores from the points of the places it covers."""
    if rule == "split":
        # rounded down: the points are whole, and no player gains from a tie
        return sum(covered) // len(covered)
    if rule == "best":
        return covered[0]
    if rule == "worst":
        return covered[-1]
    return 0


def _compile_majorities(comp: MajoritiesComponent, pick: Pick) -> Run:
    areas_of, presence_of, least_of = pick(comp.areas), pick(comp.presence), pick(comp.least)
    places_of = [(pick(src), src) for src in comp.places]
    ties_of, label_of = pick(comp.ties), pick(comp.label)
    area_name, rival_name, presence_src = comp.area, comp.rival, comp.presence

    def run(scope: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        # the area and each rival are written into the player's namespace (the
        # engine puts back what they hid, see writes())
        me = scope["id"]
        total = 0
        notes: list[Note] = []
        breakdown: dict[str, int] = {}
        places: dict[str, int] = {}
        points_of: dict[str, int] = {}
        for area in as_list(areas_of(scope, fns), comp.areas):
            scope[area_name] = area
            key = str(area)
            places[key] = points_of[key] = 0
            least = _int(least_of(scope, fns), comp.least)
            presence: dict[str, int] = {}
            for rival in scope["players"]:
                scope[rival_name] = rival
                presence[rival["id"]] = _int(presence_of(scope, fns), presence_src)
            mine = presence[me]
            if mine < least:
                continue
            values = [_int(value(scope, fns), src) for value, src in places_of]
            ahead = sum(1 for count in presence.values() if count > mine)
            tied = [pid for pid, count in presence.items() if count == mine]
            covered = [values[i] if i < len(values) else 0 for i in range(ahead, ahead + len(tied))]
            if len(tied) == 1:
                points = covered[0]
            else:
                rule = ties_of(scope, fns)
                if rule not in TIE_RULES:
                    raise ExpressionEvalError(
                        f"{comp.ties!r} gave {rule!r}, not a tie rule ({', '.join(TIE_RULES)})"
                    )
                points = _tied_points(rule, covered)
            places[key], points_of[key] = ahead + 1, points
            breakdown[key] = points
            total += points
            label: str | Nested = str(label_of(scope, fns)) or fns["label"](key)
            args: dict[str, Any] = {
                "area": label,
                "place": ahead + 1,
                "presence": mine,
                "points": points,
            }
            if len(tied) > 1:
                args["others"] = Names([pid for pid in tied if pid != me])
            notes.append(make(MAJORITY_TIED if len(tied) > 1 else MAJORITY_PLACE, args))
        export = {"places": fields_record(places), "points": fields_record(points_of)}
        return total, notes, breakdown, export

    return run


def table_values(table: Table, params: Mapping[str, Parameter]) -> dict[int, int]:
    """A range table as {key: value} for every key its rows cover (parameters resolved)."""
    out: dict[int, int] = {}
    for row in table.rows:
        low = bound_value(row.min, params)
        high = bound_value(row.max, params) if row.max is not None else low
        for key in range(low, high + 1):
            out[key] = bound_value(row.value, params)
    return out


#: interface sentences of the sets and weighted-counts operations
SET_NOTE = ui("score.sets", "set of {size}: {members}: {points}")
# the grouping chosen against the best grouping of other set sizes
GROUPING_OVER = ui(
    "score.sets",
    "grouped as sets of {sizes}: {points}; the best other grouping, sets of {other_sizes},"
    " would give {other_points}",
)
WILD_AS = ui("score.sets", "{wild} as {kind}")
KIND_NOTE = ui("score.counts", "{kind}: {count} × {multiplier} = {points}")
# a rate of 1 adds nothing to the arithmetic ("2 × 1 = 2"): the count is the points
KIND_COUNT = ui("score.counts", "{kind}: {count}")
# a kind no rate applies to: its units are held but score nothing, and the report says why
KIND_NONE = ui("score.counts", "{kind}: {count} × 0 = 0 ({why})")
NO_RATE = ui("score.counts", "no rate applies to it")
# where a kind's units come from (the board's hexes, a card): a sum, or its one source
KIND_SOURCES = ui("score.counts", "{kind}: {count} = {sources}")
KIND_SOURCE = ui("score.counts", "{kind}: {count}, from {source}")
SOURCE_AMOUNT = ui("score.counts", "{amount} ({source})")
KIND_ONCE = ui("score.counts", "{kind}: {count}, at {multiplier} per unit ({reasons})")
MULTIPLIER_NOTE = ui("score.counts", "{kind}: {multiplier} per unit ({reasons})")
# the same rate for every kind, for the same reasons: said once, before the kinds
MULTIPLIER_ALL = ui("score.counts", "{multiplier} per unit ({reasons})")
ITEM_NOTE = ui("score.counts", "{item}: {use}: {points}")
ITEM_ELSEWHERE = ui("score.counts", "{item}: {use}: {points}, scored in its own step")
# the use of a kind, named with the kind it counts as ("as influence (Komek)")
USE_OF_KIND = ui("score.counts", "{use} ({kind})")
# a choice with its best alternative: what each would have added to the step
ITEM_OVER = ui("score.choice", "{chosen}; the best other use, {other}: {other_points}")
CHOICE_NOTE = ui("score.choice", "{choice}: adds {points}")
CHOICE_OVER = ui(
    "score.choice", "{choice}: adds {points}; the best other, {other}, would add {other_points}"
)


def sets_key(size: int) -> str:
    """The breakdown key of a sets operation's sets of ``size`` (examples may state them)."""
    return f"sets_of_{size}"


def _units(value: Any, source: str) -> int:
    """A number of units to group: an integer, 0 or more (the grouping counts them out)."""
    units = _int(value, source)
    if units < 0:
        # no grouping places -1 units: the search found none and failed an assertion
        raise ExpressionEvalError(
            f"{source!r} must give a number of units, 0 or more, gave {units}"
        )
    return units


def _sets(
    comp: SetsComponent, ns: Namespace, tables: Mapping[str, dict[int, int]], fns: Functions
) -> Outcome:
    scope = ns if isinstance(ns, dict) else dict(ns)
    counts: dict[str, int] = {}
    for kind in comp.kinds:
        scope[comp.kind] = kind
        counts[kind] = _units(compiled(comp.count).evaluate(scope, fns), comp.count)
    wild = _units(compiled(comp.wild).evaluate(scope, fns), comp.wild)
    values = tables[comp.values]
    missing = [size for size in range(1, len(counts) + 1) if size not in values]
    if missing:
        raise ExpressionEvalError(f"table {comp.values!r} gives no value for a set of {missing[0]}")
    cap = compiled(comp.wild_per_set).evaluate(scope, fns)
    per_set = None if cap is None else _int(cap, comp.wild_per_set)
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


def _multiplier(
    comp: WeightedCountsComponent, scope: dict[str, Any], fns: Functions
) -> tuple[int, list[Nested]]:
    value = 0
    reasons: list[Nested] = []
    for part in comp.multiplier:
        if compiled(part.when).evaluate(scope, fns):
            points = _int(compiled(part.value).evaluate(scope, fns), part.value)
            value += points
            reasons.append(_part_note(part, scope, points, fns))
    return value, reasons


def _option_name(comp: WeightedCountsComponent, value: Any) -> Any:
    # (an option may be any value an expression gives: a list is no kind, nor hashable)
    return Template(comp.kinds[value]) if isinstance(value, str) and value in comp.kinds else value


def _weighted(comp: WeightedCountsComponent, ns: Namespace, fns: Functions) -> Outcome:
    base = dict(ns)
    option_lists = [
        list(as_list(compiled(c.options).evaluate(base, fns), c.options)) or [None]
        for c in comp.choices
    ]
    # every combination is tried (and remembered: each choice's best alternative is
    # read from them); the first of equally good ones is kept
    tried: list[tuple[tuple[Any, ...], Outcome, int]] = []
    for combo in itertools.product(*option_lists):
        scope = dict(base)
        scope.update({c.name: v for c, v in zip(comp.choices, combo, strict=True)})
        outcome = _weighted_once(comp, scope, fns)
        # Uses scored by a later step (a card kept for its own prestige) still
        # count when choosing: the player wants the best total, not the best line.
        tried.append((combo, outcome, outcome.points + outcome.export["deferred"]))
    best_combo, outcome, best_worth = max(tried, key=lambda t: t[2])  # max keeps the first
    notes: list[Nested] = []
    for i, choice in enumerate(comp.choices):
        value = best_combo[i]
        if value is None:
            continue
        # what the choice adds: the step with it against the step without it (the other
        # choices as made), so the player sees the choice's own worth
        scope = dict(base)
        scope.update({c.name: v for c, v in zip(comp.choices, best_combo, strict=True)})
        scope[choice.name] = None
        without = _weighted_once(comp, scope, fns)
        baseline = without.points + without.export["deferred"]
        args: dict[str, Any] = {
            "choice": Nested(choice.note, {"choice": _option_name(comp, value)}),
            "points": best_worth - baseline,
            # the options' ids too, for readers of the JSON (the texts show their names)
            "option": value,
        }
        others = [
            (worth, combo[i])
            for combo, _, worth in tried
            if combo[i] != value
            and all(combo[j] == best_combo[j] for j in range(len(combo)) if j != i)
        ]
        if others:
            other_worth, other = max(others, key=lambda t: t[0])
            args["other"] = _option_name(comp, other)
            args["other_points"] = other_worth - baseline
            args["other_option"] = other
        notes.append(Nested(CHOICE_OVER if others else CHOICE_NOTE, args))
    export = {c.name: v for c, v in zip(comp.choices, best_combo, strict=True)}
    export.update(outcome.export)
    return Outcome(outcome.points, notes + outcome.notes, outcome.breakdown, export)


def _rates(
    comp: WeightedCountsComponent, scope: dict[str, Any], fns: Functions
) -> tuple[dict[str, int], dict[str, list[Nested]]]:
    """Each kind's multiplier and the reasons for it."""
    multipliers: dict[str, int] = {}
    reasons: dict[str, list[Nested]] = {}
    for kind in comp.kinds:
        scope[comp.kind] = kind
        multipliers[kind], reasons[kind] = _multiplier(comp, scope, fns)
    return multipliers, reasons


def _sources_note(
    source: str, label: str, count: int, scope: dict[str, Any], fns: Functions
) -> list[Nested]:
    """Where a kind's count comes from, each source with its amount (those of 0 left out)."""
    pairs = compiled(source).evaluate(scope, fns)
    if isinstance(pairs, list | tuple) and not pairs:
        return []  # the spec has nothing to show for this state
    shown: list[tuple[str, int]] = []
    for pair in pairs if isinstance(pairs, list | tuple) else [pairs]:
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            raise ExpressionEvalError(
                f"count_sources must give [name, amount] pairs, gave {pair!r}"
            )
        amount = _int(pair[1], source)
        if amount:
            shown.append((str(pair[0]), amount))
    if sum(a for _, a in shown) != count:
        # the spec's sources and count disagree: the report would contradict itself
        raise ExpressionEvalError(
            f"count_sources adds up to {sum(a for _, a in shown)} for {label!r},"
            f" but its count is {count}"
        )
    args: dict[str, Any] = {"kind": Template(label), "count": count}
    if len(shown) == 1:
        return [Nested(KIND_SOURCE, args | {"source": shown[0][0]})]
    amounts = [Nested(SOURCE_AMOUNT, {"amount": a, "source": name}) for name, a in shown]
    return [Nested(KIND_SOURCES, args | {"sources": Summed(amounts)})]


def _kind_note(
    label: str, count: int, multiplier: int, reasons: list[Nested], said: bool, no_rate: Any
) -> list[Nested]:
    """A kind's arithmetic in full, and why its rate is what it is (unless ``said`` once)."""
    args: dict[str, Any] = {"kind": Template(label), "count": count}
    if multiplier == 0 and not reasons:
        return [Nested(KIND_NONE, args | {"why": no_rate})]
    if multiplier != 1:
        args.update(multiplier=multiplier, points=count * multiplier)
        out = [Nested(KIND_NOTE, args)]
        if reasons and not said:
            why = {"kind": Template(label), "multiplier": multiplier, "reasons": Joined(reasons)}
            out.append(Nested(MULTIPLIER_NOTE, why))
        return out
    if reasons and not said:
        # a rate of 1 is explained too (why a cube counts once), without "× 1 = …"
        args.update(multiplier=multiplier, reasons=Joined(reasons))
        return [Nested(KIND_ONCE, args)]
    return [Nested(KIND_COUNT, args)]


def _weighted_once(comp: WeightedCountsComponent, scope: dict[str, Any], fns: Functions) -> Outcome:
    notes: list[Nested] = []
    breakdown: dict[str, int] = {}
    total = 0
    multipliers, reasons = _rates(comp, scope, fns)
    counts: dict[str, int] = {}
    for kind in comp.kinds:
        scope[comp.kind] = kind
        counts[kind] = _int(compiled(comp.count).evaluate(scope, fns), comp.count)
    # one rate for every kind, for the same reasons (each cube counts once; Cargo's
    # double): said once, not after each kind
    rates = list(zip(multipliers.values(), reasons.values(), strict=True))
    uniform = len(comp.kinds) > 1 and all(r == rates[0] for r in rates) and bool(rates[0][1])
    if uniform and any(counts.values()):
        notes.append(
            Nested(MULTIPLIER_ALL, {"multiplier": rates[0][0], "reasons": Joined(rates[0][1])})
        )
    for kind, label in comp.kinds.items():
        count, multiplier = counts[kind], multipliers[kind]
        points = count * multiplier
        total += points
        breakdown[kind] = points
        if count and comp.count_sources is not None:
            scope[comp.kind] = kind
            notes.extend(_sources_note(comp.count_sources, label, count, scope, fns))
        if count:
            no_rate = (
                Nested(NO_RATE, {})
                if comp.no_rate_note is None
                else Nested(comp.no_rate_note, {"kind": Template(label)})
            )
            notes.extend(_kind_note(label, count, multiplier, reasons[kind], uniform, no_rate))
    scope["multipliers"] = fields_record(multipliers)
    wild = _int(compiled(comp.wild).evaluate(scope, fns), comp.wild)
    if wild:
        each = _int(compiled(comp.wild_value).evaluate(scope, fns), comp.wild_value)
        total += wild * each
        breakdown["wild"] = wild * each
        wild_args: dict[str, Any] = {"count": wild, "value": each, "points": wild * each}
        wild_as = compiled(comp.wild_as).evaluate(scope, fns)
        if isinstance(wild_as, str) and wild_as in comp.kinds:  # (None: it takes no kind's)
            # the kind whose rate the wild units take, named (the spec says which)
            wild_args["kind"] = Template(comp.kinds[wild_as])
            notes.append(Nested(comp.wild_as_note, wild_args))
        else:
            notes.append(Nested(comp.wild_note, wild_args))
    uses: list[str] = []
    deferred = 0
    if comp.item_uses is not None:
        scored, deferred = _item_uses(
            comp.item_uses, comp, scope, fns, multipliers, uses, notes, breakdown
        )
        total += scored
    export = {"uses": uses, "multipliers": multipliers, "deferred": deferred}
    return Outcome(total, notes, breakdown, export)


def _item_uses(
    spec: ItemUses,
    comp: WeightedCountsComponent,
    scope: dict[str, Any],
    fns: Functions,
    multipliers: dict[str, int],
    uses: list[str],
    notes: list[Nested],
    breakdown: dict[str, int],
) -> tuple[int, int]:
    """Each item to its most valuable use, noted with the best other: points scored, deferred."""
    scored = deferred = 0
    listed = as_list(compiled(spec.items).evaluate(scope, fns), spec.items)
    for index, item in enumerate(listed, start=1):
        scope[spec.item] = item
        named: str | Nested = str(compiled(spec.label).evaluate(scope, fns)) or Nested(
            spec.unnamed, {"index": index}
        )
        # every use the item can have: (value, use, what the notes call it)
        options: list[tuple[int, Use, Any]] = []
        for use in spec.uses:
            if not compiled(use.when).evaluate(scope, fns):
                continue
            title: Any = Template(use.title)
            if use.kind is not None:
                kind = compiled(use.kind).evaluate(scope, fns)
                # (an expression may give a list, which no mapping can be asked about)
                if not isinstance(kind, str) or kind not in multipliers:
                    raise ExpressionEvalError(f"{use.kind!r} gave {kind!r}, which is not a kind")
                value = multipliers[kind]
                title = Nested(USE_OF_KIND, {"use": title, "kind": Template(comp.kinds[kind])})
            else:
                assert use.value is not None
                value = _int(compiled(use.value).evaluate(scope, fns), use.value)
            options.append((value, use, title))
        if not options:
            uses.append("")
            continue
        value, use, title = max(options, key=lambda o: o[0])  # max keeps the first
        uses.append(use.id)
        args = {"item": named, "use": title, "points": value}
        if use.scored_elsewhere:
            deferred += value
            note = Nested(ITEM_ELSEWHERE, args)
        else:
            scored += value
            breakdown[use.id] = breakdown.get(use.id, 0) + value
            note = Nested(ITEM_NOTE, args)
        rest = [o for o in options if o[1] is not use]
        if rest:
            other_value, other_use, other_title = max(rest, key=lambda o: o[0])
            over = {"chosen": note, "other": other_title, "other_points": other_value}
            # the uses' ids too, for readers of the JSON (the texts show their titles)
            over.update(use=use.id, other_use=other_use.id)
            note = Nested(ITEM_OVER, over)
        notes.append(note)
    return scored, deferred


def _interpreted(component: SetsComponent | WeightedCountsComponent, tables: Tables) -> Run:
    """The operations no benchmark game scores per state, run as they are written."""

    def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        if isinstance(component, SetsComponent):
            outcome = _sets(component, ns, tables, fns)
        else:
            outcome = _weighted(component, ns, fns)
        notes = [make(n.template, n.args) for n in outcome.notes]
        return outcome.points, notes, outcome.breakdown, outcome.export

    return run


def writes(component: Component) -> tuple[str, ...]:
    """The names a component writes into the namespace it is given (the engine restores them)."""
    if isinstance(component, LinesComponent):
        return (component.item, "index")
    if isinstance(component, SetsComponent):
        return (component.kind,)
    if isinstance(component, MajoritiesComponent):
        return (component.area, component.rival)
    if isinstance(component, PluginComponent):
        operation = operations.installed()[component.op]  # the spec check proved it is there
        return operations.writes_of(operation, operation.model.model_validate(component.config))
    return ()


def compile_component(component: Component, tables: Tables, pick: Pick) -> Run:
    """``run(ns, fns, make)``: the points, notes, breakdown and decisions of one player.

    Worked out once per component (see :func:`compiled_component`): the
    expressions are looked up and the operation chosen here, not once per
    player. ``make(template, args)`` makes a note (the renderer's); ``ns`` is
    the player's namespace, which a ``lines`` or ``sets`` operation writes
    its item into (see :func:`writes`). ``pick(source)`` chooses each
    expression's evaluator: :func:`checked` or :func:`unchecked`.
    """
    if isinstance(component, SumComponent):
        return _compile_sum(component, pick)
    if isinstance(component, FirstComponent):
        return _compile_first(component, pick)
    if isinstance(component, LinesComponent):
        return _compile_lines(component, pick)
    if isinstance(component, MajoritiesComponent):
        return _compile_majorities(component, pick)
    if isinstance(component, PluginComponent):
        operation = operations.installed()[component.op]
        run: Run = operation.compile(operation.model.model_validate(component.config), pick)
        return run
    return _interpreted(component, tables)
