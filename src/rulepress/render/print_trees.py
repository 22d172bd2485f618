"""A game's printed documents as document trees, from its spec in one language (stage 1 of print).

Three kinds of document: the reference card (the reference sequences and
the tie-breaks), the rulebook (cover, contents, every rule, glossary,
rulings, worked examples, sources) and step cards (one card per step, with a
back); and the notes pages that make a bound rulebook's pages a multiple of
four. Each is a tree of :mod:`rulepress.render.tree` nodes (the same inline
and block nodes the site's pages are made of) inside a small model per
document that says which part goes where. Every text, label and order a
reader sees is decided here, once; :mod:`rulepress.render.print_writer`
turns a tree into HTML for WeasyPrint and decides only the layout (faces,
columns, panels, the classes of the print stylesheet).

A printed document shows other things than the site's pages (a card shows a
subset; the rulebook says on which page a rule is): those selections are
made here, by a tree per document, never in a writer.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal

from rulepress.model.spec_model import Rule, Sequence, Step, all_rules, all_steps
from rulepress.model.text import Ref, transform
from rulepress.render.context import RenderContext
from rulepress.render.html_tree import clean_prose
from rulepress.render.markup import resolve, rule_label, ruling_label
from rulepress.render.pages import links_of
from rulepress.render.patterns import (
    BOTH,
    DOCUMENT,
    INTRO,
    PAIR,
    RULES,
    SPEC_VERSION,
    fill,
    fill_text,
    side_by_side,
)
from rulepress.render.sources import Appendix, appendix, source_says
from rulepress.render.sources import T as SOURCES
from rulepress.render.tree import (
    Block,
    BulletList,
    Icon,
    Inline,
    Node,
    PageNumber,
    Paragraph,
    Span,
    StepItem,
    StepList,
    Strong,
    Table,
    Text,
    TieBreakOrder,
    text,
)
from rulepress.uitext import ui

T = {
    "reference": ui("print", "Reference card"),
    "cards": ui("print", "Step cards"),
    "rulebook": ui("print", "Rulebook"),
    "contents": ui("print", "Contents"),
    "rules": ui("page.title", "Rules"),
    "glossary": ui("page.title", "Glossary"),
    "rulings": ui("page.title", "Rulings"),
    "examples": ui("page.title", "Worked examples"),
    "tiebreak": ui("page.scoring", "Who wins"),
    "criteria": ui("page.scoring", "Tie-breaks, in order"),
    "final_tie": ui("page.scoring", "If still tied"),
    "eligible": ui("page.scoring", "Who cannot win"),
    "question": ui("page.ruling", "What is unclear"),
    "decision": ui("page.ruling", "Decision"),
    "cites": ui("page.rules", "Rules"),
    "edition": ui("page.game", "Edition"),
    "source": ui("page.game", "Source"),
    "notes": ui("print", "Notes"),
}

#: a cross-reference in the rulebook, with the page its target is on (the number is
#: the layout's: a :class:`PageNumber`, which the print writer leaves to CSS)
PAGE_REF = ui("print", "{target}, p. {page}")


# ------------------------------------------------------------ the documents' models


class Head(Node):
    """What a print document says of itself: its language, its title, its slug line."""

    lang: str
    #: what a PDF viewer shows: the game and the kind of document
    title: str
    #: the line a press file with printer's marks shows below its bleed (the writer
    #: adds the build's date): the game, the language, the spec's version
    slug: list[str]


class Part(Node):
    """A titled part of a document (a tie-break, a ruling, an example); ``label``: its anchor."""

    title: list[Inline]
    children: list[Block]
    label: str | None = None


class CardSequence(Node):
    """A reference sequence on the card: its title and cited rules, its lead, its steps."""

    title: list[Inline]
    lead: list[Inline]
    steps: StepList


class ReferenceCard(Node):
    kind: Literal["reference"] = "reference"
    head: Head
    game: str
    #: what the document is, under the game's title on each face
    document: str
    sequences: list[CardSequence]
    tiebreaks: list[Part]
    tables: list[Table]
    #: where a player finds what the source lacks, if the spec lists anything
    not_in_source: str | None = None
    footer: list[Inline]


class RulePart(Node):
    """A rule of the rulebook: its number, title and text, and its sub-rules."""

    label: str
    number: str
    title: str
    children: list[Block]
    rules: list[RulePart] = []  # noqa: RUF012 (pydantic copies a default)


class Cover(Node):
    title: str
    document: str
    summary: list[Block]
    facts: list[Paragraph]


class ContentsEntry(Node):
    """A line of the contents: the anchor it leads to, a rule's number (if a rule), its title."""

    label: str
    number: str | None = None
    title: str


