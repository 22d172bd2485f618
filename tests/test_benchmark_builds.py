"""The benchmarks that build a site or print files stay runnable (see tests/test_benchmarks.py).

A module of their own, so that pytest-xdist, which gives a whole module to one
process, runs them beside the other benchmarks instead of after them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_benchmarks import BUILDS, RUNS, _script, run_benchmark

#: each builds a site or print files (tens of seconds): the slow set
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("args", [r for r in RUNS if _script(r) in BUILDS], ids=_script)
def test_build_benchmark_runs(args: Any) -> None:
    run_benchmark(args)
