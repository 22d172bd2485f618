"""Benchmark: an impact question over many drawn tables, on one core and on every core.

For one ruling of each game (an option against the default), ``rulepress
impact``'s work without its command line: draw the tables, check each
under both rule sets, score each under both without the trace, tally,
shrink the smallest tables. Printed per game: the time and tables per
second on one core and on every core, their ratio (the speed-up), the
share of its time drawing the tables takes (measured alone in the same
run), and the answer (the share of tables whose winner changes).

    .venv/bin/python benchmarks/bench_impact.py [--tables N] [--seed S] [--game GAME --variant OPTION]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulepress.impact.question import Question, run
from rulepress.impact.report import build_report
from rulepress.impact.rulesets import RuleSet, load_rule_set_spec
from rulepress.impact.tally import Tally
from rulepress.population.executor import available_cores
from rulepress.population.sampler import draw_states
from timing import once  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
#: one ruling option of each of our games, against its default
QUESTIONS = {
    "stationfall": "surviving_characters",  # data_providers: who may provide Data
    "brink": "sorelia_not_wild",  # sorelia_cubes_at_end: how Sorelia cubes score
}


def measure(game: str, option: str, tables: int, seed: int, cores: int) -> None:
    game_dir = str((ROOT / "rules_spec" / game).resolve())
    question = Question(
        before=RuleSet(game_dir), after=RuleSet(game_dir, None, (option,)), seed=seed, tables=tables
    )
    loaded = load_rule_set_spec(game_dir, None)
    drawing = once(lambda: sum(1 for _ in draw_states(loaded, None, seed=seed, count=tables)))
    tallies: dict[int, Tally] = {}
    one = once(lambda: tallies.setdefault(1, run(question, workers=1)))
    every = (
        once(lambda: tallies.setdefault(cores, run(question, workers=cores))) if cores > 1 else one
    )
    # the every-core run's report, which must say what the one-core run's says
    report = build_report(question, tallies[cores])
    if cores > 1 and report != build_report(question, tallies[1]):
        raise SystemExit(f"{game}: the report on {cores} cores differs from the one on one core")
    print(f"{game} --variant {option}: {tables:,} drawn tables (seed {seed})")
    print(f"  drawing alone           {drawing:8.2f} s  ({tables / drawing:9,.0f} tables/s)")
    print(f"  one core                {one:8.2f} s  ({tables / one:9,.0f} tables/s)")
    print(f"  {cores} cores                 {every:8.2f} s  ({tables / every:9,.0f} tables/s)")
    print(f"  speed-up                {one / every:8.2f}x")
    print(
        f"  winner changes at {report.changed['winner']:,} tables"
        f" ({report.share('winner'):.2%}), a place at {report.changed['place']:,}"
        f" ({report.share('place'):.2%}), a score at {report.changed['score']:,}"
        f" ({report.share('score'):.2%}); {report.refused} refused"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", help="one game only (with --variant)")
    parser.add_argument("--variant", help="the option to weigh (with --game)")
    args = parser.parse_args()
    cores = available_cores()
    chosen = {args.game: args.variant} if args.game else QUESTIONS
    for game, option in chosen.items():
        if (ROOT / "rules_spec" / game).is_dir():
            measure(game, option, args.tables, args.seed, cores)


if __name__ == "__main__":
    main()
