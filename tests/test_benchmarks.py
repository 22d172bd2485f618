"""The benchmarks stay runnable: every script in benchmarks/ runs once on a tiny input.

(Figures come from running them by hand; these runs only prove they work,
and the scoring benchmark's cross-check against a hand-written scorer runs
with them.) A script added to benchmarks/ without a run here fails the quick
test below.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

#: where bench_lighthouse.py keeps Lighthouse, which it installs from npm on its first run
_LIGHTHOUSE = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "rulepress"
    / "lighthouse"
    / "node_modules"
    / ".bin"
    / "lighthouse"
)


#: the scripts of benchmarks/ that are helpers of the others, not benchmarks
HELPERS = {"timing.py", "greedy_shrink.py"}

#: one run of each benchmark, with arguments that make it a few seconds (the builds: one
#: game in one language)
RUNS = [
    ["bench_stationfall_scoring.py", "--states", "30", "--repeat", "1"],
    ["bench_state_check.py", "--states", "20", "--repeat", "1"],
    ["bench_brink_end_game.py", "--runs", "2"],
    ["bench_i18n_workflow.py", "--messages", "200"],
    ["bench_limits.py", "--rules", "100", "200", "--repeat", "1"],
    ["bench_loader.py", "--rules", "20", "--doublings", "1", "--repeat", "1"],
    ["bench_repeated_loads.py", "--rounds", "1"],
    ["bench_expressions.py", "--states", "20", "--repeat", "1"],
    ["bench_budget.py", "--examples", "1"],
    ["bench_sampler.py", "--states", "2", "--repeat", "1"],
    ["bench_impact.py", "--tables", "20"],
    ["bench_shrink.py", "--tables", "10", "--budget", "40"],
    ["bench_score_command.py", "--runs", "1"],
    [
        "bench_suite.py",
        "--workers",
        "0",
        "--baseline-runs",
        "1",
        "--",
        "tests/i18n/test_typography.py",
    ],
    [
        "bench_test_cpu.py",
        "--",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
        "-q",
        "tests/i18n/test_typography.py",
    ],
    # one page in one language (a site build and one Lighthouse run): the script works
    pytest.param(
        ["bench_lighthouse.py", "--lang", "en", "--page", "landing"],
        marks=pytest.mark.skipif(
            not _LIGHTHOUSE.is_file(),
            reason="Lighthouse comes from npm, which a test must not download from: run "
            "benchmarks/bench_lighthouse.py once by hand (it installs it into the cache)",
        ),
    ),
    ["bench_site.py", "--games", "stationfall", "--langs", "en"],
    ["bench_print.py", "--game", "stationfall", "--langs", "en"],
    ["bench_editions.py", "--games", "stationfall", "--langs", "en"],
    ["bench_translator_round.py", "--game", "stationfall", "--lang", "cs", "--alone"],
    ["expression_sizes.py", "--list"],
    # the Dask run too: the local cluster's two worker processes start in a few seconds
    ["bench_corpus.py", "--records", "60", "--chunk", "20", "--repeat", "1", "--dask"],
]


def _script(run: Any) -> str:
    """The script a run runs: a plain list of arguments, or one wrapped in pytest.param."""
    args = run if isinstance(run, list) else run.values[0]
    return str(args[0])


def test_every_benchmark_has_a_run() -> None:
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")} - HELPERS
    assert scripts - {_script(run) for run in RUNS} == set()


#: the benchmarks that build a site or print files: run from their own module
#: (tests/test_benchmark_builds.py), so that the suite's two processes share the
#: benchmark runs (pytest-xdist gives a whole module to one process)
BUILDS = ("bench_site.py", "bench_print.py", "bench_editions.py", "bench_translator_round.py")


def run_benchmark(args: list[str]) -> None:
    """Run one benchmark script as documented; it must succeed and print its figures."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


#: runs every benchmark script but the builds (a minute): left out of the quick run
#: (-m 'not slow'), which must stay under three minutes
@pytest.mark.slow
@pytest.mark.parametrize("args", [r for r in RUNS if _script(r) not in BUILDS], ids=_script)
def test_benchmark_runs(args: Any) -> None:
    run_benchmark(args)
