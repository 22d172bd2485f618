"""The weight of a ruling option or an edition on the site: one line and a chart.

From an impact report (:mod:`rulepress.render.impact_cache` makes them at
build time), the blocks the Rulings page shows under an option, and the
changes page under its first line: the share of drawn tables whose winner
changes, with the sample's size and seed, in the reader's language and
numbers; then the chart of how far each step moves the players' points
(:mod:`rulepress.render.impact_chart`), when anything moves at all.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

from babel import Locale
from babel.numbers import format_decimal, format_percent

from rulepress.impact.report import ImpactReport
from rulepress.model import Spec
from rulepress.render.impact_chart import impact_chart
from rulepress.render.patterns import fill_text
from rulepress.render.tree import Block, Chart, Paragraph, text
from rulepress.uitext import ui

T = {
    "option": ui(
        "page.rulings", "Changes the winner at {share} of {tables} drawn tables (seed {seed})."
    ),
    "edition": ui(
        "page.changes",
        "This edition changes the winner at {share} of {tables} drawn tables (seed {seed}).",
    ),
    "alt": ui(
        "page.rulings",
        "A chart of how far each step moves a player's points, and for how many players.",
    ),
}


def percent(share: float, lang: str) -> str:
    """A share as the locale writes a percentage, with one decimal ("3.2%", "3,2 %")."""
    pattern = Locale.parse(lang).percent_formats[None].pattern
    # the locale's own pattern (its sign, its space before it), with one decimal
    one_decimal = pattern.replace("#,##0", "#,##0.0", 1)
    return str(format_percent(share, format=one_decimal, locale=lang))


def weight_blocks(
    report: ImpactReport,
    spec: Spec,
    lang: str,
    translate: Callable[[str], str],
    sentence: str = T["option"],
) -> list[Block]:
    """The line "changes the winner at …" and the chart; ``spec`` in the reader's language."""
    line = fill_text(
        translate(sentence),
        share=percent(report.share("winner"), lang),
        tables=str(format_decimal(report.tables, locale=lang)),
        seed=str(report.population.seed),
    )
    out: list[Block] = [Paragraph(children=text(line), classes=["rp-weight"])]
    if report.total_diffs or any(step.diffs for step in report.steps):
        svg = impact_chart(report, spec, lang, translate)
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
        out.append(Chart(src=uri, alt=translate(T["alt"])))
    return out
