"""A game's printed documents as HTML, from its spec in one language (stage 1 of print).

Three kinds of document, all plain HTML that WeasyPrint lays out with the
print stylesheet: the reference card (the reference sequences and the
tie-breaks on one page), the rulebook (cover, contents, every rule, glossary,
rulings, worked examples) and step cards (one card per step, with a back).

Specs and translations are untrusted, so no HTML is written from strings
here: every document is a tree of :mod:`rulepress.render.html_tree`
elements, whose one serialiser escapes and cleans every text and attribute
value. Spec text reaches the tree only as text children, after the spec's
own markup (rule numbers, parameters, terms, paragraphs, ``- `` lists) has
been turned into elements. :func:`reference_card`, :func:`rulebook` and
:func:`card_document` return the serialised HTML: the stage a test or a
person can inspect before WeasyPrint lays it out.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from rulepress.i18n.typography import quote
from rulepress.model.spec_model import Rule, Sequence, Step, all_rules, all_steps
from rulepress.model.text import Ref, show_param, transform
from rulepress.render.context import RenderContext
from rulepress.render.html_tree import Attrs, Content, Element, Tag, clean_prose, document, el
from rulepress.render.markup import ruling_label
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
from rulepress.render.sources import T as SOURCES
from rulepress.render.sources import appendix
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

#: heading elements by nesting depth of a rule (deeper rules stay at h4)
_HEADINGS: tuple[Tag, ...] = ("h2", "h3", "h4")


#: a cross-reference in the rulebook, with the page its target is on (the number is
#: CSS's target-counter, filled in by the layout: {page} is an empty link)
PAGE_REF = ui("print", "{target}, p. {page}")


def inline(
    text: str, ctx: RenderContext, *, anchors: Collection[str] = frozenset()
) -> list[Content]:
    """Spec markup as elements: rule numbers marked, numbers filled in, terms emphasised.

    ``anchors``: the ids the document has (the rulebook's rules and rulings); a rule
    or a ruling referred to that has one says the page it is on.
    """
    params = ctx.spec.parameters
    terms = {t.id: t.term for t in ctx.spec.glossary}
    rulings = {r.id: quote(r.title, ctx.lang) for r in ctx.spec.rulings}
    out: list[Content] = []

    def literal(part: str) -> str:
        out.append(part)
        return ""

    def page_ref(target: Content, anchor: str) -> None:
        page = el("a", href="#" + anchor, cls="pageref")
        out.extend(fill(ctx.t(PAGE_REF), {"target": [target], "page": [page]}, _text))

    def ref(token: Ref) -> str:
        if token.kind == "rule" and _anchor(token.target) in anchors:
            page_ref(el("span", token.target, cls="rule"), _anchor(token.target))
        elif token.kind == "rule":
            out.append(el("span", token.target, cls="rule"))
        elif token.kind == "param":
            param = params.get(token.target)
            if param is None:
                out.append(token.target)
            else:
                # the form that agrees, as spec text of its own: it may hold glossary links
                chosen = show_param(token, param.value, ctx.number(param.value), ctx.plural)
                out.extend(inline(chosen, ctx, anchors=anchors) if token.forms else [chosen])
        elif token.kind == "ruling" and _ruling_anchor(token.target) in anchors:
            ruling = rulings.get(token.target, token.target)
            page_ref(el("span", ruling, cls="ruling"), _ruling_anchor(token.target))
        elif token.kind == "ruling":
            out.append(el("span", rulings.get(token.target, token.target), cls="ruling"))
        elif token.kind == "term":
            words = token.words or terms.get(token.target, token.target)
            out.extend(_icon(ctx, token.target))  # its icon, if it has one, before its words
            out.append(el("span", words, cls="term"))
        else:
            out.append("{" + token.target + "}")
        return ""

    # the project's one markup walker; it joins strings, so the nodes are collected on the side
    transform(text, literal, ref)
    return out


def _line(text: str) -> str:
    """Prose that is one paragraph in print: every line break and run of spaces one space."""
    return " ".join(clean_prose(text).split())


def _icon(ctx: RenderContext, term: str) -> list[Element]:
    """A glossary term's icon (none if it has none); its words say what it shows, so alt is ""."""
    icon = ctx.icons.get(term)
    return [el("img", src=icon, alt="", cls="icon")] if icon is not None else []


def blocks(
    text: str, ctx: RenderContext, *, anchors: Collection[str] = frozenset()
) -> list[Element]:
    """Paragraphs (blank-line separated) and ``- `` lists, as in :mod:`rulepress.model.text`."""
    out = []
    # only LF separates lines: CR, U+2028 and the like are spaces (see html_tree.clean_prose)
    for block in clean_prose(text).strip().split("\n\n"):
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
            out.append(el("p", inline(" ".join(para), ctx, anchors=anchors)))
        if items:
            out.append(el("ul", [el("li", inline(i, ctx, anchors=anchors)) for i in items]))
    return out


def _cites(rules: list[str], ctx: RenderContext) -> list[Content]:
    """Rule numbers side by side, after a space, with the language's separator between them."""
    if not rules:
        return []
    spans: list[list[Content]] = [[el("span", n, cls="rule")] for n in rules]
    numbers = side_by_side(ctx.t(RULES), spans, _text)
    # (the HTML writer sets the space inside the span, as before every inline element)
    return [" ", el("span", numbers, cls="cites")]


def _text(value: str) -> Content:
    return value


def _labelled(ctx: RenderContext, label: str, *value: Content) -> Element:
    """A paragraph led by a bold label: ``<p><b>Label:</b> value</p>``, punctuated for the language."""
    bold: list[Content] = [el("b", label)]
    if not value:
        return el("p", fill(ctx.t(INTRO), {"label": bold}, _text))
    return el("p", fill(ctx.t(PAIR), {"label": bold, "value": list(value)}, _text))


def document_title(ctx: RenderContext, document: str) -> str:
    """A document's title (what a PDF viewer shows): the game and the kind of document."""
    return fill_text(ctx.t(DOCUMENT), game=ctx.spec.game.title, document=document)


def _document(ctx: RenderContext, title: str, body: Content, kind: str, created: str) -> str:
    head = el(
        "head",
        el("meta", charset="utf-8"),
        el("title", title),
        el("meta", name="dcterms.created", content=created),
        el("meta", name="dcterms.modified", content=created),
        el("meta", name="generator", content="rulepress"),
    )
    # the slug line a press file with printer's marks shows below its bleed (a CSS
    # string set from this element, never from CSS text): the game, the language, the
    # edition (the spec's version: the edition's words are too long for a card), the date
    slug = [ctx.spec.game.title, ctx.lang, ctx.spec.game.version, created[:10]]
    body = [el("p", " · ".join(part for part in slug if part), cls="slug"), body]
    return document(el("html", head, el("body", body, cls=kind), lang=ctx.lang))


def _steps(steps: list[Step], ctx: RenderContext) -> list[Element]:
    """Steps with their number in a badge; a step with sub-steps is a group of its own."""
    out = []
    for step in steps:
        parts: list[Content] = [
            el("span", step.number, cls="badge"),
            el("b", step.title),
            _cites(step.rules, ctx),
            el("div", inline(_line(step.text), ctx), cls="text"),
        ]
        if step.steps:
            parts.append(el("ol", _steps(step.steps, ctx), cls="substeps"))
            out.append(el("li", parts, cls="group"))
        else:
            out.append(el("li", parts))
    return out


def _tiebreak(seq: Sequence, ctx: RenderContext) -> list[Element]:
    out = []
    for step in all_steps(seq.steps):
        w = step.winners
        if w is None:
            continue
        out.append(
            el(
                "section",
                el("h3", ctx.t(T["tiebreak"]), _cites(step.rules, ctx)),
                # who cannot win, only when the spec has a rule for it
                *(
                    [_labelled(ctx, ctx.t(T["eligible"]), inline(w.eligible.fails, ctx))]
                    if ctx.states_who_cannot_win(w)
                    else []
                ),
                _labelled(ctx, ctx.t(T["criteria"])),
                el("ol", [el("li", inline(c.label, ctx)) for c in w.criteria]),
                _labelled(ctx, ctx.t(T["final_tie"]), inline(w.final_tie_note, ctx)),
                cls="tiebreak",
            )
        )
    return out


def _table(table_id: str, ctx: RenderContext) -> Element:
    table = next(t for t in ctx.spec.tables if t.id == table_id)
    rows = [el("tr", el("td", key), el("td", value)) for key, value in ctx.table_rows(table)]
    return el(
        "table",
        el("caption", table.title, _cites([table.rule], ctx)),
        el("tr", el("th", table.key_label), el("th", table.value_label)),
        rows,
        cls="lookup",
    )


#: the pages of a reference card: its front and its back
REFERENCE_FACES = 2


def reference_card(
    ctx: RenderContext, sequences: list[str], created: str, tables: list[str] | None = None
) -> str:
    """Two faces: the sequences step by step in front; who wins and the tables behind."""
    spec = ctx.spec

    def header() -> Element:
        return el("header", el("h1", spec.game.title), el("p", ctx.t(T["reference"]), cls="kind"))

    chosen = [next(s for s in spec.sequences if s.id == seq_id) for seq_id in sequences]
    front: list[Content] = [header()]
    for i, seq in enumerate(chosen):
        front.append(
            el(
                "section",
                el("h2", seq.title, _cites(seq.rules, ctx)),
                el("p", inline(_line(seq.text), ctx), cls="lead"),
                el("ol", _steps(seq.steps, ctx), cls="steps"),
                # one colour zone per sequence (a group of steps), in turn
                cls=f"sequence zone-{i % 3}",
            )
        )
    back: list[Content] = [header()]
    back += [section for seq in chosen for section in _tiebreak(seq, ctx)]
    if tables:
        back.append(el("div", [_table(t, ctx) for t in tables], cls="tables"))
    # "Rulebook as of July 2024; spec version 2026.11", in the language's own punctuation
    version = fill_text(ctx.t(SPEC_VERSION), version=spec.game.version)
    edition = inline(spec.game.edition, ctx)
    if spec.not_in_source:
        # where a player finds what the source lacks (the rulebook's appendix)
        back.append(el("p", ctx.t(SOURCES["on_card"]), cls="not-in-source"))
    back.append(el("footer", fill(ctx.t(BOTH), {"first": edition, "second": [version]}, _text)))
    faces = [el("section", front, cls="face front"), el("section", back, cls="face back")]
    return _document(ctx, document_title(ctx, ctx.t(T["reference"])), faces, "reference", created)


def _rules(
    rules: list[Rule], ctx: RenderContext, anchors: Collection[str], depth: int = 0
) -> list[Element]:
    out: list[Element] = []
    for rule in rules:
        attrs: Attrs = {"id": _anchor(rule.number)}
        if depth == 0:
            attrs["cls"] = "chapter"
        heading = _HEADINGS[min(depth, len(_HEADINGS) - 1)]
        out.append(el(heading, el("span", rule.number, cls="n"), " ", rule.title, **attrs))
        if rule.text:
            out += blocks(rule.text, ctx, anchors=anchors)
        out += _rules(rule.rules, ctx, anchors, depth + 1)
    return out


def _anchor(number: str) -> str:
    return "rule-" + number.replace(".", "-")


def _ruling_anchor(ruling: str) -> str:
    return ruling_label(ruling)  # the site's permalink, so both name a ruling alike


def rulebook(ctx: RenderContext, created: str) -> str:
    """The whole rulebook: cover, contents, rules, glossary, rulings, examples, sources."""
    spec = ctx.spec
    g = spec.game
    # what the book's cross-references may point to (each says its page)
    anchors = frozenset(_anchor(r.number) for r in all_rules(spec.rules)) | frozenset(
        _ruling_anchor(r.id) for r in spec.rulings
    )
    cover = el(
        "section",
        el("h1", g.title),
        el("p", ctx.t(T["rulebook"]), cls="kind"),
        blocks(g.summary, ctx),
        _labelled(ctx, ctx.t(T["edition"]), inline(g.edition, ctx)),
        _labelled(ctx, ctx.t(T["source"]), inline(g.source.document, ctx)),
        cls="cover",
    )
    toc_items = [
        el("li", el("a", el("span", r.number, cls="n"), " ", r.title, href="#" + _anchor(r.number)))
        for r in spec.rules
    ]
    toc_items += [
        el("li", el("a", ctx.t(T[key]), href="#" + key))
        for key in ("glossary", "rulings", "examples")
    ]
    sources = appendix(ctx, lambda value: inline(_line(value), ctx, anchors=anchors))
    if sources:
        toc_items.append(el("li", el("a", ctx.t(SOURCES["sources"]), href="#sources")))
    toc = el("nav", el("h2", ctx.t(T["contents"])), el("ol", toc_items), cls="toc")
    glossary = [
        [
            el("dt", _icon(ctx, t.id), t.term),
            el("dd", inline(_line(t.definition), ctx, anchors=anchors), _cites(t.rules, ctx)),
        ]
        for t in ctx.glossary()
    ]
    rulings = [
        el(
            "section",
            el("h3", r.title, _cites(r.rules, ctx)),
            _labelled(ctx, ctx.t(T["question"]), inline(r.question, ctx, anchors=anchors)),
            _labelled(ctx, ctx.t(T["decision"]), inline(r.decision, ctx, anchors=anchors)),
            cls="ruling",
            id=_ruling_anchor(r.id),
        )
        for r in spec.rulings
    ]
    examples = [
        el(
            "section",
            el("h3", ex.title, _cites(ex.rules, ctx)),
            blocks(ex.text, ctx, anchors=anchors),
            cls="example",
        )
        for ex in spec.examples
    ]
    body = [
        cover,
        toc,
        el("section", _rules(spec.rules, ctx, anchors), cls="rules"),
        el(
            "section",
            el("h2", ctx.t(T["glossary"]), cls="chapter"),
            el("dl", glossary),
            cls="glossary",
            id="glossary",
        ),
        el("section", el("h2", ctx.t(T["rulings"]), cls="chapter"), rulings, id="rulings"),
        el("section", el("h2", ctx.t(T["examples"]), cls="chapter"), examples, id="examples"),
    ]
    if sources:
        # the appendix: what the source lacks, the documents, and where each rule comes from
        body.append(el("section", sources, cls="sources", id="sources"))
    return _document(ctx, document_title(ctx, ctx.t(T["rulebook"])), body, "rulebook", created)


def notes_pages(ctx: RenderContext, count: int, created: str) -> str:
    """``count`` pages for the reader's notes: they make a bound rulebook's pages a multiple of 4."""
    pages = [
        el(
            "section",
            el("h2", ctx.t(T["notes"])),
            [el("div", cls="line") for _ in range(24)],
            cls="notes",
        )
        for _ in range(count)
    ]
    return _document(ctx, document_title(ctx, ctx.t(T["rulebook"])), pages, "rulebook", created)


@dataclass(frozen=True)
class Card:
    """One step card: its front and back as (immutable) elements."""

    name: str
    front: Element
    back: Element


def step_cards(ctx: RenderContext, sequences: list[str]) -> list[Card]:
    """A card for every step of the reference sequences (a step with sub-steps introduces them)."""
    spec = ctx.spec
    cards = []
    for seq_id in sequences:
        seq = next(s for s in spec.sequences if s.id == seq_id)
        for step in all_steps(seq.steps):
            front = el(
                "div",
                el("p", seq.title, cls="seq"),
                el("h2", el("span", step.number, cls="n"), " ", step.title),
                el("div", inline(_line(step.text), ctx), cls="text"),
                el("p", _cites(step.rules, ctx), cls="foot"),
                cls="card-front",
            )
            back = el(
                "div",
                el("p", spec.game.title, cls="game"),
                # what the deck is, in words: no language code is printed on a card
                el("p", ctx.t(T["cards"]), cls="kind"),
                cls="card-back",
            )
            cards.append(Card(f"{seq.id} step {step.number}", front, back))
    return cards


def sized(face: Element, pt: float) -> Element:
    """``face`` with its body type set at ``pt`` points (the size that fits its card)."""
    return replace(face, attrs=(*face.attrs, ("style", f"font-size:{pt:g}pt")))


def card_document(ctx: RenderContext, body: Content, created: str, title: str) -> str:
    """A document of card faces (one card, all faces, or imposed sheets) as HTML."""
    return _document(ctx, title, body, "card", created)


def print_document(ctx: RenderContext, title: str, body: Content, kind: str, created: str) -> str:
    """A print document of another kind (the errata sheet), with the head the others have."""
    return _document(ctx, title, body, kind, created)
