"""The benchmarks stay runnable: each fast one runs once on a tiny input.

(Figures come from running them by hand; these runs only prove they work,
and the scoring benchmark's cross-check against a hand-written scorer runs
with them.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

#: runs every benchmark script (tens of seconds): left out of the quick run (-m 'not slow'),
#: which must stay under three minutes
pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "args",
    [
        ["bench_stationfall_scoring.py", "--states", "30", "--repeat", "1"],
        ["bench_brink_end_game.py", "--runs", "2"],
        ["bench_i18n_workflow.py", "--messages", "200"],
        ["bench_limits.py", "--rules", "100", "200", "--repeat", "1"],
        ["bench_loader.py", "--rules", "20", "--doublings", "1", "--repeat", "1"],
        ["bench_expressions.py", "--states", "20", "--repeat", "1"],
        ["bench_budget.py", "--examples", "1"],
        [
            "bench_suite.py",
            "--workers",
            "0",
            "--baseline-runs",
            "1",
            "--",
            "tests/i18n/test_typography.py",
        ],
    ],
    ids=lambda a: a[0],
)
def test_benchmark_runs(args: list[str]) -> None:
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
