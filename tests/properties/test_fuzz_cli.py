"""The standing fuzz test: mutated specs, states and catalogs through the real command.

A seeded mutator (hypothesis, over the real files of rules_spec/ and locales/)
makes each input; the real ``rulepress`` runs it in a subprocess, under a cap
of CPU time and of memory (``resource`` limits set in the child) and a wall
clock. The run fails on:

- a traceback, a ``MemoryError`` or ``RecursionError`` on stderr;
- a hang (past the wall clock) or a kill by the caps;
- an exit code that is not in the table (0–9);
- a file written, changed or removed anywhere but in the output folder: the
  working folder (which holds the inputs) and a private ``$HOME`` are compared
  before and after;
- code execution: the payloads put into texts would create a sentinel file.

Past findings are replayed from ``tests/data/fuzz_corpus/`` first, each with the
exit code it must give, all in one capped process (:func:`run_batch`). The ``ci`` profile runs a few inputs per kind (well under
a minute on one core); ``HYPOTHESIS_PROFILE=thorough`` runs many more.

Subprocesses rather than in-process alarms: a cap on memory must not take the
test process with it, and only a separate process shows what the command really
prints and writes.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, LOCALES, SPEC_ROOT
from tests.properties.strategies import MUTATION, mutate

CORPUS = DATA / "fuzz_corpus"
#: CPU seconds, bytes of address space and wall seconds one input may take
CPU_SECONDS = 60
MEMORY = 3 * 1024**3
WALL_SECONDS = 180
#: the exit codes of the table (rulepress.errors.ExitCode; 130 is Ctrl-C, never ours)
TABLE = set(range(10))
#: how many inputs of each kind a run tries
EXAMPLES = 200 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 2
#: what a payload would create if any text were run as code (a shell, Python, a template)
SENTINEL = "FUZZ-RAN"
PAYLOADS = [
    f"__import__('pathlib').Path('{SENTINEL}').touch()",
    f"$(touch {SENTINEL})",
    f"{{{{ cycler.__init__.__globals__.os.system('touch {SENTINEL}') }}}}",
    f"!!python/object/apply:os.system ['touch {SENTINEL}']",
    f"```{{eval-rst}}\n.. raw:: html\n\n   <script>{SENTINEL}</script>\n```",
    "\u202eevil\u2066",
    "{0.__class__.__mro__}",
    "%(x)999999999d",
]


def _limits(calls: int = 1) -> None:  # pragma: no cover - runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS * calls, CPU_SECONDS * calls))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _snapshot(top: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``top`` with its size and modification time (links not followed)."""
    found = {}
    for path in sorted(top.rglob("*")):
        info = path.lstat()
        found[path.relative_to(top).as_posix()] = (info.st_size, info.st_mtime_ns)
    return found


#: runs ``rulepress.cli.main`` as ``python -m rulepress`` does, once per call read from stdin
#: as JSON ``[[cwd, home, args], ...]``, each with its own folder and $HOME; prints JSON
#: ``[[code, stdout, stderr], ...]`` (an exception escaping main is a traceback on stderr)
_DRIVER = """
import contextlib, io, json, os, sys, traceback
from rulepress import isolation
isolation.harden()
from rulepress.cli import main
done = []
for cwd, home, args in json.load(sys.stdin):
    os.chdir(cwd)
    os.environ["HOME"] = home
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except BaseException:
            code = -1
            err.write(traceback.format_exc())
    done.append([code, out.getvalue(), err.getvalue()])
sys.__stdout__.write(json.dumps(done))
"""


