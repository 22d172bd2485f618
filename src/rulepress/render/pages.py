"""A game's pages as document trees, from its spec in one language (stage 1 of the site).

Each page is a :class:`~rulepress.render.tree.Page`: typed nodes that Sphinx
turns into HTML one for one (:mod:`rulepress.sphinx_ext.doctree`). Text from
the spec or a catalog only ever lands in text nodes. Every rule has the label
``rule-<number>`` (the same anchor in every language), every term
``term-<id>``, every ruling ``ruling-<id>``, every example ``example-<id>``,
every table ``table-<id>``. Worked examples carry a :class:`Doctest` built
from the example's stated facts, which the spec holds as data (ids and
values, never prose), so no translation can touch a doctest. Links out of a
game (to all games, to other languages) are the site theme's, not a page's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from babel.lists import format_list

from rulepress.i18n.typography import quote
from rulepress.model import operations
from rulepress.model.spec_model import (
    Example,
    Rule,
    Sequence,
    Spec,
    Step,
    Tally,
    Winners,
    all_rules,
    all_steps,
    every_number,
)
from rulepress.model.spec_model import Table as SpecTable
from rulepress.render.contents import with_contents
from rulepress.render.context import (
    TALLY_FACTS,
    IdNames,
    RenderContext,
    listed,
    option_title,
    route,
    votes,
)
from rulepress.render.example_state import StateView
from rulepress.render.markup import (
    Links,
    blocks,
    inline,
    rule_label,
    ruling_label,
    term_label,
)
from rulepress.render.patterns import (
    BOTH,
    DETAIL,
    INTRO,
    PAIR,
    RULES,
    UNITS,
    fill,
    fill_text,
    side_by_side,
)
from rulepress.render.source_entries import step_label, table_label
from rulepress.render.sources import (
    cards_section,
    missing_page,
    source_marker,
    source_says,
    sources_page,
    table_marker,
)
from rulepress.render.tree import (
    Block,
    BulletList,
    Card,
    Code,
    Details,
    Doctest,
    Fact,
    Glossary,
    GlossaryEntry,
    Group,
    Inline,
    Link,
    Page,
    Paragraph,
    Ref,
    Section,
    Strong,
    Table,
    Text,
    TieBreakOrder,
    TocTree,
    plain_text,
    text,
)
from rulepress.uitext import ui

#: the pages of every game, in reading order (then those of sources, when the spec
#: names any, and the pages made from more than the spec)
PAGES = ("index", "rules", "sequences", "scoring", "rulings", "glossary", "examples", "rules-index")


def page_names(spec: Spec) -> list[str]:
    """The :data:`PAGES` a game has: a game with no rulings has no page of them.

    An empty page, and its entry in the navigation, would tell readers there is
    something to look up; so would the contents of the rulebook (print_trees).
    """
    return [name for name in PAGES if name != "rulings" or spec.rulings]


T = {
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
    # TRANSLATORS: before a vote's title, heading what its ties are decided by
    "vote_ties": ui("page.scoring", "Ties in a vote"),
    "candidate_order": ui("page.scoring", "Tied candidates rank in this order"),
    "order_from_table": ui(
        "page.scoring", "The order that breaks a tie is set during play, as these rules say"
    ),
    "contents": ui("page.title", "Contents"),
    "state": ui("page.example", "Table state"),
    "stated": ui("page.example", "Result"),
    "winners": ui("page.example", "Winners"),
    "winner": ui("page.example", "Winner"),
    "decided": ui("page.example", "decided by"),
    "variants": ui("page.example", "Variants used"),
    "checked": ui(
        "page.example",
        "Every result above is checked against the reference scorer each time the site is built.",
    ),
    "number": ui("page.rules", "Number"),
    "title": ui("page.rules", "Title"),
    "home": ui("page.title", "All games"),
    "downloads": ui("page.game", "Downloads"),
    "press": ui("page.title", "Files for print shops"),
}


def links_of(ctx: RenderContext, *, linked: bool = True) -> Links:
    """Where the page's references point: rule permalinks, numbers, terms, rulings."""
    spec = ctx.spec
    return Links(
        frozenset(rule.number for rule in all_rules(spec.rules)),
        {name: ctx.number(n) for name, n in every_number(spec.parameters).items()},
        {term.id: term.term for term in spec.glossary},
        # a ruling cited in prose shows its title in the language's quotation marks
        {r.id: quote(r.title, ctx.lang) for r in spec.rulings},
        linked=linked,
        values=every_number(spec.parameters),
        plural=ctx.plural,
    )


