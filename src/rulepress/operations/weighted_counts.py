"""The ``weighted_counts`` operation: units of several kinds, each worth its kind's multiplier.

With wild units, choices tried in every combination (the best kept) and
items given to their most valuable use; every decision is explained in the
notes, with its best alternative.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
import itertools
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from pydantic import Field

from rulepress.expressions.expression import ExpressionEvalError
from rulepress.expressions.records import fields_record
from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import ExprText, Id, Labelled, Model, Name, Part, Text
from rulepress.operations.parts import part_note
from rulepress.scoring.components import (
    Functions,
    MakeNote,
    Namespace,
    Outcome,
    Pick,
    Result,
    Run,
    as_int,
    as_list,
)
from rulepress.scoring.notes import Joined, Nested, Summed, Template
from rulepress.states.validation import compiled
from rulepress.uitext import ui


class Choice(Model):
    """A decision the scorer makes for the player: every option is tried, the best kept."""

    name: Name
    """The name the option being tried is read by."""
    options: ExprText
    """The options to try (a list; empty: no choice to make)."""
    note: Text
    """The note that shows the choice made (`{choice}`)."""


class Use(Model):
    """One way an item can be used: as a unit of a kind, or for a value of its own."""

    id: Id
    """The use's id."""
    title: Text
    """How the notes name the use."""
    when: ExprText = "True"
    """Whether the item can be used this way."""
    kind: ExprText | None = None
    """The kind the item counts as a unit of (give `kind` or `value`)."""
    value: ExprText | None = None
    """The item's own points used this way (give `kind` or `value`)."""
    scored_elsewhere: bool = False
    """The points are scored by another step: the use only keeps the item out of this one."""


class ItemUses(Model):
    items: ExprText
    """The items (a list)."""
    item: Name = "item"
    """The name each item is read by."""
    label: ExprText = "''"
    """What names the item in the notes."""
    unnamed: Text = "item {index}"
    """What names an item whose `label` is empty (`{index}`: its place, from 1)."""
    uses: list[Use] = Field(min_length=1)
    """The ways the item can be used; the most valuable is taken."""


class WeightedCountsComponent(Model):
    """Units of several kinds, each unit worth its kind's multiplier.

    A kind's multiplier is the sum of the ``multiplier`` parts that hold for
    it. Wild units are each worth ``wild_value`` (which may read
    ``multipliers``, a record of kind → multiplier). ``choices`` are tried in
    every combination and the best total kept; ``item_uses`` give each item
    its most valuable use. Every decision is shown in the notes.
    """

    op: Literal["weighted_counts"]
    """`weighted_counts`."""
    kinds: Labelled
    """The kinds, with the words readers see, or `sets.<name>`."""
    kind: Name = "kind"
    """The name the kind is read by in `count` and `multiplier`."""
    count: ExprText
    """How many units of the kind the player has."""
    count_sources: ExprText | None = None
    """Where a kind's units come from, for the report: a list of `[name, amount]` pairs
    that add up to `count` (names are shown as the vocabulary has them), or an empty list
    when there is nothing to show."""
    multiplier: list[Part] = Field(min_length=1)
    """The parts whose values add up to a kind's multiplier."""
    wild: ExprText = "0"
    """How many wild units the player has."""
    wild_value: ExprText = "0"
    """What each wild unit is worth (may read `multipliers`)."""
    wild_note: Text = "wild units: {count}, worth {value} each"
    """The note for the wild units (`{count}`, `{value}`, `{points}`)."""
    wild_as: ExprText = "None"
    """The kind whose rate each wild unit takes, if any (may read `multipliers`; None: none)."""
    wild_as_note: Text = "wild units as {kind}: {count} × {value} = {points}"
    """The note for the wild units when `wild_as` names a kind (`{kind}` too)."""
    no_rate_note: Text | None = None
    """Why a kind held that no `multiplier` part applies to scores nothing (`{kind}`); left
    out, the report says that no rate applies."""
    choices: list[Choice] = []  # noqa: RUF012  (pydantic copies a default)
    """Decisions tried in every combination; the best total is kept."""
    item_uses: ItemUses | None = None
    """Items that each go to their most valuable use."""


#: interface sentences of the weighted-counts operation (translated with rulepress's own catalog)
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
#: what the pages call the wild units in a score's breakdown
WILD_UNITS = ui("page.example", "wild units")


