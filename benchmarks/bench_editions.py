"""Benchmark: what editions on by default add to ``rulepress build``, per game.

Each shipped game records its previous edition (``game.previous_edition``); every
build then compares the game with it and makes one more page per language and an
errata sheet per language. This times, per game, with the recorded edition:

- the comparison (:func:`rulepress.edition_reports.previous_edition`: reading the
  revision with ``git archive``, loading it, rescoring its worked examples under
  today's spec, its catalogs), once per ``rulepress build`` (the print and the site
  build share it);
- the page tree "Changes in this edition" in each language;
- the errata sheet's layout and PDF in each language (WeasyPrint), the print build's
  part.

The Sphinx pages themselves are one page among a game's ten or so per language.

    .venv/bin/python benchmarks/bench_editions.py [--games stationfall ...] [--langs en ...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rulepress import edition_reports
from rulepress.editions.previous import previous_edition_of
from rulepress.games import find_game_dirs, load_spec
from rulepress.i18n.runtime import game_translator, localize
from rulepress.print import styles
from rulepress.print.build import PrintBuild
from rulepress.print.formats import parse_format
from rulepress.print.profiles import DEFAULT_PROFILE, read_profile
from rulepress.render.changes import changes_page
from rulepress.render.context import RenderContext
from rulepress.render.errata_print import errata_sheet
from timing import once  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


def _sheet(job: PrintBuild, path: Path, html: str) -> float:
    """The wall time of laying out and writing one errata sheet, as the print build does."""
    profile = read_profile(DEFAULT_PROFILE)
    css = styles.errata_css(parse_format("a4"), profile.path)
    return once(lambda: job._player_pdf(path, html, css, profile))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--langs", nargs="*", default=None, help="languages (default: the game's)")
    parser.add_argument("--games", nargs="*", default=None, help="games (default: every game)")
    args = parser.parse_args()
    locales = ROOT / "locales"
    total = 0.0
    cpu = time.process_time()
    games = find_game_dirs(ROOT / "rules_spec")
    unknown = set(args.games or ()) - {d.name for d in games}
    if unknown:
        parser.error(f"no such game: {', '.join(sorted(unknown))}")
    for directory in games:
        if args.games and directory.name not in args.games:
            continue
        since = previous_edition_of(directory, None, print)
        if since is None:
            print(f"{directory.name}: no previous edition to compare with")
            continue
        loaded = load_spec(directory)
        langs = tuple(args.langs or loaded.spec.game.languages)
        edition_reports._MADE.clear()  # timed as a build's first comparison
        start = time.perf_counter()
        previous = edition_reports.previous_edition(directory, loaded, since.given, locales, langs)
        compare = time.perf_counter() - start
        pages = sheets = 0.0
        for lang in langs:
            ctx = RenderContext.of(localize(loaded, lang, locales), lang)
            new_text = game_translator(locales, lang, loaded.spec.game.id)
            start = time.perf_counter()
            page = changes_page(
                ctx, previous.diff, previous.spec, previous.old_text[lang], new_text
            )
            pages += time.perf_counter() - start
            html = errata_sheet(ctx, page, "2026-12-05T00:00:00Z")
            with tempfile.TemporaryDirectory() as out:
                job = PrintBuild(ROOT, ROOT / "rules_spec", locales, Path(out) / "print")
                sheets += _sheet(job, Path(out) / "print" / f"errata-{lang}.pdf", html)
        game_total = compare + pages + sheets
        total += game_total
        print(
            f"{directory.name} against {since.given[:12]}: compare {compare:.2f} s,"
            f" pages {pages:.2f} s, errata sheets {sheets:.2f} s"
            f" ({len(langs)} languages): {game_total:.2f} s"
        )
    print(f"added to one build: {total:.2f} s (wall time; the Sphinx pages aside)")
    # on a shared machine the wall time says more about the others: the CPU time does not
    print(f"CPU time of all of it: {time.process_time() - cpu:.2f} s")


if __name__ == "__main__":
    main()
