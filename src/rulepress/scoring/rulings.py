"""Which rulings decided a result: every line, event, vote and winner list a ruling changed.

A ruling *decided* a part of the result when another of its options (every
other ruling as chosen) would have changed it: the line would score other
points, the event would not have happened, other players would win. That is
found by scoring the same state once per other option and comparing, which
works for any game and any way a spec reads a ruling (``ruling.x`` in an
expression, a value ``by_ruling``, a ruling that changes a state an
earlier step updates), and names only the rulings that mattered: a ruling
an expression reads is not cited where each of its options gives the same
(the Excess Influence step reads where cubes count on every line, but it
decides only the lines of players with cubes in the Betrayal Box).

What this does not see: a ruling with a single option (there is nothing to
compare it with; a vote names those that say how its ties are read, its
``tie_rulings``, on its ties), and two rulings that change a line only
together.
It costs one scoring run per other option, so the scorer does it only when
asked (``score(..., cite_rulings=True)``; the ``score`` command asks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulepress.errors import StateError
from rulepress.model.spec_model import Spec, all_steps
from rulepress.scoring.notes import Template
from rulepress.scoring.result import (
    Event,
    Line,
    Note,
    RulingChoice,
    ScoreResult,
    TallyResult,
    WinnerResult,
)
from rulepress.uitext import ui

#: the sentence under a line a ruling decided: the ruling's title (in the language's
#: quotation marks), the option's title
DECIDED_BY = ui("score.ruling", "Ruling {ruling}: {option}")

#: scores the state again with another choice of rulings (ruling id → option id)
Rescore = Callable[[dict[str, str]], ScoreResult]


def cite(
    spec: Spec,
    result: ScoreResult,
    rescore: Rescore,
    note: Callable[[str, Mapping[str, Any]], Note],
) -> None:
    """Name on ``result``'s lines, events and winners each ruling that decided them.

    ``spec``: the spec in the result's language (for the titles); ``rescore``
    runs the same state and sequence with other rulings; ``note`` makes the
    sentence (the renderer's). The result is updated in place: it was made
    for this call and nobody has read it yet.
    """
    chosen = result.variants
    choices: dict[str, RulingChoice] = {}
    for ruling in spec.rulings:
        current = chosen.get(ruling.id)
        option = next((o for o in ruling.options if o.id == current), None)
        if option is None:
            continue
        # the ruling as a reference: shown as its title, quoted as the language
        # quotes (the same in every language's arguments)
        title = Template(f"{{ruling:{ruling.id}}}")
        args = {"ruling": title, "option": Template(option.title)}
        choice = RulingChoice(ruling.id, option.id, note(DECIDED_BY, args))
        choices[ruling.id] = choice
        for other in ruling.options:
            if other.id == current:
                continue
            try:
                alternative = rescore({**chosen, ruling.id: other.id})
            except StateError:
                # the state cannot be scored under that option: there is nothing to compare
                continue
            _compare(result, alternative, choice)
    tie_rulings = {
        step.tally.id: step.tally.tie_rulings
        for seq in spec.sequences
        for step in all_steps(seq.steps)
        if step.tally is not None
    }
    for tally in result.tallies:
        if tally.ties:
            named = [choices[r] for r in tie_rulings.get(tally.id, []) if r in choices]
            tally.tie_rulings = tuple(named)


def _compare(result: ScoreResult, alternative: ScoreResult, choice: RulingChoice) -> None:
    """Add ``choice`` to what differs in ``alternative`` (each thing cites a ruling once)."""
    for mine, theirs in zip(result.players, alternative.players, strict=True):
        for line, other in zip(mine.lines, theirs.lines, strict=True):
            if (line.points, line.breakdown) != (other.points, other.breakdown):
                _add(line, choice)
    happened = {_event_key(e) for e in alternative.events}
    for event in result.events:
        if _event_key(event) not in happened:
            _add(event, choice)
    for tally, other_tally in zip(result.tallies, alternative.tallies, strict=True):
        if _outcome(tally) != _outcome(other_tally):
            _add(tally, choice)
    won, other_won = result.winners, alternative.winners
    if won is not None and other_won is not None and set(won.winners) != set(other_won.winners):
        _add(won, choice)


def _outcome(tally: TallyResult) -> tuple[Any, ...]:
    return (tally.totals, tally.ranking, tally.winners)


def _add(item: Line | Event | TallyResult | WinnerResult, choice: RulingChoice) -> None:
    if not any(c is choice for c in item.rulings):
        item.rulings = (*item.rulings, choice)


def _event_key(event: Event) -> tuple[Any, ...]:
    return (event.step, event.player, event.field, repr(event.before), repr(event.after))
