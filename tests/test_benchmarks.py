"""The benchmarks stay runnable: each fast one runs once on a tiny input.

(Figures come from running them by hand; these runs only prove they work,
and the scoring benchmark's cross-check against a hand-written scorer runs
with them.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

#: runs every benchmark script (tens of seconds): left out of the quick run (-m 'not slow'),
#: which must stay under three minutes
pytestmark = pytest.mark.slow

#: where bench_lighthouse.py keeps Lighthouse, which it installs from npm on its first run
_LIGHTHOUSE = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "rulepress"
    / "lighthouse"
    / "node_modules"
    / ".bin"
    / "lighthouse"
)


@pytest.mark.parametrize(
    "args",
    [
        ["bench_stationfall_scoring.py", "--states", "30", "--repeat", "1"],
        ["bench_brink_end_game.py", "--runs", "2"],
        ["bench_i18n_workflow.py", "--messages", "200"],
        ["bench_limits.py", "--rules", "100", "200", "--repeat", "1"],
        ["bench_loader.py", "--rules", "20", "--doublings", "1", "--repeat", "1"],
        ["bench_repeated_loads.py", "--rounds", "1"],
        ["bench_expressions.py", "--states", "20", "--repeat", "1"],
        ["bench_budget.py", "--examples", "1"],
        ["bench_sampler.py", "--states", "2", "--repeat", "1"],
        [
            "bench_suite.py",
            "--workers",
            "0",
            "--baseline-runs",
            "1",
            "--",
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
