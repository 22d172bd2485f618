"""Benchmark: where checking a nine-player Stationfall state goes (issue 32, point 3).

``validate_state`` asks each stage's quick path first (see
rulepress.states.quick); this times those stages apart, on the states
bench_stationfall_scoring.py generates, in µs per state:

* reading: the state read into records by the quick path's pydantic-core
  validator (types, bounds, choices, lengths, ids, unique lists);
* walk: the players' ids and what ``player`` fields name;
* constraints: every record's constraints asked, all together, and each rule
  of a player alone (each figure with the namespaces' few µs; the table's
  rules are a few);
* the whole check, and the full check alone (``full_validate_state``, no
  quick path), timed in turns, with their ratio.

    .venv/bin/python benchmarks/bench_state_check.py [--states N] [--repeat R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_stationfall_scoring import generate_state
from rulepress.expressions.expression import Steps
from rulepress.expressions.records import fields_record
from rulepress.games import load_spec
from rulepress.model.sets import spelled_out
from rulepress.states.models import state_models
from rulepress.states.pairs import Tallies
from rulepress.states.quick import Rules
from rulepress.states.validation import (
    compiled,
    full_validate_state,
    quick_check,
    validate_state,
)
from rulepress.yamlsrc import SourceMap
from timing import best_of, paired  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    spec = load_spec(ROOT / "rules_spec" / "stationfall").spec
    fmt = spec.table_states[next(s.state for s in spec.sequences if s.id == spec.scorer.sequence)]
    rng = random.Random(args.seed)
    raw = [generate_state(rng) for _ in range(args.states)]
    quick = quick_check(state_models(fmt, spec.parameters, spec.game.id), fmt)
    sets = fields_record(spelled_out(spec.sets))  # as the check's constraints read them
    reads = [quick.records(data) for data in raw]
    assert all(read is not None for read in reads), "a generated state left the quick path"
    empty = SourceMap()

    def check(validate: Callable[..., Any]) -> Callable[[], None]:
        def run() -> None:
            for data in raw:
                _, problems = validate(
                    fmt, spec.parameters, data, empty, (), spec.game.id, spec.sets
                )
                assert not problems, problems[0]

        return run

    def reading() -> None:
        for data in raw:
            quick.records(data)

    def walk() -> None:
        for read in reads:
            players = read["players"]
            ids = {rec["id"]: i for i, rec in enumerate(players)}
            assert quick.refs(players, read["table"], ids)

    def constraints(players_rules: Rules, table: bool = True) -> Callable[[], None]:
        def run() -> None:
            for read in reads:
                players, table_rec = read["players"], read["table"]
                context = {
                    "param": quick.params,
                    "sets": sets,
                    "n_players": len(players),
                    "table": table_rec,
                    "players": players,
                }
                # (as the check asks them: a count across the players tallied once a state)
                steps, tallies = Steps(), Tallies()
                spaces = [{**context, **rec} for rec in players]
                assert players_rules.hold(spaces, steps, tallies)
                if table:
                    assert quick.table.hold([{**context, **table_rec}], steps, tallies)

        return run

    n = args.states

    def per_state(seconds: float) -> str:
        return f"{seconds * 1e6 / n:7.1f} µs/state"

    print(f"states: {n} generated 9-player states (seed {args.seed}), best of {args.repeat}")
    print(f"reading             {per_state(best_of(args.repeat, reading))}")
    print(f"walk (ids, players) {per_state(best_of(args.repeat, walk))}")
    print(f"constraints         {per_state(best_of(args.repeat, constraints(quick.players)))}")
    for c in fmt.players.constraints:
        alone = constraints(Rules.of([c], compiled), table=False)
        print(
            f"  player rule {' '.join(c.test.split())[:40]:40} {per_state(best_of(args.repeat, alone))}"
        )
    t_quick, t_full, ratio = paired(args.repeat, check(validate_state), check(full_validate_state))
    print(f"check (validate_state)      {per_state(t_quick)}")
    print(f"full check alone            {per_state(t_full)}")
    print(f"check / full check  {ratio:7.2f}x  (timed in turns, the median of the rounds)")


if __name__ == "__main__":
    main()
