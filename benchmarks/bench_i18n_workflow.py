"""Benchmark: the catalog workflow on a generated spec of 10,000 messages in three languages.

Steps timed, each on the whole generated project: extract (spec → .pot),
update (.pot → one .po per language, first time and again with nothing to
do), compile (.po → .mo) and check (translator QA). The baseline, measured
in the same run, is Babel alone reading and writing the same catalogs
(read_po + write_po), i.e. the cost of the file format itself.

    .venv/bin/python benchmarks/bench_i18n_workflow.py [--messages N]

With ``--processes ROUNDS``, each catalog command is then also timed as
translators run it, as a process of its own on a copy of this project's
``rules_spec/`` and ``locales/``: its CPU seconds (user + system), the best
of ROUNDS, and their ratio to a baseline timed in the same rounds, GNU
``msgfmt -c`` checking the same catalogs (``python -c pass`` where msgfmt is
missing). ``--against SRC`` times another checkout's ``src/`` in the same
rounds (say, the last commit's, from ``git worktree add`` or ``git archive``),
for a before/after measured in one sitting.

    .venv/bin/python benchmarks/bench_i18n_workflow.py --messages 200 --processes 5 \
        --against /tmp/before/src
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from rulepress.i18n import catalogs
from rulepress.i18n.catalogs import read_catalog, render
from rulepress.i18n.qa import Terms, check_file
from rulepress.i18n.workflow import Project, compile_all, extract, update
from rulepress.output import replace_files
from timing import once  # benchmarks/timing.py, beside this script

#: the translations of the generated game (its game.yaml lists them, with English)
LANGS = ("cs", "ja", "de")
#: this project, whose specs and catalogs the commands are timed on
ROOT = Path(__file__).resolve().parent.parent
#: the catalog commands timed as processes (each as translators and CI run it)
COMMANDS = (
    ("i18n", "extract", "--check"),
    ("i18n", "update", "--check"),
    ("i18n", "extract"),
    ("i18n", "update"),
    ("i18n", "check"),
    ("i18n", "stats"),
    ("validate",),
)


def generate(root: Path, messages: int) -> None:
    """A game whose rules give ``messages`` messages (a title and a text per rule)."""
    game = root / "rules_spec" / "bench"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(
        "game: {id: bench, title: Bench, edition: x, version: '1', players: x,"
        " source: {language: en, document: x}, languages: [en, cs, ja, de],"
        " summary: x}\n",
        encoding="utf-8",
    )
    lines = ["rules:"]
    chapters = max(1, messages // 200)
    per_chapter = messages // 2 // chapters
    for c in range(1, chapters + 1):
        lines.append(f'  - number: "{c}"\n    title: Chapter {c} title\n    rules:')
        for r in range(1, per_chapter + 1):
            lines.append(
                f'      - number: "{c}.{r}"\n        title: Rule {r} of chapter {c}\n'
                f"        text: When the {{param:cubes}} cubes run out, see {{rule:{c}.{r}}}"
                f" and [the supply](term:supply) before rule text {c}-{r} ends."
            )
    (game / "rules.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "src" / "rulepress").mkdir(parents=True)


def translate_all(project: Project) -> None:
    """Fill every msgstr (with the msgid) so that QA has real work."""
    for lang in LANGS:
        path = catalogs.catalog_path(project.locales, lang, "bench")
        catalog = read_catalog(path, lang)
        for m in catalog:
            if m.id:
                m.string = m.id
        replace_files({path: render(catalog)})


def timed(label: str, func: Callable[[], object], results: dict[str, float]) -> None:
    results[label] = once(func)  # each step changes the catalogs: it runs once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument(
        "--processes", type=int, default=0, metavar="ROUNDS", help="time each command as a process"
    )
    parser.add_argument("--against", type=Path, help="another checkout's src/, timed alike")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="rulepress-bench-"))
    try:
        generate(root, args.messages)
        # the catalog format's own cost: the generated game is no complete spec, so its
        # templates say nothing of where readers meet a message (no rendering of places)
        project = Project(root, root / "rules_spec", root / "locales")
        results: dict[str, float] = {}
        timed("extract", lambda: extract(project, check=False), results)
        count = sum(1 for m in project.templates()["bench"] if m.id)
        timed("update (new catalogs)", lambda: update(project, check=False), results)
        translate_all(project)
        timed("update (nothing to do)", lambda: update(project, check=False), results)
        timed("compile", lambda: compile_all(project, root / "build" / "locales"), results)
        paths = [catalogs.catalog_path(project.locales, lang, "bench") for lang in LANGS]
        timed(
            "check (QA)",
            lambda: [
                check_file(p, lang, Terms.empty()) for p, lang in zip(paths, LANGS, strict=True)
            ],
            results,
        )

        def baseline() -> None:
            for p in paths:
                with p.open("rb") as fp:
                    catalog = read_po(fp)
                write_po(io.BytesIO(), catalog)

        timed("baseline: Babel read+write", baseline, results)
        print(f"{count} messages x {len(LANGS)} languages ({', '.join(LANGS)})")
        for label, seconds in results.items():
            print(f"{label:<28} {seconds:8.2f} s")
        base = results["baseline: Babel read+write"]
        for label in ("update (nothing to do)", "check (QA)"):
            print(f"{label} / baseline {results[label] / base:8.1f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.processes:
        processes(args.processes, args.against)


def _cpu(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one process run to its end, its output dropped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _baseline(work: Path) -> tuple[str, Callable[[dict[str, str]], float]]:
    """The fixed work each round is compared with, and how to time it."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        return "python -c pass", lambda env: _cpu([sys.executable, "-c", "pass"], work, env)
    catalogs_ = sorted((work / "locales").rglob("*.po"))

    def run(env: dict[str, str]) -> float:
        return sum(_cpu([msgfmt, "-c", "-o", os.devnull, str(p)], work, env) for p in catalogs_)

    return f"msgfmt -c ({len(catalogs_)} catalogs)", run