class _Page:
    """Helpers shared by the page builders of one game in one language."""

    def __init__(
        self, ctx: RenderContext, weights: Mapping[str, list[Block]] | None = None
    ) -> None:
        self.ctx = ctx
        self.weights = weights or {}
        self.links = links_of(ctx)
        # headings and labels never hold links: a reference in them is shown as text
        self.plain = links_of(ctx, linked=False)

    def t(self, key: str) -> str:
        return self.ctx.t(T[key])

    def player(self, pid: str) -> str:
        """A player as readers see them: the vocabulary's word for the id ("Blue"), or the id."""
        return self.ctx.spec.vocabulary.get(pid, pid)

    def title(self, value: str) -> list[Inline]:
        return inline(value, self.plain)

    def fill(self, pattern: str, **values: list[Inline]) -> list[Inline]:
        """An interface pattern (rulepress.render.patterns) in the language, with these pieces."""
        return fill(self.ctx.t(pattern), values, _literal)

    def both(self, items: list[list[Inline]]) -> list[Inline]:
        return side_by_side(self.ctx.t(BOTH), items, _literal)

    def label(self, key: str) -> list[Inline]:
        """An interface label in bold that introduces what follows: "**Options:**"."""
        return self.fill(INTRO, label=[Strong(children=text(self.t(key)))])

    def labelled(self, key: str, value: list[Inline]) -> Paragraph:
        """A paragraph led by a bold label: "**Decision:** …", punctuated for the language."""
        return Paragraph(
            children=self.fill(PAIR, label=[Strong(children=text(self.t(key)))], value=value)
        )

    def rule(self, number: str) -> Inline:
        if number in self.links.rules:
            return Ref(label=rule_label(number), children=text(number), classes=["rp-rule"])
        return Text(text=number)  # an external rule: cited, not reproduced

    def rules(self, numbers: list[str]) -> list[Inline]:
        return side_by_side(self.ctx.t(RULES), [[self.rule(n)] for n in numbers], _literal)

    def cites(self, numbers: list[str], *extra: list[Inline]) -> Paragraph:
        """The rules a part cites ("Rules: 16.1, 16.2"), and what else it cites beside them."""
        cited = self.fill(PAIR, label=text(self.t("cites")), value=self.rules(numbers))
        return Paragraph(children=self.both([cited, *extra]))


#: what a game's print files are, by the start of their file names (rulepress.print.build)
DOWNLOADS = {
    "rulebook": ui("print", "Rulebook"),
    "reference": ui("print", "Reference card"),
    "cards": ui("print", "Step cards, one per page"),
    "pnp": ui("page.game", "Print and play: step cards"),
    # what changed since the previous edition, for copies already sold (built with --since)
    "errata": ui("print", "Errata sheet"),
}
#: a print file's kind of file and paper format, in brackets after its name
PDF_FORMAT = ui("page.game", "PDF, {format}")
#: paper formats whose name is a word (the others are shown as they are: A4, A5)
FORMAT_WORDS = {"letter": ui("page.game", "US Letter")}
#: the folder of a game's pages that holds its PDFs
DOWNLOAD_DIR = "downloads"
#: the end of a press file's name (PDF/X-4, with bleed): the print build names its files
#: with it, and the site offers them on the page for print shops, not to players
PRESS_SUFFIX = "-pdfx4"
#: the page for print shops, made when the game has press files
PRESS_PAGE = "press"
#: a press file's standard and trim format, in brackets after its name: the standard's
#: name (ISO 15930-7's "PDF/X-4") is filled in, so that no catalog holds it as words
PRESS_FORMAT = ui("page.game", "{standard}, {format}")
PRESS_STANDARD = "PDF/X-4"
PRESS_INTRO = ui(
    "page.press",
    "These files are for a print shop. Each page is the trim size plus bleed, with trim "
    "and bleed boxes, CMYK colours and the printing condition named as the output intent "
    "(PDF/X-4). To read on a screen or print at home, take the downloads on the game's "
    "first page: they are cut to the paper size.",
)


