"""Print document trees as HTML for WeasyPrint (stage 2 of print): the layout, and nothing else.

The trees (:mod:`rulepress.render.print_trees`, and the changes page for the
errata sheet) decide every text, label and order; this writer decides how
they are laid out: which element and class of the print stylesheet each part
gets, the two faces of the reference card and the header on each, the
colour zone of each sequence, the lines of a notes page, a card's front and
back. It makes no text of its own.

Specs and translations are untrusted, so no HTML is written from strings
here: every document is a tree of :mod:`rulepress.render.html_tree`
elements, whose one serialiser escapes and cleans every text and attribute
value. :func:`write` and :func:`card_document` return the serialised HTML:
the stage a test or a person can inspect before WeasyPrint lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulepress.render.html_tree import Attrs, Content, Element, Tag, document, el
from rulepress.render.print_trees import (
    Head,
    NotesPages,
    Part,
    ReferenceCard,
    Rulebook,
    RulePart,
    StepCards,
)
from rulepress.render.sources import Appendix
from rulepress.render.tree import (
    Block,
    BulletList,
    Chart,
    Code,
    Emphasis,
    Group,
    Icon,
    Inline,
    Link,
    NumberedList,
    PageNumber,
    Paragraph,
    Quote,
    Ref,
    Section,
    Span,
    StepItem,
    StepList,
    Strong,
    Table,
    Text,
    TieBreakOrder,
    notes_column,
    row_notes,
)

#: the print stylesheet's class for each role of a span
_SPAN_CLASSES = {
    "rule": "rule",
    "ruling": "ruling",
    "term": "term",
    "number": "n",
    "cites": "cites",
}

#: section headings by depth in a page of text (the errata sheet): title, parts, deeper parts
_PAGE_HEADINGS: tuple[Tag, ...] = ("h1", "h2", "h3")
#: heading elements by nesting depth of a rule in the rulebook (deeper rules stay at h4)
_RULE_HEADINGS: tuple[Tag, ...] = ("h2", "h3", "h4")

#: the pages of a reference card: its front and its back
REFERENCE_FACES = 2
#: the ruled lines of a notes page
NOTES_LINES = 24


# ------------------------------------------------------------------- inline nodes


def inlines(nodes: list[Inline]) -> list[Content]:
    """Inline nodes as print elements; a link becomes its words (paper has no links)."""
    out: list[Content] = []
    for node in nodes:
        if isinstance(node, Text):
            out.append(node.text)
        elif isinstance(node, Code):
            out.append(el("span", node.text, cls="code"))
        elif isinstance(node, Strong):
            out.append(el("b", inlines(node.children)))
        elif isinstance(node, Emphasis):
            out.append(el("i", inlines(node.children)))
        elif isinstance(node, Ref | Link):
            # the rule, ruling or example named, in the book's style for a rule
            out.append(el("span", inlines(node.children), cls="rule"))
        elif isinstance(node, Span):
            out.append(el("span", inlines(node.children), cls=_SPAN_CLASSES[node.role]))
        elif isinstance(node, Quote):
            # the source's own words, exactly: marked with its language, never typeset
            out.append(el("span", node.text, cls="quote", lang=node.lang, translate="no"))
        elif isinstance(node, Icon):
            # its words follow and say what it shows, so its alt text is empty
            out.append(el("img", src=node.src, alt="", cls="icon"))
        elif isinstance(node, PageNumber):
            # an empty link: CSS's target-counter writes the page number into it
            out.append(el("a", href="#" + node.label, cls="pageref"))
    return out


# -------------------------------------------------------------------- block nodes


def blocks(nodes: list[Block], depth: int = 0, *, compact: bool = False) -> list[Element]:
    """Page-tree blocks as print elements (the kinds the printed documents use).

    ``compact``: a list item of one paragraph is written as its text (spec text in
    the rulebook); otherwise as a paragraph (a page of the site, on the errata sheet).
    """
    out: list[Element] = []
    for node in nodes:
        if isinstance(node, Section):
            tag = _PAGE_HEADINGS[min(depth, len(_PAGE_HEADINGS) - 1)]
            heading = el(tag, inlines(node.title)) if node.title else None
            children = blocks(node.children, depth + 1, compact=compact)
            out.append(el("section", *([heading] if heading else []), *children, id=node.label))
        elif isinstance(node, Paragraph):
            out.append(el("p", inlines(node.children)))
        elif isinstance(node, BulletList | NumberedList):
            kind: Tag = "ul" if isinstance(node, BulletList) else "ol"
            out.append(el(kind, [el("li", _item(item, depth, compact)) for item in node.items]))
        elif isinstance(node, Table):
            out.append(_table(node))
        elif isinstance(node, Group):
            # what belongs to the line above (a vote's counts, a ruling): a block of its own
            out.append(el("div", blocks(node.children, depth, compact=compact), cls="group"))
        elif isinstance(node, TieBreakOrder):
            out.append(el("ol", [el("li", inlines(c)) for c in node.criteria]))
        elif isinstance(node, StepList):
            out.append(el("ol", _steps(node.steps), cls="steps"))
        elif isinstance(node, Chart):
            continue  # a printed page gives the numbers the chart draws, in its words
        else:
            raise TypeError(f"a printed document has no form for a {node.kind} node")
    return out


def _item(item: list[Block], depth: int, compact: bool) -> list[Content]:
    if compact and len(item) == 1 and isinstance(item[0], Paragraph):
        return inlines(item[0].children)
    return list(blocks(item, depth, compact=compact))


def _table(node: Table) -> Element:
    if node.caption:  # a look-up table of the spec, with its title
        return el(
            "table",
            el("caption", inlines(node.caption)),
            el("tr", [el("th", inlines(cell)) for cell in node.header]),
            [el("tr", [el("td", inlines(cell)) for cell in row]) for row in node.rows],
            cls="lookup",
        )
    head = el("tr", [el("th", inlines(cell)) for cell in node.header])
    at = notes_column(node)
    rows = []
    for i, row in enumerate(node.rows):
        notes = row_notes(node, i)
        cells: list[Content] = []
        for c, cell in enumerate(row):
            # a row's notes: a list in its cell of words (the scorer's report)
            below = [el("ul", [el("li", inlines(n)) for n in notes])] if notes and c == at else []
            cells.append(el("td", inlines(cell), *below))
        rows.append(el("tr", cells))
    return el("table", head, rows, cls="score" if node.columns else "changes")


def _steps(steps: list[StepItem]) -> list[Element]:
    """Steps with their number in a badge; a step with sub-steps is a group of its own."""
    out = []
    for step in steps:
        parts: list[Content] = [
            el("span", step.number, cls="badge"),
            el("b", inlines(step.title)),
            inlines(step.cites),
            el("div", inlines(step.text), cls="text"),
        ]
        if step.steps:
            parts.append(el("ol", _steps(step.steps), cls="substeps"))
            out.append(el("li", parts, cls="group"))
        else:
            out.append(el("li", parts))
    return out


# ---------------------------------------------------------------------- documents


def _document(head: Head, body: Content, kind: str, created: str, title: str = "") -> str:
    meta = el(
        "head",
        el("meta", charset="utf-8"),
        el("title", title or head.title),
        el("meta", name="dcterms.created", content=created),
        el("meta", name="dcterms.modified", content=created),
        el("meta", name="generator", content="rulepress"),
    )
    # the slug line a press file with printer's marks shows below its bleed (a CSS
    # string set from this element, never from CSS text), with the build's date
    slug = " · ".join(part for part in (*head.slug, created[:10]) if part)
    body = [el("p", slug, cls="slug"), body]
    return document(el("html", meta, el("body", body, cls=kind), lang=head.lang))


def write(tree: ReferenceCard | Rulebook | NotesPages, created: str) -> str:
    """A reference card, a rulebook or notes pages as the HTML WeasyPrint lays out."""
    if isinstance(tree, ReferenceCard):
        return _document(tree.head, _reference(tree), "reference", created)
    if isinstance(tree, Rulebook):
        return _document(tree.head, _rulebook(tree), "rulebook", created)
    return _document(tree.head, _notes(tree), "rulebook", created)


def page_document(head: Head, body: list[Block], kind: str, created: str) -> str:
    """A page of the site as a print document of its own (the errata sheet)."""
    return _document(head, blocks(body), kind, created)


def _part(part: Part, cls: str, *, compact: bool = False) -> Element:
    attrs: Attrs = {"cls": cls}
    if part.label is not None:
        attrs["id"] = part.label
    return el(
        "section", el("h3", inlines(part.title)), blocks(part.children, compact=compact), **attrs
    )


def _reference(card: ReferenceCard) -> list[Element]:
    """Two faces: the sequences step by step in front; who wins and the tables behind."""

    def header() -> Element:
        return el("header", el("h1", card.game), el("p", card.document, cls="kind"))

    front: list[Content] = [header()]
    for i, seq in enumerate(card.sequences):
        front.append(
            el(
                "section",
                el("h2", inlines(seq.title)),
                el("p", inlines(seq.lead), cls="lead"),
                # the steps in columns of their own, below the heading and the lead:
                # WeasyPrint sets a ``column-span: all`` element as wide as the padded
                # panel's border box, so a heading spanning the columns ran past the tint
                el("div", blocks([seq.steps]), cls="columns"),
                # one colour zone per sequence (a group of steps), in turn
                cls=f"sequence zone-{i % 3}",
            )
        )
    back: list[Content] = [header()]
    back += [_part(part, "tiebreak") for part in card.tiebreaks]
    if card.tables:
        back.append(el("div", [_table(t) for t in card.tables], cls="tables"))
    if card.not_in_source is not None:
        back.append(el("p", card.not_in_source, cls="not-in-source"))
    back.append(el("footer", inlines(card.footer)))
    return [el("section", front, cls="face front"), el("section", back, cls="face back")]


def _rules(rules: list[RulePart], depth: int = 0) -> list[Element]:
    """Every rule a heading (a chapter at the top level) and its text: one flow of text."""
    out: list[Element] = []
    for rule in rules:
        attrs: Attrs = {"id": rule.label}
        if depth == 0:
            attrs["cls"] = "chapter"
        heading = _RULE_HEADINGS[min(depth, len(_RULE_HEADINGS) - 1)]
        out.append(el(heading, el("span", rule.number, cls="n"), " ", rule.title, **attrs))
        out += blocks(rule.children, compact=True)
        out += _rules(rule.rules, depth + 1)
    return out


def _rulebook(book: Rulebook) -> list[Element]:
    c = book.cover
    cover = el(
        "section",
        el("h1", c.title),
        el("p", c.document, cls="kind"),
        blocks(c.summary, compact=True),
        blocks(list(c.facts)),
        cls="cover",
    )
    entries = []
    for entry in book.contents:
        number: list[Content] = [el("span", entry.number, cls="n"), " "] if entry.number else []
        entries.append(el("li", el("a", *number, entry.title, href="#" + entry.label)))
    toc = el("nav", el("h2", book.contents_title), el("ol", entries), cls="toc")
    glossary = [
        [el("dt", inlines(t.icon), t.term), el("dd", inlines(t.definition))] for t in book.glossary
    ]
    body = [cover, toc, el("section", _rules(book.rules), cls="rules")]
    # the tree leaves a chapter untitled where the game has nothing for it (print_trees)
    chapters: list[tuple[str | None, Content, str]] = [
        (book.glossary_title, el("dl", glossary), "glossary"),
        (book.rulings_title, [_part(r, "ruling") for r in book.rulings], "rulings"),
        (
            book.examples_title,
            [_part(ex, "example", compact=True) for ex in book.examples],
            "examples",
        ),
    ]
    for title, content, key in chapters:
        if title is None:
            continue
        heading = el("h2", title, cls="chapter")
        # only the glossary's section has a class of its own (the print styles set its columns)
        if key == "glossary":
            body.append(el("section", heading, content, cls=key, id=key))
        else:
            body.append(el("section", heading, content, id=key))
    if book.sources is not None:
        # the appendix: what the source lacks, the documents, and where each rule comes from
        body.append(el("section", _appendix(book.sources), cls="sources", id="sources"))
    return body


def _appendix(a: Appendix) -> list[Element]:
    out = [el("h2", a.title, cls="chapter")]
    if a.missing is not None:
        title, intro, missing = a.missing
        out += [el("h3", title), el("p", intro)]
        out += [
            el("section", el("h4", inlines(m.title)), el("p", inlines(m.text)), cls="missing")
            for m in missing
        ]
    if a.cards is not None:
        # the cards' exceptions come from the components too: beside what the source lacks
        title, intro, table = a.cards
        out += [el("h3", title), el("p", intro), _table(table)]
    if a.documents is not None:
        title, docs = a.documents
        out += [el("h3", title), el("ul", [el("li", d) for d in docs])]
    if a.kinds is not None:
        title, kinds = a.kinds
        out.append(el("h3", title))
        for kind in kinds:
            out.append(el("h4", kind.title))
            out += [
                el("p", el("span", inlines(e.name), cls="n"), " ", inlines(e.source), cls="source")
                for e in kind.entries
            ]
    return out


def _notes(notes: NotesPages) -> list[Element]:
    return [
        el(
            "section",
            el("h2", notes.title),
            [el("div", cls="line") for _ in range(NOTES_LINES)],
            cls="notes",
        )
        for _ in range(notes.count)
    ]


# --------------------------------------------------------------------- step cards


@dataclass(frozen=True)
class Card:
    """One step card laid out: its front and back as (immutable) elements."""

    name: str
    front: Element
    back: Element


def cards(deck: StepCards) -> list[Card]:
    """Each card of the deck as its two faces."""
    out = []
    for card in deck.cards:
        front = el(
            "div",
            el("p", card.sequence, cls="seq"),
            el("h2", el("span", card.number, cls="n"), " ", card.title),
            el("div", inlines(card.text), cls="text"),
            el("p", inlines(card.cites), cls="foot"),
            cls="card-front",
        )
        back = el(
            "div",
            el("p", card.game, cls="game"),
            el("p", card.deck, cls="kind"),
            cls="card-back",
        )
        out.append(Card(card.name, front, back))
    return out


def sized(face: Element, pt: float) -> Element:
    """``face`` with its body type set at ``pt`` points (the size that fits its card)."""
    return replace(face, attrs=(*face.attrs, ("style", f"font-size:{pt:g}pt")))


def card_document(deck: StepCards, body: Content, created: str, title: str = "") -> str:
    """A document of card faces (one card, all faces, or imposed sheets) as HTML.

    ``title``: the document's, when it is one card (its name); else the deck's.
    """
    return _document(deck.head, body, "card", created, title)
