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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from rulepress.expressions import Evaluate, ExpressionEvalError
from rulepress.model.spec_model import Winners
from rulepress.scoring.notes import Listing, Names, NestedPlural, Template
from rulepress.scoring.result import Note, TieBreakStep
from rulepress.states.validation import compiled
from rulepress.uitext import PluralText, ui, ui_plural

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
NO_ELIGIBLE = ui("winners.conclusion", "No player is eligible to win.")
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
) -> Outcome:
    """Apply ``rule`` to the players (ids, in turn order); ``namespace_of(i)``: player i's names.

    ``note(template, args)`` makes the note of each step of the trace (the
    renderer's :meth:`~rulepress.scoring.notes.NoteRenderer.note`, which takes
    plural sentences); ``compiled_rule`` comes from :func:`evaluators`.
    """
    test, criteria = compiled_rule
    eligible: list[str] = []
    keys: dict[str, tuple[Any, ...]] = {}
    for i, p in enumerate(players):
        ns = namespace_of(i)
        if test(ns, functions):
            eligible.append(p)
            # sort key: ascending puts the best first
            try:
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
    if len(eligible) <= places:
        # every one of them wins: no criterion was applied, so none ranks anyone
        every = {"winners": Names(eligible), "count": len(eligible), "places": places}
        ranks = dict.fromkeys(eligible, 1)
        return Outcome(eligible, eligible, ranks, BY_ELIGIBILITY, False, [], FEWER_ELIGIBLE, every)

    winners: list[str] = []
    contenders = eligible
    #: how many criteria were applied to each player (a later one only to those it split)
    applied = dict.fromkeys(eligible, 0)
    trace: list[TieBreakStep] = []
    for index, crit in enumerate(rule.criteria):
        by_criterion = _key_of(keys, index)
        # equal values stay in turn order: sorted() is stable, and contenders are in turn order
        contenders = sorted(contenders, key=by_criterion)
        for p in contenders:
            applied[p] = index + 1
        values = {p: _signed(keys[p][index], crit.order) for p in contenders}
        straddling: list[str] = []
        placed: list[str] = []
        for _, group_iter in groupby(contenders, key=by_criterion):
            group = list(group_iter)
            room = places - len(winners) - len(placed)
            if room <= 0:
                break
            if len(group) <= room:
                placed.extend(group)
            else:
                straddling = group
                break
        winners.extend(placed)
        room = places - len(winners)
        args: dict[str, Any] = {
            "criterion": Template(crit.label),
            "values": Listing(values),
            "winners": Names(placed),
            "won": len(placed),
            "tied": Names(straddling),
            "room": room,
        }
        if not straddling:
            template: str | PluralText = CUT_DECIDED
        else:
            still = STILL_TIED_LAST if winners else STILL_TIED
            args["still"] = NestedPlural(still, {"tied": Names(straddling), "room": room})
            template = CUT_DECIDED_TIED if placed else CUT_STILL_TIED
        trace.append(
            TieBreakStep(
                crit.id, crit.label, values, list(winners), straddling, note(template, args)
            )
        )
        if not straddling:
            ranks = _ranks(eligible, keys, applied)
            conclusion = {"winners": Names(winners), "won": len(winners)}
            return Outcome(eligible, winners, ranks, crit.id, False, trace, WIN_PLAIN, conclusion)
        contenders = straddling
    ranks = _ranks(eligible, keys, applied)
    room = places - len(winners)
    if rule.final_tie == "share":
        tie = WIN_SHARED_LAST if winners else WIN_SHARED
        decided, shared, won = BY_SHARING, True, winners + contenders
    else:
        tie = WIN_UNRESOLVED_LAST if winners else WIN_UNRESOLVED
        decided, shared, won = UNRESOLVED, False, list(winners)
    tie_args: dict[str, Any] = {"tied": Names(contenders), "room": room}
    if not winners:
        return Outcome(eligible, won, ranks, decided, shared, trace, tie, tie_args)
    args = {"winners": Names(winners), "won": len(winners), "tie": NestedPlural(tie, tie_args)}
    return Outcome(eligible, won, ranks, decided, shared, trace, WIN_OUTRIGHT, args)


def _key_of(keys: Mapping[str, tuple[Any, ...]], index: int) -> Callable[[str], Any]:
    def key(player: str) -> Any:
        return keys[player][index]

    return key


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


def _signed(value: Any, order: str) -> Any:
    """Sort key: ascending sort puts the best first (applied twice, it gives the value back)."""
    return -value if order == "highest" else value