def game_pages(
    ctx: RenderContext,
    downloads: Collection[str] = (),
    extra: Mapping[str, Page] | None = None,
    weights: Mapping[str, list[Block]] | None = None,
) -> dict[str, Page]:
    """Every page of one game: name → page; ``downloads``: its PDFs' file names, if built.

    ``extra``: pages made elsewhere from more than the spec (the changes page,
    from the previous edition too), listed after the others. ``weights``: by
    ruling option id, what the Rulings page shows under the option of how much
    it changes (made from drawn tables: :mod:`rulepress.render.impact_lines`).
    """
    p = _Page(ctx, weights)
    # a game written straight into a spec names no source document and nothing missing
    # from one: empty pages about sources would only puzzle its readers
    sourced: dict[str, Page] = {}
    if ctx.spec.sources:
        sourced["sources"] = sources_page(ctx, p.plain)
    if ctx.spec.not_in_source:
        sourced["not-in-source"] = missing_page(ctx, p.links)
    press = sorted(n for n in downloads if n.endswith(PRESS_SUFFIX + ".pdf"))
    players = [n for n in downloads if n not in press]
    if press:
        sourced[PRESS_PAGE] = _press(p, press)
    extra = {**sourced, **(extra or {})}
    made: dict[str, Callable[[_Page], Page]] = {
        "rules": _rules,
        "sequences": _sequences,
        "scoring": _scoring,
        "rulings": _rulings,
        "glossary": _glossary,
        "examples": _examples,
        "rules-index": _rules_index,
    }
    pages = {
        "index": _index(p, players, list(extra)),
        **{name: made[name](p) for name in page_names(ctx.spec) if name != "index"},
        **extra,
    }
    # a long page opens with its chapters: Brink's rules run to fifty phone screens
    return {name: with_contents(page, p.t("contents")) for name, page in pages.items()}


def _page(label: str, title: list[Inline], children: list[Block]) -> Page:
    return Page(blocks=[Section(label=label, title=title, children=children)])


def _index(p: _Page, downloads: Collection[str] = (), extra: list[str] | None = None) -> Page:
    g = p.ctx.spec.game
    facts: list[tuple[str, list[Inline]]] = [
        ("edition", inline(g.edition, p.links)),
        ("players", text(g.players)),
        ("source", inline(g.source.document, p.links)),
    ]
    if g.designer:
        facts.append(("designer", text(g.designer)))
    if g.publisher:
        facts.append(("publisher", text(g.publisher)))
    body: list[Block] = [
        *blocks(g.summary, p.links),
        # the game's pages right under its summary: on a phone they are on the first
        # screen, where a player looking for a rule starts (the facts can wait)
        # the link back to all games is the theme's, on every page (T["home"] is its text)
        TocTree(entries=[n for n in page_names(p.ctx.spec) if n != "index"] + (extra or [])),
        BulletList(items=[[p.labelled(key, value)] for key, value in facts]),
    ]
    if g.source.note:
        body += blocks(g.source.note, p.links)
    links = _downloads(p, downloads)
    if links:
        body.append(Section(label="downloads", title=text(p.t("downloads")), children=[links]))
    return _page("index", p.title(g.title), body)


def _press(p: _Page, names: Collection[str]) -> Page:
    """The page for print shops: what the press files are, and a link to each."""
    links = _downloads(p, names, PRESS_FORMAT, PRESS_SUFFIX)
    body: list[Block] = [Paragraph(children=text(p.ctx.t(PRESS_INTRO)))]
    return _page(PRESS_PAGE, text(p.t("press")), body + ([links] if links else []))


