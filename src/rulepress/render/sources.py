"""Where each statement comes from, as readers see it (issue 17's provenance, published).

Three pieces, for any game whose spec lists its ``sources``:

* :func:`source_marker`: the marker under an entry on the site (a rule's
  text, a step's card, a glossary definition, a parameter), a closed details
  node ("Source") that opens on the entry's source reference, the rulings
  that settle it (each a link to the ruling) and the table-state fields that
  supply what the source lacks; :func:`table_marker` is the same marker under
  a table, naming each source its rows share once, with the rows it covers;
  :func:`source_says` is what the sources say on a ruling's question, its
  passages quoted, on the rulings page and in the rulebook's rulings alike;
* :func:`sources_page` and :func:`missing_page`: the site's page of the
  documents, of every parameter with its marker, and of every entry of every
  kind a ruling settles or infers (what a rules editor filters for, each
  linked to its place and to the ruling), and the page "Not in this
  edition's source";
* :func:`appendix`: the same for the printed rulebook, as print HTML, with a
  paragraph per entry, grouped by kind.

Every text comes from the spec, the game's catalog or the interface's, and
lands in text nodes or text elements; nothing is markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from babel import Locale
from babel.lists import format_list

from rulepress.i18n.typography import number_range, quotation_marks
from rulepress.model import Provenance
from rulepress.model.provenance import Passage
from rulepress.model.spec_model import NotInSource, Spec, all_rules
from rulepress.model.spec_model import Table as SpecTable
from rulepress.render.context import RenderContext
from rulepress.render.markup import Links, inline, rule_label, ruling_label
from rulepress.render.patterns import (
    BOTH,
    DETAIL,
    INTRO,
    PAIR,
    RULES,
    fill,
    fill_text,
    side_by_side,
)
from rulepress.render.source_entries import (
    CARDS_LABEL,
    KIND_TITLES,
    ROWS,
    SourceEntry,
    parameter_label,
    row_groups,
    source_entries,
)
from rulepress.render.tree import (
    Block,
    BulletList,
    Details,
    Inline,
    Node,
    Page,
    Paragraph,
    Quote,
    Ref,
    Section,
    Strong,
    Table,
    Text,
)
from rulepress.uitext import ui

T = {
    "sources": ui("page.title", "Sources"),
    "missing": ui("page.title", "Not in this edition's source"),
    "marker": ui("page.sources", "Source"),
    "documents": ui("page.sources", "Documents this edition was made from"),
    "ruled": ui("page.sources", "Settled or inferred by a ruling"),
    "ruling": ui("page.sources", "Ruling"),
    "each_entry": ui("page.sources", "Where each entry comes from"),
    "on_card": ui(
        "print", "What this edition's source does not give is listed under Sources in the rulebook."
    ),
    "table_state": ui("page.sources", "From the table state"),
    # before the titles of "Not in this edition's source" items: a card, the board …
    "components": ui("page.sources", "From the components"),
    "intro": ui(
        "page.sources",
        "The source of this edition does not give the following. Take it from the"
        " components of your copy of the game; where the scorer needs a value, you"
        " enter it in the table state.",
    ),
}
#: a passage of a document: "Japanese fan translation …, lines 179–190"
PASSAGE = ui("page.sources", "{document}, lines {lines}")
# a passage of one line ("40"; several are "11-16" or "151, 181")
PASSAGE_LINE = ui("page.sources", "{document}, line {lines}")
#: a parameter: its description, a sentence of its own, then its value ("Rounds in a game.
#: Value: 3 (1.1)"); a label pattern would put a colon after the sentence's full stop
PARAMETER = ui("page.sources", "{description} Value: {value}")
#: the same sentence among the entries a ruling settles, then the rulings ("… Ruling: …")
RULED_PARAMETER = ui("page.sources", "{description} Ruling: {rulings}")
#: a source document and its language: "… (Japanese)"
LANGUAGE = DETAIL
#: under a ruling's question, the passages of the sources it weighs, with their quotes
SAYS = ui("page.ruling", "What the source says")

#: the table of card exceptions: what it is, and its columns (its title is the kind's)
CARDS = {
    "intro": ui(
        "page.scoring",
        "Some cards change the rules for their own player. This edition's source does not"
        " give these exceptions; they come from the components.",
    ),
    "card": ui("page.scoring", "Card"),
    "exception": ui("page.scoring", "Exception"),
    "rules": ui("page.rules", "Rules"),
    "example": ui("page.title", "Worked examples"),
}

#: the page names this module adds to a game's pages
PAGES = ("sources", "not-in-source")

N = TypeVar("N")


def _range(first: int, last: int, lang: str) -> str:
    # a range is written with a hyphen in YAML and shown as the locale writes one (1–5, 1～5)
    return str(first) if first == last else number_range(str(first), str(last), lang)


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
        self,
        ctx: RenderContext,
        text: Callable[[str], N],
        literal: Callable[[str], N],
        quoted: Callable[[str, str], N],
    ) -> None:
        self.ctx, self.text, self.literal, self.quoted = ctx, text, literal, quoted
        # the page's quotation marks around words in the source's language: „…“, “…”, 「…」
        self.marks = quotation_marks(ctx.lang or "en")

    def quotes(self, cited: Provenance | Passage) -> list[N]:
        """The cited passage's quotes, each in the page's marks and the source's language."""
        docs = {d.id: d for d in self.ctx.spec.sources}
        doc = docs.get(cited.document) if cited.document is not None else None
        lang = doc.language if doc is not None else self.ctx.lang
        start, end = self.marks
        return self.side(
            [[self.literal(start), self.quoted(q, lang), self.literal(end)] for q in cited.quotes()]
        )

    def fill(self, pattern: str, **values: list[N]) -> list[N]:
        return fill(self.ctx.t(pattern), values, self.literal)

    def side(self, items: Sequence[list[N]]) -> list[N]:
        return side_by_side(self.ctx.t(RULES), list(items), self.literal)

    def passage(self, cited: Provenance | Passage) -> list[N]:
        """The passage as readers see it, its quotes after it when it has them.

        "Czech reference card …, lines 47–51: „Ztrácíte 1 bod …“".
        """
        passage = self.where(cited)
        if cited.quote is None:
            return passage
        return self.fill(PAIR, label=passage, value=self.quotes(cited))

    def where(self, cited: Provenance | Passage) -> list[N]:
        """The document's title and the lines cited: "Czech reference card …, lines 47–51"."""
        assert cited.document is not None
        assert cited.lines is not None
        docs = {d.id: d for d in self.ctx.spec.sources}
        title = docs[cited.document].title if cited.document in docs else cited.document
        ranges = cited.ranges()
        one = len(ranges) == 1 and ranges[0][0] == ranges[0][1]
        # the YAML's "151, 179-190" is data: shown side by side as cited rule numbers are
        # ("151、179～190" in Japanese). CLDR's list patterns would join them with "and"
        # ("standard"), and Babel has no Czech "unit" pattern to join them without
        lines = self.side([[self.text(_range(a, b, self.ctx.lang))] for a, b in ranges])
        return self.fill(PASSAGE_LINE if one else PASSAGE, document=[self.text(title)], lines=lines)

    def parts(
        self,
        source: Provenance,
        ruling: Callable[[str], list[N]],
        component: Callable[[str, str], list[N]] | None = None,
    ) -> list[list[N]]:
        """The passage, the rulings, the components and the table-state fields of a source.

        ``component`` shows a component by its id and title (on the site, a link to its
        item on the page "Not in this edition's source"); else its title as text.
        """
        spec = self.ctx.spec
        out: list[list[N]] = []
        if source.document is not None and source.lines is not None:
            out.append(self.passage(source))
        if source.rulings:
            rulings = self.side([ruling(r) for r in source.rulings])
            out.append(self.fill(PAIR, label=[self.text(self.ctx.t(T["ruling"]))], value=rulings))
        if source.components:
            # each by the title of its item on the page "Not in this edition's source"
            titles = {item.id: item.title for item in spec.not_in_source}
            show = component or (lambda _, title: [self.text(title)])
            named = self.side([show(c, titles.get(c, c)) for c in source.components])
            label = [self.text(self.ctx.t(T["components"]))]
            out.append(self.fill(PAIR, label=label, value=named))
        if source.table_state:
            fields = self.side([[self.text(_field_title(spec, f))] for f in source.table_state])
            label = [self.text(self.ctx.t(T["table_state"]))]
            out.append(self.fill(PAIR, label=label, value=fields))
        return out


