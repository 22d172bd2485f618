"""A game's pages as MyST text, from its spec in one language (stage 1 of the site).

The pages are plain text that Sphinx parses (with myst-parser and
sphinx-design); they can be read, diffed and tested without Sphinx. Every
rule has the label ``rule-<number>`` (the same anchor in every language),
every ruling ``ruling-<id>``, every example ``example-<id>``. Worked examples
carry a doctest that runs the real scorer on the example's state and compares
what the page states; its code comes from the spec's ids and values, never
from translated text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

import yaml

from rulepress.render.context import RenderContext
from rulepress.render.myst import Links, blocks, escape, inline, rule_label, ruling_label
from rulepress.spec.model import Example, Rule, Sequence, Step, Table
from rulepress.uitext import ui

#: the pages of every game, in reading order
PAGES = ("index", "rules", "sequences", "scoring", "rulings", "glossary", "examples", "rules-index")

T = {
    "overview": ui("page.title", "Overview"),
    "rules": ui("page.title", "Rules"),
    "sequences": ui("page.title", "Reference sequences"),
    "scoring": ui("page.title", "Scoring tables and tie-breaks"),
    "rulings": ui("page.title", "Rulings"),
    "glossary": ui("page.title", "Glossary"),
    "examples": ui("page.title", "Worked examples"),
    "rules-index": ui("page.title", "Rules index"),
    "source": ui("page.game", "Source"),
    "edition": ui("page.game", "Edition"),
    "players": ui("page.game", "Players"),
    "designer": ui("page.game", "Designer"),
    "publisher": ui("page.game", "Publisher"),
    "external": ui("page.rules", "Rules cited from other documents"),
    "cites": ui("page.rules", "Rules"),
    "question": ui("page.ruling", "What is unclear"),
    "decision": ui("page.ruling", "Decision"),
    "reason": ui("page.ruling", "Why"),
    "options": ui("page.ruling", "Options (the default first; others are variants)"),
    "default": ui("page.ruling", "default"),
    "tiebreak": ui("page.scoring", "Who wins"),
    "criteria": ui("page.scoring", "Tie-breaks, in order"),
    "eligible": ui("page.scoring", "Who cannot win"),
    "final_tie": ui("page.scoring", "If still tied"),
    "state": ui("page.example", "Table state"),
    "stated": ui("page.example", "Result"),
    "winners": ui("page.example", "Winners"),
    "decided": ui("page.example", "decided by"),
    "variants": ui("page.example", "Variants used"),
    "checked": ui("page.example", "Checked against the reference scorer:"),
    "number": ui("page.rules", "Number"),
    "title": ui("page.rules", "Title"),
    "home": ui("page.title", "All games"),
}


def links_of(ctx: RenderContext) -> Links:
    """Where the page's references point: rule permalinks, numbers, terms, rulings."""
    spec = ctx.spec
    return Links(
        frozenset(_rule_numbers(spec.rules)),
        {name: ctx.number(p.value) for name, p in spec.parameters.items()},
        {term.id: term.term for term in spec.glossary},
        {r.id: r.title for r in spec.rulings},
    )


def _rule_numbers(rules: list[Rule]) -> Iterator[str]:
    for rule in rules:
        yield rule.number
        yield from _rule_numbers(rule.rules)


def _walk_rules(rules: list[Rule], depth: int = 0) -> Iterator[tuple[Rule, int]]:
    for rule in rules:
        yield rule, depth
        yield from _walk_rules(rule.rules, depth + 1)


def _heading(level: int, text: str) -> str:
    return "#" * min(level, 6) + " " + text


def game_pages(ctx: RenderContext) -> dict[str, str]:
    """Every page of one game: name (without .md) → MyST text."""
    return {
        "index": _index(ctx),
        "rules": _rules(ctx),
        "sequences": _sequences(ctx),
        "scoring": _scoring(ctx),
        "rulings": _rulings(ctx),
        "glossary": _glossary(ctx),
        "examples": _examples(ctx),
        "rules-index": _rules_index(ctx),
    }