def _downloads(
    p: _Page, names: Collection[str], pattern: str = PDF_FORMAT, suffix: str = ""
) -> BulletList | None:
    """A link to each print file of the game in this language: "Rulebook (PDF, A4)".

    ``pattern`` says what kind of file they are, ``suffix`` ends each one's name
    (the press files' ``-pdfx4``), after the format.
    """
    items: list[list[Block]] = []
    for kind, kind_label in DOWNLOADS.items():
        for name in sorted(n for n in names if n.startswith(kind + "-")):
            fmt = name.removeprefix(kind + "-").removesuffix(".pdf").removesuffix(suffix)
            shown = p.ctx.t(FORMAT_WORDS[fmt]) if fmt in FORMAT_WORDS else fmt.upper()
            what = fill_text(p.ctx.t(pattern), format=shown, standard=PRESS_STANDARD)
            label = p.fill(DETAIL, text=text(p.ctx.t(kind_label)), detail=text(what))
            link = Link(url=f"{DOWNLOAD_DIR}/{name}", children=label)
            items.append([Paragraph(children=[link])])
    return BulletList(items=items) if items else None


def _rule_section(p: _Page, rule: Rule) -> Section:
    children: list[Block] = blocks(rule.text, p.links) if rule.text else []
    # the rule's source, closed until a reader opens it, before its sub-rules
    children += source_marker(p.ctx, rule.source)
    children += [_rule_section(p, sub) for sub in rule.rules]
    title: list[Inline] = [Text(text=rule.number + " "), *p.title(rule.title)]
    return Section(label=rule_label(rule.number), title=title, children=children)


def _rules(p: _Page) -> Page:
    spec = p.ctx.spec
    children: list[Block] = [_rule_section(p, rule) for rule in spec.rules]
    if spec.external_rules:
        items: list[list[Block]] = []
        for ext in spec.external_rules:
            name: list[Inline] = [
                Strong(children=[Text(text=ext.number + " "), *p.title(ext.title)])
            ]
            line = p.fill(DETAIL, text=name, detail=text(ext.source))
            if ext.summary:
                line = p.fill(PAIR, label=line, value=inline(ext.summary, p.links))
            items.append([Paragraph(children=line)])
        children.append(
            Section(
                label="external-rules",
                title=text(p.t("external")),
                children=[BulletList(items=items)],
            )
        )
    return _page("rules", text(p.t("rules")), children)


def _card(p: _Page, seq: Sequence, step: Step) -> Card:
    body: list[Block] = blocks(step.text, p.links)
    cites: list[Block] = [p.cites(step.rules)] if step.rules else []
    if step.steps:
        # the step's own rules belong to its text, not after its sub-steps' cards
        body += cites
        cites = []
    # the step's source, closed, before its sub-steps' cards (as a rule's)
    body += source_marker(p.ctx, step.source)
    body += [_card(p, seq, sub) for sub in step.steps]
    footer = cites
    title: list[Inline] = [Text(text=f"{step.number}. "), *p.title(step.title)]
    return Card(title=title, body=body, footer=footer, label=step_label(seq, step))


def _sequences(p: _Page) -> Page:
    sections: list[Block] = []
    for seq in p.ctx.spec.sequences:
        children: list[Block] = blocks(seq.text, p.links)
        if seq.rules:
            children.append(p.cites(seq.rules))
        children += [_card(p, seq, step) for step in seq.steps]
        sections.append(
            Section(label=f"sequence-{seq.id}", title=p.title(seq.title), children=children)
        )
    return _page("sequences", text(p.t("sequences")), sections)


def _table(p: _Page, table: SpecTable) -> Section:
    rows: list[list[list[Inline]]] = [
        [text(key), text(value)] for key, value in p.ctx.table_rows(table)
    ]
    grid = Table(header=[p.title(table.key_label), p.title(table.value_label)], rows=rows)
    return Section(
        label=table_label(table),
        title=p.title(table.title),
        children=[p.cites([table.rule]), grid, *table_marker(p.ctx, table)],
    )


