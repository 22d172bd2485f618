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

from rulepress.i18n.typography import quote
from rulepress.impact.report import ImpactReport
from rulepress.model import Spec
from rulepress.render.context import offering, option_title
from rulepress.render.impact_chart import impact_chart
from rulepress.render.patterns import fill_text
from rulepress.render.tree import Block, Chart, Paragraph, text
from rulepress.uitext import PluralText, english_form, ui, ui_plural

#: the share of tables whose winner changes, worded by the number of tables
SHARES = {
    "option": ui_plural(
        "page.rulings",
        "Changes the winner at {share} of {tables} drawn table (seed {seed}).",
        "Changes the winner at {share} of {tables} drawn tables (seed {seed}).",
        "tables",
    ),
    "edition": ui_plural(
        "page.changes",
        "This edition changes the winner at {share} of {tables} drawn table (seed {seed}).",
        "This edition changes the winner at {share} of {tables} drawn tables (seed {seed}).",
        "tables",
    ),
}
T = {
    # the alternative text names what is weighed: a page shows a chart under each option
    "alt": ui(
        "page.rulings",
        "A chart of how far each step moves a player's points under the ruling {ruling}"
        " read as {option}, and for how many players.",
    ),
    "edition_alt": ui(
        "page.changes",
        "A chart of how far each step moves a player's points in this edition,"
        " and for how many players.",
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
    option: str | None = None,
    translate_plural: Callable[[PluralText, int], str] = english_form,
) -> list[Block]:
    """The line "changes the winner at …" and the chart; ``spec`` in the reader's language.

    Of the ruling ``option`` (an id) against the defaults, or, without one, of this
    edition against the previous one.
    """
    sentence = SHARES["option" if option is not None else "edition"]
    line = fill_text(
        translate_plural(sentence, report.tables),
        share=percent(report.share("winner"), lang),
        tables=str(format_decimal(report.tables, locale=lang)),
        seed=str(report.population.seed),
    )
    out: list[Block] = [Paragraph(children=text(line), classes=["rp-weight"])]
    if report.total_diffs or any(step.diffs for step in report.steps):
        svg = impact_chart(report, spec, lang, translate)
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
        if option is None:
            alt = translate(T["edition_alt"])
        else:
            ruling = offering(spec, option)
            alt = fill_text(
                translate(T["alt"]),
                ruling=quote(str(ruling.title) if ruling else option, lang),
                option=quote(option_title(spec, option), lang),
            )
        out.append(Chart(src=uri, alt=alt))
    return out
