"""Choosing the winners: eligibility, places, ordered tie-break criteria, trace.

The procedure mirrors how players settle a game at the table. The eligible
players are ordered by the first criterion; every group that fits entirely
within the winning places wins, groups entirely outside lose, and the one
group that straddles the last place goes on to the next criterion. What is
still tied after the last criterion shares the win or is reported as a tie,
as the spec says. Each criterion applied becomes one step of the trace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from rulepress.scoring.notes import Listing, Names, Template
from rulepress.scoring.result import Note, TieBreakStep
from rulepress.spec.expr import Evaluate, ExpressionEvalError
from rulepress.spec.model import Winners
from rulepress.spec.state import compiled
from rulepress.uitext import PluralText, ui, ui_plural

#: decided_by values that are not criterion ids
BY_ELIGIBILITY = "eligibility"
BY_SHARING = "shared"
BY_NOBODY = "none"
UNRESOLVED = "unresolved"

#: interface sentences (translated with rulepress's own catalog)
CUT_DECIDED = ui("winners.trace", "{criterion}: {values}. Decided: {winners}.")
CUT_STILL_TIED = ui(
    "winners.trace", "{criterion}: {values}. Still tied for the last winning place: {tied}."
)
NO_ELIGIBLE = ui("winners.conclusion", "No player is eligible to win.")
FEWER_ELIGIBLE = ui(
    "winners.conclusion", "Players who can win: {count}; winning places: {places}. All of them win."
)
WIN_SHARED = ui("winners.conclusion", "No tie-break separates them: {winners} share the win.")
WIN_UNRESOLVED = ui("winners.conclusion", "No tie-break separates them: {tied} remain tied.")
#: one winner or several: "Winner: ada." / "Winners: ada and bob." (counted by ``won``)
WIN_PLAIN = ui_plural("winners.conclusion", "Winner: {winners}.", "Winners: {winners}.", "won")


@dataclass(frozen=True, slots=True)
class Outcome:
    eligible: list[str]
    winners: list[str]
    ranks: dict[str, int]
    decided_by: str
    shared: bool
    trace: list[TieBreakStep]
    conclusion: str | PluralText


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
    note: Callable[[str, Any], Note],
    compiled_rule: Evaluators,
) -> Outcome:
    """Apply ``rule`` to the players (ids, in turn order); ``namespace_of(i)``: player i's names.

    ``note(template, args)`` makes the note of each step of the trace (the
    renderer's note maker); ``compiled_rule`` comes from :func:`evaluators`.
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
    ordered = sorted(eligible, key=keys.__getitem__)
    ranks: dict[str, int] = {}
    for i, p in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        ranks[p] = ranks[prev] if prev is not None and keys[prev] == keys[p] else i + 1
    if not eligible:
        return Outcome([], [], {}, BY_NOBODY, False, [], NO_ELIGIBLE)
    if len(eligible) <= places:
        return Outcome(eligible, eligible, ranks, BY_ELIGIBILITY, False, [], FEWER_ELIGIBLE)

    winners: list[str] = []
    contenders = ordered
    trace: list[TieBreakStep] = []
    for index, crit in enumerate(rule.criteria):
        values = {p: _signed(keys[p][index], crit.order) for p in contenders}
        straddling: list[str] = []
        for _, group_iter in groupby(contenders, key=lambda p: keys[p][index]):
            group = list(group_iter)
            room = places - len(winners)
            if room <= 0:
                break
            if len(group) <= room:
                winners.extend(group)
            else:
                straddling = group
                break
        template = CUT_STILL_TIED if straddling else CUT_DECIDED
        so_far = list(winners)
        args = {
            "criterion": Template(crit.label),
            "values": Listing(values),
            "winners": Names(so_far),
            "tied": Names(straddling),
        }
        trace.append(
            TieBreakStep(crit.id, crit.label, values, so_far, straddling, note(template, args))
        )
        if not straddling:
            return Outcome(eligible, winners, ranks, crit.id, False, trace, WIN_PLAIN)
        contenders = straddling
    if rule.final_tie == "share":
        return Outcome(eligible, winners + contenders, ranks, BY_SHARING, True, trace, WIN_SHARED)
    return Outcome(eligible, winners, ranks, UNRESOLVED, False, trace, WIN_UNRESOLVED)


def _signed(value: Any, order: str) -> Any:
    """Sort key: ascending sort puts the best first (applied twice, it gives the value back)."""
    return -value if order == "highest" else value
