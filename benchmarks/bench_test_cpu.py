"""Benchmark: the CPU a test run costs, Chromium's renderers included.

``time`` (and ``getrusage``'s children) misses most of what the browser tests
cost: Chromium forks its renderers from a zygote whose parent does not wait for
it, so their CPU is added to no process this one waits for. This runs pytest as
a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every orphaned
descendant, the zygote among them, is handed to this process, which reaps it,
and so the CPU of the whole tree arrives in its children's usage. Three figures:

- ``time``: the CPU of pytest and the children it waited for, as ``time`` says;
- ``tree``: the CPU of every process the run started, the orphans reaped here;
- ``machine``: the busy time of the whole machine in ``/proc/stat`` over the run
  (every other process's too: meaningful on a quiet machine only).

    .venv/bin/python benchmarks/bench_test_cpu.py -- -p no:xdist tests/site/test_phone.py
    .venv/bin/python benchmarks/bench_test_cpu.py --rounds 2 -- ... # the figures of each round

Linux only (prctl, /proc/stat).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PR_SET_CHILD_SUBREAPER = 36
TICK = os.sysconf("SC_CLK_TCK")


def busy_seconds() -> float:
    """The machine's busy CPU seconds since boot: /proc/stat's first line, idle and iowait aside."""
    fields = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0].split()[1:]
    ticks = [int(f) for f in fields]
    # user nice system idle iowait irq softirq steal (guest time is counted in user already)
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / TICK


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reap_orphans() -> None:
    """Wait for every descendant handed to this process (it is their subreaper)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        if pid == 0:
            return


def one_round(args: list[str]) -> tuple[int, float, float, float, float]:
    """Run pytest with ``args`` once: exit code, wall, ``time`` CPU, tree CPU, machine busy seconds."""
    machine, tree = busy_seconds(), children_cpu()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=ROOT)
    # the exit status and usage of pytest's own process tree, before any orphan is reaped
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    timed = usage.ru_utime + usage.ru_stime
    reap_orphans()
    wall = time.perf_counter() - start
    return proc.returncode, wall, timed, children_cpu() - tree, busy_seconds() - machine


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=1, help="run pytest this many times")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments")
    options = parser.parse_args(argv)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cannot become a subreaper (Linux only)", file=sys.stderr)
        return 1
    code = 0
    for i in range(options.rounds):
        rc, wall, timed, tree, machine = one_round(options.pytest_args)
        code = code or rc
        print(
            f"round {i + 1}: exit {rc}, wall {wall:.1f} s, CPU by time {timed:.1f} s,"
            f" whole tree {tree:.1f} s, machine (/proc/stat) {machine:.1f} s"
        )
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
