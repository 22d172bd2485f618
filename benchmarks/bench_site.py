"""Benchmark: building the rules site (every game in each of its languages; HTML without doctests).

Measured in one run, on a scratch copy of the project:
- cold build with rulepress (generate page trees from the spec, then Sphinx: one
  project per language), with the Sphinx processes run one at a time and two at a time
  (one language is built in one process either way: measured once, and given as both);
- plain sphinx-build over the same generated projects, one language after another
  (the baseline): rulepress's overhead is the ratio of the cold build to it;
- incremental rebuild after editing the text of one rule, and with nothing
  changed: in this process, then from the command line (its start-up included);
- the theme's cost: the same pages in rulepress's own theme and in Sphinx's basic
  theme (the plainest there is).

    .venv/bin/python benchmarks/bench_site.py [--games stationfall ...] [--langs en ...]

By default every game of rules_spec/ in every language of the specs; ``--games``
and ``--langs`` build fewer (the test suite runs it on one game in English). The
incremental measure edits a rule of Stationfall, which ``--games`` must keep.
"""

from __future__ import annotations

import argparse
import os
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


GAMES = sorted(p.name for p in (ROOT / "rules_spec").iterdir() if (p / "game.yaml").is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", choices=GAMES, default=GAMES)
    parser.add_argument("--langs", nargs="+", default=None, help="default: the specs' languages")
    args = parser.parse_args()
    if "stationfall" not in args.games:
        parser.error(
            "--games must keep stationfall: the incremental measure edits one of its rules"
        )
    langs = tuple(args.langs or ())
    work = Path(tempfile.mkdtemp(prefix="rulepress-site-bench-"))
    # the builds' work folders (keyed by each output folder, in the user's cache) go with
    # the scratch copy, and every build starts with no cache of an earlier run
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    try:
        for game in args.games:
            shutil.copytree(ROOT / "rules_spec" / game, work / "rules_spec" / game)
        results: dict[str, float] = {}
        built = SiteBuild(work, work / "rules_spec", ROOT / "locales", work / "out-1", langs)
        # one Sphinx process per language: a site of one language builds in one process
        # however many it may take, so the build with two is measured for two languages on
        for jobs in (1, 2) if len(built.languages) > 1 else (1,):
            out = work / f"out-{jobs}"
            site = SiteBuild(work, work / "rules_spec", ROOT / "locales", out, langs)
            results[f"cold build, {jobs} process(es)"] = seconds(
                site.build, doctest=False, jobs=jobs
            )
        two = "cold build, 2 process(es)"
        results.setdefault(two, results["cold build, 1 process(es)"])
        site = SiteBuild(work, work / "rules_spec", ROOT / "locales", out, langs)
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
        # the same from the command line, as a user runs it (its start-up included), into
        # the site just built: folders that do not exist give no guides and no PDFs, as the
        # builds above had, so its work is current and only the edit is built again (a cold
        # build of its own first, untimed, cost as much as the cold build measured above)
        cli = [sys.executable, "-m", "rulepress", "build", "site", "--no-doctest"]
        cli += ["--spec-root", str(work / "rules_spec"), "--locales", str(ROOT / "locales")]
        cli += ["--out", str(out), "--docs", str(work / "no-docs")]
        cli += ["--pdfs", str(work / "no-pdfs")]
        cli += [f"--lang={lang}" for lang in langs]
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
        # rulepress's own theme is the cold build's above (two processes); basic's, here
        basic = SiteBuild(
            work, work / "rules_spec", ROOT / "locales", work / "theme-basic", langs, theme="basic"
        )
        results["theme basic, cold, 2 processes"] = seconds(basic.build, doctest=False, jobs=2)
        pages = sum(1 for _ in out.rglob("*.html"))
        print(
            f"site: one project per language ({len(site.languages)}),"
            f" {len(args.games)} game(s), {pages} HTML pages"
        )
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
            f"no change at all, every language built:    {results['no change at all']:5.2f} s  (target <= 1 s)"
        )
        print(
            f"one rule edited, every language built:     {results['incremental: one rule edited']:5.2f} s  (target <= 2 s)"
        )
        print(
            f"the same from the command line:             {results['command line: one rule edited']:5.2f} s"
            f"  (no change: {results['command line: no change']:.2f} s)"
        )
        print(
            f"two processes / one process:               {results['cold build, 2 process(es)'] / results['cold build, 1 process(es)']:5.2f}"
        )
        print(
            f"rulepress / basic theme:                   {results['cold build, 2 process(es)'] / results['theme basic, cold, 2 processes']:5.2f}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