def _text(value: str) -> Inline:
    return Text(text=value)


def _quote(value: str, lang: str) -> Inline:
    return Quote(text=value, lang=lang)


def _site(ctx: RenderContext) -> _Pieces[Inline]:
    return _Pieces(ctx, _text, _text, _quote)


def _ruling_ref(ctx: RenderContext) -> Callable[[str], list[Inline]]:
    titles = {r.id: r.title for r in ctx.spec.rulings}

    def ref(ruling: str) -> list[Inline]:
        shown = [Text(text=titles.get(ruling, ruling))]
        return [Ref(label=ruling_label(ruling), children=shown, classes=["rp-ruling"])]

    return ref


def _component_ref(item: str, title: str) -> list[Inline]:
    # the item's section on the page "Not in this edition's source" (missing_page)
    return [Ref(label="missing-" + item, children=[Text(text=title)])]


def grouped_marker(
    ctx: RenderContext, groups: Sequence[tuple[list[Inline], Provenance]]
) -> list[Block]:
    """The closed "Source" marker, a paragraph per source, each led by what it covers.

    An entry has one group with nothing to lead it; a table has one per source
    its rows share ("Rows 1–2: …"). No groups, no marker.
    """
    if not groups:
        return []
    pieces = _site(ctx)
    ruling = _ruling_ref(ctx)
    body: list[Block] = []
    for covers, source in groups:
        parts = pieces.parts(source, ruling, _component_ref)
        joined = side_by_side(ctx.t(BOTH), parts, _text)
        if covers:
            joined = pieces.fill(PAIR, label=[Strong(children=covers)], value=joined)
        body.append(Paragraph(children=joined))
    summary: list[Inline] = [Text(text=ctx.t(T["marker"]))]
    return [Details(summary=summary, children=body, classes=["rp-source"])]


