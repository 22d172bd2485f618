"""The impact report as a page tree: headline shares, differences, causes, smallest tables.

Reads only the report's data (:mod:`rulepress.impact.report`) and the spec
in the reader's language (step, ruling and option titles); every label is
an interface sentence of rulepress's catalog, and every number is written
as the reader's locale writes it (Babel). The terminal writer lays the
tree out; the site shows parts of the same tree beside a ruling.
"""

from __future__ import annotations

from collections.abc import Callable

from babel import Locale
from babel.numbers import format_decimal, parse_pattern

from rulepress.i18n.typography import quote
from rulepress.impact.report import ImpactReport, Side
from rulepress.model import Spec
from rulepress.model.spec_model import all_steps
from rulepress.render import tree
from rulepress.render.context import listed, option_title
from rulepress.render.markup import Links, inline
from rulepress.render.pages import breakdown_names
from rulepress.render.patterns import BOTH, PAIR, Joined, fill_text, side_by_side
from rulepress.uitext import PluralText, english_form, ui, ui_plural

LABELS = {
    "heading": ui("impact", "{game}: how much the rule change matters"),
    "before": ui("impact", "Before: {rules}"),
    "after": ui("impact", "After: {rules}"),
    "defaults": ui("impact", "the spec's defaults"),
    "edition": ui("impact", "the edition {edition}"),
    "refused": ui("impact", "Tables a rule set refuses (left out): {count}"),
    "bad": ui("impact", "Records that could not be read (left out): {count}"),
    "winner": ui("impact.kind", "The winner changes"),
    "place": ui("impact.kind", "A place changes"),
    "score": ui("impact.kind", "A score changes"),
    "diffs": ui(
        "impact",
        "{count} of {players} player totals change (after minus before): from {low} to"
        " {high}, half of them between {lower} and {upper}, median {median}",
    ),
    "no_diffs": ui("impact", "No player's total changes."),
    "steps": ui("impact.heading", "Steps that differ"),
    "lines": ui("impact.heading", "Parts of score lines that differ"),
    "causes": ui("impact.heading", "What accounts for the changes"),
    "cause_edition": ui("impact", "The new edition"),
    "cause_ruling": ui("impact", "{ruling}: {before} → {after}"),
    "smallest": ui("impact.heading", "The smallest tables that show each change"),
    "found": ui("impact", "{kind}: {origin}, shrunk (players: {players})"),
    "drawn_table": ui("impact", "table {index} drawn with seed {seed}"),
    "totals": ui("impact", "Totals before: {before}; after: {after}"),
    "winners": ui("impact", "Winners before: {before}; after: {after}"),
    "step_col": ui("impact.column", "Step"),
    "title_col": ui("impact.column", "Title"),
    "line_col": ui("impact.column", "Part"),
    "cause_col": ui("impact.column", "Cause"),
    "winner_col": ui("impact.column", "Winner"),
    "place_col": ui("impact.column", "Places"),
    "score_col": ui("impact.column", "Scores"),
    "pair": PAIR,
}
#: sentences worded by the number of tables (``tables``)
COUNTED = {
    "drawn": ui_plural(
        "impact",
        "{tables} table drawn (seed {seed}), sequence {sequence}",
        "{tables} tables drawn (seed {seed}), sequence {sequence}",
        "tables",
    ),
    "recorded": ui_plural(
        "impact",
        "{tables} recorded table from {corpus}, sequence {sequence}",
        "{tables} recorded tables from {corpus}, sequence {sequence}",
        "tables",
    ),
    "share": ui_plural(
        "impact",
        "{count} of {tables} table ({share})",
        "{count} of {tables} tables ({share})",
        "tables",
    ),
}

KIND_COLUMNS = ("winner_col", "place_col", "score_col")


#: the points of a distribution the text names: its ends, quartiles and median
QUARTILES = (("low", 0.0), ("lower", 0.25), ("median", 0.5), ("upper", 0.75), ("high", 1.0))


def quantile(histogram: list[tuple[int, int]], at: float) -> int:
    """The value at ``at`` (0 to 1) of a sorted histogram of [value, count] (nearest rank)."""
    total = sum(n for _, n in histogram)
    rank = max(1, round(at * total))  # the nearest rank, from 1
    seen = 0
    for value, n in histogram:
        seen += n
        if seen >= rank:
            return value
    return histogram[-1][0]


