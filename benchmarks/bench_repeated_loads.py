"""Benchmark: a process that loads and scores the specs again and again keeps no more each time.

A test run, a build of every game in every language or a server loads the
same specs many times in one process. Each round here loads every shipped
game (:func:`rulepress.games.load_spec`) and runs its worked examples
(:func:`rulepress.scoring.examples.check_examples`), drops them, and then
prints, after a full collection, how many objects the garbage collector
still tracks and how long that collection took.

When nothing is kept, the count stays flat after the first rounds (caches of
fixed size fill up) and so does the collection's time. When each load is kept
(as the YAML reader's constructor and the scorer's caches once kept them: about
40,000 objects per Brink load), both grow with every round, and so does the
time of every full collection the process makes, whatever it is doing.

    .venv/bin/python benchmarks/bench_repeated_loads.py [--rounds 20] [--every 5] [--spec-root DIR]
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

from rulepress.games import find_game_dirs, load_spec
from rulepress.scoring.examples import check_examples

ROOT = Path(__file__).resolve().parent.parent


def one_round(games: list[Path]) -> float:
    """Load and check every game once; the wall time, in seconds."""
    start = time.perf_counter()
    for directory in games:
        check_examples(load_spec(directory))
    return time.perf_counter() - start


def tracked() -> tuple[int, float]:
    """Objects the collector tracks after a full collection, and that collection's seconds."""
    start = time.perf_counter()
    gc.collect()
    seconds = time.perf_counter() - start
    return len(gc.get_objects()), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="rounds of loading every game")
    parser.add_argument("--every", type=int, default=5, help="report after every N rounds")
    parser.add_argument("--spec-root", type=Path, default=ROOT / "rules_spec", help="the games")
    options = parser.parse_args()
    games = find_game_dirs(options.spec_root)
    names = ", ".join(d.name for d in games)
    one_round(games)  # the first round fills the caches of fixed size
    start, _ = tracked()
    print(f"games: {names}; after the first round: {start:,} objects tracked")
    print(f"{'rounds':>7}  {'objects':>10}  {'kept per round':>14}  {'full gc':>8}  {'round':>7}")
    for done in range(1, options.rounds + 1):
        seconds = one_round(games)
        if done % options.every == 0 or done == options.rounds:
            count, collect = tracked()
            per_round = (count - start) / done
            print(
                f"{done:>7}  {count:>10,}  {per_round:>14,.0f}  {collect:>7.3f}s  {seconds:>6.2f}s"
            )


if __name__ == "__main__":
    main()
