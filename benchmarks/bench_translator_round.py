"""Benchmark: one translator's round, as a translator works it, each step timed.

In a copy of the project (its specs and catalogs), the English of a rule text of
several lines changes; then, each step a real command in its own process:

1. ``rulepress i18n update``: the Czech message becomes fuzzy, the old English kept
   as ``#|`` lines;
2. ``rulepress build site --lang cs``, then ``rulepress gate``: the build warns that
   one message is shown in English and the gate fails on it (exit 8), naming its
   ``.po`` line;
3. the translator reviews it in another tool than ours (polib, as Poedit-like tools
   read and write PO), clearing the fuzzy flag, and saves;
4. ``rulepress i18n update --check`` (what CI runs), ``rulepress i18n check``;
5. the build and the gate again: no warning, the gate passes.

The baseline, timed in the same run, is GNU ``msgfmt -c`` over the same catalog:
the cost of reading the file format with gettext's own tools.

    .venv/bin/python benchmarks/bench_translator_round.py [--game stationfall] [--alone]

``--alone``: the copy holds that game's spec only (the project's other games are
neither updated, built nor gated): a smaller round, as the test suite runs it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
#: the rule whose English changes: a text of several paragraphs and long lines
RULE_TEXT = {"stationfall": "rules_spec/stationfall/rules.yaml"}


def run(work: Path, *args: str) -> tuple[float, int, str]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - start, proc.returncode, proc.stderr + proc.stdout


def change_english(work: Path, game: str) -> str:
    """Reword a sentence of the game's first rule text (three lines in the catalog)."""
    path = work / RULE_TEXT[game]
    text = path.read_text(encoding="utf-8")
    old = "before anyone counts a point"
    if old not in text:
        raise SystemExit(f"{path}: the sentence to change is gone; pick another")
    path.write_text(text.replace(old, "before anyone scores a single point", 1), encoding="utf-8")
    return old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="stationfall", choices=sorted(RULE_TEXT))
    parser.add_argument("--lang", default="cs")
    parser.add_argument("--alone", action="store_true", help="copy that game's spec only")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rulepress-round-"))
    steps: list[tuple[str, float, int]] = []
    try:
        shutil.copytree(ROOT / "locales", work / "locales")
        if args.alone:
            shutil.copytree(ROOT / "rules_spec" / args.game, work / "rules_spec" / args.game)
        else:
            shutil.copytree(ROOT / "rules_spec", work / "rules_spec")
        po = work / "locales" / args.lang / "LC_MESSAGES" / f"{args.game}.po"
        change_english(work, args.game)

        seconds, code, out = run(work, "i18n", "update")
        steps.append(("i18n update", seconds, code))
        fuzzy = [e for e in polib.pofile(str(po)) if e.fuzzy]
        if len(fuzzy) != 1:
            raise SystemExit(f"expected one fuzzy message after the change, found {len(fuzzy)}")

        seconds, code, out = run(work, "build", "site", "--lang", args.lang, "--no-doctest")
        steps.append(("build site (one fuzzy)", seconds, code))
        warned = [line for line in out.splitlines() if "shown in English" in line]
        seconds, code, out = run(work, "gate", "--print", "none")
        steps.append(("gate (one fuzzy)", seconds, code))
        failed = [line for line in out.splitlines() if "fuzzy, shown in English" in line]

        start = time.perf_counter()
        catalog = polib.pofile(str(po))
        for entry in catalog:
            if entry.fuzzy:  # reviewed: the translation still says what the new English says
                entry.flags.remove("fuzzy")
                entry.previous_msgid = None
                entry.previous_msgid_plural = None
        catalog.save()
        steps.append(("review and save in polib", time.perf_counter() - start, 0))

        for label, command in (
            ("i18n update --check", ("i18n", "update", "--check")),
            ("i18n check", ("i18n", "check", "--lang", args.lang, "--domain", args.game)),
            ("build site", ("build", "site", "--lang", args.lang, "--no-doctest")),
            ("gate", ("gate", "--print", "none")),
        ):
            seconds, code, out = run(work, *command)
            steps.append((label, seconds, code))

        start = time.perf_counter()
        subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(po)], check=True)
        baseline = time.perf_counter() - start

        print(f"{args.game} ({args.lang}): one rule text reworded, reviewed in polib")
        for label, seconds, code in steps:
            print(f"{label:<28} {seconds:8.2f} s   exit {code}")
        print(f"{'baseline: msgfmt -c':<28} {baseline:8.2f} s")
        update = steps[0][1]
        print(f"i18n update / baseline {update / baseline:8.1f}x")
        print("warning of the first build:", warned[0] if warned else "(none)")
        print("the gate's failure:", failed[0] if failed else "(none)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
