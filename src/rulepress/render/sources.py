"""Where each statement comes from, as readers see it (issue 17's provenance, published).

Three pieces, for any game whose spec lists its ``sources``:

* :func:`source_marker`: the marker under a rule's text on the site, a closed
  details node ("Source") that opens on the rule's source reference, the
  rulings that settle it (each a link to the ruling) and the table-state
  fields that supply what the source lacks;
* :func:`sources_page` and :func:`missing_page`: the site's page of the
  documents and of every rule a ruling settles or infers (what a rules editor
  filters for), and the page "Not in this edition's source";
* :func:`appendix`: the same for the printed rulebook, as print HTML.

Every text comes from the spec, the game's catalog or the interface's, and
lands in text nodes or text elements; nothing is markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from babel import Locale

from rulepress.render.context import RenderContext
from rulepress.render.html_tree import Content, Element, el
from rulepress.render.markup import Links, inline, rule_label, ruling_label
from rulepress.render.patterns import BOTH, DETAIL, PAIR, RULES, fill, fill_text, side_by_side
from rulepress.render.tree import (
    Block,
    BulletList,
    Details,
    Inline,
    Page,
    Paragraph,
    Ref,
    Section,
    Strong,
    Text,
)
from rulepress.spec.model import NotInSource, Rule, Spec, all_rules
from rulepress.spec.provenance import Provenance
from rulepress.uitext import ui

T = {
    "sources": ui("page.title", "Sources"),
    "missing": ui("page.title", "Not in this edition's source"),
    "marker": ui("page.sources", "Source"),
    "documents": ui("page.sources", "Documents this edition was made from"),
    "ruled": ui("page.sources", "Rules a ruling settles or infers"),
    "ruling": ui("page.sources", "Ruling"),
    "each_rule": ui("page.sources", "Where each rule comes from"),
    "on_card": ui(
        "print", "What this edition's source does not give is listed under Sources in the rulebook."
    ),
    "table_state": ui("page.sources", "From the table state"),
    "intro": ui(
        "page.sources",
        "The source of this edition does not give the following. Take it from the"
        " components of your copy of the game; where the scorer needs a value, you"
        " enter it in the table state.",
    ),
}
#: a passage of a document: "Japanese fan translation …, lines 179–190"
PASSAGE = ui("page.sources", "{document}, lines {lines}")
#: a source document and its language: "… (Japanese)"
LANGUAGE = DETAIL

#: the page names this module adds to a game's pages
PAGES = ("sources", "not-in-source")

N = TypeVar("N")


def _lines(lines: str) -> str:
    # a range is written with a hyphen in YAML and shown with an en dash
    return lines.replace("-", "\u2013")


def _field_title(spec: Spec, name: str) -> str:
    """A table-state field as readers know it: its title in the state format, else its name."""
    where, _, field = name.partition(".")
    for fmt in spec.table_states.values():
        part = fmt.table if where == "table" else fmt.players
        found = part.fields.get(field)
        if found is not None and found.title:
            return found.title
    return field


class _Pieces(Generic[N]):
    """The pieces of a provenance in one language, for a writer's kind of node (N)."""

    def __init__(
        self, ctx: RenderContext, text: Callable[[str], N], literal: Callable[[str], N]
    ) -> None:
        self.ctx, self.text, self.literal = ctx, text, literal

    def fill(self, pattern: str, **values: list[N]) -> list[N]:
        return fill(self.ctx.t(pattern), values, self.literal)

    def side(self, items: Sequence[list[N]]) -> list[N]:
        return side_by_side(self.ctx.t(RULES), list(items), self.literal)

    def parts(self, source: Provenance, ruling: Callable[[str], list[N]]) -> list[list[N]]:
        spec = self.ctx.spec
        out: list[list[N]] = []
        docs = {d.id: d for d in spec.sources}
        if source.document is not None and source.lines is not None:
            title = docs[source.document].title if source.document in docs else source.document
            out.append(
                self.fill(
                    PASSAGE, document=[self.text(title)], lines=[self.text(_lines(source.lines))]
                )
            )
        if source.rulings:
            rulings = self.side([ruling(r) for r in source.rulings])
            out.append(self.fill(PAIR, label=[self.text(self.ctx.t(T["ruling"]))], value=rulings))
        if source.table_state:
            fields = self.side([[self.text(_field_title(spec, f))] for f in source.table_state])
            label = [self.text(self.ctx.t(T["table_state"]))]
            out.append(self.fill(PAIR, label=label, value=fields))
        return out


def _text(value: str) -> Inline:
    return Text(text=value)


def _site(ctx: RenderContext) -> _Pieces[Inline]:
    return _Pieces(ctx, _text, _text)


def _ruling_ref(ctx: RenderContext) -> Callable[[str], list[Inline]]:
    titles = {r.id: r.title for r in ctx.spec.rulings}

    def ref(ruling: str) -> list[Inline]:
        shown = [Text(text=titles.get(ruling, ruling))]
        return [Ref(label=ruling_label(ruling), children=shown, classes=["rp-ruling"])]

    return ref