class BookTerm(Node):
    """A glossary entry in the book: its icon (if any), the term, its definition and rules."""

    icon: list[Inline]
    term: str
    definition: list[Inline]


class Rulebook(Node):
    kind: Literal["rulebook"] = "rulebook"
    head: Head
    cover: Cover
    contents_title: str
    contents: list[ContentsEntry]
    rules: list[RulePart]
    #: a chapter's title, or None where the game has nothing for it: the writer prints
    #: a chapter (and the contents list it) only where the tree gives it a title
    glossary_title: str | None
    glossary: list[BookTerm]
    rulings_title: str | None
    rulings: list[Part]
    examples_title: str | None
    examples: list[Part]
    sources: Appendix | None = None


class NotesPages(Node):
    """Pages for the reader's notes, each with its heading."""

    kind: Literal["notes"] = "notes"
    head: Head
    title: str
    count: int


class StepCard(Node):
    """One step card: its name (for messages), its front, and its back."""

    name: str
    sequence: str
    number: str
    title: str
    text: list[Inline]
    cites: list[Inline]
    game: str
    #: what the deck is, in words: no language code is printed on a card
    deck: str


class StepCards(Node):
    kind: Literal["cards"] = "cards"
    head: Head
    cards: list[StepCard]


# ------------------------------------------------------------------ spec text


def inline(
    value: str, ctx: RenderContext, *, anchors: Collection[str] = frozenset()
) -> list[Inline]:
    """Spec markup as inline nodes: rule numbers marked, numbers filled in, terms with their icons.

    What each reference shows is the site's (:func:`rulepress.render.markup.resolve`);
    print only marks what it is (a rule, a ruling, a term) and adds what paper needs.
    ``anchors``: the labels the document has (the rulebook's rules and rulings); a rule
    or a ruling referred to that has one says the page it is on.
    """
    links = links_of(ctx)
    out: list[Inline] = []

    def literal(part: str) -> str:
        out.append(Text(text=part))
        return ""

    def ref(token: Ref) -> str:
        shown, _ = resolve(token, links)
        if token.kind in ("rule", "ruling"):
            span = _span("rule" if token.kind == "rule" else "ruling", shown)
            anchor = (rule_label if token.kind == "rule" else ruling_label)(token.target)
            if anchor in anchors:
                page = PageNumber(label=anchor)
                out.extend(fill(ctx.t(PAGE_REF), {"target": [span], "page": [page]}, _text))
            else:
                out.append(span)
        elif token.kind == "param" and token.forms and token.target in links.params:
            # the form that agrees, as spec text of its own: it may hold glossary links
            out.extend(inline(shown, ctx, anchors=anchors))
        elif token.kind == "term":
            out.extend(_icon(ctx, token.target))  # its icon, if it has one, before its words
            out.append(_span("term", shown))
        else:
            out.append(Text(text=shown))
        return ""

    # the project's one markup walker; it joins strings, so the nodes are collected on the side
    transform(value, literal, ref)
    return out


def blocks(
    value: str, ctx: RenderContext, *, anchors: Collection[str] = frozenset()
) -> list[Block]:
    """Paragraphs (blank-line separated) and ``- `` lists, as in :mod:`rulepress.model.text`."""
    out: list[Block] = []
    # only LF separates lines: CR, U+2028 and the like are spaces (see html_tree.clean_prose)
    for block in clean_prose(value).strip().split("\n\n"):
        lines = [line.strip() for line in block.split("\n") if line.strip()]
        items: list[str] = []
        para: list[str] = []
        for line in lines:
            if line.startswith("- "):
                items.append(line[2:])
            elif items:
                items[-1] += " " + line
            else:
                para.append(line)
        if para:
            out.append(Paragraph(children=inline(" ".join(para), ctx, anchors=anchors)))
        if items:
            out.append(
                BulletList(
                    items=[[Paragraph(children=inline(i, ctx, anchors=anchors))] for i in items]
                )
            )
    return out


def _line(value: str) -> str:
    """Prose that is one paragraph in print: every line break and run of spaces one space."""
    return " ".join(clean_prose(value).split())


def _span(role: Literal["rule", "ruling", "term", "number"], value: str) -> Span:
    return Span(role=role, children=text(value))


