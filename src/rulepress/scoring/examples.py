"""Worked examples: run each example's table state and compare with what its text states.

The same entries drive the pytest cases, ``rulepress score --example`` and
(later) the doctests on the published pages, so documentation and scorer
cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from rulepress.errors import Problem, StateError, UsageError
from rulepress.model import LoadedSpec
from rulepress.model.spec_model import Example
from rulepress.scoring.engine import find_sequence, score
from rulepress.scoring.notes import NoteRenderer
from rulepress.scoring.result import PlayerResult, ScoreResult, TallyResult
from rulepress.states import validate_state


def find_example(loaded: LoadedSpec, example_id: str) -> tuple[int, Example]:
    for i, ex in enumerate(loaded.spec.examples):
        if ex.id == example_id:
            return i, ex
    known = ", ".join(ex.id for ex in loaded.spec.examples) or "none"
    raise UsageError(f"{loaded.spec.game.id} has no example {example_id!r} (examples: {known})")


def run_example(
    loaded: LoadedSpec,
    index: int,
    renderer: NoteRenderer | None = None,
    variants: list[str] | None = None,
    cite_rulings: bool = False,
) -> ScoreResult:
    """Score example number ``index`` with the variants it names (or ``variants``).

    ``cite_rulings``: name the rulings that decided each line (see :func:`score`).
    """
    spec = loaded.spec
    ex = spec.examples[index]
    return score(
        loaded,
        example_state(loaded, index),
        sequence=ex.sequence,
        variants=list(ex.variants) if variants is None else variants,
        renderer=renderer,
        cite_rulings=cite_rulings,
    )


def example_state(loaded: LoadedSpec, index: int) -> dict[str, Any]:
    """The normalised table state of example number ``index`` (the spec check validated it)."""
    spec = loaded.spec
    ex = spec.examples[index]
    _, seq = find_sequence(spec, ex.sequence)
    state, _ = validate_state(
        spec.table_states[seq.state],
        spec.parameters,
        ex.state,
        loaded.sources,
        ("examples", index, "state"),
        sets=spec.sets,
    )
    return state


def fact(player: PlayerResult, key: str) -> Any:
    """A player's total, eligibility, rank, shown field, score line or ``line.kind`` part."""
    if key == "total":
        return player.total
    if key == "eligible":
        return player.eligible
    if key == "rank":
        return player.rank
    if key in player.shown:
        return player.shown[key]
    name, _, part = key.partition(".")
    for line in player.lines:
        if line.score == name:
            return line.breakdown.get(part, 0) if part else line.points
    return None


def tally_fact(tally: TallyResult, key: str) -> Any:
    """What an example may state about a tally: totals (after each stage), ranking, winners or flows."""
    return {
        "totals": tally.totals,
        "stages": {stage.id: stage.totals for stage in tally.stages},
        "ranking": tally.ranking,
        "winners": tally.winners,
        "flows": tally.flows,
    }[key]


Mismatch = tuple[tuple[str | int, ...], str]


def mismatches(ex: Example, result: ScoreResult) -> list[Mismatch]:
    """(data path inside the example, message) for each stated result the scorer contradicts."""
    out: list[Mismatch] = []
    players = {p.id: p for p in result.players}
    for pid, facts in ex.expect.players.items():
        for key, stated in facts.items():
            actual = fact(players[pid], key)
            if actual != stated:
                message = f"{pid} {key}: the text states {stated!r}, the scorer gives {actual!r}"
                out.append((("expect", "players", pid, key), message))
    tallies = {t.id: t for t in result.tallies}
    for tally_id, facts in ex.expect.tallies.items():
        for key, stated in facts.items():
            actual = tally_fact(tallies[tally_id], key)
            if actual != stated:
                message = (
                    f"{tally_id} {key}: the text states {stated!r}, the scorer gives {actual!r}"
                )
                out.append((("expect", "tallies", tally_id, key), message))
    winners = result.winners
    if ex.expect.winners is not None:
        actual_winners = winners.winners if winners else []
        if sorted(actual_winners) != sorted(ex.expect.winners):
            message = (
                f"winners: the text states {ex.expect.winners}, the scorer gives {actual_winners}"
            )
            out.append((("expect", "winners"), message))
    if ex.expect.decided_by is not None:
        decided = winners.decided_by if winners else "none"
        if decided != ex.expect.decided_by:
            message = f"decided by: the text states {ex.expect.decided_by!r}, the scorer gives {decided!r}"
            out.append((("expect", "decided_by"), message))
    return out


def check_examples(loaded: LoadedSpec) -> list[Problem]:
    """A located problem for every stated result that the scorer does not reproduce."""
    problems: list[Problem] = []
    for i, ex in enumerate(loaded.spec.examples):
        try:
            result = run_example(loaded, i)
        except StateError as exc:
            # An example the scorer cannot run (an expression of its procedure gives a
            # list where a number is needed, say) is a fault of the spec: reported, at
            # the step, with the rest, and the other examples (and games) still checked
            named = f"examples[{i}] {ex.id}"
            problems.extend(
                Problem(p.location, f"{named}: {p.where}", p.message) for p in exc.problems
            )
            continue
        for path, message in mismatches(ex, result):
            full = ("examples", i, *path)
            problems.append(Problem(loaded.locate(full), f"examples[{i}] {ex.id}", message))
    return problems