def source_marker(ctx: RenderContext, source: Provenance | None) -> list[Block]:
    """The closed "Source" marker of a rule, opening on where it comes from; none without one."""
    if source is None:
        return []
    pieces = _site(ctx)
    parts = pieces.parts(source, _ruling_ref(ctx))
    joined = side_by_side(ctx.t(BOTH), parts, lambda s: Text(text=s))
    summary: list[Inline] = [Text(text=ctx.t(T["marker"]))]
    body = [Paragraph(children=joined)]
    return [Details(summary=summary, children=body, classes=["rp-source"])]


def _rule_ref(rule: Rule, links: Links) -> list[Inline]:
    title = inline(rule.title, links)
    return [Ref(label=rule_label(rule.number), children=[Text(text=rule.number + " "), *title])]


def _language(ctx: RenderContext, code: str) -> str:
    name = Locale.parse(code).get_display_name(ctx.lang)
    return name or code


def sources_page(ctx: RenderContext, links: Links) -> Page:
    """The documents the edition was made from, and every rule a ruling settles or infers."""
    spec = ctx.spec
    pieces = _site(ctx)
    docs: list[list[Block]] = []
    for doc in spec.sources:
        line = pieces.fill(
            DETAIL, text=[Text(text=doc.title)], detail=[Text(text=_language(ctx, doc.language))]
        )
        docs.append([Paragraph(children=line)])
    ruled: list[list[Block]] = []
    ref = _ruling_ref(ctx)
    for rule in all_rules(spec.rules):
        if rule.source is None or rule.source.kind != "ruling":
            continue
        rulings = pieces.side([ref(r) for r in rule.source.rulings])
        line = pieces.fill(PAIR, label=[Strong(children=_rule_ref(rule, links))], value=rulings)
        ruled.append([Paragraph(children=line)])
    children: list[Block] = [
        Section(
            label="source-documents",
            title=[Text(text=ctx.t(T["documents"]))],
            children=[BulletList(items=docs)] if docs else [],
        )
    ]
    if ruled:
        children.append(
            Section(
                label="ruled-rules",
                title=[Text(text=ctx.t(T["ruled"]))],
                children=[BulletList(items=ruled)],
            )
        )
    title = [Text(text=ctx.t(T["sources"]))]
    return Page(blocks=[Section(label="sources", title=title, children=children)])


def _missing_blocks(ctx: RenderContext, item: NotInSource, links: Links) -> list[Block]:
    out: list[Block] = [Paragraph(children=inline(item.text, links))]
    if item.table_state:
        pieces = _site(ctx)
        fields = pieces.side([[Text(text=_field_title(ctx.spec, f))] for f in item.table_state])
        label: list[Inline] = [Strong(children=[Text(text=ctx.t(T["table_state"]))])]
        out.append(Paragraph(children=pieces.fill(PAIR, label=label, value=fields)))
    return out


def missing_page(ctx: RenderContext, links: Links) -> Page:
    """The page "Not in this edition's source": what players take from their components."""
    spec = ctx.spec
    children: list[Block] = [Paragraph(children=[Text(text=ctx.t(T["intro"]))])]
    for item in spec.not_in_source:
        children.append(
            Section(
                label="missing-" + item.id,
                title=inline(item.title, links),
                children=_missing_blocks(ctx, item, links),
            )
        )
    title = [Text(text=ctx.t(T["missing"]))]
    return Page(blocks=[Section(label="not-in-source", title=title, children=children)])


# --------------------------------------------------------------------------- print


def appendix(ctx: RenderContext, text: Callable[[str], list[Content]]) -> list[Element]:
    """The rulebook's appendix: what is not in the source, the documents, each rule's source.

    ``text`` turns a spec text into print content (the rulebook's own inline
    writer, which resolves its markup), so the appendix reads like the book.
    """
    spec = ctx.spec
    if not spec.sources and not spec.not_in_source:
        return []
    pieces: _Pieces[str] = _Pieces(ctx, str, str)
    titles = {r.id: r.title for r in spec.rulings}

    def plain(parts: list[list[str]]) -> str:
        return "".join(side_by_side(ctx.t(BOTH), parts, lambda s: s))

    missing = [
        el("section", el("h4", text(item.title)), el("p", text(item.text)), cls="missing")
        for item in spec.not_in_source
    ]
    docs = [
        el("li", fill_text(ctx.t(DETAIL), text=d.title, detail=_language(ctx, d.language)))
        for d in spec.sources
    ]
    # a paragraph per rule, its number first (a table's narrow first column breaks
    # badly in print)
    rows = [
        el(
            "p",
            el("span", rule.number, cls="n"),
            " ",
            plain(pieces.parts(rule.source, lambda r: [titles.get(r, r)])),
            cls="source",
        )
        for rule in all_rules(spec.rules)
        if rule.source is not None
    ]
    out = [el("h2", ctx.t(T["sources"]), cls="chapter")]
    if missing:
        out += [el("h3", ctx.t(T["missing"])), el("p", ctx.t(T["intro"])), *missing]
    if docs:
        out += [el("h3", ctx.t(T["documents"])), el("ul", docs)]
    if rows:
        out += [el("h3", ctx.t(T["each_rule"])), *rows]
    return out