def run_batch(calls: list[tuple[Path, list[str]]]) -> list[subprocess.CompletedProcess[str]]:
    """Each ``(work, args)`` as ``rulepress ARGS`` in ``work``, all in one capped process.

    One process for many inputs: a Python start and rulepress's imports cost about a
    second, more than most inputs. The caps are the sum of the calls' own; a call that
    hangs or crashes the process fails every call of the batch, named in the message.
    """
    homes = [work.parent / "home" for work, _ in calls]
    for home in homes:
        home.mkdir(exist_ok=True)
    before = [
        (_snapshot(work), _snapshot(home)) for (work, _), home in zip(calls, homes, strict=True)
    ]
    plan = [[str(work), str(home), args] for (work, args), home in zip(calls, homes, strict=True)]
    n = len(calls)
    named = "; ".join(f"rulepress {' '.join(args)}" for _, args in calls)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _DRIVER],
            input=json.dumps(plan),
            cwd=calls[0][0],
            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
            capture_output=True,
            text=True,
            timeout=WALL_SECONDS * n,
            preexec_fn=lambda: _limits(n),
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung past {WALL_SECONDS * n} s: {named}")
    assert proc.returncode == 0, (
        f"the batch process died ({proc.returncode}): {named}\n{proc.stderr[-3000:]}"
    )
    done = []
    for (work, args), home, (work_before, home_before), (code, out, err) in zip(
        calls, homes, before, json.loads(proc.stdout), strict=True
    ):
        shown = f"{work.parent.name}: rulepress {' '.join(args)} exited {code}\n{err[-3000:]}"
        _check_call(work, home, (work_before, home_before), code, err, shown)
        done.append(subprocess.CompletedProcess(args, code, out, err))
    return done


def _check_call(
    work: Path,
    home: Path,
    before: tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]],
    code: int,
    err: str,
    shown: str,
    out: str | None = None,
) -> None:
    """Fail on anything the module lists: an exit code off the table, a traceback, a
    payload that ran, a file written outside the output folder ``out`` or into $HOME."""
    assert code in TABLE, shown
    for bad in ("Traceback", "MemoryError", "RecursionError"):
        assert bad not in err, shown
    assert not any(SENTINEL in p.name for p in work.parent.rglob("*")), "a payload ran"
    after = _snapshot(work)
    if out is not None:  # the output folder, and the work folder beside it, are the command's
        after = {k: v for k, v in after.items() if not k.startswith((out, f".{out}"))}
    assert after == before[0], f"{shown}\nwrote outside its output folder"
    assert _snapshot(home) == before[1], f"{shown}\nwrote into $HOME"


def run_limited(work: Path, *args: str, out: str | None = None) -> subprocess.CompletedProcess[str]:
    """``rulepress ARGS`` in ``work``, capped; fails the test on anything the module lists."""
    home = work.parent / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), PYTHONDONTWRITEBYTECODE="1")
    before, home_before = _snapshot(work), _snapshot(home)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "rulepress", *args],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=WALL_SECONDS,
            preexec_fn=_limits,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"rulepress {' '.join(args)}: hung past {WALL_SECONDS} s")
    shown = f"rulepress {' '.join(args)} exited {proc.returncode}\n{proc.stderr[-3000:]}"
    _check_call(work, home, (before, home_before), proc.returncode, proc.stderr, shown, out)
    return proc


def _spec_copy(tmp: Path, game: str) -> Path:
    work = tmp / "work"
    shutil.copytree(SPEC_ROOT / game, work / "rules_spec" / game)
    return work


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


# -- past findings ---------------------------------------------------------------------


CASES = sorted(CORPUS.glob("*.yaml"))


def _case_call(case: Path, tmp: Path) -> tuple[Path, list[str]]:
    """A copy of the case's game with its edits made, and the command the case runs."""
    found = yaml.safe_load(case.read_text(encoding="utf-8"))
    work = _spec_copy(tmp, found["game"])
    for edit in found["edits"]:
        target = work / "rules_spec" / found["game"] / edit["file"]
        if "text" in edit:  # the whole file
            target.write_text(edit["text"], encoding="utf-8")
            continue
        text = target.read_text(encoding="utf-8")
        assert edit["old"] in text, f"{case.name}: {edit['old']!r} is no longer in {edit['file']}"
        target.write_text(text.replace(edit["old"], edit["new"], 1), encoding="utf-8")
    if "state" in found:
        (work / "state.yaml").write_text(found["state"], encoding="utf-8")
        return work, ["score", found["game"], "state.yaml"]
    if "command" in found:  # a command that reads the spec another way (i18n extract)
        return work, list(found["command"])
    return work, ["validate"]