def _icon(ctx: RenderContext, term: str) -> list[Inline]:
    """A glossary term's icon (none if it has none)."""
    icon = ctx.icons.get(term)
    return [Icon(src=icon)] if icon is not None else []


def _text(value: str) -> Inline:
    return Text(text=value)


def cites(rules: list[str], ctx: RenderContext) -> list[Inline]:
    """Rule numbers side by side, after a space, with the language's separator between them."""
    if not rules:
        return []
    spans: list[list[Inline]] = [[_span("rule", n)] for n in rules]
    numbers = side_by_side(ctx.t(RULES), spans, _text)
    return [Text(text=" "), Span(role="cites", children=numbers)]


def _labelled(ctx: RenderContext, label: str, value: list[Inline] | None = None) -> Paragraph:
    """A paragraph led by a bold label: "**Label:** value", punctuated for the language."""
    bold: list[Inline] = [Strong(children=text(label))]
    if value is None:
        return Paragraph(children=fill(ctx.t(INTRO), {"label": bold}, _text))
    return Paragraph(children=fill(ctx.t(PAIR), {"label": bold, "value": value}, _text))


def head(ctx: RenderContext, document: str) -> Head:
    """A document's head: its title (the game and the kind of document) and its slug line."""
    spec = ctx.spec
    # the slug line names the edition by the spec's version: its words are too long for a card
    return Head(
        lang=ctx.lang,
        title=fill_text(ctx.t(DOCUMENT), game=spec.game.title, document=document),
        slug=[spec.game.title, ctx.lang, spec.game.version],
    )


# -------------------------------------------------------------- reference card


def _steps(steps: list[Step], ctx: RenderContext) -> list[StepItem]:
    return [
        StepItem(
            number=step.number,
            title=text(step.title),
            cites=cites(step.rules, ctx),
            text=inline(_line(step.text), ctx),
            steps=_steps(step.steps, ctx),
        )
        for step in steps
    ]


def _tiebreaks(seq: Sequence, ctx: RenderContext) -> list[Part]:
    out = []
    for step in all_steps(seq.steps):
        w = step.winners
        if w is None:
            continue
        children: list[Block] = []
        # who cannot win, only when the spec has a rule for it
        if ctx.states_who_cannot_win(w):
            children.append(_labelled(ctx, ctx.t(T["eligible"]), inline(w.eligible.fails, ctx)))
        children += [
            _labelled(ctx, ctx.t(T["criteria"])),
            TieBreakOrder(criteria=[inline(c.label, ctx) for c in w.criteria]),
            _labelled(ctx, ctx.t(T["final_tie"]), inline(w.final_tie_note, ctx)),
        ]
        out.append(
            Part(title=[*text(ctx.t(T["tiebreak"])), *cites(step.rules, ctx)], children=children)
        )
    return out


def _table(table_id: str, ctx: RenderContext) -> Table:
    table = next(t for t in ctx.spec.tables if t.id == table_id)
    return Table(
        caption=[*text(table.title), *cites([table.rule], ctx)],
        header=[text(table.key_label), text(table.value_label)],
        rows=[[text(key), text(value)] for key, value in ctx.table_rows(table)],
    )


def reference_card(
    ctx: RenderContext, sequences: list[str], tables: list[str] | None = None
) -> ReferenceCard:
    """The sequences step by step, who wins after them, and the look-up tables named."""
    spec = ctx.spec
    chosen = [next(s for s in spec.sequences if s.id == seq_id) for seq_id in sequences]
    # "Rulebook as of July 2024; spec version 2026.11", in the language's own punctuation
    version = fill_text(ctx.t(SPEC_VERSION), version=spec.game.version)
    edition = inline(spec.game.edition, ctx)
    return ReferenceCard(
        head=head(ctx, ctx.t(T["reference"])),
        game=spec.game.title,
        document=ctx.t(T["reference"]),
        sequences=[
            CardSequence(
                title=[*text(seq.title), *cites(seq.rules, ctx)],
                lead=inline(_line(seq.text), ctx),
                steps=StepList(steps=_steps(seq.steps, ctx)),
            )
            for seq in chosen
        ],
        tiebreaks=[part for seq in chosen for part in _tiebreaks(seq, ctx)],
        tables=[_table(t, ctx) for t in tables or []],
        not_in_source=ctx.t(SOURCES["on_card"]) if spec.not_in_source else None,
        footer=fill(ctx.t(BOTH), {"first": edition, "second": text(version)}, _text),
    )