def source_marker(ctx: RenderContext, source: Provenance | None) -> list[Block]:
    """The closed "Source" marker of an entry, opening on where it comes from; none without one."""
    return grouped_marker(ctx, [([], source)] if source is not None else [])


def table_marker(ctx: RenderContext, table: SpecTable) -> list[Block]:
    """A table's marker: its rows' source once when they share one, else each source's rows."""
    groups = row_groups(ctx, table)
    if len(groups) == 1 and len(groups[0][0]) == len(table.rows):
        return source_marker(ctx, groups[0][1])
    pieces = _site(ctx)
    led = [
        (pieces.fill(ROWS, rows=pieces.side([[_text(k)] for k in keys])), source)
        for keys, source in groups
    ]
    return grouped_marker(ctx, led)


def source_says(ctx: RenderContext, passages: Sequence[Passage]) -> list[Block]:
    """What the sources say on a ruling's question, for the rulings page and the rulebook alike.

    A passage shows the document and its lines beside the label and its quotes
    after them, each in the source's own language and marked with it: "**What the
    source says** (Czech reference card …, line 19): „…“, „…“". Several passages
    (a ruling may weigh more than one document) are a list under the label, each
    as the "Source" marker shows it. No passages, nothing: a ruling of a game
    written straight into a spec has no source to quote.
    """
    if not passages:
        return []
    pieces = _site(ctx)
    label: list[Inline] = [Strong(children=[Text(text=ctx.t(SAYS))])]
    if len(passages) == 1:
        [passage] = passages
        # the passage is the label's detail, so that one colon leads to the quotes
        led = pieces.fill(DETAIL, text=label, detail=pieces.where(passage))
        return [Paragraph(children=pieces.fill(PAIR, label=led, value=pieces.quotes(passage)))]
    items: list[list[Block]] = [[Paragraph(children=pieces.passage(p))] for p in passages]
    return [Paragraph(children=pieces.fill(INTRO, label=label)), BulletList(items=items)]


def _language(ctx: RenderContext, code: str) -> str:
    name = Locale.parse(code).get_display_name(ctx.lang)
    return name or code


def entry_name(
    pieces: _Pieces[N], entry: SourceEntry, spec_text: Callable[[str], list[N]]
) -> list[N]:
    """How readers know an entry, for either writer: "4a. Ambassadors (Final scoring)"."""
    lit = pieces.literal
    if entry.kind == "rule":
        return [lit(entry.lead + " "), *spec_text(entry.title)]
    if entry.kind == "step":
        name = [lit(entry.lead + ". "), *spec_text(entry.title)]
        return pieces.fill(DETAIL, text=name, detail=spec_text(entry.within))
    if entry.kind == "row":
        rows = pieces.fill(ROWS, rows=[lit(entry.lead)])
        return pieces.fill(DETAIL, text=spec_text(entry.title), detail=rows)
    return spec_text(entry.title)


