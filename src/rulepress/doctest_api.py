"""What the doctests on the published pages call: run a worked example, read its result.

Kept tiny and stable: the generated doctests use only :func:`run_example`
and the methods of :class:`ExampleResult`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from rulepress.games import load_spec
from rulepress.model import LoadedSpec
from rulepress.scoring.examples import fact, find_example, tally_fact
from rulepress.scoring.examples import run_example as _run
from rulepress.scoring.result import ScoreResult

#: where the specs are; the site build sets it to the project's rules_spec/
SPEC_ROOT = Path("rules_spec")


@cache
def _spec(game: str) -> LoadedSpec:
    return load_spec(SPEC_ROOT / game)


class ExampleResult:
    """The scorer's result for one worked example."""

    def __init__(self, result: ScoreResult) -> None:
        self.result = result

    def fact(self, player: str, key: str) -> Any:
        """A player's total, rank, eligibility, score line (or ``line.kind``) or shown field."""
        found = next(p for p in self.result.players if p.id == player)
        return fact(found, key)

    def tally(self, tally_id: str, key: str) -> Any:
        return tally_fact(next(t for t in self.result.tallies if t.id == tally_id), key)

    def winners(self) -> list[str]:
        return list(self.result.winners.winners) if self.result.winners else []

    def decided_by(self) -> str:
        return self.result.winners.decided_by if self.result.winners else "none"


def run_example(game: str, example_id: str) -> ExampleResult:
    """Score a worked example of ``game`` with the real scorer, as the spec states it."""
    loaded = _spec(game)
    index, _ = find_example(loaded, example_id)
    return ExampleResult(_run(loaded, index))
