"""The page "Changes in this edition", from the diff of the previous edition and this one.

:func:`changes_page` walks a :class:`~rulepress.editions.model.Diff` into
page-tree nodes: the changelog lines, each changed rule with its old and its
new text side by side (a table of three columns: what changed, before, now),
parameters and table cells, steps and tie-breaks in another order, rulings,
worked examples that state other results, and the consequences (the old
worked examples scored under the new spec). The site shows the page; the
errata sheet (:func:`rulepress.render.errata_print.errata_sheet`) prints the
same tree.

Texts are read in the reader's language from the catalogs *of each
edition*: the old wording from the catalog as it stood at the old edition,
the new from today's (``old_text``, ``new_text``: context and English to the
translation, English where there is none). A text's own markup is parsed
into nodes (:func:`rulepress.render.markup.inline`), never kept as markup;
a changed rule, ruling or worked example that this edition still has links
to its permalink (``rule-16-4``), the same label in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from babel.lists import format_list

from rulepress.editions.model import Diff, Edition, TextChange, ValueChange
from rulepress.i18n.typography import quote
from rulepress.model.spec_model import Spec, all_rules
from rulepress.render.context import RenderContext
from rulepress.render.diff_text import DiffWords, readable, where
from rulepress.render.markup import Links, inline, rule_label, ruling_label
from rulepress.render.pages import links_of
from rulepress.render.patterns import BOTH, DETAIL, PAIR, RULES, fill, fill_text
from rulepress.render.sources import T as SOURCE_TITLES
from rulepress.render.tree import (
    Block,
    BulletList,
    Inline,
    Page,
    Paragraph,
    Ref,
    Section,
    Table,
)
from rulepress.render.tree import Text as TextNode
from rulepress.uitext import ui

#: the page's name among a game's pages (``changes.html``)
PAGE = "changes"
MISSING_TITLE = SOURCE_TITLES["missing"]

T = {
    "title": ui("page.title", "Changes in this edition"),
    # the two editions compared: "from version 1 (1 December 2026) to version 2"
    "since": ui("page.changes", "What changed from version {old} to version {new}."),
    # the spec changed but still calls itself by the old edition's version
    "since_same": ui("page.changes", "What changed since version {old}."),
    "what": ui("page.changes", "What changed"),
    "before": ui("page.changes", "Before"),
    "now": ui("page.changes", "Now"),
    "only_changelog": ui(
        "page.changes", "The rules, numbers and worked examples are as in the previous edition."
    ),
}


#: a text's context and English to its translation in one edition's catalog
Translate = Callable[[str, str], str]
#: the same in the old edition's catalog, None where it has no usable translation
OldTranslate = Callable[[str, str], str | None]


def _text(value: str) -> Inline:
    return TextNode(text=value)


def _cells(*values: str) -> list[list[Inline]]:
    return [[_text(v)] for v in values]


class _Changes:
    """The page's pieces in one language, for one diff."""

    def __init__(
        self,
        ctx: RenderContext,
        old_spec: Spec,
        links: Links,
        old_links: Links,
        words: DiffWords,
    ) -> None:
        self.ctx, self.links, self.old_links = ctx, links, old_links
        # headings and cells that lead a row hold no links of their own
        self.plain = replace(links, linked=False)
        self.words = words
        self.rulings = {r.id for r in ctx.spec.rulings}
        self.examples = {e.id for e in ctx.spec.examples}
        self.old_rules = {r.number for r in all_rules(old_spec.rules)}

    def t(self, key: str) -> str:
        return self.ctx.t(T[key])

    def label(self, key: str) -> str:
        return self.words[key]

    def header(self) -> list[list[Inline]]:
        return _cells(self.t("what"), self.t("before"), self.t("now"))

    def rule(self, number: str | None, title: list[Inline]) -> list[Inline]:
        """A rule by number and title: a link to its permalink if this edition has it."""
        if number is None:
            return title
        shown: list[Inline] = [_text(number + " "), *title]
        if number in self.links.rules:
            return [Ref(label=rule_label(number), children=shown, classes=["rp-rule"])]
        return shown

    def rule_numbers(self, numbers: list[str]) -> list[Inline]:
        refs: list[list[Inline]] = [
            [Ref(label=rule_label(n), children=[_text(n)], classes=["rp-rule"])]
            if n in self.links.rules
            else [_text(n)]
            for n in numbers
        ]
        out: list[Inline] = list(refs[0]) if refs else []
        for ref in refs[1:]:
            out = fill(self.ctx.t(RULES), {"first": out, "second": ref}, _text)
        return out

    def wording(self, change: TextChange, prefix_old: str, prefix_new: str) -> list[list[Inline]]:
        """The old and the new wording of one message, each read in its own edition's catalog.

        A template's placeholders show as gaps (:func:`readable`): the scorer fills them.
        """
        w = self.words
        old = (
            inline(
                readable(w.old(prefix_old + change.context, change.old), change.old),
                self.old_links,
            )
            if change.old is not None
            else [_text("—")]
        )
        new = (
            inline(readable(w.new(prefix_new + change.context, change.new), change.new), self.links)
            if change.new is not None
            else [_text("—")]
        )
        return [old, new]

    def edition(self, edition: Edition) -> str:
        day = self.words.date(edition)
        return edition.version if day is None else self.words.detail(edition.version, day)

    def fact_row(self, change: ValueChange) -> list[list[Inline]]:
        """A fact of a worked example: what it is, its old value, its new value."""
        words = self.words
        known = words.known_words(change)
        return _cells(
            words.fact(change), words.value(change.old, known), words.value(change.new, known)
        )

    def where(self, change: TextChange) -> list[Inline]:
        """What a text is: its page and the items it belongs to ("Rulings: …: …")."""
        game = self.words.new("game/title", self.ctx.spec.game.title)
        return [_text(where(self.words, change, game))]

    def detail(self, text: list[Inline], detail: str) -> list[Inline]:
        return fill(self.ctx.t(DETAIL), {"text": text, "detail": [_text(detail)]}, _text)