class _Words(Joined):
    def __init__(
        self,
        translate: Callable[[str], str],
        translate_plural: Callable[[PluralText, int], str],
        spec: Spec,
        lang: str,
        links: Links,
        sequence: str,
    ) -> None:
        super().__init__(translate)
        self.translate_plural = translate_plural
        self.spec, self.lang = spec, lang
        seq = next(s for s in spec.sequences if s.id == sequence)
        names = breakdown_names(
            seq,
            lambda label: tree.plain_text(inline(label, links)),
            lambda text, **args: fill_text(translate(text), **args),
        )
        self.titles = step_titles(spec, sequence)
        # step number → what each part of its score line is called
        self.parts = {
            step.number: names.get(step.score.id, {}) for step in all_steps(seq.steps) if step.score
        }

    def part(self, step: str, part: str) -> str:
        return self.parts.get(step, {}).get(part, part)

    def __getitem__(self, key: str) -> str:
        return self.translate(LABELS[key])

    def counted(self, key: str, tables: int) -> str:
        """A sentence of :data:`COUNTED` in the form for ``tables`` tables."""
        return self.translate_plural(COUNTED[key], tables)

    def number(self, value: int) -> str:
        return str(format_decimal(value, locale=self.lang))

    def signed(self, value: int) -> str:
        # the sign is always shown: a difference of +2 is not a score of 2
        return str(format_decimal(value, format="+#,##0;-#,##0", locale=self.lang))

    def percent(self, part: int, whole: int) -> str:
        """A share as the locale writes a percentage ("3.2%", "3,2 %"), to one decimal."""
        pattern = parse_pattern(Locale.parse(self.lang).percent_formats[None].pattern)
        pattern.frac_prec = (1, 1)  # a share of a few tables in a thousand is not 0 %
        return str(pattern.apply(part / whole if whole else 0.0, Locale.parse(self.lang)))

    def step_title(self, number: str) -> str:
        """The title of step ``number`` of the report's sequence (numbers repeat across sequences)."""
        return self.titles.get(number, number)

    def ruling_title(self, ruling_id: str) -> str:
        for ruling in self.spec.rulings:
            if ruling.id == ruling_id:
                return str(ruling.title)
        return ruling_id

    def side(self, side: Side) -> str:
        parts = []
        if side.edition is not None:
            parts.append(fill_text(self["edition"], edition=side.edition))
        parts += [
            self.pair(quote(self.ruling_title(r), self.lang), option_title(self.spec, o))
            for r, o in side.options.items()
        ]
        return self.facts(parts) if parts else self["defaults"]

    def facts(self, items: list[str]) -> str:
        """Separate facts side by side: the language's pattern for "a; b"."""
        return "".join(side_by_side(self.translate(BOTH), [[i] for i in items], str))

    def join(self, items: list[str]) -> str:
        """Like things as the language lists them ("a, b a c"; "a、b、c")."""
        return listed(items, self.lang)


def step_titles(spec: Spec, sequence: str) -> dict[str, str]:
    """Step number → title, for the steps of ``sequence`` (a step without one is its number).

    Step numbers are a sequence's own: "3" is a step of several sequences.
    """
    seq = next(s for s in spec.sequences if s.id == sequence)
    return {step.number: str(step.title) for step in all_steps(seq.steps)}


def _line(text: str) -> tree.Paragraph:
    return tree.Paragraph(children=tree.text(text))


def headline(report: ImpactReport, words: _Words) -> list[tree.Block]:
    """The shares of tables whose winner, places and scores change: the report's first lines."""
    rows = []
    for kind in ("winner", "place", "score"):
        count = report.changed.get(kind, 0)
        share = fill_text(
            words.counted("share", report.tables),
            count=words.number(count),
            tables=words.number(report.tables),
            share=words.percent(count, report.tables),
        )
        rows.append([_line(words.pair(words[kind], share))])
    return [tree.BulletList(items=rows)]


