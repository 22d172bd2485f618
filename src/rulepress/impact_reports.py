"""What ``rulepress impact`` prints and writes: a question run, its report in text, JSON, a folder.

The CLI parses the arguments; this module names the two rule sets, runs the
question (every core by default, or a Dask scheduler), builds the report
and renders it in the reader's language. With ``--out`` the report folder
(``report.json``, ``report.txt``, ``chart.svg``) is built aside and swapped in whole, as
every rulepress output is (:mod:`rulepress.output`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulepress import output
from rulepress.errors import UsageError
from rulepress.i18n.runtime import localize
from rulepress.impact.question import MAX_TABLES, Question, run
from rulepress.impact.report import ImpactReport, build_report
from rulepress.impact.rulesets import RuleSet, load_rule_set_spec
from rulepress.render import text_writer
from rulepress.render.context import RenderContext
from rulepress.render.impact_chart import impact_chart
from rulepress.render.impact_tree import impact_tree
from rulepress.render.pages import links_of


@dataclass(frozen=True)
class Asked:
    """What the command was asked, as given."""

    game_dir: Path
    variants: tuple[str, ...] = ()
    since: str | None = None
    sequence: str | None = None
    tables: int = 10_000
    seed: int = 1
    corpus: Path | None = None
    workers: int | None = None
    scheduler: str | None = None


def question_of(asked: Asked) -> Question:
    """The question asked: two rule sets and a population.

    A is the edition ``since`` (or the spec as it is) with its defaults, B
    the spec as it is with ``variants``.
    """
    if not asked.variants and asked.since is None:
        raise UsageError("nothing to compare: give --variant (a ruling option), --since, or both")
    if asked.corpus is None and not 1 <= asked.tables <= MAX_TABLES:
        raise UsageError(f"--tables must be between 1 and {MAX_TABLES:,}")
    if asked.corpus is not None and not asked.corpus.exists():
        raise UsageError(f"no corpus at {asked.corpus}")
    if asked.workers is not None and asked.workers < 1:
        raise UsageError("--workers must be at least 1")
    game_dir = str(asked.game_dir.resolve())
    return Question(
        before=RuleSet(game_dir, asked.since, ()),
        after=RuleSet(game_dir, None, asked.variants),
        sequence=asked.sequence,
        seed=asked.seed,
        tables=asked.tables if asked.corpus is None else 0,
        corpus=str(asked.corpus.resolve()) if asked.corpus is not None else None,
    )


def impact_report(asked: Asked) -> ImpactReport:
    """Run the question over its whole population and build its report."""
    question = question_of(asked)
    tally = run(question, workers=asked.workers, scheduler=asked.scheduler)
    return build_report(question, tally)


def report_text(report: ImpactReport, game_dir: Path, lang: str, locales: Path) -> str:
    """The report in ``lang`` (one of the game's languages), laid out for the terminal."""
    loaded = load_rule_set_spec(str(game_dir.resolve()), None)
    local = localize(loaded, lang, locales)
    links = links_of(RenderContext.of(local, lang), linked=False)
    renderer = local.renderer
    page = impact_tree(
        report, local.loaded.spec, lang, links, renderer.translate, renderer.translate_plural
    )
    return text_writer.write(page, lang)


def report_chart(report: ImpactReport, game_dir: Path, lang: str, locales: Path) -> bytes:
    """The report's chart in ``lang``: how far each step moves the players' points (SVG)."""
    loaded = load_rule_set_spec(str(game_dir.resolve()), None)
    local = localize(loaded, lang, locales)
    return impact_chart(report, local.loaded.spec, lang, local.renderer.translate)


def write_folder(
    out: Path, report: ImpactReport, text: str, *, chart: bytes | None = None, force: bool = False
) -> list[Path]:
    """The report folder, built aside and swapped in whole; the paths of its files.

    ``chart``: the report's chart (:func:`report_chart`), written as ``chart.svg``.
    """
    files = {"report.json": report.to_json().encode(), "report.txt": text.encode()}
    if chart is not None:
        files["chart.svg"] = chart
    with output.replacing(out, "impact", force=force) as staged:
        for name, data in files.items():
            staged.write(name, data)
    return [out / name for name in files]
