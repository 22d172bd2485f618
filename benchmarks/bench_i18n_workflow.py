"""Benchmark: the catalog workflow on a generated spec of 10,000 messages in three languages.

Steps timed, each on the whole generated project: extract (spec → .pot),
update (.pot → one .po per language, first time and again with nothing to
do), compile (.po → .mo) and check (translator QA). The baseline, measured
in the same run, is Babel alone reading and writing the same catalogs
(read_po + write_po), i.e. the cost of the file format itself.

    .venv/bin/python benchmarks/bench_i18n_workflow.py [--messages N]
"""

from __future__ import annotations

import argparse
import io
import shutil
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


if __name__ == "__main__":
    main()
