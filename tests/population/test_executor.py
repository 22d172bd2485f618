"""The executor: the same merged result in this process, in a process pool and on Dask."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.errors import StateError, UsageError
from rulepress.population.executor import available_cores, run_chunks, run_each
from tests.population.jobs import CHUNKS, concatenate, draw, expected, fail_on_three


def test_in_this_process_the_chunks_merge_in_order() -> None:
    assert run_chunks(draw, CHUNKS, concatenate, workers=1) == expected()


def test_in_this_process_a_jobs_error_is_raised_as_itself() -> None:
    with pytest.raises(StateError) as caught:
        run_chunks(fail_on_three, CHUNKS, concatenate, workers=1)
    assert str(caught.value.problems[0]) == "tables.jsonl:3:1: players[0]: expected an integer"


def test_bad_calls() -> None:
    with pytest.raises(UsageError, match="at least 1, not 0"):
        run_chunks(draw, CHUNKS, concatenate, workers=0)
    with pytest.raises(UsageError, match="not both"):
        run_chunks(draw, CHUNKS, concatenate, workers=2, scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(ValueError, match="at least one chunk"):
        run_chunks(draw, [], concatenate)
    assert available_cores() >= 1


@pytest.mark.parametrize(("given", "expected"), [("3", "3"), ("0", None), ("many", None)])
def test_python_cpu_count_sets_the_cores_a_job_may_use(given: str, expected: str | None) -> None:
    """PYTHON_CPU_COUNT, a number, is the count (Python 3.13 reads it; older ones here)."""
    code = "from rulepress.population.executor import available_cores; print(available_cores())"
    env = {**os.environ, "PYTHON_CPU_COUNT": given}
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.strip()
    if expected is None:  # not a count: the cores this process may use
        env.pop("PYTHON_CPU_COUNT")
        expected = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        ).stdout.strip()
    assert shown == expected


def test_importing_the_population_package_leaves_dask_out() -> None:
    code = (
        "import sys\n"
        "import rulepress.population.corpus, rulepress.population.executor\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout
    assert out.strip() == "[]"


def test_a_scheduler_without_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as in a core install
    with pytest.raises(UsageError) as caught:
        run_chunks(draw, CHUNKS, concatenate, scheduler="tcp://127.0.0.1:8786")
    assert str(caught.value) == (
        "a Dask scheduler needs dask.distributed, not installed here:"
        " pip install 'rulepress[scale]'"
    )


@pytest.mark.slow
def test_a_pool_merges_in_chunk_order_whatever_finishes_first() -> None:
    # two processes for eight chunks; the first chunk is the slowest (see jobs.draw)
    assert run_chunks(draw, CHUNKS, concatenate, workers=2) == expected()
    assert run_chunks(draw, CHUNKS, concatenate) == expected()  # every core


@pytest.mark.slow
def test_pool_processes_import_nothing_from_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library caller standing in a folder of planted modules: the workers import none.

    multiprocessing starts each worker with ``python -c``, which would put the
    current folder first on its path before the caller's path is restored.
    """
    ran, here = tmp_path / "ran.txt", tmp_path / "here"
    for name in ("multiprocessing", "random", "pydantic"):
        (here / name).mkdir(parents=True)
        (here / name / "__init__.py").write_text(
            f"open({str(ran)!r}, 'a').write({name!r} + '\\n')\n", encoding="utf-8"
        )
    monkeypatch.chdir(here)
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)  # not set by a library caller
    assert list(run_each(draw, CHUNKS[:2], workers=2)) == [draw(c) for c in CHUNKS[:2]]
    assert not ran.exists(), ran.read_text()


@pytest.mark.slow
def test_in_a_pool_a_jobs_error_comes_back_as_itself() -> None:
    with pytest.raises(StateError) as caught:
        run_chunks(fail_on_three, CHUNKS, concatenate, workers=2)
    assert str(caught.value.problems[0]) == "tables.jsonl:3:1: players[0]: expected an integer"
    assert caught.value.__cause__ is None  # not the worker's traceback


@pytest.mark.slow
def test_dask_gives_what_one_process_gives(dask_scheduler: str) -> None:
    assert run_chunks(draw, CHUNKS, concatenate, scheduler=dask_scheduler) == expected()


@pytest.mark.slow
def test_on_dask_a_jobs_error_comes_back_as_itself(dask_scheduler: str) -> None:
    with pytest.raises(StateError) as caught:
        run_chunks(fail_on_three, CHUNKS, concatenate, scheduler=dask_scheduler)
    assert str(caught.value.problems[0]) == "tables.jsonl:3:1: players[0]: expected an integer"
    assert caught.value.__cause__ is None


@pytest.mark.slow
def test_a_scheduler_that_cannot_be_reached_is_a_usage_error() -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    # port 9 (discard): nothing listens there; give up after a second, not Dask's 30
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "1s"}),
        pytest.raises(
            UsageError, match=r"^cannot use the Dask scheduler at tcp://127\.0\.0\.1:9: "
        ),
    ):
        run_chunks(draw, CHUNKS, concatenate, scheduler="tcp://127.0.0.1:9")
