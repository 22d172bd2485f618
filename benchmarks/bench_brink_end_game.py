"""Benchmark: Brink end-of-game scoring of a player who makes the optimisation work hard.

The hard player holds 40 ambassadors (15 of them Sorelia, i.e. wild), 12
action cards in hand and every faction objective, so the scorer must find
the best ambassador grouping, the best faction for Discover Sorelia and the
best use of each card. Printed: milliseconds per scoring, and the ratio to a
baseline measured in the same run, the same sequence for a player with
nothing to optimise (the engine's fixed cost). Target: well under 10 ms.

    .venv/bin/python benchmarks/bench_brink_end_game.py [--runs N]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rulepress.games import load_spec
from rulepress.scoring import score
from rulepress.scoring.grouping import best_grouping
from rulepress.scoring.state import check_state
from rulepress.yamlsrc import SourceMap
from timing import best_of  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
FACTIONS = ("komek", "henko", "magnomi", "ventus")

HARD: dict[str, Any] = {
    "sequence": "end-of-game",
    "players": [
        {
            "id": "hard",
            "council_prestige": 40,
            "upgrade_top": True,
            "ambassadors": {"komek": 10, "henko": 8, "magnomi": 5, "ventus": 2, "sorelia": 15},
            "objectives": [
                "ua-trade-agreement",
                "fusion-drive",
                "construct-shield-lattice",
                "act-of-war",
                "discover-sorelia",
            ],
            "influence": {"komek": 5, "henko": 3, "magnomi": 4, "ventus": 2, "sorelia": 3},
            "hand": [
                {"colour": FACTIONS[i % 4], **({"prestige": i % 5} if i % 2 else {})}
                for i in range(12)
            ],
        }
    ],
    "table": {"council_wins": {"komek": 3, "henko": 2, "magnomi": 1, "ventus": 0}},
}
EASY: dict[str, Any] = {"sequence": "end-of-game", "players": [{"id": "easy"}]}


def per_call(func: Any, runs: int) -> float:
    """The time of one call: the best of 3 batches of ``runs`` calls (a call takes milliseconds)."""

    def batch() -> None:
        for _ in range(runs):
            func()

    return best_of(3, batch) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    loaded = load_spec(ROOT / "rules_spec" / "brink")
    hard = check_state(loaded, HARD, SourceMap(), "hard")
    easy = check_state(loaded, EASY, SourceMap(), "easy")
    result = score(loaded, hard)
    lines = {line.score: line.points for line in result.players[0].lines}
    t_hard = per_call(lambda: score(loaded, hard), args.runs)
    t_easy = per_call(lambda: score(loaded, easy), args.runs)
    counts = {"k": 10, "h": 8, "m": 5, "v": 2}
    values = {1: 2, 2: 5, 3: 10, 4: 18}
    t_group = per_call(lambda: best_grouping(counts, 15, values), args.runs)
    print("hard player: 40 ambassadors (15 Sorelia), 12 hand cards, every objective")
    print(f"  lines: {lines}, total {result.players[0].total}")
    print(f"score hard player     {t_hard * 1e3:8.3f} ms per scoring (target: well under 10 ms)")
    print(f"  of which grouping   {t_group * 1e3:8.3f} ms")
    print(
        f"score empty player    {t_easy * 1e3:8.3f} ms per scoring (baseline: no choices to make)"
    )
    print(f"hard / baseline       {t_hard / t_easy:8.1f}x")


if __name__ == "__main__":
    main()
