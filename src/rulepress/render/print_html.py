"""A game's printed documents as HTML, from its spec in one language (stage 1 of print).

Three kinds of document, all plain HTML that WeasyPrint lays out with the
print stylesheet: the reference card (the reference sequences and the
tie-breaks on one page), the rulebook (cover, contents, every rule, glossary,
rulings, worked examples) and step cards (one card per step, with a back).
Every text is HTML-escaped, so a translation cannot add markup to a print
file either.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass

from rulepress.render.context import RenderContext
from rulepress.spec.model import Rule, Sequence, Step
from rulepress.spec.text import Ref, transform
from rulepress.uitext import ui

T = {
    "reference": ui("print", "Reference card"),
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
}


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def inline(text: str, ctx: RenderContext) -> str:
    """Spec markup as HTML: rule numbers marked, numbers filled in, terms emphasised."""
    params = {name: ctx.number(p.value) for name, p in ctx.spec.parameters.items()}
    terms = {t.id: t.term for t in ctx.spec.glossary}
    rulings = {r.id: r.title for r in ctx.spec.rulings}

    def ref(token: Ref) -> str:
        if token.kind == "rule":
            return f'<span class="rule">{_e(token.target)}</span>'
        if token.kind == "param":
            return _e(params.get(token.target, token.target))
        if token.kind == "ruling":
            return f'<span class="ruling">{_e(rulings.get(token.target, token.target))}</span>'
        if token.kind == "term":
            words = token.words or terms.get(token.target, token.target)
            return f'<span class="term">{_e(words)}</span>'
        return _e("{" + token.target + "}")

    return transform(text, _e, ref)


def blocks(text: str, ctx: RenderContext) -> str:
    out = []
    for block in text.strip().split("\n\n"):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
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
            out.append(f"<p>{inline(' '.join(para), ctx)}</p>")
        if items:
            out.append("<ul>" + "".join(f"<li>{inline(i, ctx)}</li>" for i in items) + "</ul>")
    return "".join(out)


def _cites(rules: list[str]) -> str:
    if not rules:
        return ""
    return (
        '<span class="cites">'
        + ", ".join(f'<span class="rule">{_e(n)}</span>' for n in rules)
        + "</span>"
    )


def _document(ctx: RenderContext, title: str, body: str, kind: str, created: str) -> str:
    return (
        f'<!doctype html><html lang="{_e(ctx.lang)}"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title>"
        f'<meta name="dcterms.created" content="{_e(created)}">'
        f'<meta name="dcterms.modified" content="{_e(created)}">'
        f'<meta name="generator" content="rulepress"></head>'
        f'<body class="{kind}">{body}</body></html>'
    )


def _steps(steps: list[Step], ctx: RenderContext) -> str:
    items = []
    for step in steps:
        sub = f'<ol class="substeps">{_steps(step.steps, ctx)}</ol>' if step.steps else ""
        items.append(
            f'<li><span class="n">{_e(step.number)}</span> <b>{_e(step.title)}</b> '
            f'{_cites(step.rules)}<div class="text">{inline(" ".join(step.text.split()), ctx)}</div>{sub}</li>'
        )
    return "".join(items)


def _all_steps(steps: list[Step]) -> Iterator[Step]:
    for step in steps:
        yield step
        yield from _all_steps(step.steps)


def _tiebreak(seq: Sequence, ctx: RenderContext) -> str:
    out = []
    for step in _all_steps(seq.steps):
        w = step.winners
        if w is None:
            continue
        criteria = "".join(f"<li>{inline(c.label, ctx)}</li>" for c in w.criteria)
        out.append(
            f'<section class="tiebreak"><h3>{_e(ctx.t(T["tiebreak"]))} {_cites(step.rules)}</h3>'
            f"<p><b>{_e(ctx.t(T['eligible']))}:</b> {inline(w.eligible.fails, ctx)}</p>"
            f"<p><b>{_e(ctx.t(T['criteria']))}:</b></p><ol>{criteria}</ol>"
            f"<p><b>{_e(ctx.t(T['final_tie']))}:</b> {inline(w.final_tie_note, ctx)}</p></section>"
        )
    return "".join(out)


def _table(table_id: str, ctx: RenderContext) -> str:
    table = next(t for t in ctx.spec.tables if t.id == table_id)
    values = {name: p.value for name, p in ctx.spec.parameters.items()}

    def num(value: int | str | None) -> str:
        if value is None:
            return ""
        return ctx.number(value if isinstance(value, int) else values[value.removeprefix("param:")])

    rows = "".join(
        f"<tr><td>{num(r.min)}{'' if r.max is None or num(r.max) == num(r.min) else '–' + num(r.max)}</td>"
        f"<td>{num(r.value)}</td></tr>"
        for r in table.rows
    )
    return (
        f'<table class="lookup"><caption>{_e(table.title)} {_cites([table.rule])}</caption>'
        f"<tr><th>{_e(table.key_label)}</th><th>{_e(table.value_label)}</th></tr>{rows}</table>"
    )


def reference_card(
    ctx: RenderContext, sequences: list[str], created: str, tables: list[str] | None = None
) -> str:
    """One page: the reference sequences with their steps, rule numbers, tie-breaks and tables."""
    spec = ctx.spec
    parts = [
        f'<header><h1>{_e(spec.game.title)}</h1><p class="kind">{_e(ctx.t(T["reference"]))}</p></header>'
    ]
    # the tables flow with the last sequence's columns, where there is room
    tables_html = "".join(_table(t, ctx) for t in tables or [])
    for i, seq_id in enumerate(sequences):
        seq = next(s for s in spec.sequences if s.id == seq_id)
        extra = tables_html if i == len(sequences) - 1 else ""
        parts.append(
            f'<section class="sequence"><h2>{_e(seq.title)} {_cites(seq.rules)}</h2>'
            f'<p class="lead">{inline(" ".join(seq.text.split()), ctx)}</p>'
            f'<ol class="steps">{_steps(seq.steps, ctx)}</ol>{_tiebreak(seq, ctx)}{extra}</section>'
        )
    parts.append(f"<footer>{inline(spec.game.edition, ctx)} · {_e(spec.game.version)}</footer>")
    return _document(
        ctx, f"{spec.game.title}: {ctx.t(T['reference'])}", "".join(parts), "reference", created
    )


def _rules(rules: list[Rule], ctx: RenderContext, depth: int = 0) -> str:
    out = []
    for rule in rules:
        level = min(depth + 2, 4)
        anchor = "rule-" + rule.number.replace(".", "-")
        chapter = ' class="chapter"' if depth == 0 else ""
        out.append(
            f'<h{level} id="{anchor}"{chapter}><span class="n">{_e(rule.number)}</span> {_e(rule.title)}</h{level}>'
        )
        if rule.text:
            out.append(blocks(rule.text, ctx))
        out.append(_rules(rule.rules, ctx, depth + 1))
    return "".join(out)


def rulebook(ctx: RenderContext, created: str) -> str:
    """The whole rulebook: cover, contents with page numbers, rules, glossary, rulings, examples."""
    spec = ctx.spec
    g = spec.game
    cover = (
        f'<section class="cover"><h1>{_e(g.title)}</h1><p class="kind">{_e(ctx.t(T["rulebook"]))}</p>'
        f"{blocks(g.summary, ctx)}<p><b>{_e(ctx.t(T['edition']))}:</b> {inline(g.edition, ctx)}</p>"
        f"<p><b>{_e(ctx.t(T['source']))}:</b> {inline(g.source.document, ctx)}</p></section>"
    )
    toc_items = "".join(
        f'<li><a href="#rule-{r.number.replace(".", "-")}"><span class="n">{_e(r.number)}</span> {_e(r.title)}</a></li>'
        for r in spec.rules
    )
    toc_items += "".join(
        f'<li><a href="#{anchor}">{_e(ctx.t(T[key]))}</a></li>'
        for key, anchor in (
            ("glossary", "glossary"),
            ("rulings", "rulings"),
            ("examples", "examples"),
        )
    )
    toc = f'<nav class="toc"><h2>{_e(ctx.t(T["contents"]))}</h2><ol>{toc_items}</ol></nav>'
    rules = f'<section class="rules">{_rules(spec.rules, ctx)}</section>'
    glossary = "".join(
        f"<dt>{_e(t.term)}</dt><dd>{inline(' '.join(t.definition.split()), ctx)} {_cites(t.rules)}</dd>"
        for t in sorted(spec.glossary, key=lambda t: t.term.casefold())
    )
    rulings = "".join(
        f'<section class="ruling"><h3>{_e(r.title)} {_cites(r.rules)}</h3>'
        f"<p><b>{_e(ctx.t(T['question']))}:</b> {inline(r.question, ctx)}</p>"
        f"<p><b>{_e(ctx.t(T['decision']))}:</b> {inline(r.decision, ctx)}</p></section>"
        for r in spec.rulings
    )
    examples = "".join(
        f'<section class="example"><h3>{_e(ex.title)} {_cites(ex.rules)}</h3>{blocks(ex.text, ctx)}</section>'
        for ex in spec.examples
    )
    body = (
        cover
        + toc
        + rules
        + f'<section class="glossary" id="glossary"><h2 class="chapter">{_e(ctx.t(T["glossary"]))}</h2><dl>{glossary}</dl></section>'
        + f'<section id="rulings"><h2 class="chapter">{_e(ctx.t(T["rulings"]))}</h2>{rulings}</section>'
        + f'<section id="examples"><h2 class="chapter">{_e(ctx.t(T["examples"]))}</h2>{examples}</section>'
    )
    return _document(ctx, f"{g.title}: {ctx.t(T['rulebook'])}", body, "rulebook", created)


@dataclass(frozen=True)
class Card:
    """One step card: its front and back as HTML fragments."""

    name: str
    front: str
    back: str


def step_cards(ctx: RenderContext, sequences: list[str]) -> list[Card]:
    """A card for every step of the reference sequences (a step with sub-steps introduces them)."""
    spec = ctx.spec
    cards = []
    for seq_id in sequences:
        seq = next(s for s in spec.sequences if s.id == seq_id)
        for step in _all_steps(seq.steps):
            front = (
                f'<div class="card-front"><p class="seq">{_e(seq.title)}</p>'
                f'<h2><span class="n">{_e(step.number)}</span> {_e(step.title)}</h2>'
                f'<div class="text">{inline(" ".join(step.text.split()), ctx)}</div>'
                f'<p class="foot">{_cites(step.rules)}</p></div>'
            )
            back = (
                f'<div class="card-back"><p class="game">{_e(spec.game.title)}</p>'
                f'<p class="kind">{_e(ctx.t(T["reference"]))}</p><p class="lang">{_e(ctx.lang)}</p></div>'
            )
            cards.append(Card(f"{seq.id} step {step.number}", front, back))
    return cards


def card_document(ctx: RenderContext, fragment: str, created: str, title: str) -> str:
    return _document(ctx, title, fragment, "card", created)