def impact_tree(
    report: ImpactReport,
    spec: Spec,
    lang: str,
    links: Links,
    translate: Callable[[str], str] = lambda t: t,
    translate_plural: Callable[[PluralText, int], str] = english_form,
) -> tree.Page:
    """The whole report as one section.

    ``spec`` is in the reader's language, ``links`` what its markup shows
    (:func:`rulepress.render.pages.links_of`), ``translate`` translates rulepress's
    own sentences.
    """
    words = _Words(translate, translate_plural, spec, lang, links, report.population.sequence)
    seq = next((s for s in spec.sequences if s.id == report.population.sequence), None)
    sequence = quote(str(seq.title) if seq else report.population.sequence, lang)
    if report.population.kind == "drawn":
        drawn = report.tables + report.refused
        population = fill_text(
            words.counted("drawn", drawn),
            tables=words.number(drawn),
            seed=str(report.population.seed),
            sequence=sequence,
        )
    else:
        recorded = report.tables + report.refused + report.bad_records
        population = fill_text(
            words.counted("recorded", recorded),
            tables=words.number(recorded),
            corpus=str(report.population.corpus),
            sequence=sequence,
        )
    parts: list[tree.Block] = [
        _line(fill_text(words["before"], rules=words.side(report.before))),
        _line(fill_text(words["after"], rules=words.side(report.after))),
        _line(population),
    ]
    if report.refused:
        parts.append(_line(fill_text(words["refused"], count=words.number(report.refused))))
        parts.append(tree.CodeBlock(text="\n".join(report.refusals), language="text"))
    if report.bad_records:
        parts.append(_line(fill_text(words["bad"], count=words.number(report.bad_records))))
        parts.append(tree.CodeBlock(text="\n".join(report.bad), language="text"))
    parts += headline(report, words)
    if report.total_diffs:
        counted = sum(n for _, n in report.total_diffs)
        q = {name: words.signed(quantile(report.total_diffs, at)) for name, at in QUARTILES}
        parts.append(
            _line(
                fill_text(
                    words["diffs"],
                    count=words.number(counted),
                    players=words.number(report.players),
                    **q,
                )
            )
        )
    else:
        parts.append(_line(words["no_diffs"]))
    kinds_header = [tree.text(words[c]) for c in KIND_COLUMNS]
    if report.steps:
        rows = [
            [tree.text(s.step), tree.text(words.step_title(s.step))]
            + [tree.text(words.number(s.changed.get(k, 0))) for k in ("winner", "place", "score")]
            for s in report.steps
        ]
        table = tree.Table(
            header=[tree.text(words["step_col"]), tree.text(words["title_col"]), *kinds_header],
            rows=rows,
            columns=["number", "text", "amount", "amount", "amount"],
        )
        parts.append(tree.Section(label="steps", title=tree.text(words["steps"]), children=[table]))
    if report.lines:
        rows = [
            [
                tree.text(line.step),
                tree.text(words.step_title(line.step)),
                tree.text(words.part(line.step, line.part)),
            ]
            + [
                tree.text(words.number(line.changed.get(k, 0)))
                for k in ("winner", "place", "score")
            ]
            for line in report.lines
        ]
        table = tree.Table(
            header=[
                tree.text(words["step_col"]),
                tree.text(words["title_col"]),
                tree.text(words["line_col"]),
                *kinds_header,
            ],
            rows=rows,
            columns=["number", "text", "text", "amount", "amount", "amount"],
        )
        parts.append(tree.Section(label="lines", title=tree.text(words["lines"]), children=[table]))
    if report.causes:
        rows = []
        for c in report.causes:
            if c.cause == "edition":
                name = words["cause_edition"]
            else:
                name = fill_text(
                    words["cause_ruling"],
                    ruling=quote(words.ruling_title(c.cause), lang),
                    before=option_title(spec, c.before or ""),
                    after=option_title(spec, c.after or ""),
                )
            rows.append(
                [tree.text(name)]
                + [
                    tree.text(words.number(c.changed.get(k, 0)))
                    for k in ("winner", "place", "score")
                ]
            )
        table = tree.Table(
            header=[tree.text(words["cause_col"]), *kinds_header],
            rows=rows,
            columns=["text", "amount", "amount", "amount"],
        )
        parts.append(
            tree.Section(label="causes", title=tree.text(words["causes"]), children=[table])
        )
    if report.smallest:
        found: list[tree.Block] = []
        for s in report.smallest:
            players = len(s.totals_after)
            found.append(
                _line(
                    fill_text(
                        words["found"],
                        kind=words[s.kind],
                        origin=_origin(report, s.index, s.origin, words),
                        players=words.number(players),
                    )
                )
            )
            found.append(
                _line(
                    fill_text(
                        words["totals"],
                        before=_totals(s.totals_before, words),
                        after=_totals(s.totals_after, words),
                    )
                )
            )
            if s.winners_before is not None or s.winners_after is not None:
                found.append(
                    _line(
                        fill_text(
                            words["winners"],
                            before=words.join(s.winners_before or []),
                            after=words.join(s.winners_after or []),
                        )
                    )
                )
            found.append(tree.CodeBlock(text=s.example, language="yaml"))
        parts.append(
            tree.Section(label="smallest", title=tree.text(words["smallest"]), children=found)
        )
    heading = fill_text(words["heading"], game=spec.game.title)
    return tree.Page(
        blocks=[tree.Section(label="impact-report", title=tree.text(heading), children=parts)]
    )


def _origin(report: ImpactReport, index: int, origin: str, words: _Words) -> str:
    """Where a table came from: its place in the draw, or its record (``file:line``)."""
    if report.population.kind == "drawn":
        return fill_text(
            words["drawn_table"], index=words.number(index), seed=str(report.population.seed)
        )
    return origin


def _totals(totals: dict[str, int], words: _Words) -> str:
    return words.join([words.pair(pid, words.number(t)) for pid, t in totals.items()])
