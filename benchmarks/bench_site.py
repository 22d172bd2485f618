"""Benchmark: building the rules site (all games, en/cs/ja; HTML without doctests).

Measured in one run, on a scratch copy of the project:
- cold build with rulepress (generate page trees from the spec, then Sphinx: one
  project per language), with the Sphinx processes run one at a time and two at a time;
- plain sphinx-build over the same generated projects, one language after another
  (the baseline): rulepress's overhead is the ratio of the cold build to it;
- incremental rebuild after editing the text of one rule, and with nothing
  changed: in this process, then from the command line (its start-up included);
- the theme's cost: the same pages with furo and with Sphinx's basic theme.

    .venv/bin/python benchmarks/bench_site.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from rulepress.sphinx_ext.build import SiteBuild
from timing import once  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


def seconds(func: Callable[..., object], *args: object, **kwargs: object) -> float:
    return once(lambda: func(*args, **kwargs))  # a build leaves the next one less to do: once


def plain_sphinx(site: SiteBuild, out: Path) -> None:
    """The baseline: sphinx-build of the same project per language, one after another."""
    for lang in site.languages:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sphinx",
                "-b",
                "html",
                "-q",
                "-E",
                str(site.sources / lang),
                str(out / lang),
            ],
            check=True,
            capture_output=True,
        )


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="rulepress-site-bench-"))
    try:
        shutil.copytree(ROOT / "rules_spec", work / "rules_spec")
        results: dict[str, float] = {}
        for jobs in (1, 2):
            out = work / f"out-{jobs}"
            site = SiteBuild(work, work / "rules_spec", ROOT / "locales", out)
            results[f"cold build, {jobs} process(es)"] = seconds(
                site.build, doctest=False, jobs=jobs
            )
        site = SiteBuild(work, work / "rules_spec", ROOT / "locales", work / "out-2")
        # the page trees alone, made again (the stamps would skip them: nothing changed)
        shutil.rmtree(site.work / "stamps", ignore_errors=True)
        results["generate page trees only"] = seconds(site.generate)
        results["plain sphinx-build (baseline)"] = seconds(plain_sphinx, site, work / "plain")
        rules = work / "rules_spec" / "stationfall" / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        assert "however many points they have" in text
        rules.write_text(
            text.replace("however many points they have", "whatever their points"), encoding="utf-8"
        )
        results["incremental: one rule edited"] = seconds(site.build, doctest=False, jobs=2)
        results["no change at all"] = seconds(site.build, doctest=False, jobs=2)
        # the same from the command line, as a user runs it (its start-up included)
        (work / "no-docs").mkdir()
        cli = [sys.executable, "-m", "rulepress", "build", "site", "--no-doctest"]
        cli += ["--spec-root", str(work / "rules_spec"), "--locales", str(ROOT / "locales")]
        cli += ["--out", str(work / "out-cli"), "--docs", str(work / "no-docs")]
        cli += ["--pdfs", str(work / "no-pdfs")]
        subprocess.run(cli, check=True, capture_output=True)  # cold, not timed
        rules.write_text(
            rules.read_text(encoding="utf-8").replace("whatever their points", "any points"),
            encoding="utf-8",
        )
        results["command line: one rule edited"] = seconds(
            subprocess.run, cli, check=True, capture_output=True
        )
        results["command line: no change"] = seconds(
            subprocess.run, cli, check=True, capture_output=True
        )
        for theme in ("furo", "basic"):
            themed = SiteBuild(
                work, work / "rules_spec", ROOT / "locales", work / f"theme-{theme}", theme=theme
            )
            results[f"theme {theme}, cold, 2 processes"] = seconds(
                themed.build, doctest=False, jobs=2
            )
        pages = sum(1 for _ in (work / "out-2").rglob("*.html"))
        print(f"site: one project per language (3), every game in each, {pages} HTML pages")
        for label, value in results.items():
            print(f"{label:<36} {value:7.2f} s")
        base = results["plain sphinx-build (baseline)"]
        same = results["cold build, 1 process(es)"]
        print(
            f"rulepress / plain sphinx-build, both one process at a time: {same / base:5.2f}  (target <= 1.15)"
        )
        print(
            f"rulepress (two processes) / plain sphinx-build:             {results['cold build, 2 process(es)'] / base:5.2f}"
        )
        print(
            f"no change at all, all three languages:      {results['no change at all']:5.2f} s  (target <= 1 s)"
        )
        print(
            f"one rule edited, all three languages:       {results['incremental: one rule edited']:5.2f} s  (target <= 2 s)"
        )
        print(
            f"the same from the command line:             {results['command line: one rule edited']:5.2f} s"
            f"  (no change: {results['command line: no change']:.2f} s)"
        )
        print(
            f"two processes / one process:               {results['cold build, 2 process(es)'] / results['cold build, 1 process(es)']:5.2f}"
        )
        print(
            f"furo / basic theme:                        {results['theme furo, cold, 2 processes'] / results['theme basic, cold, 2 processes']:5.2f}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
