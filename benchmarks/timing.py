"""What every benchmark here times with: the best of several runs (machines are shared and noisy)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    """The shortest wall time, in seconds, of ``repeat`` calls of ``run``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best
