"""Benchmark: reading a recorded corpus, and checking it on every core (and on Dask).

A JSON Lines corpus of generated 9-player Stationfall states (as
bench_stationfall_scoring.py makes them) is written to a scratch folder; then,
in one run:

- reading it with :func:`rulepress.population.corpus.read_corpus` (the bounds and
  checks of an untrusted record included), against a baseline timed in turns with
  it: ``json.loads`` of each line, no check at all;
- a job per chunk of the corpus (:func:`~rulepress.population.corpus.corpus_chunks`)
  that reads its records and checks each against the game's state format, run by
  :func:`rulepress.population.executor.run_chunks` in this process, then on every
  core (a spawned process pool: its start-up is in the figure), and with
  ``--dask`` on a local Dask cluster of two worker processes (the ``scale`` extra).
  Each run must count the same states as the first.

    .venv/bin/python benchmarks/bench_corpus.py [--records N] [--chunk K] [--repeat R] [--dask]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path

from bench_stationfall_scoring import generate_state
from rulepress.errors import StateError
from rulepress.games import LoadedSpec, load_spec
from rulepress.population.corpus import (
    BadRecord,
    CorpusChunk,
    Record,
    corpus_chunks,
    read_chunk,
    read_corpus,
)
from rulepress.population.executor import available_cores, run_chunks
from rulepress.scoring.state import check_state
from timing import once, paired  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


@cache
def _stationfall() -> LoadedSpec:
    """The spec, loaded once per process (each worker loads its own)."""
    return load_spec(ROOT / "rules_spec" / "stationfall")


def check_chunk(chunk: CorpusChunk) -> tuple[int, int]:
    """The job: (valid states, records refused) in one chunk of the corpus."""
    loaded = _stationfall()
    good = bad = 0
    for record in read_chunk(chunk):
        if isinstance(record, BadRecord):
            bad += 1
            continue
        try:
            check_state(loaded, record.state, record.sources, record.origin)
        except StateError:
            bad += 1
        else:
            good += 1
    return good, bad


def add(first: tuple[int, int], then: tuple[int, int]) -> tuple[int, int]:
    return first[0] + then[0], first[1] + then[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--chunk", type=int, default=1000, help="records per job")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261206)
    parser.add_argument("--dask", action="store_true", help="also on a local Dask cluster")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="rulepress-corpus-bench-"))
    try:
        corpus = work / "tables.jsonl"
        rng = random.Random(args.seed)
        with corpus.open("w", encoding="utf-8") as out:
            for _ in range(args.records):
                out.write(json.dumps(generate_state(rng)) + "\n")
        size = corpus.stat().st_size

        def read_all() -> None:
            assert sum(isinstance(r, Record) for r in read_corpus(corpus)) == args.records

        def baseline() -> None:
            with corpus.open("rb") as lines:
                for line in lines:
                    json.loads(line)

        ours, theirs, ratio = paired(args.repeat, read_all, baseline)
        print(
            f"corpus: {args.records} nine-player states, {size / args.records / 1024:.1f} KiB each"
        )
        print(f"read_corpus:          {args.records / ours:9,.0f} records/s")
        print(f"json.loads (baseline): {args.records / theirs:8,.0f} records/s")
        print(f"read_corpus / baseline: {ratio:5.2f}")

        chunks = corpus_chunks(corpus, args.chunk)
        runs: list[tuple[str, dict[str, object]]] = [
            ("in this process", {"workers": 1}),
            (f"every core ({available_cores()})", {"workers": None}),
        ]
        cluster = None
        if args.dask:
            from distributed import LocalCluster  # noqa: PLC0415 - the scale extra, only here

            cluster = LocalCluster(
                n_workers=2,
                processes=True,
                threads_per_worker=1,
                host="127.0.0.1",
                dashboard_address=None,
            )
            runs.append(("Dask, two local workers", {"scheduler": cluster.scheduler_address}))
        try:
            first: tuple[int, int] | None = None
            single = 0.0
            for label, how in runs:
                start = time.perf_counter()
                counted = run_chunks(check_chunk, chunks, add, **how)  # type: ignore[arg-type]
                seconds = time.perf_counter() - start
                first = first or counted
                assert counted == first, (label, counted, first)
                single = single or seconds
                print(
                    f"check every record, {label:<26} {args.records / seconds:8,.0f} states/s"
                    f"  ({single / seconds:4.2f}x)"
                )
            print(f"{len(chunks)} chunks of {args.chunk}; valid, refused: {first}")
        finally:
            if cluster is not None:
                cluster.close()
        # the reading alone, once, as a share of checking in this process
        print(f"reading alone, once: {once(read_all):.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