def processes(rounds: int, against: Path | None) -> None:
    """Each catalog command as a process on a copy of this project, against a baseline."""
    work = Path(tempfile.mkdtemp(prefix="rulepress-bench-processes-"))
    try:
        for folder in ("rules_spec", "locales"):
            shutil.copytree(ROOT / folder, work / folder)
        sources = {"ours": os.environ.get("PYTHONPATH", "")}
        if against is not None:
            sources["against"] = str(against.resolve())
        label, baseline = _baseline(work)
        # each source its own cache folder: the kept places, specs and interface messages
        # are keyed by the code, and one source's would replace the other's at every run
        envs = {
            name: dict(os.environ, PYTHONPATH=path, RULEPRESS_CACHE_DIR=str(work / f"cache-{name}"))
            for name, path in sources.items()
        }
        for env in envs.values():  # not timed: fills each source's cache, as a user's is
            for command in COMMANDS:
                _cpu([sys.executable, "-m", "rulepress", *command], work, env)
        cpu: dict[tuple[str, str], list[float]] = {}
        base: list[float] = []
        for _ in range(rounds):
            base.append(baseline(dict(os.environ)))
            for command in COMMANDS:
                for name, env in envs.items():
                    argv = [sys.executable, "-m", "rulepress", *command]
                    cpu.setdefault((" ".join(command), name), []).append(_cpu(argv, work, env))
        print(f"\nas processes on a copy of this project: CPU s, best of {rounds}")
        print(f"baseline, {label}: {min(base):.2f} s")
        head = f"{'command':<22} {'ours':>6} {'/base':>6}"
        print(head + (f" {'against':>8} {'/base':>6} {'speed-up':>8}" if against else ""))
        for command in COMMANDS:
            name = " ".join(command)
            ours = cpu[(name, "ours")]
            ratio = statistics.median(o / b for o, b in zip(ours, base, strict=True))
            line = f"{name:<22} {min(ours):6.2f} {ratio:6.2f}"
            if against is not None:
                theirs = cpu[(name, "against")]
                old = statistics.median(t / b for t, b in zip(theirs, base, strict=True))
                # a round's two runs were made moments apart: their ratio, the median of those
                gain = statistics.median(t / o for t, o in zip(theirs, ours, strict=True))
                line += f" {min(theirs):8.2f} {old:6.2f} {gain:7.2f}x"
            print(line)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