def _multiplier(
    comp: WeightedCountsComponent, scope: dict[str, Any], fns: Functions
) -> tuple[int, list[Nested]]:
    value = 0
    reasons: list[Nested] = []
    for part in comp.multiplier:
        if compiled(part.when).evaluate(scope, fns):
            points = as_int(compiled(part.value).evaluate(scope, fns), part.value)
            value += points
            reasons.append(part_note(part, scope, points, fns))
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
        amount = as_int(pair[1], source)
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
        counts[kind] = as_int(compiled(comp.count).evaluate(scope, fns), comp.count)
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
    wild = as_int(compiled(comp.wild).evaluate(scope, fns), comp.wild)
    if wild:
        each = as_int(compiled(comp.wild_value).evaluate(scope, fns), comp.wild_value)
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
                value = as_int(compiled(use.value).evaluate(scope, fns), use.value)
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


class WeightedCounts:
    """The ``weighted_counts`` operation, as the registry gives it."""

    model = WeightedCountsComponent
    example = OwnExample("weighted_counts.yaml")
    #: its place among the operations in the author's reference (and the JSON Schema)
    order = 5
    #: the names it binds that no spec declares, for the author's reference
    names: ClassVar[dict[str, str]] = {
        "multipliers": "each kind's multiplier for this player: `multipliers.<kind>`"
    }
    #: what a score of it leaves in ``chosen.<score id>``, for the author's reference
    chosen = "a `weighted_counts` score's choices (`chosen.<score id>.<choice name>`)"

    @staticmethod
    def check(
        checker: Checker,
        path: Path,
        comp: WeightedCountsComponent,
        names: frozenset[str],
        tables: set[str],
    ) -> None:
        scope = names | {c.name for c in comp.choices}
        for i, choice in enumerate(comp.choices):
            checker.expression(path + ("choices", i, "options"), choice.options, names)
            checker.prose(path + ("choices", i, "note"), choice.note, {"choice"})
        kinded = scope | {comp.kind}
        # the kind is each of the kinds: a name built from it is checked for each
        with checker.ranging(comp.kind, "the kinds", tuple(comp.kinds)):
            checker.expression(path + ("count",), comp.count, kinded)
            if comp.count_sources is not None:
                checker.expression(path + ("count_sources",), comp.count_sources, kinded)
            checker.parts(path + ("multiplier",), comp.multiplier, kinded)
        checker.expression(path + ("wild",), comp.wild, scope)
        checker.expression(path + ("wild_value",), comp.wild_value, scope | {"multipliers"})
        checker.prose(path + ("wild_note",), comp.wild_note, {"count", "value", "points"})
        checker.expression(path + ("wild_as",), comp.wild_as, scope | {"multipliers"})
        checker.prose(
            path + ("wild_as_note",), comp.wild_as_note, {"count", "value", "points", "kind"}
        )
        if comp.no_rate_note is not None:
            checker.prose(path + ("no_rate_note",), comp.no_rate_note, {"kind"})
        if comp.item_uses is not None:
            _check_item_uses(
                checker, path + ("item_uses",), comp.item_uses, scope, tuple(comp.kinds)
            )

    @staticmethod
    def compile(comp: WeightedCountsComponent, pick: Pick) -> Run:
        # no benchmark game scores weighted counts per state: run as written, not compiled
        def run(ns: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
            outcome = _weighted(comp, ns, fns)
            notes = [make(n.template, n.args) for n in outcome.notes]
            return outcome.points, notes, outcome.breakdown, outcome.export

        return run

    @staticmethod
    def breakdown_names(
        comp: WeightedCountsComponent, words: Callable[[str], str], say: Callable[..., str]
    ) -> dict[str, str]:
        """What the pages call each key of the score's breakdown: kinds, wild units, uses."""
        names = {kind: words(label) for kind, label in comp.kinds.items()}
        names["wild"] = say(WILD_UNITS)
        if comp.item_uses is not None:
            names.update({u.id: words(u.title) for u in comp.item_uses.uses})
        return names


def _check_item_uses(
    checker: Checker, ipath: Path, uses: ItemUses, scope: frozenset[str], kinds: tuple[str, ...]
) -> None:
    checker.expression(ipath + ("items",), uses.items, scope)
    inner = scope | {uses.item, "multipliers"}
    checker.expression(ipath + ("label",), uses.label, inner)
    checker.prose(ipath + ("unnamed",), uses.unnamed, {"index"})
    for i, use in enumerate(uses.uses):
        upath = ipath + ("uses", i)
        checker.expression(upath + ("when",), use.when, inner)
        if (use.kind is None) == (use.value is None):
            checker.at(upath, "a use gives either 'kind' or 'value'")
        if use.kind is not None:  # one of the kinds, where the spec tells it
            checker.choice(upath + ("kind",), use.kind, kinds, inner)
        if use.value is not None:
            checker.expression(upath + ("value",), use.value, inner)
