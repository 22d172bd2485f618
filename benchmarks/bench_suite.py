"""Benchmark: how long the test suite takes, and its ten slowest tests, so that growth is seen.

Runs the suite as ``tools/test.sh`` runs it (pytest-xdist, one process per
core, whole modules per process) and prints:

- the wall time and the CPU time of the run (the workers' included), against
  the limits the project holds itself to (the quick run under 3 minutes, the
  whole suite under 12, on two cores);
- the ten slowest tests (setup, call and teardown together), from pytest's
  JUnit XML report;
- a baseline measured in the same run: the wall time of ``rulepress validate``
  over the shipped games in a fresh Python (start-up, imports, loading and
  checking both specs, every worked example scored). The suite's time over the
  baseline's is a figure that a faster or busier machine changes much less
  than the seconds, so runs on different machines can be compared.

    .venv/bin/python benchmarks/bench_suite.py              # the quick run (-m "not slow")
    .venv/bin/python benchmarks/bench_suite.py --full       # every test
    .venv/bin/python benchmarks/bench_suite.py -- tests/spec  # any pytest arguments

Run it from a fresh clone (after ``bash tools/setup.sh``) for the figures the
closing notes quote: a work tree's caches make a run faster than CI's.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from timing import best_of

ROOT = Path(__file__).resolve().parent.parent
#: the limits of the quality bar, on a two-core machine (seconds)
LIMITS = {"quick": 180.0, "full": 720.0}


def baseline() -> None:
    """``rulepress validate`` of the shipped games in a fresh Python."""
    subprocess.run(
        [sys.executable, "-m", "rulepress", "validate", str(ROOT / "rules_spec")],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )


def slowest(report: Path, count: int) -> list[tuple[float, str]]:
    """The ``count`` slowest tests of a JUnit XML report: (seconds, node id)."""
    found: list[tuple[float, str]] = []
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "").replace(".", "/")
        found.append((float(case.get("time", "0")), f"{module}.py::{case.get('name', '')}"))
    return sorted(found, reverse=True)[:count]


def run_suite(args: list[str], report: Path, workers: str) -> tuple[int, float, float]:
    """Run pytest as tools/test.sh does; its exit code, wall seconds and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            workers,
            "--dist",
            "loadscope",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):  # 1: tests failed, still timed; others: no run
        sys.exit(f"pytest exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.returncode, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="every test, the slow ones too")
    parser.add_argument("--slowest", type=int, default=10, help="how many slowest tests to list")
    parser.add_argument("--workers", default="auto", help="pytest-xdist's -n (0: one process)")
    parser.add_argument("--baseline-runs", type=int, default=3, help="runs of the baseline")
    parser.add_argument("pytest_args", nargs="*", help="pytest arguments (after --)")
    options = parser.parse_args()
    kind = "full" if options.full or options.pytest_args else "quick"
    args = list(options.pytest_args) or ([] if options.full else ["-m", "not slow"])

    base = best_of(options.baseline_runs, baseline)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        code, wall, cpu = run_suite(args, report, options.workers)
        tests = slowest(report, options.slowest)
        count = sum(1 for _ in ET.parse(report).getroot().iter("testcase"))
    after = best_of(options.baseline_runs, baseline)  # the machine may have changed meanwhile

    print(f"pytest {' '.join(args) or '(every test)'}: {count} tests, exit {code}")
    print(f"  cores                {os.cpu_count()}")
    print(f"  wall                 {wall:8.1f} s")
    print(f"  CPU (pytest, workers){cpu:8.1f} s")
    if not options.pytest_args:
        limit = LIMITS[kind]
        print(f"  limit ({kind}, 2 cores) {limit:6.0f} s   wall / limit {wall / limit:6.2f}")
    mean_base = (base + after) / 2
    print(f"  baseline (validate)  {mean_base:8.2f} s   (before {base:.2f}, after {after:.2f})")
    print(f"  wall / baseline      {wall / mean_base:8.1f}")
    print(f"the {len(tests)} slowest tests:")
    for seconds, name in tests:
        print(f"  {seconds:8.2f} s  {name}")


if __name__ == "__main__":
    main()