def _scoring(p: _Page) -> Page:
    """The scoring tables, then how every tie of the game is decided, in reading order.

    Every vote's ties and every sequence's winners come from the spec's steps
    (``tally`` and ``winners``), so a tie rule added to a spec appears here.
    """
    children: list[Block] = [_table(p, table) for table in p.ctx.spec.tables]
    # the cards' exceptions to the rules, before the tie-breaks they may change
    children += cards_section(p.ctx, p.links)
    for seq in p.ctx.spec.sequences:
        for step in all_steps(seq.steps):
            if step.tally is not None:
                children.append(_vote_ties(p, seq, step, step.tally))
            if step.winners is not None:
                children.append(_winners(p, seq, step, step.winners))
    return _page("scoring", text(p.t("scoring")), children)


def _winners(p: _Page, seq: Sequence, step: Step, w: Winners) -> Section:
    criteria = [inline(c.label, p.links) for c in w.criteria]
    return Section(
        label=f"tiebreak-{seq.id}-{step.number.lower()}",
        title=p.fill(PAIR, label=text(p.t("tiebreak")), value=p.title(seq.title)),
        children=[
            p.cites(step.rules),
            *_eligibility(p, w),
            Paragraph(children=p.label("criteria")),
            TieBreakOrder(criteria=criteria),
            p.labelled("final_tie", inline(w.final_tie_note, p.links)),
            # the step the tie-break belongs to, and so its source
            *source_marker(p.ctx, step.source),
        ],
    )


def _vote_ties(p: _Page, seq: Sequence, step: Step, tally: Tally) -> Section:
    """How a vote's ties are broken: the order, or the rules and rulings that set it.

    A vote without ``tie_order`` ranks tied candidates in the order the spec
    lists them; one with it reads the order from the table, and the rules that
    say how (quoted here in full) and the rulings on them are the reader's answer.
    """
    children: list[Block] = []
    if tally.tie_rules:
        children.append(p.cites(tally.tie_rules))
    if tally.tie_order is None:
        children.append(Paragraph(children=p.label("candidate_order")))
        names = [p.title(label) for label in tally.candidates.values()]
        children.append(TieBreakOrder(criteria=names))
    else:
        children.append(Paragraph(children=p.label("order_from_table")))
    rules = {rule.number: rule for rule in all_rules(p.ctx.spec.rules)}
    for number in tally.tie_rules:
        rule = rules.get(number)
        if rule is None:
            continue  # a rule of another document: cited above, not reproduced
        heading: list[Inline] = [p.rule(number), Text(text=" "), *p.title(rule.title)]
        quoted: list[Block] = [Paragraph(children=[Strong(children=heading)])]
        quoted += blocks(rule.text, p.links) if rule.text else []
        children.append(Group(children=quoted))
    rulings = {ruling.id: ruling for ruling in p.ctx.spec.rulings}
    for ruling_id in tally.tie_rulings:
        ruling = rulings[ruling_id]
        name: list[Inline] = [
            Ref(
                label=ruling_label(ruling.id), children=p.title(ruling.title), classes=["rp-ruling"]
            )
        ]
        value = inline(ruling.decision, p.links)
        children.append(Paragraph(children=p.fill(PAIR, label=name, value=value)))
    title = p.fill(PAIR, label=text(p.t("vote_ties")), value=p.title(tally.title))
    return Section(label=f"ties-{seq.id}-{step.number.lower()}", title=title, children=children)


def _eligibility(p: _Page, w: Winners) -> list[Block]:
    """Who cannot win, when the spec has a rule for it (an always-true test says nothing)."""
    if not p.ctx.states_who_cannot_win(w):
        return []
    return [p.labelled("eligible", inline(w.eligible.fails, p.links))]