def _index(ctx: RenderContext) -> str:
    g, links = ctx.spec.game, links_of(ctx)
    facts = [
        (ctx.t(T["edition"]), inline(g.edition, links)),
        (ctx.t(T["players"]), escape(g.players)),
        (ctx.t(T["source"]), inline(g.source.document, links)),
    ]
    if g.designer:
        facts.append((ctx.t(T["designer"]), escape(g.designer)))
    if g.publisher:
        facts.append((ctx.t(T["publisher"]), escape(g.publisher)))
    lines = [f"# {escape(g.title)}", "", blocks(g.summary, links), ""]
    lines += [f"- **{escape(k)}:** {v}" for k, v in facts]
    if g.source.note:
        lines += ["", blocks(g.source.note, links)]
    lines += ["", "```{toctree}", ":maxdepth: 1", ""]
    lines += [page for page in PAGES if page != "index"]
    lines += ["```", ""]
    if ctx.home:
        # a plain link out of this Sphinx project (games and the home page are separate projects)
        label = html.escape(ctx.t(T["home"]))
        lines += [f'<p class="rp-home"><a href="{html.escape(ctx.home)}">← {label}</a></p>', ""]
    return "\n".join(lines)


def _rules(ctx: RenderContext) -> str:
    links = links_of(ctx)
    out = [f"# {escape(ctx.t(T['rules']))}", ""]
    for rule, depth in _walk_rules(ctx.spec.rules):
        out += [
            f"({rule_label(rule.number)})=",
            _heading(depth + 2, f"{rule.number} {escape(rule.title)}"),
            "",
        ]
        if rule.text:
            out += [blocks(rule.text, links), ""]
    if ctx.spec.external_rules:
        out += [_heading(2, escape(ctx.t(T["external"]))), ""]
        for ext in ctx.spec.external_rules:
            line = f"- **{ext.number} {escape(ext.title)}** ({escape(ext.source)})"
            if ext.summary:
                line += ": " + inline(ext.summary, links)
            out.append(line)
        out.append("")
    return "\n".join(out)


def _cites(rules: list[str], links: Links) -> str:
    return ", ".join(inline(f"{{rule:{n}}}", links) for n in rules)


def _steps(steps: list[Step], ctx: RenderContext, depth: int = 0) -> list[str]:
    links = links_of(ctx)
    out = []
    for step in steps:
        colons = ":" * (4 + max(0, 2 - depth))
        out += [f"{colons}{{card}} {step.number}. {escape(step.title)}", ""]
        out += [blocks(step.text, links), ""]
        if step.steps:
            out += _steps(step.steps, ctx, depth + 1)
        if step.rules:
            out += [
                f"{colons[:-1]}{{card-footer}}",
                f"{ctx.t(T['cites'])}: {_cites(step.rules, links)}",
                f"{colons[:-1]}",
                "",
            ]
        out += [colons, ""]
    return out


def _sequences(ctx: RenderContext) -> str:
    links = links_of(ctx)
    out = [f"# {escape(ctx.t(T['sequences']))}", ""]
    for seq in ctx.spec.sequences:
        out += [f"(sequence-{seq.id})=", f"## {escape(seq.title)}", "", blocks(seq.text, links), ""]
        if seq.rules:
            out += [f"{ctx.t(T['cites'])}: {_cites(seq.rules, links)}", ""]
        out += _steps(seq.steps, ctx)
    return "\n".join(out)


