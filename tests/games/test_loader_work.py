"""The loader's work grows linearly with the spec, counted without a clock.

benchmarks/bench_loader.py times loading at N, 2N, 4N and 8N rules. Here the
same generated specs are loaded while every Python line the loader runs is
counted (``sys.settrace``): a count that does not depend on the machine. For
a linear loader, work(4N) - work(2N) is twice work(2N) - work(N); a
quadratic step makes it four times. The glossary's ids rebuilt for every text
(the checks' last quadratic step) made it 2.4 times at these sizes.

The cyclic garbage collector, whose repeated walks over the objects a load
keeps made reading superlinear in time though not in lines, is checked by
its own callbacks: no collection runs during a load.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import pytest

from rulepress.games import load as load_mod
from rulepress.games import load_spec
from tests.conftest import ROOT, module_from_file

BENCHMARKS = ROOT / "benchmarks"


@pytest.fixture
def bench_loader(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """benchmarks/bench_loader.py, whose spec generator the test shares."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # it imports timing.py from beside it
    return module_from_file("bench_loader", BENCHMARKS / "bench_loader.py")


def lines_run(directory: Path) -> int:
    """How many Python lines loading ``directory`` runs."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local if event == "call" else None

    sys.settrace(calls)
    try:
        load_spec(directory)
    finally:
        sys.settrace(None)
    return count


def test_loading_work_is_linear_in_the_number_of_rules(
    bench_loader: ModuleType, tmp_path: Path
) -> None:
    # a first load imports what checking needs (rulepress.games.load imports it when it
    # first checks): lines run once per process, not per rule
    load_spec(bench_loader.generate(tmp_path / "first", 10))
    work = [lines_run(bench_loader.generate(tmp_path / f"s{n}", n)) for n in (50, 100, 200)]
    growth = (work[2] - work[1]) / (work[1] - work[0])
    assert 1.8 < growth < 2.2, work


def test_no_garbage_collection_runs_during_a_load(
    bench_loader: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = bench_loader.generate(tmp_path / "spec", 300)
    loading = [False]
    during: list[int] = []
    after: list[int] = []
    original = load_mod._load

    def watched(directory: Path, *options: Any) -> Any:
        loading[0] = True
        try:
            return original(directory, *options)
        finally:
            loading[0] = False

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            (during if loading[0] else after).append(info["generation"])

    monkeypatch.setattr(load_mod, "_load", watched)
    gc.callbacks.append(record)
    try:
        load_spec(directory)
        gc.collect()  # the collector is on again afterwards
    finally:
        gc.callbacks.remove(record)
    assert during == []
    assert 2 in after
    assert gc.isenabled()