def _rulings(p: _Page) -> Page:
    sections: list[Block] = []
    for r in p.ctx.spec.rulings:
        children: list[Block] = [p.cites(r.rules)] if r.rules else []
        children += [
            p.labelled("question", inline(r.question, p.links)),
            # what the sources say, so that the reader weighs the decision against it
            *source_says(p.ctx, r.says),
            p.labelled("decision", inline(r.decision, p.links)),
            p.labelled("reason", inline(r.reason, p.links)),
            Paragraph(children=p.label("options")),
        ]
        items: list[list[Block]] = []
        for opt in sorted(r.options, key=lambda o: o.id != r.default):
            # the option by its title (its id is for the scorer's --variant, not for readers)
            line: list[Inline] = [Strong(children=p.title(opt.title))]
            if opt.id == r.default:
                line = p.fill(DETAIL, text=line, detail=text(p.t("default")))
            line = p.fill(PAIR, label=line, value=inline(opt.description, p.links))
            # how much the option changes, against the default, under it
            items.append([Paragraph(children=line), *p.weights.get(opt.id, [])])
        children.append(BulletList(items=items))
        sections.append(
            Section(label=ruling_label(r.id), title=p.title(r.title), children=children)
        )
    return _page("rulings", text(p.t("rulings")), sections)


def _glossary(p: _Page) -> Page:
    entries = []
    for term in p.ctx.glossary():
        definition = inline(term.definition, p.links)
        if term.rules:
            definition = p.fill(DETAIL, text=definition, detail=p.rules(term.rules))
        entries.append(
            GlossaryEntry(
                label=term_label(term.id),
                term=" ".join(term.term.split()),
                definition=definition,
                details=source_marker(p.ctx, term.source),
            )
        )
    return _page("glossary", text(p.t("glossary")), [Glossary(entries=entries)])


def _rules_index(p: _Page) -> Page:
    rows: list[list[list[Inline]]] = [
        [[p.rule(rule.number)], p.title(rule.title)] for rule in all_rules(p.ctx.spec.rules)
    ]
    table = Table(header=[text(p.t("number")), text(p.t("title"))], rows=rows)
    return _page("rules-index", text(p.t("rules-index")), [table])


def _sequence_of(p: _Page, ex: Example) -> Sequence:
    wanted = ex.sequence or p.ctx.spec.scorer.sequence
    return next(s for s in p.ctx.spec.sequences if s.id == wanted)


def _examples(p: _Page) -> Page:
    sections: list[Block] = []
    ctx = p.ctx
    view = StateView(p, ctx.lang, ctx.spec.vocabulary, ctx.number, YES_NO, ctx.t)
    for ex in p.ctx.spec.examples:
        seq = _sequence_of(p, ex)
        sequence = Ref(label=f"sequence-{seq.id}", children=p.title(seq.title))
        children: list[Block] = [p.cites(ex.rules, [sequence])]
        if ex.variants:
            titles: list[list[Inline]] = [
                text(quote(option_title(p.ctx.spec, v), p.ctx.lang)) for v in ex.variants
            ]
            variants = side_by_side(p.ctx.t(RULES), titles, _literal)
            children.append(
                Paragraph(children=p.fill(PAIR, label=text(p.t("variants")), value=variants))
            )
        children += blocks(ex.text, p.links)
        children += [
            # the whole table is long (nine players' cards, say): folded, so that on a
            # phone the examples follow each other and a reader opens the table they want
            Details(
                summary=text(p.t("state")),
                children=view.blocks(ex.state, p.ctx.spec.table_states[seq.state]),
            ),
            Paragraph(children=[Strong(children=text(p.t("stated")))]),
            BulletList(items=[[Paragraph(children=line)] for line in _stated(p, ex, seq)]),
            Paragraph(children=text(p.t("checked"))),
            doctest(p.ctx.spec.game.id, ex),
        ]
        sections.append(
            Section(label=f"example-{ex.id}", title=p.title(ex.title), children=children)
        )
    return _page("examples", text(p.t("examples")), sections)


