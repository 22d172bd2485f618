"""Benchmark: every print file of both games in three languages.

Prints the total and the time per document kind (reference card, its PDF/X-4
variant, rulebook, its PDF/X-4 variant, card deck, print-and-play sheets),
and, as a baseline measured in the same run, WeasyPrint laying out and
writing a one-page document of plain text in the same fonts: the fixed cost
every PDF pays.

    .venv/bin/python benchmarks/bench_print.py [--game brink] [--langs en ...]

By default every game of rules_spec/ in every language of the specs; ``--game``
and ``--langs`` print fewer (the test suite prints one game in English).
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from rulepress.model import all_languages
from rulepress.print import pdf
from rulepress.print.build import PrintBuild
from timing import once  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


GAMES = sorted(p.name for p in (ROOT / "rules_spec").iterdir() if (p / "game.yaml").is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAMES, default=None, help="default: every game")
    parser.add_argument("--langs", nargs="+", default=None, help="default: the specs' languages")
    args = parser.parse_args()
    # a game's own folder is a spec root of that game alone (in the repository still, so
    # its previous edition, a git revision, can be read for the errata sheet)
    specs = ROOT / "rules_spec" / args.game if args.game else ROOT / "rules_spec"
    langs = tuple(args.langs or all_languages(specs))
    games = 1 if args.game else len(GAMES)
    out = Path(tempfile.mkdtemp(prefix="rulepress-print-bench-"))
    try:
        job = PrintBuild(ROOT, specs, ROOT / "locales", out, langs)
        # timed here, not with timing.once: the build's result is needed below
        start = time.perf_counter()
        written = job.build()
        total = time.perf_counter() - start
        kinds: dict[str, list[float]] = defaultdict(list)
        for name, seconds in job.timings.items():
            kinds[re.sub(r"^.*/", "", name).rsplit(".", 1)[0]].append(seconds)
        base_html = (
            "<!doctype html><html><head><meta charset='utf-8'></head><body>"
            "<p>Pád stanice 名声</p></body></html>"
        )
        base_css = (
            '@page { size: 148mm 210mm } html { font-family: "Noto Sans", "Noto Sans CJK JP" }'
        )
        runs = 5  # the mean of a few, as the document kinds' times are means
        baseline = once(lambda: [pdf.render(base_html, base_css) for _ in range(runs)]) / runs
        print(
            f"{len(written)} PDF files, {games} game(s) x {len(langs)} language(s):"
            f" {total:.1f} s in total (overflow checks included)"
        )
        for kind, times in sorted(kinds.items()):
            mean = sum(times) / len(times)
            print(
                f"  {kind:<22} {len(times):3d} files  {mean:6.2f} s each  ({mean / baseline:5.1f}x baseline)"
            )
        print(f"baseline: a one-page text PDF {baseline:.3f} s")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