def _old_links(ctx: RenderContext, old_spec: Spec, words: DiffWords) -> Links:
    """What the old edition's texts refer to, in the reader's language, unlinked.

    A ruling or a term the old edition had and this one dropped is named as the old
    edition's catalog named it (today's catalog no longer has its words, and its
    English is no reader's language).
    """
    old = links_of(ctx._replace(spec=old_spec), linked=False)
    return replace(
        old,
        terms={t.id: words.old(f"glossary/{t.id}/term", t.term) for t in old_spec.glossary},
        rulings={
            r.id: quote(words.old(f"rulings/{r.id}/title", r.title), ctx.lang)
            for r in old_spec.rulings
        },
    )


def changes_page(
    ctx: RenderContext,
    diff: Diff,
    old_spec: Spec,
    old_text: OldTranslate,
    new_text: Translate,
    weight: Sequence[Block] = (),
) -> Page:
    """The page "Changes in this edition" in ``ctx``'s language (``ctx``: this edition's).

    ``weight``: how much the edition changes the game's results (the site's
    line and chart, :mod:`rulepress.render.impact_lines`), under the first line.
    """
    links = links_of(ctx)
    words = DiffWords(ctx.lang, ctx.translate, new_text, old_text)
    c = _Changes(ctx, old_spec, links, _old_links(ctx, old_spec, words), words)
    w = c.words
    # each edition by its own version: one the spec did not bump is not named twice
    same = diff.old.version == diff.new.version
    since = fill(
        c.t("since_same" if same else "since"),
        {"old": [_text(c.edition(diff.old))], "new": [_text(c.edition(diff.new))]},
        _text,
    )
    body: list[Block] = [Paragraph(children=since), *weight]
    sections: list[tuple[str, list[Block]]] = []
    if diff.changelog:
        items: list[list[Block]] = []
        for entry in diff.changelog:
            line: list[Inline] = fill(
                ctx.t(PAIR),
                {
                    "label": [_text(entry.version)],
                    "value": inline(w.new(entry.text.context, entry.text.text), links),
                },
                _text,
            )
            if entry.rules:
                numbers = c.rule_numbers(_numbers(entry.rules, ctx.spec))
                line = fill(ctx.t(DETAIL), {"text": line, "detail": numbers}, _text)
            items.append([Paragraph(children=line)])
        sections.append(("changelog", [BulletList(items=items)]))
    if diff.rules:
        rows: list[list[list[Inline]]] = []
        for rule in diff.rules:
            lookup = w.old if rule.kind == "removed" else w.new
            title = inline(lookup(rule.title.context, rule.title.text), c.plain)
            if rule.kind == "removed":  # no permalink to go to
                head: list[Inline] = [_text(f"{rule.old_number} "), *title]
            else:
                head = c.rule(rule.new_number, title)
            kind = (
                fill_text(w["renumbered"], old=rule.old_number)
                if rule.kind == "renumbered"
                else w[rule.kind]
            )
            first = c.detail(head, kind)
            texts = rule.texts
            if not texts:
                rows.append(
                    [first, [_text(rule.old_number or "—")], [_text(rule.new_number or "—")]]
                )
            old_prefix = f"rules/{rule.old_number}/"
            new_prefix = f"rules/{rule.new_number}/"
            for i, change in enumerate(texts):
                rows.append([first if i == 0 else [], *c.wording(change, old_prefix, new_prefix)])
        sections.append(("rules", [Table(header=c.header(), rows=rows)]))
    if diff.parameters:
        rows = []
        for param in diff.parameters:
            described = w.new(param.description.context, param.description.text)
            what = inline(described, c.plain)
            what = fill(
                ctx.t(DETAIL), {"text": what, "detail": c.rule_numbers([param.rule])}, _text
            )
            rows.append([what, [_text(w.value(param.old))], [_text(w.value(param.new))]])
        sections.append(("parameters", [Table(header=c.header(), rows=rows)]))
    if diff.tables:
        rows = []
        for cell in diff.tables:
            # the table, the rule it belongs to (a link to its permalink) and the keys
            keys: list[Inline] = [_text(w.keys(cell))]
            detail = keys
            if cell.rule is not None:
                detail = fill(
                    ctx.t(BOTH), {"first": c.rule_numbers([cell.rule]), "second": keys}, _text
                )
            table = fill(
                ctx.t(DETAIL), {"text": [_text(w.text(cell.title))], "detail": detail}, _text
            )
            what = fill(
                ctx.t(PAIR), {"label": table, "value": [_text(w.text(cell.value_label))]}, _text
            )
            rows.append([what, [_text(w.value(cell.old))], [_text(w.value(cell.new))]])
        sections.append(("tables", [Table(header=c.header(), rows=rows)]))
    if diff.orders:
        rows = []
        for order in diff.orders:
            key = "steps" if order.kind == "steps" else "criteria"
            label = fill_text(w[key], sequence=w.text(order.title), step=w.text(order.title))
            sides = []
            for side, items_ in (("old", order.old), ("new", order.new)):
                named = w.old_title if side == "old" else w.text
                listed = [
                    f"{i.key} {named(i.title)}" if order.kind == "steps" else named(i.title)
                    for i in items_
                ]
                sides.append(format_list(listed, locale=ctx.lang) if listed else "—")
            rows.append(_cells(label, *sides))
        sections.append(("orders", [Table(header=c.header(), rows=rows)]))
    if diff.rulings:
        rows = []
        for ruling in diff.rulings:
            ruling_title = (
                w.old_title(ruling.title) if ruling.kind == "removed" else w.text(ruling.title)
            )
            shown: list[Inline] = [_text(ruling_title)]
            if ruling.id in c.rulings:
                shown = [Ref(label=ruling_label(ruling.id), children=shown, classes=["rp-ruling"])]
            # the defaults stand in the columns: a new default is a changed ruling
            head = c.detail(shown, w["changed" if ruling.kind == "default" else ruling.kind])
            old = w.old_title(ruling.old_default) if ruling.old_default else "—"
            new = w.text(ruling.new_default) if ruling.new_default else "—"
            rows.append([head, [_text(old)], [_text(new)]])
        sections.append(("rulings", [Table(header=c.header(), rows=rows)]))
    if diff.examples:
        rows = []
        for example in diff.examples:
            example_title = (
                w.old_title(example.title) if example.kind == "removed" else w.text(example.title)
            )
            verdict = w["example_" + example.kind]
            rows.append([_example(c, example.id, example_title, verdict), [], []])
            rows += [c.fact_row(change) for change in example.stated]
        sections.append(("examples", [Table(header=c.header(), rows=rows)]))
    if diff.texts:
        # a text of no rule is named by the page that shows it (its context is for translators)
        rows = [[c.where(change), *c.wording(change, "", "")] for change in diff.texts]
        sections.append(("texts", [Table(header=c.header(), rows=rows)]))
    consequences: list[Block] = [
        Paragraph(children=[_text(fill_text(w["rescored"], count=w.value(diff.rescored)))])
    ]
    if diff.left_out:
        count = w.value(len(diff.left_out))
        consequences.append(Paragraph(children=[_text(fill_text(w["left_out"], count=count))]))
    if not diff.consequences:
        consequences.append(Paragraph(children=[_text(w["no_consequences"])]))
    else:
        rows = []
        for found in diff.consequences:
            # (why an old state no longer fits is the spec check's English, located in
            # files: for the spec's authors, in `rulepress diff`, not for players)
            verdict = w["unscorable"] if found.kind == "unscorable" else ""
            rows.append([_example(c, found.id, w.old_title(found.title), verdict), [], []])
            rows += [c.fact_row(change) for change in found.changes]
        consequences.append(Table(header=c.header(), rows=rows))
    sections.append(("consequences", consequences))
    if not diff.changed:
        body.append(Paragraph(children=[_text(c.t("only_changelog"))]))
    for key, children in sections:
        body.append(Section(label=f"changes-{key}", title=[_text(c.label(key))], children=children))
    return Page(blocks=[Section(label=PAGE, title=[_text(c.t("title"))], children=body)])


def _example(c: _Changes, example_id: str, title: str, what: str) -> list[Inline]:
    shown: list[Inline] = [_text(title)]
    if example_id in c.examples:
        shown = [Ref(label=f"example-{example_id}", children=shown)]
    if not what:
        return shown
    return c.detail(shown, what)


def _numbers(rules: list[str], spec: Spec) -> list[str]:
    """Rules a changelog line names, by number (a rule's id stands for its number)."""
    by_id = {r.id: r.number for r in all_rules(spec.rules) if r.id}
    return [by_id.get(r, r) for r in rules]