# -------------------------------------------------------------------- rulebook


def _rules(rules: list[Rule], ctx: RenderContext, anchors: Collection[str]) -> list[RulePart]:
    return [
        RulePart(
            label=rule_label(rule.number),
            number=rule.number,
            title=rule.title,
            children=blocks(rule.text, ctx, anchors=anchors) if rule.text else [],
            rules=_rules(rule.rules, ctx, anchors),
        )
        for rule in rules
    ]


def rulebook(ctx: RenderContext) -> Rulebook:
    """The whole rulebook: cover, contents, rules, glossary, rulings, examples, sources."""
    spec = ctx.spec
    g = spec.game
    # what the book's cross-references may point to (each says its page)
    anchors = frozenset(rule_label(r.number) for r in all_rules(spec.rules)) | frozenset(
        ruling_label(r.id) for r in spec.rulings
    )
    cover = Cover(
        title=g.title,
        document=ctx.t(T["rulebook"]),
        summary=blocks(g.summary, ctx),
        facts=[
            _labelled(ctx, ctx.t(T["edition"]), inline(g.edition, ctx)),
            _labelled(ctx, ctx.t(T["source"]), inline(g.source.document, ctx)),
        ],
    )
    contents = [
        ContentsEntry(label=rule_label(r.number), number=r.number, title=r.title)
        for r in spec.rules
    ]
    # a game with no rulings (or no glossary, no examples) has no such chapter, nor its entry
    present = {"glossary": spec.glossary, "rulings": spec.rulings, "examples": spec.examples}
    titles = {key: ctx.t(T[key]) if held else None for key, held in present.items()}
    contents += [
        ContentsEntry(label=key, title=title) for key, title in titles.items() if title is not None
    ]
    sources = appendix(ctx, lambda value: inline(_line(value), ctx, anchors=anchors))
    if sources is not None:
        contents.append(ContentsEntry(label="sources", title=sources.title))
    return Rulebook(
        head=head(ctx, ctx.t(T["rulebook"])),
        cover=cover,
        contents_title=ctx.t(T["contents"]),
        contents=contents,
        rules=_rules(spec.rules, ctx, anchors),
        glossary_title=titles["glossary"],
        glossary=[
            BookTerm(
                icon=_icon(ctx, t.id),
                term=t.term,
                definition=[
                    *inline(_line(t.definition), ctx, anchors=anchors),
                    *cites(t.rules, ctx),
                ],
            )
            for t in ctx.glossary()
        ],
        rulings_title=titles["rulings"],
        rulings=[
            Part(
                label=ruling_label(r.id),
                title=[*text(r.title), *cites(r.rules, ctx)],
                children=[
                    _labelled(ctx, ctx.t(T["question"]), inline(r.question, ctx, anchors=anchors)),
                    # the same blocks as the rulings page's: the passages, quoted
                    *source_says(ctx, r.says),
                    _labelled(ctx, ctx.t(T["decision"]), inline(r.decision, ctx, anchors=anchors)),
                ],
            )
            for r in spec.rulings
        ],
        examples_title=titles["examples"],
        examples=[
            Part(
                title=[*text(ex.title), *cites(ex.rules, ctx)],
                children=blocks(ex.text, ctx, anchors=anchors),
            )
            for ex in spec.examples
        ],
        sources=sources,
    )


def notes_pages(ctx: RenderContext, count: int) -> NotesPages:
    """``count`` pages for the reader's notes: they make a bound rulebook's pages a multiple of 4."""
    return NotesPages(head=head(ctx, ctx.t(T["rulebook"])), title=ctx.t(T["notes"]), count=count)


# ------------------------------------------------------------------ step cards


def step_cards(ctx: RenderContext, sequences: list[str]) -> StepCards:
    """A card for every step of the reference sequences (a step with sub-steps introduces them)."""
    spec = ctx.spec
    cards = []
    for seq_id in sequences:
        seq = next(s for s in spec.sequences if s.id == seq_id)
        for step in all_steps(seq.steps):
            cards.append(
                StepCard(
                    name=f"{seq.id} step {step.number}",
                    sequence=seq.title,
                    number=step.number,
                    title=step.title,
                    text=inline(_line(step.text), ctx),
                    cites=cites(step.rules, ctx),
                    game=spec.game.title,
                    deck=ctx.t(T["cards"]),
                )
            )
    return StepCards(head=head(ctx, ctx.t(T["cards"])), cards=cards)
