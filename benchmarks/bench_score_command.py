"""Benchmark: ``rulepress score`` of one table state, as a whole process, cold and warm cache.

Issue 32 asks for at most 0.2 s for one state. What a user waits for is the
whole process: Python starting, rulepress's imports, the spec (read and
checked, or read back from the user's cache, see rulepress.games.spec_cache),
scoring and the report. Each round here runs, one after the other so that all
see the same machine:

- ``python -c pass``: the floor of any Python command;
- ``python -c "import rulepress"`` and ``python -c "import rulepress.cli"``;
- ``rulepress score`` with ``--no-cache``: the spec read and checked;
- ``rulepress score`` with an empty cache (cold: read, checked and kept);
- ``rulepress score`` with the cache the previous run left (warm).

It prints the median of the rounds for each, in ms and against ``python -c pass``,
the best, and the process's CPU time (user + system: less moved by others' load than
the wall time), and checks that the three scores print the same report. The processes get a
private cache folder (RULEPRESS_CACHE_DIR) and a private bytecode folder
(PYTHONPYCACHEPREFIX), filled by a first run that is not timed: an installed
rulepress has its modules compiled, and a process that compiles them each time
(PYTHONDONTWRITEBYTECODE with no bytecode beside the sources) times the compiler.

    .venv/bin/python benchmarks/bench_score_command.py [--runs 15] [--game stationfall]
        [--state FILE | --example ID] [--lang en] [--no-bytecode]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATE = ROOT / "tests" / "data" / "states" / "stationfall-four-players.yaml"


def rulepress_command() -> list[str]:
    """The console script users run, installed beside this Python (else ``python -m``)."""
    script = Path(sys.executable).parent / "rulepress"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "rulepress"]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """The wall and CPU (user + system) seconds of one run of ``command``, and what it printed.

    The CPU time is the process's own: on a machine others share, the wall time also
    counts the waits for a core, the CPU time hardly.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="rounds; the median is shown")
    parser.add_argument("--game", default="stationfall")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--state", type=Path, default=STATE, help="the table state to score")
    which.add_argument("--example", metavar="ID", help="score this worked example instead")
    parser.add_argument("--lang", default="en", help="the report's language")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="keep this environment's bytecode settings (PYTHONDONTWRITEBYTECODE …)",
    )
    options = parser.parse_args()
    target = ["--example", options.example] if options.example else [str(options.state)]
    score = [*rulepress_command(), "score", options.game, *target, "--lang", options.lang]

    with tempfile.TemporaryDirectory(prefix="rulepress-bench-") as work:
        cache = Path(work) / "cache"
        env = dict(os.environ, RULEPRESS_CACHE_DIR=str(cache))
        env.pop("RULEPRESS_NO_CACHE", None)
        if not options.no_bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(work) / "bytecode")
        python = sys.executable
        runs: dict[str, list[str]] = {
            "python -c pass": [python, "-c", "pass"],
            "python -c 'import rulepress'": [python, "-c", "import rulepress"],
            "python -c 'import rulepress.cli'": [python, "-c", "import rulepress.cli"],
            "score --no-cache": [*score, "--no-cache"],
            "score, cold cache": score,
            "score, warm cache": score,
        }
        # not timed: compiles every module the runs import, into the bytecode folder
        timed([*score, "--no-cache"], env)
        timed(score, env)
        times: dict[str, list[float]] = {name: [] for name in runs}
        cpus: dict[str, list[float]] = {name: [] for name in runs}
        reports: set[str] = set()
        for _ in range(options.runs):
            for name, command in runs.items():
                if name == "score, cold cache":
                    shutil.rmtree(cache, ignore_errors=True)
                seconds, cpu, out = timed(command, env)
                times[name].append(seconds)
                cpus[name].append(cpu)
                if name.startswith("score"):
                    reports.add(out)
        if len(reports) != 1:
            raise SystemExit("the scores with and without the cache printed different reports")

    floor = statistics.median(times["python -c pass"])
    shown = " ".join(score[len(rulepress_command()) :]).replace(f"{ROOT}{os.sep}", "")
    print(f"rulepress {shown}: median of {options.runs} runs")
    print(f"{'':34} {'wall':>8} {'x pass':>7} {'best':>8} {'CPU':>8} {'best':>8}")
    for name, values in times.items():
        median = statistics.median(values)
        cpu = statistics.median(cpus[name])
        print(
            f"{name:34} {median * 1000:5.0f} ms {median / floor:7.1f} {min(values) * 1000:5.0f} ms"
            f" {cpu * 1000:5.0f} ms {min(cpus[name]) * 1000:5.0f} ms"
        )


if __name__ == "__main__":
    main()
