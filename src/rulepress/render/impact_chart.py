"""The impact report as a chart: how far each step moves the players' points (SVG).

One row per step whose points differ between the two rule sets (and a first
row for the players' totals): a bar for each nonzero difference (after minus
before), as tall as the number of player results that moved by it. The rows
share the difference axis, so a reader sees at a glance which step moves
points and by how much.

The chart is drawn by matplotlib's SVG backend, imported only here and only
when a chart is asked for (it is in the ``site`` extra). Every label goes to
matplotlib as text, never as markup: math parsing is off, so a ``$`` in a
step title stays a dollar, and the SVG writer escapes ``<``, ``&`` and
quotes. Text stays text in the SVG (``svg.fonttype: none``), so the
reader's browser sets it in a font that has the language's glyphs, and the
file is the same for the same report: a fixed hash salt for the ids, no date
and no version in its metadata.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from babel.numbers import format_decimal

from rulepress.errors import UsageError
from rulepress.impact.report import ImpactReport
from rulepress.model import Spec
from rulepress.render.impact_tree import step_titles
from rulepress.render.patterns import fill_text
from rulepress.uitext import ui

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.typing import RcKeyType

LABELS = {
    "title": ui("impact.chart", "How far each step moves a player's points"),
    "x": ui("impact.chart", "Difference of a player's points (after minus before)"),
    "y": ui("impact.chart", "Player results"),
    "total": ui("impact.chart", "Total"),
    "step": ui("impact.chart", "{number} {title}"),
    "none": ui("impact.chart", "No step changes a player's points."),
}

#: the settings every chart is drawn with: text kept as text, ids and output reproducible
STYLE: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "rulepress",
    "text.parse_math": False,
    "text.usetex": False,
    "font.family": ["sans-serif"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
#: no date, no creator (matplotlib's version): the same report gives the same bytes
METADATA: dict[str, Any] = {"Date": None, "Creator": None}
#: inches: the chart's width, and the height of one row
WIDTH, ROW = 6.4, 1.15
BAR = "#3b6ea8"
#: what to install for a chart, named when matplotlib is missing
EXTRA = "rulepress[site]"


def impact_chart(
    report: ImpactReport, spec: Spec, lang: str, translate: Callable[[str], str] = lambda t: t
) -> bytes:
    """The report's differences per step as an SVG document; ``spec`` in the reader's language."""
    # imported here: only a chart needs matplotlib, and it takes a while to import
    try:
        import matplotlib  # noqa: PLC0415
        from matplotlib.figure import Figure  # noqa: PLC0415
        from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: PLC0415
    except ImportError:
        raise UsageError(
            f"a chart needs matplotlib, not installed here: pip install '{EXTRA}'"
        ) from None

    rows: list[tuple[str, list[tuple[int, int]]]] = []
    if report.total_diffs:
        rows.append((translate(LABELS["total"]), list(report.total_diffs)))
    titles = step_titles(spec, report.population.sequence)
    for step in report.steps:
        if step.diffs:
            title = fill_text(
                translate(LABELS["step"]),
                number=step.step,
                title=titles.get(step.step, step.step),
            )
            rows.append((title, list(step.diffs)))

    def number(value: float, _: object = None) -> str:
        return str(format_decimal(int(value), locale=lang))

    def signed(value: float, _: object = None) -> str:
        # a difference shows its sign: +2 is not a score of 2 (and 0 has none)
        if not int(value):
            return number(0)
        return str(format_decimal(int(value), format="+#,##0;-#,##0", locale=lang))

    with matplotlib.rc_context(STYLE), warnings.catch_warnings():
        # matplotlib measures text with its own font, which has no Japanese glyphs; the
        # browser sets the text (fonttype none), so a missing glyph here is no problem
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        warnings.filterwarnings("ignore", message="Matplotlib currently does not support")
        fig = Figure(figsize=(WIDTH, 1.0 + ROW * max(1, len(rows))), layout="constrained")
        fig.suptitle(translate(LABELS["title"]), parse_math=False)
        if not rows:
            fig.text(0.5, 0.5, translate(LABELS["none"]), ha="center", parse_math=False)
        else:
            axes = fig.subplots(len(rows), 1, sharex=True, squeeze=False)[:, 0]
            for ax, (title, diffs) in zip(axes, rows, strict=True):
                _row(ax, title, diffs)
                ax.yaxis.set_major_locator(MaxNLocator(nbins=3, integer=True))
                ax.yaxis.set_major_formatter(FuncFormatter(number))
            last: Axes = axes[-1]
            last.xaxis.set_major_locator(MaxNLocator(integer=True))
            last.xaxis.set_major_formatter(FuncFormatter(signed))
            last.set_xlabel(translate(LABELS["x"]), parse_math=False)
            fig.supylabel(translate(LABELS["y"]), parse_math=False)
        out = io.BytesIO()
        fig.savefig(out, format="svg", metadata=METADATA)
    return out.getvalue()


def _row(ax: Axes, title: str, diffs: list[tuple[int, int]]) -> None:
    """One step's bars: a bar per difference, as tall as the player results it counts."""
    ax.bar([d for d, _ in diffs], [n for _, n in diffs], width=0.8, color=BAR)
    ax.set_title(title, loc="left", fontsize="medium", parse_math=False)
    ax.axvline(0, color="#888888", linewidth=0.6)
