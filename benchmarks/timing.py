"""What every benchmark here times with: the best of several runs (machines are shared and noisy)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def once(run: Callable[[], Any]) -> float:
    """The wall time, in seconds, of one call of ``run``.

    For a step that cannot be repeated as it was (a cold build, a first
    catalog update): the benchmarks that time such steps time them with this.
    """
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    """The shortest wall time, in seconds, of ``repeat`` calls of ``run``."""
    return min(once(run) for _ in range(repeat))


def paired(
    repeat: int, run: Callable[[], Any], baseline: Callable[[], Any]
) -> tuple[float, float, float]:
    """Best wall times of ``run`` and ``baseline``, timed in turns, and their ratio.

    Timed in turns, round after round, so that both see the same machine:
    timed one after the other, a change of load between them (another
    process starting, the host taking the CPU) shows up as a change of
    ratio. The ratio is the median of the rounds' ratios, each of two runs
    made moments apart.
    """
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        for times, func in ((ours, run), (theirs, baseline)):
            start = time.perf_counter()
            func()
            times.append(time.perf_counter() - start)
    ratios = sorted(a / b for a, b in zip(ours, theirs, strict=True))
    middle = len(ratios) // 2
    ratio = ratios[middle] if len(ratios) % 2 else (ratios[middle - 1] + ratios[middle]) / 2
    return min(ours), min(theirs), ratio