def _table(table: Table, ctx: RenderContext) -> list[str]:
    values = {name: p.value for name, p in ctx.spec.parameters.items()}

    def num(value: int | str | None) -> str:
        if value is None:
            return ""
        return ctx.number(value if isinstance(value, int) else values[value.removeprefix("param:")])

    out = [
        f"(table-{table.id})=",
        f"## {escape(table.title)}",
        "",
        f"{ctx.t(T['cites'])}: {_cites([table.rule], links_of(ctx))}",
        "",
    ]
    out += [f"| {escape(table.key_label)} | {escape(table.value_label)} |", "| --- | --- |"]
    for row in table.rows:
        key = (
            num(row.min)
            if row.max is None or num(row.max) == num(row.min)
            else f"{num(row.min)}–{num(row.max)}"
        )
        out.append(f"| {key} | {num(row.value)} |")
    return [*out, ""]


def _scoring(ctx: RenderContext) -> str:
    links = links_of(ctx)
    out = [f"# {escape(ctx.t(T['scoring']))}", ""]
    for table in ctx.spec.tables:
        out += _table(table, ctx)
    for seq in ctx.spec.sequences:
        for step in _all_steps(seq.steps):
            if step.winners is None:
                continue
            w = step.winners
            out += [
                f"## {escape(ctx.t(T['tiebreak']))}: {escape(seq.title)}",
                "",
                f"{ctx.t(T['cites'])}: {_cites(step.rules, links)}",
                "",
            ]
            out += [f"**{escape(ctx.t(T['eligible']))}:** {inline(w.eligible.fails, links)}", ""]
            out += [f"**{escape(ctx.t(T['criteria']))}:**", ""]
            out += [f"{i}. {inline(c.label, links)}" for i, c in enumerate(w.criteria, start=1)]
            out += [
                "",
                f"**{escape(ctx.t(T['final_tie']))}:** {inline(w.final_tie_note, links)}",
                "",
            ]
    return "\n".join(out)


def _all_steps(steps: list[Step]) -> Iterator[Step]:
    for step in steps:
        yield step
        yield from _all_steps(step.steps)


def _rulings(ctx: RenderContext) -> str:
    links = links_of(ctx)
    out = [f"# {escape(ctx.t(T['rulings']))}", ""]
    for r in ctx.spec.rulings:
        out += [f"({ruling_label(r.id)})=", f"## {escape(r.title)}", ""]
        if r.rules:
            out += [f"{ctx.t(T['cites'])}: {_cites(r.rules, links)}", ""]
        for key in ("question", "decision", "reason"):
            out += [f"**{escape(ctx.t(T[key]))}:** {inline(getattr(r, key), links)}", ""]
        out += [f"**{escape(ctx.t(T['options']))}:**", ""]
        for opt in sorted(r.options, key=lambda o: o.id != r.default):
            mark = f" ({escape(ctx.t(T['default']))})" if opt.id == r.default else ""
            out.append(
                f"- `{opt.id}`{mark}: **{escape(opt.title)}**: {inline(opt.description, links)}"
            )
        out.append("")
    return "\n".join(out)


def _glossary(ctx: RenderContext) -> str:
    links = links_of(ctx)
    out = [f"# {escape(ctx.t(T['glossary']))}", "", "```{glossary}"]
    for term in sorted(ctx.spec.glossary, key=lambda t: t.term.casefold()):
        out.append(term.term.replace("\n", " "))
        definition = inline(" ".join(term.definition.split()), links)
        if term.rules:
            definition += f" ({_cites(term.rules, links)})"
        out.append("   " + definition)
        out.append("")
    out += ["```", ""]
    return "\n".join(out)


def _rules_index(ctx: RenderContext) -> str:
    out = [
        f"# {escape(ctx.t(T['rules-index']))}",
        "",
        f"| {escape(ctx.t(T['number']))} | {escape(ctx.t(T['title']))} |",
        "| --- | --- |",
    ]
    for rule, _ in _walk_rules(ctx.spec.rules):
        out.append(f"| {{ref}}`{rule.number} <{rule_label(rule.number)}>` | {escape(rule.title)} |")
    return "\n".join(out) + "\n"