def _stated(p: _Page, ex: Example, seq: Sequence) -> list[list[Inline]]:
    vocabulary = p.ctx.spec.vocabulary
    titles = {s.score.id: s.score.title for s in all_steps(seq.steps) if s.score}
    titles.update(seq.show)
    if seq.total_label:
        titles["total"] = seq.total_label
    # the facts an example may state besides scores (spec.check_base.EXPECT_KEYS)
    titles.update({key: p.ctx.t(label) for key, label in STATED.items()})
    parts_of = _breakdown_names(p, seq)
    out: list[list[Inline]] = []
    standing: dict[bool, list[str]] = {True: [], False: []}
    for pid, facts in ex.expect.players.items():
        parts: list[list[Inline]] = []
        for key, value in facts.items():
            if key == "eligible" and isinstance(value, bool):
                standing[value].append(p.player(pid))
                continue
            name, _, part = key.partition(".")
            label = p.title(titles.get(name, name))
            if part:
                shown_part = parts_of.get(name, {}).get(part) or vocabulary.get(part, part)
                label = p.fill(DETAIL, text=label, detail=text(shown_part))
            shown = vocabulary.get(value, value) if isinstance(value, str) else value
            parts.append(p.fill(PAIR, label=label, value=text(_value(shown, p))))
        if parts:
            player: list[Inline] = [Strong(children=text(p.player(pid)))]
            out.append(p.fill(PAIR, label=player, value=p.both(parts)))
    for can in (True, False):
        if standing[can]:
            names = format_list(standing[can], locale=p.ctx.lang)
            out.append(p.fill(PAIR, label=text(p.ctx.t(STANDING[can])), value=text(names)))
    id_names = IdNames(p.ctx.spec)
    for tally_id, facts in ex.expect.tallies.items():
        out += _tally_facts(p, id_names, tally_id, facts)
    if ex.expect.winners is not None:
        winners = [p.player(w) for w in ex.expect.winners]
        names = listed(winners, p.ctx.lang)
        heading = p.t("winner" if len(ex.expect.winners) == 1 else "winners")
        line = p.fill(PAIR, label=[Strong(children=text(heading))], value=text(names))
        if ex.expect.decided_by:
            how = p.fill(
                PAIR, label=text(p.t("decided")), value=_decided_by(p, seq, ex.expect.decided_by)
            )
            line = p.fill(DETAIL, text=line, detail=how)
        out.append(line)
    return out


def _tally_facts(
    p: _Page, names: IdNames, tally_id: str, facts: dict[str, object]
) -> list[list[Inline]]:
    """A vote's stated facts in words: every candidate, route and unit by its label."""
    lang = p.ctx.lang

    def name(value: object) -> str:
        return names.name(tally_id, str(value))

    out: list[list[Inline]] = []
    for key, value in facts.items():
        label: list[Inline] = (
            text(p.ctx.t(TALLY_FACTS[key])) if key in TALLY_FACTS else [Code(text=key)]
        )
        if key == "flows" and isinstance(value, dict):
            for player, routes in value.items():
                for to, units in (routes or {}).items():
                    moved = listed(
                        [
                            fill_text(p.ctx.t(UNITS), count=p.ctx.number(n), unit=name(unit))
                            for unit, n in (units or {}).items()
                        ],
                        lang,
                    )
                    where = text(route(p.player(player), name(to)))
                    out.append(p.fill(PAIR, label=where, value=text(moved)))
            continue
        if key == "stages" and isinstance(value, dict):
            # the totals after each stage of counting, each under the stage's own title
            for stage, totals in value.items():
                counted = [votes(name(k), _value(v, p)) for k, v in (totals or {}).items()]
                title = names.stage(tally_id, str(stage))
                out.append(p.fill(PAIR, label=text(title), value=text(listed(counted, lang))))
            continue
        if isinstance(value, dict):
            shown = listed([votes(name(k), _value(v, p)) for k, v in value.items()], lang)
        elif isinstance(value, list):
            shown = listed([name(v) for v in value], lang)
        else:
            shown = _value(value, p)
        out.append(p.fill(PAIR, label=label, value=text(shown)))
    return out


