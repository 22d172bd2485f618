"""Running one job over many chunks: in this process, on every core, or on a Dask cluster.

chunks → ``job(chunk)`` for each, wherever it runs → results merged **in chunk
order** → one result. The merge never sees results in the order they finished,
so the outcome is the same however the chunks were spread (one process, a pool,
a cluster), provided the job itself depends only on its chunk.

* ``workers=1`` (or a single chunk): in this process, no pool.
* ``workers=None``: every core this process may use; ``workers=N``: N processes.
  A ``concurrent.futures`` process pool whose processes are *spawned*, never
  forked: a fork copies the caller's threads' locks mid-use, and spawning is what
  macOS and Windows do anyway. So ``job`` must be importable by name (a
  module-level function) and each chunk and result picklable.
* ``scheduler="tcp://host:port"``: the chunks run on that ``dask.distributed``
  scheduler's workers (the ``rulepress[scale]`` extra, imported only here), which
  need rulepress installed as this process has it.

A job's own error (a :class:`~rulepress.errors.RulepressError`, whose problems
survive pickling) comes back as that error, without the worker's traceback
chained to it; the chunks not yet started are cancelled.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import reduce
from typing import TypeVar, cast

from rulepress import isolation
from rulepress.errors import RulepressError, UsageError

C = TypeVar("C")
T = TypeVar("T")

#: what to install for ``scheduler``, named in the message when it is missing
SCALE_EXTRA = "rulepress[scale]"


def available_cores() -> int:
    """How many cores this process may run on (its CPU affinity, where the system has one).

    ``PYTHON_CPU_COUNT`` (a number) overrides it, as Python 3.13 reads it for its own
    count, and is read here on older Pythons too: the way to keep rulepress's builds
    and questions to fewer processes where other work already takes the cores.
    """
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13+: affinity, -X cpu_count
    if counter is not None:  # and PYTHON_CPU_COUNT
        return int(counter() or 1)
    given = os.environ.get("PYTHON_CPU_COUNT", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def run_chunks(
    job: Callable[[C], T],
    chunks: Sequence[C],
    merge: Callable[[T, T], T],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
) -> T:
    """``merge`` over ``job(chunk)`` for every chunk, in chunk order (see the module docstring).

    ValueError for no chunks (there is nothing to merge); UsageError for fewer
    than one worker, for both ``workers`` and ``scheduler`` (a Dask cluster has
    its own workers), and for a scheduler that cannot be used.
    """
    if not chunks:
        raise ValueError("run_chunks needs at least one chunk")
    if scheduler is not None:
        if workers is not None:
            raise UsageError(
                "give either a number of worker processes or a Dask scheduler, not both"
            )
        return _on_dask(job, chunks, merge, scheduler)
    return _merged(merge, run_each(job, chunks, workers=workers))


def run_each(
    job: Callable[[C], T], chunks: Sequence[C], *, workers: int | None = None
) -> Iterator[T]:
    """``job(chunk)`` for every chunk, yielded in chunk order, each as soon as all before it are in.

    For a caller that takes each result as it comes (a progress line, a file
    written), in this process or on a pool as :func:`run_chunks` (no Dask).
    """
    count = available_cores() if workers is None else workers
    if count < 1:
        raise UsageError(f"the number of worker processes must be at least 1, not {count}")
    count = min(count, len(chunks))
    if count <= 1:
        yield from map(job, chunks)
    else:
        yield from _on_pool(job, chunks, count)


def _merged(merge: Callable[[T, T], T], results: Iterable[T]) -> T:
    """The results merged left to right, each as soon as all before it are in.

    A job's RulepressError is raised as itself: the worker's traceback, which a
    pool or Dask chains to it, says nothing a user needs.
    """
    try:
        return reduce(merge, results)
    except RulepressError as exc:
        raise exc from None


def _on_pool(job: Callable[[C], T], chunks: Sequence[C], count: int) -> Iterator[T]:
    # The processes import from the installed environment only, not from the folder the
    # caller stands in (rulepress.isolation): multiprocessing starts them with `python -c`.
    with isolation.child_environment():
        pool = ProcessPoolExecutor(
            max_workers=count, mp_context=multiprocessing.get_context("spawn")
        )
        futures = [pool.submit(job, chunk) for chunk in chunks]
    try:
        for future in futures:
            yield future.result()
    except BrokenProcessPool:
        pool.shutdown(wait=True, cancel_futures=True)
        raise RulepressError(
            "a worker process ended abruptly (out of memory, or killed): run again with fewer"
            " workers"
        ) from None
    except BaseException:
        # an error (or Ctrl-C, or a caller that stops early): the chunks not yet started
        # are not run
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _on_dask(
    job: Callable[[C], T], chunks: Sequence[C], merge: Callable[[T, T], T], address: str
) -> T:
    try:
        # the scale extra: imported only for a scheduler, so the core install stays light
        from distributed import Client  # noqa: PLC0415
    except ImportError:
        raise UsageError(
            f"a Dask scheduler needs dask.distributed, not installed here: pip install '{SCALE_EXTRA}'"
        ) from None
    try:
        client = Client(address, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot use the Dask scheduler at {address}: {exc}") from None
    with client:
        # pure=False: each chunk is its own task, even where two chunks are equal
        futures = client.map(job, list(chunks), pure=False)
        try:
            return _merged(merge, (cast(T, f.result()) for f in futures))
        finally:
            client.cancel(futures)
