"""Choosing the winners: eligibility, places, ordered tie-break criteria, trace.

The procedure mirrors how players settle a game at the table. The eligible
players are ordered by the first criterion; every group that fits entirely
within the winning places wins, groups entirely outside lose, and the one
group that straddles the last place goes on to the next criterion. What is
still tied after the last criterion shares the places left or is reported
as a tie, as the spec says. Each criterion applied becomes one step of the
trace.

The trace and the ranks show only what the game looked at: a step lists its
contenders by that step's criterion alone (equal values in turn order), and
a player's rank counts only the criteria that were applied. A tie-break the
game never reached cannot order, rank or name anyone.

Three fields of the rule may be chosen by the table (by a ruling, usually):
whether each criterion is used at all, whether a final tie is shared or
reported, and whether the places are counted among the players who can win
or among all of them. The engine evaluates them once per game
(:class:`Choices`); a criterion left out is as if it were not written, and
when every player takes a place, one who cannot win leaves that place empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from rulepress.expressions import Evaluate, ExpressionEvalError
from rulepress.model.spec_model import Criterion, Winners
from rulepress.scoring.notes import Listing, Names, Nested, NestedPlural, Template
from rulepress.scoring.result import Note, TieBreakStep
from rulepress.states.validation import compiled
from rulepress.uitext import PluralText, ui, ui_plural

#: the values of a winners rule's final_tie and places_among (literal, or an expression's)
FINAL_TIES = ("share", "report")
PLACES_AMONG = ("eligible", "all")

#: decided_by values that are not criterion ids
BY_ELIGIBILITY = "eligibility"
BY_SHARING = "shared"
BY_NOBODY = "none"
UNRESOLVED = "unresolved"

# Interface sentences (translated with rulepress's own catalog). A sentence
# has at most one number its wording agrees with (gettext chooses the form by
# one count), so where two numbers matter, the second is a sentence of its own
# passed in as an argument. The count need not be printed: "the last winning
# places" agrees with the places left (the places note gives the number), and
# every form of a translation then holds the same placeholders.

#: a step that settles every winning place left (counted by the players it places)
CUT_DECIDED = ui_plural(
    "winners.trace",
    "{criterion}: {values}. {winners} wins.",
    "{criterion}: {values}. {winners} win.",
    "won",
)
#: a step that places nobody: the tie goes on (``still``: one of the two below)
CUT_STILL_TIED = ui("winners.trace", "{criterion}: {values}. {still}")
#: a step that places some players and leaves others tied
CUT_DECIDED_TIED = ui_plural(
    "winners.trace",
    "{criterion}: {values}. {winners} wins. {still}",
    "{criterion}: {values}. {winners} win. {still}",
    "won",
)
#: players tied for the places left (counted by those places), before anyone won …
STILL_TIED = ui_plural(
    "winners.trace",
    "Still tied for the winning place: {tied}.",
    "Still tied for the winning places: {tied}.",
    "room",
)
#: … and once some have
STILL_TIED_LAST = ui_plural(
    "winners.trace",
    "Still tied for the last winning place: {tied}.",
    "Still tied for the last winning places: {tied}.",
    "room",
)
#: places counted among every player: those a step gave to players who cannot win
#: (counted by those players)
EMPTY_PLACES = ui_plural(
    "winners.trace",
    "{blocked} cannot win: that place is not passed on.",
    "{blocked} cannot win: their places are not passed on.",
    "count",
)
#: two sentences of a step or a conclusion, one after the other (``first``, ``second``:
#: sentences above, already translated)
TWO_SENTENCES = ui("winners.trace", "{first} {second}")
NO_ELIGIBLE = ui("winners.conclusion", "No player is eligible to win.")
#: said before a final tie when the game left a criterion out: "no tie-break separates
#: them" would otherwise suggest that every tie-break was tried
LEFT_OUT = ui("winners.conclusion", "Some tie-breaks are not used in this game.")
#: every winning place fell to a player who cannot win (counted by the places)
NOBODY_WON = ui_plural(
    "winners.conclusion",
    "Nobody wins: the winning place fell to a player who cannot win.",
    "Nobody wins: every winning place fell to a player who cannot win.",
    "places",
)
#: no more players can win than there are places (counted by the players who can win)
FEWER_ELIGIBLE = ui_plural(
    "winners.conclusion",
    "{winners} is the only player who can win, and wins.",
    "Only {winners} can win, no more than there are winning places: they all win.",
    "count",
)
#: the players tied after every tie-break share the places left (counted by those places)
WIN_SHARED = ui_plural(
    "winners.conclusion",
    "No tie-break separates them: {tied} share the win.",
    "No tie-break separates them: {tied} share the winning places.",
    "room",
)
WIN_SHARED_LAST = ui_plural(
    "winners.conclusion",
    "No tie-break separates them: {tied} share the last winning place.",
    "No tie-break separates them: {tied} share the last winning places.",
    "room",
)
#: the spec reports a tie it does not break (counted by the places left)
WIN_UNRESOLVED = ui_plural(
    "winners.conclusion",
    "No tie-break separates them: {tied} remain tied for the winning place.",
    "No tie-break separates them: {tied} remain tied for the winning places.",
    "room",
)
WIN_UNRESOLVED_LAST = ui_plural(
    "winners.conclusion",
    "No tie-break separates them: {tied} remain tied for the last winning place.",
    "No tie-break separates them: {tied} remain tied for the last winning places.",
    "room",
)
#: players who won before the final tie, then that tie (``tie``: one of the two above)
WIN_OUTRIGHT = ui_plural(
    "winners.conclusion",
    "{winners} wins outright. {tie}",
    "{winners} win outright. {tie}",
    "won",
)
#: one winner or several: "Winner: ada." / "Winners: ada and bob." (counted by ``won``)
WIN_PLAIN = ui_plural("winners.conclusion", "Winner: {winners}.", "Winners: {winners}.", "won")


@dataclass(frozen=True, slots=True)
class Outcome:
    eligible: list[str]
    #: in the order they won (a step's winners in turn order)
    winners: list[str]
    ranks: dict[str, int]
    decided_by: str
    shared: bool
    trace: list[TieBreakStep]
    #: the conclusion: its sentence and arguments
    conclusion: str | PluralText
    conclusion_args: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Choices:
    """What the table chose of the rule for this game (the fields that may be expressions)."""

    #: ``share`` or ``report``
    final_tie: str
    #: whether every player takes a place, not only those who can win (``places_among: all``)
    among_all: bool
    #: for each criterion of the rule, whether the game uses it
    used: Sequence[bool]


#: a winners rule's expressions compiled: its eligibility test, and each criterion's key
#: with whether the highest value is best
Evaluators = tuple[Evaluate, tuple[tuple[Evaluate, bool], ...]]


def evaluators(rule: Winners, *, fast: bool) -> Evaluators:
    """The rule's test and keys: :attr:`Expression.fast` ones, or the checked ``evaluate``.

    The fast ones fail unlocated: their caller decides again with the checked
    ones when anything in :data:`EVAL_FAILURES` is raised, to get the located error.
    """

    def pick(source: str) -> Evaluate:
        return compiled(source).fast if fast else compiled(source).evaluate

    return pick(rule.eligible.test), tuple(
        (pick(c.key), c.order == "highest") for c in rule.criteria
    )


def decide(
    rule: Winners,
    places: int,
    players: list[str],
    namespace_of: Callable[[int], Mapping[str, Any]],
    functions: Mapping[str, Callable[..., Any]],
    note: Callable[[Any, Any], Note],
    compiled_rule: Evaluators,
    choices: Choices,
    *,
    trace: bool = True,
) -> Outcome:
    """Apply ``rule`` to the players (ids, in turn order); ``namespace_of(i)``: player i's names.

    ``note(template, args)`` makes the note of each step of the trace (the
    renderer's :meth:`~rulepress.scoring.notes.NoteRenderer.note`, which takes
    plural sentences); ``compiled_rule`` comes from :func:`evaluators`;
    ``choices``: what the table chose of the rule's choosable fields.
    Without ``trace``, the outcome's trace is empty: the same criteria are
    applied in the same order, but no step's values, sentence or row is made
    (everything else is as with it).
    """
    test, every_key = compiled_rule
    # a criterion the game does not use is as if it were not written
    used_criteria = [c for c, on in zip(rule.criteria, choices.used, strict=True) if on]
    criteria = [k for k, on in zip(every_key, choices.used, strict=True) if on]
    eligible: list[str] = []
    #: the players the places are counted among, in turn order
    field: list[str] = []
    keys: dict[str, tuple[Any, ...]] = {}
    among_all = choices.among_all
    # three criteria (Stationfall's) are read without a comprehension, which is a call
    # per player in Python 3.11; each key read and negated in turn, as the comprehension does
    three = len(criteria) == 3
    (k1, h1), (k2, h2), (k3, h3) = criteria if three else [(test, False)] * 3
    for i, p in enumerate(players):
        ns = namespace_of(i)
        may_win = bool(test(ns, functions))
        if may_win:
            eligible.append(p)
        if may_win or among_all:
            field.append(p)
            # sort key: ascending puts the best first
            try:
                if three:
                    a = -k1(ns, functions) if h1 else k1(ns, functions)
                    b = -k2(ns, functions) if h2 else k2(ns, functions)
                    keys[p] = (a, b, -k3(ns, functions) if h3 else k3(ns, functions))
                else:
                    keys[p] = tuple(
                        [
                            -key(ns, functions) if highest else key(ns, functions)
                            for key, highest in criteria
                        ]
                    )
            except TypeError:
                # (when fast, a TypeError of the key itself lands here too: the
                # caller's checked run tells the two apart)
                raise ExpressionEvalError("a 'highest' tie-break key must be a number") from None
    if not eligible:
        return Outcome([], [], {}, BY_NOBODY, False, [], NO_ELIGIBLE, {})
    if len(field) <= places:
        # every one of them wins: no criterion was applied, so none ranks anyone
        every = {"winners": Names(eligible), "count": len(eligible), "places": places}
        ranks = dict.fromkeys(field, 1)
        return Outcome(eligible, eligible, ranks, BY_ELIGIBILITY, False, [], FEWER_ELIGIBLE, every)

    can_win = set(eligible)
    winners: list[str] = []
    #: how many places the steps so far gave (to players who can win or not)
    taken = 0
    contenders = field
    #: how many criteria were applied to each player (a later one only to those it split)
    applied = dict.fromkeys(field, 0)
    rows: list[TieBreakStep] = []
    for index, crit in enumerate(used_criteria):
        # each contender's sort key by this criterion, looked up in C by sorted() and groupby()
        # (a Python key function was a call per player and comparison)
        by_criterion = {p: keys[p][index] for p in contenders}.__getitem__
        # equal values stay in turn order: sorted() is stable, and contenders are in turn order
        contenders = sorted(contenders, key=by_criterion)
        for p in contenders:
            applied[p] = index + 1
        straddling: list[str] = []
        placed: list[str] = []
        for _, group_iter in groupby(contenders, key=by_criterion):
            group = list(group_iter)
            room = places - taken - len(placed)
            if room <= 0:
                break
            if len(group) <= room:
                placed.extend(group)
            else:
                straddling = group
                break
        taken += len(placed)
        won = [p for p in placed if p in can_win]
        winners.extend(won)
        if trace:
            rows.append(
                _row(
                    crit,
                    contenders,
                    by_criterion,
                    placed,
                    won,
                    winners,
                    straddling,
                    can_win,
                    places - taken,
                    taken,
                    note,
                )
            )
        if not straddling:
            ranks = _ranks(field, keys, applied)
            if not winners:
                nobody = {"places": places}
                return Outcome(eligible, [], ranks, crit.id, False, rows, NOBODY_WON, nobody)
            conclusion = {"winners": Names(winners), "won": len(winners)}
            return Outcome(eligible, winners, ranks, crit.id, False, rows, WIN_PLAIN, conclusion)
        contenders = straddling
    ranks = _ranks(field, keys, applied)
    room = places - taken
    sharing = [p for p in contenders if p in can_win]
    tie: str | PluralText
    if choices.final_tie == "share":
        tie = WIN_SHARED_LAST if taken else WIN_SHARED
        decided, shared, won = BY_SHARING, True, winners + sharing
    else:
        tie = WIN_UNRESOLVED_LAST if taken else WIN_UNRESOLVED
        decided, shared, won = UNRESOLVED, False, list(winners)
    tie_args: dict[str, Any] = {"tied": Names(contenders), "room": room}
    told = _after([p for p in contenders if p not in can_win], None)
    if told is not None:
        # a player who cannot win shares in nothing: the sentence says so after the tie
        tie_args = {"first": NestedPlural(tie, tie_args), "second": told}
        tie = TWO_SENTENCES
    if not all(choices.used):
        said = NestedPlural(tie, tie_args) if isinstance(tie, PluralText) else Nested(tie, tie_args)
        tie_args = {"first": Nested(LEFT_OUT, {}), "second": said}
        tie = TWO_SENTENCES
    if not winners:
        return Outcome(eligible, won, ranks, decided, shared, rows, tie, tie_args)
    tie_arg = NestedPlural(tie, tie_args) if isinstance(tie, PluralText) else Nested(tie, tie_args)
    args = {"winners": Names(winners), "won": len(winners), "tie": tie_arg}
    return Outcome(eligible, won, ranks, decided, shared, rows, WIN_OUTRIGHT, args)


def _row(
    crit: Criterion,
    contenders: list[str],
    by_criterion: Callable[[str], Any],
    placed: list[str],
    won: list[str],
    winners: list[str],
    straddling: list[str],
    can_win: set[str],
    room: int,
    taken: int,
    note: Callable[[Any, Any], Note],
) -> TieBreakStep:
    """The trace's row of one criterion applied: the values it read, who it placed, its sentence.

    ``contenders`` in the order the criterion put them, ``by_criterion`` their
    sort keys; ``room``: the places left after it, ``taken``: those given so far.
    """
    highest = crit.order == "highest"
    # the values as the criterion reads them (a 'highest' key was negated to sort)
    values = {p: -by_criterion(p) if highest else by_criterion(p) for p in contenders}
    args: dict[str, Any] = {
        "criterion": Template(crit.label),
        "values": Listing(values),
        "winners": Names(won),
        "won": len(won),
        "tied": Names(straddling),
        "room": room,
    }
    after = _after(
        [p for p in placed if p not in can_win],
        NestedPlural(
            STILL_TIED_LAST if taken else STILL_TIED,
            {"tied": Names(straddling), "room": room},
        )
        if straddling
        else None,
    )
    if after is None:
        template: str | PluralText = CUT_DECIDED
    else:
        args["still"] = after
        template = CUT_DECIDED_TIED if won else CUT_STILL_TIED
    return TieBreakStep(
        crit.id, crit.label, values, list(winners), straddling, note(template, args)
    )


def _after(blocked: list[str], still: NestedPlural | None) -> Nested | NestedPlural | None:
    """What a step says after its winners: places not passed on, then the tie that goes on."""
    if not blocked:
        return still
    empty = NestedPlural(EMPTY_PLACES, {"blocked": Names(blocked), "count": len(blocked)})
    if still is None:
        return empty
    return Nested(TWO_SENTENCES, {"first": empty, "second": still})


def _ranks(
    eligible: list[str], keys: Mapping[str, tuple[Any, ...]], applied: Mapping[str, int]
) -> dict[str, int]:
    """Competition ranks ("1, 2, 2, 4") by the criteria applied to each player, and no others.

    Players a criterion was applied to were tied on every earlier one, and
    nobody else was: so keys cut to their own length compare as the game did.
    """
    cut = {p: keys[p][: applied[p]] for p in eligible}
    ordered = sorted(eligible, key=cut.__getitem__)
    ranks: dict[str, int] = {}
    for i, p in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        ranks[p] = ranks[prev] if prev is not None and cut[prev] == cut[p] else i + 1
    return ranks