def _breakdown_names(p: _Page, seq: Sequence) -> dict[str, dict[str, str]]:
    """Score id → what each key of its breakdown is called (kinds, uses, set sizes, wild)."""
    return breakdown_names(
        seq, lambda label: _words(p, label), lambda text, **args: _say(p, text, args)
    )


def breakdown_names(
    seq: Sequence, words: Callable[[str], str], say: Callable[..., str]
) -> dict[str, dict[str, str]]:
    """Score id → what each key of its breakdown is called, for any writer.

    ``words`` turns a spec label into plain words, ``say`` fills one of
    rulepress's own sentences (``say(text, **args)``), both in the reader's language.
    """
    out: dict[str, dict[str, str]] = {}
    for step in all_steps(seq.steps):
        if step.score is None:
            continue
        comp = step.score.component
        # the operation names the parts of its breakdown (kinds, uses, set sizes, wild
        # units), if it breaks its points down; the words are the spec's or its own
        operation = operations.installed().get(getattr(comp, "op", ""))
        name_parts = getattr(operation, "breakdown_names", None)
        out[step.score.id] = name_parts(comp, words, say) if name_parts is not None else {}
    return out


def _say(p: _Page, text: str, args: Mapping[str, str]) -> str:
    """One of rulepress's own sentences in the reader's language, its placeholders filled."""
    return fill_text(p.ctx.t(text), **args) if args else p.ctx.t(text)


def _words(p: _Page, value: str) -> str:
    """A spec label as plain words (its references shown as their text)."""
    return plain_text(inline(value, p.plain))


#: what the other facts of an example's result are called
STATED = {
    "rank": ui("page.example", "place"),
}
#: who can win and who cannot, each said once for the players the example names
#: ("can win: yes" under every player says one thing many times)
STANDING = (ui("page.example", "Cannot win"), ui("page.example", "Can win"))
#: an example's yes-or-no facts, in words
YES_NO = (ui("page.example", "no"), ui("page.example", "yes"))

#: how a game can be decided other than by a criterion (rulepress.scoring.winners)
DECIDED = {
    "eligibility": ui("page.example", "only one player could win"),
    "shared": ui("page.example", "a shared win"),
    "none": ui("page.example", "nobody could win"),
    "unresolved": ui("page.example", "a tie the rules leave unbroken"),
}


def _decided_by(p: _Page, seq: Sequence, decided: str) -> list[Inline]:
    """What decided the winners, in words: the criterion's label, never its id."""
    for step in all_steps(seq.steps):
        if step.winners is not None:
            for criterion in step.winners.criteria:
                if criterion.id == decided:
                    return inline(criterion.label, p.plain)
    if decided in DECIDED:
        return text(p.ctx.t(DECIDED[decided]))
    return [Code(text=decided)]


def _literal(value: str) -> Inline:
    return Text(text=value)


def _value(value: object, p: _Page) -> str:
    if isinstance(value, bool):
        return p.ctx.t(YES_NO[value])
    if isinstance(value, int):
        return p.ctx.number(value)
    return str(value)


def doctest(game: str, ex: Example) -> Doctest:
    """The check of one worked example: every fact it states, as data.

    ``ex.expect`` holds ids and values, never prose, so translating the spec
    leaves it as the author wrote it; the doctest's code is written from it
    by the Sphinx extension, not here.
    """
    facts = [
        Fact(ask="player", subject=pid, key=key, value=value)
        for pid, stated in ex.expect.players.items()
        for key, value in stated.items()
    ]
    facts += [
        Fact(ask="tally", subject=tally_id, key=key, value=value)
        for tally_id, stated in ex.expect.tallies.items()
        for key, value in stated.items()
    ]
    if ex.expect.winners is not None:
        facts.append(Fact(ask="winners", value=sorted(ex.expect.winners)))
    if ex.expect.decided_by is not None:
        facts.append(Fact(ask="decided_by", value=ex.expect.decided_by))
    return Doctest(game=game, example=ex.id, facts=facts)
