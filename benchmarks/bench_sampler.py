"""Benchmark: drawn table states per second, per game and sequence, against checking them.

For every sequence of every game under ``rules_spec/``: the time to draw N
legal states (:func:`rulepress.population.sampler.draw_states`, seed given)
and the time to check the same N states once more with the state check a
player's file goes through (:func:`rulepress.states.validation.validate_state`).
The ratio says what drawing costs beyond the one check a legal state needs
anyway: a draw that passes at once costs one check; the ones the constraints
refuse are drawn again and mended, and cost more. The goal (issue 32) is a
draw no dearer than a check, ``draw/check`` at most 1: the last column says
whether a sequence meets it.

    .venv/bin/python benchmarks/bench_sampler.py [--states N] [--repeat R] [--game GAME ...]

Times are the best of R runs (machines are shared and noisy: compare the ratios of
one run).
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path
from typing import Any

from rulepress.games import LoadedSpec, find_game_dirs, load_spec
from rulepress.population.sampler import draw_states
from rulepress.states.validation import validate_state
from rulepress.yamlsrc import SourceMap
from timing import best_of  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


def measure(loaded: LoadedSpec, seq_id: str, states: int, seed: int, repeat: int) -> None:
    """Print the draws and checks per second of ``states`` states of one sequence."""
    spec = loaded.spec
    fmt = spec.table_states[next(s.state for s in spec.sequences if s.id == seq_id)]
    drawn: list[dict[str, Any]] = []

    def draw() -> None:
        drawn[:] = draw_states(loaded, seq_id, seed=seed, count=states)

    def check() -> None:
        for state in drawn:
            _, problems = validate_state(
                fmt, spec.parameters, copy.deepcopy(state), SourceMap(), sets=spec.sets
            )
            assert not problems

    drawing = best_of(repeat, draw)
    checking = best_of(repeat, check)
    ratio = drawing / checking
    print(
        f"{spec.game.id + '/' + seq_id:40} {states / drawing:9.0f}"
        f" {states / checking:10.0f} {ratio:10.1f}× {'yes' if ratio <= 1 else 'no':>5}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=200, help="states drawn per sequence")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is shown")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args()
    folders = find_game_dirs(ROOT / "rules_spec")
    print(f"{'game/sequence':40} {'drawn/s':>9} {'checked/s':>10} {'draw/check':>11} {'≤ 1':>5}")
    for folder in folders:
        if args.game and folder.name not in args.game:
            continue
        loaded = load_spec(folder)
        for seq in loaded.spec.sequences:
            measure(loaded, seq.id, args.states, args.seed, args.repeat)


if __name__ == "__main__":
    main()