def _sequence_of(ctx: RenderContext, ex: Example) -> Sequence:
    wanted = ex.sequence or ctx.spec.scorer.sequence
    return next(s for s in ctx.spec.sequences if s.id == wanted)


def _examples(ctx: RenderContext) -> str:
    links = links_of(ctx)
    out = [f"# {escape(ctx.t(T['examples']))}", ""]
    for ex in ctx.spec.examples:
        seq = _sequence_of(ctx, ex)
        out += [f"(example-{ex.id})=", f"## {escape(ex.title)}", ""]
        out += [
            f"{ctx.t(T['cites'])}: {_cites(ex.rules, links)} · {{ref}}`{_plain(seq.title)} <sequence-{seq.id}>`",
            "",
        ]
        if ex.variants:
            out += [
                f"{escape(ctx.t(T['variants']))}: " + ", ".join(f"`{v}`" for v in ex.variants),
                "",
            ]
        out += [blocks(ex.text, links), ""]
        out += [
            f"**{escape(ctx.t(T['state']))}**",
            "",
            "```yaml",
            yaml.safe_dump(ex.state, allow_unicode=True, sort_keys=False).rstrip(),
            "```",
            "",
        ]
        out += [f"**{escape(ctx.t(T['stated']))}**", ""]
        out += _stated(ctx, ex, seq)
        out += ["", escape(ctx.t(T["checked"])), ""]
        out += _doctest(ctx.spec.game.id, ex)
    return "\n".join(out)


def _plain(text: str) -> str:
    return re.sub(r"[`<>]", "", text)


def _stated(ctx: RenderContext, ex: Example, seq: Sequence) -> list[str]:
    titles = {s.score.id: s.score.title for s in _all_steps(seq.steps) if s.score}
    titles.update(seq.show)
    if seq.total_label:
        titles["total"] = seq.total_label
    out = []
    for pid, facts in ex.expect.players.items():
        parts = []
        for key, value in facts.items():
            name, _, part = key.partition(".")
            label = titles.get(name, name) + (
                f" ({ctx.spec.vocabulary.get(part, part)})" if part else ""
            )
            shown = ctx.spec.vocabulary.get(value, value) if isinstance(value, str) else value
            parts.append(f"{escape(label)} {_value(shown, ctx)}")
        out.append(f"- **{escape(pid)}**: " + "; ".join(parts))
    for tally_id, facts in ex.expect.tallies.items():
        for key, value in facts.items():
            out.append(f"- `{tally_id}.{key}`: `{json.dumps(value, ensure_ascii=False)}`")
    if ex.expect.winners is not None:
        line = f"- **{escape(ctx.t(T['winners']))}**: {escape(', '.join(ex.expect.winners) or '—')}"
        if ex.expect.decided_by:
            line += f" ({escape(ctx.t(T['decided']))} `{ex.expect.decided_by}`)"
        out.append(line)
    return out


def _value(value: object, ctx: RenderContext) -> str:
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, int):
        return escape(ctx.number(value))
    return escape(str(value))


def _doctest(game: str, ex: Example) -> list[str]:
    """A doctest that runs the scorer on the example and checks every stated fact."""
    lines = [
        "```{doctest}",
        ">>> from rulepress.doctest_api import run_example",
        f">>> result = run_example({game!r}, {ex.id!r})",
    ]
    for pid, facts in ex.expect.players.items():
        for key, value in facts.items():
            lines += [f">>> result.fact({pid!r}, {key!r})", repr(value)]
    for tally_id, facts in ex.expect.tallies.items():
        for key, value in facts.items():
            lines += [f">>> result.tally({tally_id!r}, {key!r}) == {value!r}", "True"]
    if ex.expect.winners is not None:
        lines += [">>> sorted(result.winners())", repr(sorted(ex.expect.winners))]
    if ex.expect.decided_by is not None:
        lines += [">>> result.decided_by()", repr(ex.expect.decided_by)]
    return [*lines, "```", ""]