def _ruled(ctx: RenderContext, links: Links) -> list[Block]:
    """A section per kind of entry that a ruling settles or infers, each entry linked twice."""
    pieces = _site(ctx)
    ref = _ruling_ref(ctx)
    out: list[Block] = []
    for kind, entries in source_entries(ctx).items():
        items: list[list[Block]] = []
        for entry in entries:
            if entry.source.kind != "inferred":
                continue
            place = Ref(label=entry.anchor, children=entry_name(pieces, entry, _plain(links)))
            rulings = pieces.side([ref(r) for r in entry.source.rulings])
            if entry.kind == "parameter":  # named by a sentence, which no colon may follow
                line = pieces.fill(
                    RULED_PARAMETER, description=[Strong(children=[place])], rulings=rulings
                )
            else:
                line = pieces.fill(PAIR, label=[Strong(children=[place])], value=rulings)
            items.append([Paragraph(children=line)])
        if items:
            title = [Text(text=ctx.t(KIND_TITLES[kind]))]
            out.append(
                Section(label="ruled-" + kind, title=title, children=[BulletList(items=items)])
            )
    return out


def _plain(links: Links) -> Callable[[str], list[Inline]]:
    return lambda value: inline(value, links)


def _parameters(ctx: RenderContext, links: Links) -> list[list[Block]]:
    """Each parameter (no page shows them as entries): its value, its rule, its source marker."""
    pieces = _site(ctx)
    out: list[list[Block]] = []
    for name, param in ctx.spec.parameters.items():
        if isinstance(param.value, int):
            shown = ctx.number(param.value)
        else:  # a parameter map: each member's word and its number, listed as the language lists
            words = ctx.spec.vocabulary
            shown = format_list(
                [f"{words.get(m, m)} {ctx.number(n)}" for m, n in param.value.items()],
                locale=ctx.lang,
            )
        value: list[Inline] = [Text(text=shown)]
        if param.rule in links.rules:
            rule: Inline = Ref(label=rule_label(param.rule), children=[Text(text=param.rule)])
            value = pieces.fill(DETAIL, text=value, detail=[rule])
        described: list[Inline] = [Strong(children=inline(param.description, links))]
        line = Paragraph(
            children=pieces.fill(PARAMETER, description=described, value=value),
            label=parameter_label(name),
        )
        out.append([line, *source_marker(ctx, param.source)])
    return out


def sources_page(ctx: RenderContext, links: Links) -> Page:
    """The documents, every parameter with its source, and every entry a ruling settles."""
    spec = ctx.spec
    pieces = _site(ctx)
    docs: list[list[Block]] = []
    for doc in spec.sources:
        line = pieces.fill(
            DETAIL, text=[Text(text=doc.title)], detail=[Text(text=_language(ctx, doc.language))]
        )
        docs.append([Paragraph(children=line)])
    children: list[Block] = [
        Section(
            label="source-documents",
            title=[Text(text=ctx.t(T["documents"]))],
            children=[BulletList(items=docs)] if docs else [],
        )
    ]
    ruled = _ruled(ctx, links)
    if ruled:
        # what a rules editor filters for: everything inferred or settled, of every kind
        children.append(
            Section(label="ruled", title=[Text(text=ctx.t(T["ruled"]))], children=ruled)
        )
    params = _parameters(ctx, links)
    if params:
        children.append(
            Section(
                label="parameters",
                title=[Text(text=ctx.t(KIND_TITLES["parameter"]))],
                children=[BulletList(items=params)],
            )
        )
    title = [Text(text=ctx.t(T["sources"]))]
    return Page(blocks=[Section(label="sources", title=title, children=children)])


def _missing_blocks(ctx: RenderContext, item: NotInSource, links: Links) -> list[Block]:
    out: list[Block] = [Paragraph(children=inline(item.text, links))]
    pieces = _site(ctx)
    for passage in item.nearby:
        # what the source does say nearby, in its own words
        out.append(Paragraph(children=pieces.passage(passage), classes=["rp-nearby"]))
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


def card_table(ctx: RenderContext, spec_text: Callable[[str], list[Inline]]) -> Table | None:
    """The table of card exceptions, for the site's scoring page and the rulebook alike.

    A row per card: its name (the vocabulary's word for its id), what it
    changes, the rules it makes an exception to and the worked example that
    shows it, each a reference (a link on the site, the book's rule style in
    print). None for a game whose cards make no exception.
    """
    spec = ctx.spec
    if not spec.card_exceptions:
        return None
    reproduced = {rule.number for rule in all_rules(spec.rules)}
    examples = {ex.id: ex.title for ex in spec.examples}

    def rule(number: str) -> list[Inline]:
        if number not in reproduced:
            return [Text(text=number)]  # a rule of another document: cited, not reproduced
        return [Ref(label=rule_label(number), children=[Text(text=number)], classes=["rp-rule"])]

    rows: list[list[list[Inline]]] = []
    for card in spec.card_exceptions:
        example: list[Inline] = []
        if card.example is not None and card.example in examples:
            shown = spec_text(examples[card.example])
            example = [Ref(label=f"example-{card.example}", children=shown)]
        rows.append(
            [
                [Text(text=spec.vocabulary.get(card.id, card.id))],
                spec_text(card.text),
                side_by_side(ctx.t(RULES), [rule(n) for n in card.rules], _text),
                example,
            ]
        )
    header = [[Text(text=ctx.t(CARDS[key]))] for key in ("card", "exception", "rules", "example")]
    return Table(header=header, rows=rows)


