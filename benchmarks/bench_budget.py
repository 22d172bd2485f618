"""Benchmark: how much of the command budget each shipped game uses, per command.

Runs the real commands (click's own entry, inside one ``command_budget`` as
``rulepress.cli.main`` opens it) and prints the operations each spent (see
:mod:`rulepress.expressions.budget`), against the budget, the most its resident
memory grew (at the budget's readings and at the end) against the memory
budget, and the wall time:

- ``validate`` of each game (its spec loaded and checked, every worked example run);
- ``score --example`` of every worked example (the largest one, and the sum);
- ``state-template`` and ``schema --state`` of each game;
- ``i18n check`` of every catalog (the command that reads the most into memory).

    .venv/bin/python benchmarks/bench_budget.py [--spec-root rules_spec] [--examples N]

Builds are left out: the site runs Sphinx in worker processes, where each
doctest's scoring runs in a budget of its own; the print build renders what
``validate`` loads.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from pathlib import Path

from rulepress.cli import cli
from rulepress.expressions.budget import MEMORY, OPERATIONS, command_budget, resident_memory
from rulepress.games import find_game_dirs, load_spec

ROOT = Path(__file__).resolve().parent.parent


def spent(args: list[str]) -> tuple[int, float, int]:
    """The operations, seconds and bytes of memory grown ``rulepress ARGS`` spends.

    Its output is dropped; a command that ends with an error (``i18n check``
    finding a translation too long) is measured all the same.
    """
    start = time.perf_counter()
    with (
        command_budget() as budget,
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.suppress(Exception),
    ):
        cli.main(args=args, prog_name="rulepress", standalone_mode=False)
    now = resident_memory()
    grown = max(budget.grown, now - budget.start if now is not None and budget.start else 0)
    return budget.used, time.perf_counter() - start, grown


def show(game: str, command: str, used: int, seconds: float, grown: int) -> None:
    share = 100 * used / OPERATIONS
    memory = f"{grown / 2**20:>7.1f} MiB {100 * grown / MEMORY:>6.2f} %"
    print(f"{game:<12} {command:<34} {used:>12,} {share:>8.4f} % {memory} {seconds:>7.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec-root", type=Path, default=ROOT / "rules_spec")
    parser.add_argument(
        "--examples", type=int, default=None, help="score only the first N examples of each game"
    )
    args = parser.parse_args()
    print(f"budget: {OPERATIONS:,} operations and {MEMORY // 2**20:,} MiB more memory per command")
    print(
        f"{'game':<12} {'command':<34} {'operations':>12} {'of budget':>10}"
        f" {'memory grown':>20} {'time':>9}"
    )
    for directory in find_game_dirs(args.spec_root):
        game = directory.name
        spec_root = ["--spec-root", str(args.spec_root)]
        show(game, "validate", *spent(["validate", str(directory)]))
        examples = [ex.id for ex in load_spec(directory).spec.examples][: args.examples]
        runs = [spent(["score", game, "--example", ex, *spec_root]) for ex in examples]
        largest = max(runs)
        show(game, f"score --example (largest of {len(runs)})", *largest)
        total = (sum(r[0] for r in runs), sum(r[1] for r in runs), max(r[2] for r in runs))
        show(game, "score --example (all, summed)", *total)
        show(game, "state-template", *spent(["state-template", game, *spec_root]))
        show(game, "schema --state", *spent(["schema", "--state", game, *spec_root]))
    show("(all)", "i18n check", *spent(["i18n", "check", *spec_root_of(args.spec_root)]))


def spec_root_of(spec_root: Path) -> list[str]:
    return ["--spec-root", str(spec_root)]


if __name__ == "__main__":
    main()