@pytest.fixture(scope="module")
def corpus_runs(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every past finding replayed, in one capped process (see :func:`run_batch`)."""
    calls = [_case_call(case, tmp_path_factory.mktemp(case.stem)) for case in CASES]
    return {case.stem: run for case, run in zip(CASES, run_batch(calls), strict=True)}


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_past_findings_stay_fixed(
    case: Path, corpus_runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    expect = yaml.safe_load(case.read_text(encoding="utf-8"))["expect"]
    proc = corpus_runs[case.stem]
    assert proc.returncode == expect, proc.stderr[-2000:]


# -- generated inputs ------------------------------------------------------------------

GAMES = sorted(p.name for p in SPEC_ROOT.iterdir() if (p / "game.yaml").is_file())
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(
    game=st.sampled_from(GAMES),
    file_index=st.integers(0, 100),
    mutations=st.lists(
        MUTATION
        | st.tuples(st.floats(0, 1, exclude_max=True), st.just("junk"), st.sampled_from(PAYLOADS)),
        min_size=1,
        max_size=3,
    ),
)
def test_a_mutated_spec(
    tmp_path_factory: pytest.TempPathFactory, game: str, file_index: int, mutations: list[Any]
) -> None:
    """``validate`` of a spec with one file mutated (keys, types, junk and payloads)."""
    tmp = tmp_path_factory.mktemp("spec")
    work = _spec_copy(tmp, game)
    files = sorted((work / "rules_spec" / game).glob("*.yaml"))
    target = files[file_index % len(files)]
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    target.write_text(_dump(mutate(data, mutations)), encoding="utf-8")
    run_limited(work, "validate")


@FUZZ
@given(
    game=st.sampled_from(GAMES),
    mutations=st.lists(MUTATION, min_size=1, max_size=4),
    payload=st.sampled_from(PAYLOADS),
    where=st.floats(0, 1, exclude_max=True),
)
def test_a_mutated_state(
    tmp_path_factory: pytest.TempPathFactory,
    game: str,
    mutations: list[Any],
    payload: str,
    where: float,
) -> None:
    """``score`` (text and JSON) of a game's starter state, mutated and given a payload."""
    tmp = tmp_path_factory.mktemp("state")
    work = _spec_copy(tmp, game)
    starter = run_limited(work, "state-template", game).stdout
    data = mutate(yaml.safe_load(starter), mutations)
    if isinstance(data, dict):
        data[f"note{int(where * 10)}"] = payload
    (work / "state.yaml").write_text(_dump(data), encoding="utf-8")
    run_limited(work, "score", game, "state.yaml")
    run_limited(work, "score", game, "state.yaml", "--format", "json")


@FUZZ
@given(
    game=st.sampled_from(GAMES),
    where=st.floats(0, 1, exclude_max=True),
    kind=st.sampled_from(["payload", "drop", "double", "header"]),
    payload=st.sampled_from(PAYLOADS),
)
def test_a_mutated_catalog(
    tmp_path_factory: pytest.TempPathFactory, game: str, where: float, kind: str, payload: str
) -> None:
    """``score --lang cs`` of a worked example with the game's Czech catalog damaged."""
    tmp = tmp_path_factory.mktemp("catalog")
    work = _spec_copy(tmp, game)
    shutil.copytree(LOCALES, work / "locales")
    catalog = work / "locales" / "cs" / "LC_MESSAGES" / f"{game}.po"
    lines = catalog.read_text(encoding="utf-8").splitlines(keepends=True)
    at = int(where * len(lines))
    if kind == "payload":
        strings = [i for i, line in enumerate(lines) if line.startswith("msgstr ")]
        at = strings[int(where * len(strings))]
        quoted = payload.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        lines[at] = f'msgstr "{quoted}"\n'
    elif kind == "drop":
        del lines[at]
    elif kind == "double":
        lines.insert(at, lines[at])
    else:
        lines.insert(1, f'"Plural-Forms: nplurals=3; plural=({payload});\\n"\n')
    catalog.write_text("".join(lines), encoding="utf-8")
    example = _first_example(work, game)
    run_limited(work, "score", game, "--example", example, "--lang", "cs")


def _first_example(work: Path, game: str) -> str:
    examples = yaml.safe_load(
        (work / "rules_spec" / game / "examples.yaml").read_text(encoding="utf-8")
    )
    return str(examples["examples"][0]["id"])