def cards_section(ctx: RenderContext, links: Links) -> list[Block]:
    """The scoring page's section of card exceptions: the table, then each card's source."""
    table = card_table(ctx, _plain(links))
    if table is None:
        return []
    spec = ctx.spec
    groups: list[tuple[list[Inline], Provenance]] = [
        ([Text(text=spec.vocabulary.get(card.id, card.id))], card.source)
        for card in spec.card_exceptions
        if card.source is not None
    ]
    children: list[Block] = [Paragraph(children=[Text(text=ctx.t(CARDS["intro"]))]), table]
    children += grouped_marker(ctx, groups)
    title = [Text(text=ctx.t(KIND_TITLES["card"]))]
    return [Section(label=CARDS_LABEL, title=title, children=children)]


# --------------------------------------------------------------------------- print


class MissingItem(Node):
    """Something the source does not give, and what to do about it."""

    title: list[Inline]
    text: list[Inline]


class SourceLine(Node):
    """An entry of the book (a rule, a step, a table's rows …) and where it comes from."""

    name: list[Inline]
    #: the source's words (quotes) among them, each marked with its language
    source: list[Inline]


class SourceKind(Node):
    title: str
    entries: list[SourceLine]


class Appendix(Node):
    """The rulebook's appendix: what is not in the source, the documents, each entry's source."""

    title: str
    #: each part only when it has entries (its title, and the missing part's intro, with it)
    missing: tuple[str, str, list[MissingItem]] | None
    #: the table of card exceptions (its title, its intro, the table), as the site shows it
    cards: tuple[str, str, Table] | None = None
    documents: tuple[str, list[str]] | None
    kinds: tuple[str, list[SourceKind]] | None


def appendix(ctx: RenderContext, spec_text: Callable[[str], list[Inline]]) -> Appendix | None:
    """The rulebook's appendix (None for a game that names no source and misses nothing).

    ``spec_text`` turns a spec text into the book's inline nodes (the rulebook's
    own, which resolve its markup), so the appendix reads like the book.
    """
    spec = ctx.spec
    if not spec.sources and not spec.not_in_source and not spec.card_exceptions:
        return None
    # an entry's name holds spec text as inline nodes (its markup resolved)
    content: _Pieces[Inline] = _site(ctx)
    titles = {r.id: r.title for r in spec.rulings}

    def joined(parts: list[list[Inline]]) -> list[Inline]:
        return side_by_side(ctx.t(BOTH), parts, _text)

    kinds: list[SourceKind] = []
    for kind, entries in source_entries(ctx).items():
        if not entries:
            continue
        # a paragraph per entry, what it is first (a table's narrow first column
        # breaks badly in print)
        lines = [
            SourceLine(
                name=entry_name(content, entry, spec_text),
                source=joined(content.parts(entry.source, lambda r: [_text(titles.get(r, r))])),
            )
            for entry in entries
        ]
        kinds.append(SourceKind(title=ctx.t(KIND_TITLES[kind]), entries=lines))
    title = ctx.t(T["sources"])
    missing = [
        MissingItem(title=spec_text(item.title), text=spec_text(item.text))
        for item in spec.not_in_source
    ]
    docs = [
        fill_text(ctx.t(DETAIL), text=d.title, detail=_language(ctx, d.language))
        for d in spec.sources
    ]
    cards = card_table(ctx, spec_text)
    return Appendix(
        title=title,
        missing=(ctx.t(T["missing"]), ctx.t(T["intro"]), missing) if missing else None,
        cards=(ctx.t(KIND_TITLES["card"]), ctx.t(CARDS["intro"]), cards) if cards else None,
        documents=(ctx.t(T["documents"]), docs) if docs else None,
        kinds=(ctx.t(T["each_entry"]), kinds) if kinds else None,
    )


def _text_node(value: str) -> Inline:
    return Text(text=value)
