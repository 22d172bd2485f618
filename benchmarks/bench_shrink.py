"""Benchmark: how small the shrunk examples come out, and the checks they cost, before and after.

For every game with ruling options, each option against the default: the
first table of each kind of change (winner, place, score) found among the
drawn tables of a fixed seed, shrunk by the greedy shrinker it replaced
(greedy_shrink.py, beside this script) and by :mod:`rulepress.population.shrink`,
with the same budget. Printed per table: players, list items and the sum of
the integers' absolute values of each result, and the checks each spent.

    .venv/bin/python benchmarks/bench_shrink.py [--tables N] [--seed S] [--budget B] [--games G ...]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import greedy_shrink  # benchmarks/greedy_shrink.py, beside this script
from rulepress.impact.question import Question, changes_kind, run
from rulepress.impact.rulesets import RuleSet, load_rule_set_spec
from rulepress.population.shrink import shrink
from rulepress.scoring.engine import resolve_variants

ROOT = Path(__file__).resolve().parent.parent
Shrinker = Callable[..., dict[str, Any]]


def measures(value: Any) -> tuple[int, int]:
    """List items (the players' list left out) and the sum of |integers| in ``value``."""
    if isinstance(value, dict):
        parts = [measures(v) for k, v in value.items() if k != "players"]
        players = value.get("players")
        if isinstance(players, list):
            inner = [measures(p) for p in players]
            parts.append((sum(i for i, _ in inner), sum(n for _, n in inner)))
        return sum(i for i, _ in parts), sum(n for _, n in parts)
    if isinstance(value, list):
        inner = [measures(v) for v in value]
        return len(value) + sum(i for i, _ in inner), sum(n for _, n in inner)
    if isinstance(value, int) and not isinstance(value, bool):
        return 0, abs(value)
    return 0, 0


def shrunk(
    name: str, how: Shrinker, question: Question, kind: str, state: dict[str, Any], budget: int
) -> str:
    """One shrinker's result for one table, as a line of the table printed."""
    loaded = load_rule_set_spec(question.before.game_dir, None)
    holds = changes_kind(question, kind)
    checks = [0]

    def counted(s: dict[str, Any]) -> bool:
        checks[0] += 1
        return holds(s)

    small = how(loaded, question.sequence, state, counted, budget=budget)
    assert holds(small), f"{name}: the shrunk table lost the change"
    items, ints = measures(small)
    return f"{name:>8}: {len(small['players'])} players {items:4} items {ints:7,} |ints| {checks[0]:5} checks"


def measure(game: str, tables: int, seed: int, budget: int) -> None:
    game_dir = str((ROOT / "rules_spec" / game).resolve())
    spec = load_rule_set_spec(game_dir, None).spec
    defaults = resolve_variants(spec, [])
    for ruling in spec.rulings:
        for option in (o.id for o in ruling.options if defaults.get(ruling.id) != o.id):
            question = Question(
                before=RuleSet(game_dir),
                after=RuleSet(game_dir, None, (option,)),
                seed=seed,
                tables=tables,
            )
            tally = run(question, workers=1)
            for kind, found in sorted(tally.first.items()):
                players, (items, ints) = len(found.state["players"]), measures(found.state)
                print(
                    f"{game} --variant {option}, {kind} change (table {found.index}, seed {seed}):"
                    f" drawn {players} players {items} items {ints:,} |ints|"
                )
                print(
                    "  "
                    + shrunk("greedy", greedy_shrink.shrink, question, kind, found.state, budget)
                )
                print("  " + shrunk("now", shrink, question, kind, found.state, budget))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=2000, help="checks per shrink (the report's)")
    parser.add_argument("--games", nargs="*", help="these games only (default: every game)")
    args = parser.parse_args()
    games = args.games or sorted(p.name for p in (ROOT / "rules_spec").iterdir() if p.is_dir())
    for game in games:
        measure(game, args.tables, args.seed, args.budget)


if __name__ == "__main__":
    main()
