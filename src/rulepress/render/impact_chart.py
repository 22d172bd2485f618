"""The impact report as a chart: how far each step moves the players' points (SVG).

One row per step whose points differ between the two rule sets (and a first
row for the players' totals): a bar for each nonzero difference (after minus
before), as tall as the number of player results that moved by it. The rows
share the difference axis, so a reader sees at a glance which step moves
points and by how much. When the differences spread over more values than
bars fit side by side (Stationfall's totals move by hundreds), each bar
counts the player results of an equal range of differences instead: a bar
one point wide would be thinner than a pixel.

It is drawn small enough, and its text large enough, to stay legible when a
phone's screen shrinks it to the width of the text column (about 320 px).

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
from rulepress.i18n.typography import typeset
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
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
#: no date, no creator (matplotlib's version): the same report gives the same bytes
METADATA: dict[str, Any] = {"Date": None, "Creator": None}
#: inches: the chart's width, and the height of one row. A phone shows the chart
#: about 320 px wide: at 4.4 in (422 px) its smallest text (10 pt) still reads at 10 px
WIDTH, ROW = 4.4, 1.0
#: the most bars a row holds side by side; a wider spread of differences is grouped
MAX_BARS = 60
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

    def label(key: str) -> str:
        return typeset(translate(LABELS[key]), lang)

    rows: list[tuple[str, list[tuple[int, int]]]] = []
    if report.total_diffs:
        rows.append((label("total"), list(report.total_diffs)))
    titles = step_titles(spec, report.population.sequence)
    for step in report.steps:
        if step.diffs:
            title = fill_text(
                translate(LABELS["step"]),
                number=step.step,
                title=titles.get(step.step, step.step),
            )
            rows.append((typeset(title, lang), list(step.diffs)))

    # the chart is a writer of its own: it sets its numbers as the language does (a Czech
    # or Japanese minus is U+2212, where Babel gives a hyphen), as the site and print do
    def number(value: float, _: object = None) -> str:
        return typeset(str(format_decimal(int(value), locale=lang)), lang)

    def signed(value: float, _: object = None) -> str:
        # a difference shows its sign: +2 is not a score of 2 (and 0 has none)
        if not int(value):
            return number(0)
        return typeset(str(format_decimal(int(value), format="+#,##0;-#,##0", locale=lang)), lang)

    with matplotlib.rc_context(STYLE), warnings.catch_warnings():
        # matplotlib measures text with its own font, which has no Japanese glyphs; the
        # browser sets the text (fonttype none), so a missing glyph here is no problem
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        warnings.filterwarnings("ignore", message="Matplotlib currently does not support")
        edges = _bins([d for _, diffs in rows for d, _ in diffs])
        fig = Figure(figsize=(WIDTH, 1.0 + ROW * max(1, len(rows))), layout="constrained")
        fig.suptitle(label("title"), parse_math=False)
        if not rows:
            fig.text(0.5, 0.5, label("none"), ha="center", parse_math=False)
        else:
            axes = fig.subplots(len(rows), 1, sharex=True, squeeze=False)[:, 0]
            for ax, (title, diffs) in zip(axes, rows, strict=True):
                _row(ax, title, diffs, edges)
                ax.yaxis.set_major_locator(MaxNLocator(nbins=3, integer=True))
                ax.yaxis.set_major_formatter(FuncFormatter(number))
            last: Axes = axes[-1]
            # few enough ticks that signed numbers of four digits never touch at this width
            last.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
            last.xaxis.set_major_formatter(FuncFormatter(signed))
            last.set_xlabel(label("x"), parse_math=False)
            fig.supylabel(label("y"), parse_math=False)
        out = io.BytesIO()
        fig.savefig(out, format="svg", metadata=METADATA)
    return out.getvalue()


def _bins(values: list[int]) -> list[float] | None:
    """The edges of the ranges the bars count, shared by every row; None: a bar per value."""
    if not values:
        return None
    low, high = min(values), max(values)
    if high - low < MAX_BARS:
        return None
    step = (high - low + 1) / MAX_BARS
    return [low - 0.5 + i * step for i in range(MAX_BARS + 1)]


def _row(ax: Axes, title: str, diffs: list[tuple[int, int]], edges: list[float] | None) -> None:
    """One step's bars: as tall as the player results each difference (or range) counts."""
    if edges is None:
        ax.bar([d for d, _ in diffs], [n for _, n in diffs], width=0.8, color=BAR)
    else:
        ax.hist(
            [d for d, _ in diffs], bins=edges, weights=[n for _, n in diffs], rwidth=0.8, color=BAR
        )
    ax.set_title(title, loc="left", fontsize="medium", parse_math=False)
    ax.axvline(0, color="#888888", linewidth=0.6)
