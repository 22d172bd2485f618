"""Page trees → docutils nodes: the Sphinx source parser of rulepress pages.

A generated page is a JSON file (``*.rptree``) holding a
:class:`rulepress.render.tree.Page`. This parser reads it back with the
tree's strict model and builds docutils nodes one for one, as
sphinx-design builds nodes in its directives. It is the only way a rulepress
page reaches Sphinx, and it never parses text: every string becomes a
``nodes.Text`` (through :func:`_text`, the one place that also cleans
control characters) or the content of a literal block. Labels are
registered as explicit targets, so Sphinx resolves the cross-references
and warns about any that dangle.

Doctests are written here, from the facts a :class:`~rulepress.render.tree.Doctest`
node carries (ids and values from the spec's worked example). Each value
is written with ``repr`` of plain data (text, numbers, booleans, lists and
mappings of them): a Python literal that evaluates back to the same data,
whatever characters it holds.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from docutils import nodes
from pydantic import ValidationError
from sphinx import addnodes
from sphinx.parsers import Parser
from sphinx_design.dropdown import dropdown_main, dropdown_title
from sphinx_design.shared import create_component

from rulepress.i18n.typography import typeset
from rulepress.invisible import FORMAT_CHARACTERS
from rulepress.render import tree
from rulepress.sphinx_ext import search_objects

#: the search's object type of a numbered rule (registered by rulepress.sphinx_ext.setup)
RULE_OBJECT = "rule"
#: the search's object type of each kind of object (rulepress.sphinx_ext.search_objects);
#: a glossary term is no Sphinx "term" there, whose search priority keeps it out of results
OBJECT_TYPES = {"rule": RULE_OBJECT, "term": "definition", "example": "example", "ruling": "ruling"}
#: the label of a rule's section (rulepress.render.markup.rule_label)
RULE_PREFIX = "rule-"
#: line breaks other than \n: a space, as in spec prose (see rulepress.render.markup)
_BREAKS = re.compile("\r\n?|[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
#: the other C0 and C1 control characters (tab and line feed aside): not text a reader
#: can see, and NUL and friends are not allowed in HTML; and the bidi overrides and other
#: invisible format characters (rulepress.invisible), as print has them: each is
#: shown as U+FFFD
_CONTROLS = re.compile(f"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f{FORMAT_CHARACTERS}]")


def _plain(value: str) -> str:
    return _CONTROLS.sub("\ufffd", _BREAKS.sub(" ", value))


def _text(value: str, lang: str = "") -> nodes.Text:
    """The one way text enters a page: as a text node, control characters made harmless.

    With ``lang``, the text is set as that language sets it (Czech no-break spaces
    and minus signs: :mod:`rulepress.i18n.typography`); literals and ids pass none.
    """
    return nodes.Text(typeset(_plain(value), lang))


class PageParser(Parser):
    """Sphinx parser for ``*.rptree`` files (registered as the ``rulepress-page`` type)."""

    supported = ("rulepress-page",)

    def parse(self, inputstring: str, document: nodes.document) -> None:
        self.setup_parse(inputstring, document)
        try:
            page = tree.Page.from_json(inputstring)
        except ValidationError as exc:
            document.reporter.severe(f"not a rulepress page: {exc.errors()[0]['msg']}")
            self.finish_parse()
            return
        build = _Builder(document)
        for block in page.blocks:
            document += build.block(block)
        self.finish_parse()


class _Builder:
    def __init__(self, document: nodes.document) -> None:
        self.document = document
        self.env: Any = document.settings.env
        self.lang = str(self.env.config.language or "")

    @property
    def docname(self) -> str:
        return str(self.env.current_document.docname)

    @property
    def scope(self) -> str:
        """The game a page belongs to (``stationfall/``), or "" for the site's own pages.

        One Sphinx project holds every game of a language, and two games may
        have a rule 16.4 or a term of the same id: a label is the game's own
        (``stationfall/rule-16-4``), while the anchor a reader sees stays the
        spec's (``#rule-16-4``), unique within its page.
        """
        doc = self.docname
        return doc.split("/", 1)[0] + "/" if "/" in doc else ""

    # ---------------------------------------------------------------- inlines

    def inlines(self, children: list[tree.Inline]) -> list[nodes.Node]:
        return [self.inline(child) for child in children]

    def inline(self, node: tree.Inline) -> nodes.Node:
        if isinstance(node, tree.Text):
            return _text(node.text, self.lang)
        if isinstance(node, tree.Strong):
            return nodes.strong("", "", *self.inlines(node.children))
        if isinstance(node, tree.Emphasis):
            return nodes.emphasis("", "", *self.inlines(node.children))
        if isinstance(node, tree.Code):
            return nodes.literal("", "", _text(node.text))
        if isinstance(node, tree.Link):
            return nodes.reference("", "", *self.inlines(node.children), refuri=node.url)
        if isinstance(node, tree.Span):
            return nodes.inline("", "", *self.inlines(node.children), classes=[f"rp-{node.role}"])
        if isinstance(node, tree.Quote):
            # docutils' HTML writer turns a class language-xx into lang="xx"; the source's
            # own words, exactly: not typeset (no smart quotes, minus signs or no-break spaces)
            lang = f"language-{node.lang.replace('_', '-')}"
            verbatim = nodes.Text(_plain(node.text))
            return nodes.inline("", "", verbatim, classes=["rp-quote", lang])
        if isinstance(node, tree.Icon):
            # its words follow and say what it shows, so its alt text is empty
            return nodes.image("", uri=node.src, alt="", classes=["rp-icon"])
        if isinstance(node, tree.PageNumber):
            return nodes.inline("", "")  # a page has no page number: the site shows nothing
        return self.ref(node)

    def ref(self, node: tree.Ref) -> nodes.Node:
        # an explicit-title reference to a label: resolved by Sphinx's std domain
        # (it knows the label's page), warned about (and so failing -W) if absent
        xref = addnodes.pending_xref(
            "",
            nodes.inline("", "", *self.inlines(node.children), classes=["xref", "std", "std-ref"]),
            refdomain="std",
            reftype="ref",
            reftarget=self.scope + node.label,
            refexplicit=True,
            refwarn=True,
            refdoc=self.docname,
        )
        if not node.classes:
            return xref
        return nodes.inline("", "", xref, classes=list(node.classes))

    # ----------------------------------------------------------------- blocks

    def blocks(self, children: list[tree.Block]) -> list[nodes.Node]:
        return [self.block(child) for child in children]

    def block(self, node: tree.Block) -> nodes.Node:
        if isinstance(node, tree.Paragraph):
            para = nodes.paragraph("", "", *self.inlines(node.children), classes=list(node.classes))
            if node.label is not None:
                self.target(para, node.label)
            return para
        if isinstance(node, tree.Section):
            return self.section(node)
        if isinstance(node, tree.BulletList):
            return nodes.bullet_list("", *self.items(node.items), bullet="-")
        if isinstance(node, tree.NumberedList):
            return nodes.enumerated_list(
                "", *self.items(node.items), enumtype="arabic", prefix="", suffix="."
            )
        if isinstance(node, tree.Card):
            return self.card(node)
        if isinstance(node, tree.Details):
            return self.details(node)
        if isinstance(node, tree.Grid):
            return self.grid(node)
        if isinstance(node, tree.Table):
            return self.table(node)
        if isinstance(node, tree.Group):
            # what belongs to the line above (a vote's counts, a ruling): a block of its own
            return nodes.container("", *self.blocks(node.children), classes=["rp-group"])
        if isinstance(node, tree.Glossary):
            return self.glossary(node)
        if isinstance(node, tree.CodeBlock):
            # a literal block keeps its lines: only \n breaks one
            code = _CONTROLS.sub("\ufffd", node.text.replace("\r\n", "\n"))
            return nodes.literal_block(code, code, language=node.language)
        if isinstance(node, tree.Chart):
            # an <img> of a data: URI: the SVG is shown, never run, and nothing is fetched
            alt = _text(node.alt, self.lang).astext()  # set as the page's text is
            return nodes.image("", uri=node.src, alt=alt, classes=["rp-chart"])
        if isinstance(node, tree.Doctest):
            return doctest_node(node)
        if isinstance(node, tree.StepList):
            return self.steps(node.steps)
        if isinstance(node, tree.TieBreakOrder):
            items = [[tree.Paragraph(children=c)] for c in node.criteria]
            return self.block(tree.NumberedList(items=items))
        if isinstance(node, tree.Contents):
            return self.contents(node)
        return self.toctree(node)

    def contents(self, node: tree.Contents) -> nodes.Node:
        """A long page's chapters, and a link back to them that stays in view.

        A docutils "contents" topic, which the HTML5 writer writes as a
        ``<nav>``. The way back is a plain in-page link (no script needed),
        which the stylesheet pins to a corner of the screen.
        """
        topic = nodes.topic("", classes=["contents", "rp-contents"])
        topic["ids"].append(node.label)
        topic += nodes.title("", "", *self.inlines(node.title))
        items = [
            nodes.list_item(
                "",
                nodes.paragraph(
                    "", "", nodes.reference("", "", *self.inlines(e.title), refuri="#" + e.label)
                ),
            )
            for e in node.entries
        ]
        topic += nodes.bullet_list("", *items, bullet="-")
        back = nodes.reference("", "", *self.inlines(node.title), refuri="#" + node.label)
        return nodes.container(
            "",
            topic,
            nodes.paragraph("", "", back, classes=["rp-to-contents"]),
            classes=["rp-contents-block"],
        )

    def steps(self, steps: list[tree.StepItem]) -> nodes.Node:
        """A step list: each step's number and title in bold, its rules, its text, its sub-steps."""
        items = []
        for step in steps:
            title = nodes.strong("", "", _text(step.number + ". "), *self.inlines(step.title))
            item = nodes.list_item("", nodes.paragraph("", "", title, *self.inlines(step.cites)))
            item += nodes.paragraph("", "", *self.inlines(step.text))
            if step.steps:
                item += self.steps(step.steps)
            items.append(item)
        return nodes.bullet_list("", *items, bullet="-", classes=["rp-steps"])

    def items(self, items: list[list[tree.Block]]) -> list[nodes.Node]:
        return [nodes.list_item("", *self.blocks(item)) for item in items]

    def target(self, node: nodes.Element, label: str) -> None:
        """Give ``node`` its permanent anchor and make it a cross-reference target."""
        node["ids"].append(label)
        self.target_name(node, label)

    def target_name(self, node: nodes.Element, label: str) -> None:
        """Make ``node`` (anchored already) the target of the game's label ``label``."""
        node["names"].append(self.scope + label)
        self.document.note_explicit_target(node, node)

    def section(self, node: tree.Section) -> nodes.section:
        section = nodes.section()
        self.target(section, node.label)
        section += nodes.title("", "", *self.inlines(node.title))
        kind = search_objects.kind_of(node.label)
        if kind is not None:
            # a numbered rule, an example or a ruling is a search result of its own,
            # landing on its anchor: typing "16.4.8" finds "16.4.8 Winning (Stationfall)"
            std = self.env.domains.standard_domain
            name = self.named(section.astext())
            std.note_object(OBJECT_TYPES[kind], name, node.label, location=section)
        section.extend(self.blocks(node.children))
        if kind is not None:
            title = section[0].astext()
            search_objects.record(self.env, self.docname, node.label, title, section.children)
        return section

    def named(self, name: str) -> str:
        """A search object's name with its game: two games may number a rule alike."""
        game = self.env.config.rulepress_games.get(self.scope.rstrip("/"), {}).get("title", "")
        return f"{name} ({game})" if game else name

    def card(self, node: tree.Card) -> nodes.Node:
        # the node structure of sphinx-design's card directive, so its styles apply
        card = create_component(
            "card", ["sd-card", "sd-sphinx-override", "sd-mb-3", "sd-shadow-sm"]
        )
        if node.label is not None:
            self.target(card, node.label)
        card += self._card_body(node.title, node.body)
        if node.footer:
            footer = create_component("card-footer", ["sd-card-footer"])
            footer.extend(self._card_text(self.blocks(node.footer)))
            card += footer
        return card

    def _card_body(self, title: list[tree.Inline], children: list[tree.Block]) -> nodes.Node:
        body = create_component("card-body", ["sd-card-body"])
        heading = create_component("card-title", ["sd-card-title", "sd-font-weight-bold"])
        heading += nodes.inline("", "", *self.inlines(title))
        body += heading
        body.extend(self._card_text(self.blocks(children)))
        return body

    @staticmethod
    def _card_text(children: list[nodes.Node]) -> list[nodes.Node]:
        for child in children:
            if isinstance(child, nodes.paragraph):
                child["classes"].append("sd-card-text")
        return children

    def details(self, node: tree.Details) -> nodes.Node:
        # the node structure of sphinx-design's dropdown directive, so its styles apply
        # (its chevron is an SVG written as raw HTML: rulepress.css draws one instead)
        main = dropdown_main(
            opened=False,
            classes=[
                "sd-sphinx-override",
                "sd-dropdown",
                "sd-card",
                "sd-mb-3",
                "rp-fold",
                *node.classes,
                # where a rule comes from is no text a player searches (Sphinx skips
                # "no-search" nodes when it indexes a page)
                *(["no-search"] if search_objects.SOURCE_CLASS in node.classes else []),
            ],
        )
        summary = nodes.inline("", "", *self.inlines(node.summary), classes=["sd-summary-text"])
        main += dropdown_title("", "", summary, classes=["sd-summary-title", "sd-card-header"])
        main += create_component(
            "dropdown-body",
            ["sd-summary-content", "sd-card-body"],
            children=self._card_text(self.blocks(node.children)),
        )
        return main

    def grid(self, node: tree.Grid) -> nodes.Node:
        xs, sm, md, lg = node.columns
        g = node.gutter
        grid = create_component(
            "grid-container", ["sd-container-fluid", "sd-sphinx-override", "sd-mb-4"]
        )
        row = create_component(
            "grid-row",
            [
                "sd-row",
                f"sd-row-cols-{xs}",
                f"sd-row-cols-xs-{xs}",
                f"sd-row-cols-sm-{sm}",
                f"sd-row-cols-md-{md}",
                f"sd-row-cols-lg-{lg}",
                f"sd-g-{g}",
                f"sd-g-xs-{g}",
                f"sd-g-sm-{g}",
                f"sd-g-md-{g}",
                f"sd-g-lg-{g}",
            ],
        )
        for item in node.cards:
            column = create_component("grid-item", ["sd-col", "sd-d-flex-row"])
            card = create_component(
                "card",
                ["sd-card", "sd-sphinx-override", "sd-w-100", "sd-shadow-sm", "sd-card-hover"],
            )
            card += self._card_body(item.title, item.body)
            name = tree.plain_text(item.title)
            card += nodes.paragraph(
                "",
                "",
                nodes.reference(
                    "",
                    "",
                    nodes.inline("", "", _text(name, self.lang)),
                    refuri=item.url,
                    classes=["sd-stretched-link", "sd-hide-link-text"],
                ),
            )
            column += card
            row += column
        grid += row
        return grid

    def table(self, node: tree.Table) -> nodes.Node:
        columns = max([len(node.header), *(len(r) for r in node.rows)])
        group = nodes.tgroup("", cols=columns)
        group.extend(nodes.colspec("", colwidth=1) for _ in range(columns))
        group += nodes.thead("", self.row(node.header))
        at = tree.notes_column(node)
        rows = (self.row(r, tree.row_notes(node, i), at) for i, r in enumerate(node.rows))
        group += nodes.tbody("", *rows)
        if not node.caption:
            return nodes.table("", group)
        return nodes.table("", nodes.title("", "", *self.inlines(node.caption)), group)

    def row(
        self,
        cells: list[list[tree.Inline]],
        notes: list[list[tree.Inline]] | None = None,
        at: int = 0,
    ) -> nodes.row:
        entries = [nodes.entry("", nodes.paragraph("", "", *self.inlines(c))) for c in cells]
        if notes:  # a row's notes: a list in its cell of words (tree.notes_column)
            items = [nodes.list_item("", nodes.paragraph("", "", *self.inlines(n))) for n in notes]
            notes_list = nodes.bullet_list("", *items, bullet="-")
            entries[min(at, len(entries) - 1)] += notes_list
        return nodes.row("", *entries)

    def glossary(self, node: tree.Glossary) -> nodes.Node:
        items = []
        std = self.env.domains.standard_domain
        for entry in node.entries:
            # the spec's id as its anchor, the same in every language; a glossary
            # term of the domain (the search lists it) named with its game, since
            # one project holds every game and two may define the same word
            term = nodes.term("", "", _text(entry.term, self.lang))
            term["ids"].append(entry.label)
            self.target_name(term, entry.label)
            std.note_object(
                OBJECT_TYPES["term"], self.named(entry.term), entry.label, location=term
            )
            definition = nodes.definition(
                "",
                nodes.paragraph("", "", *self.inlines(entry.definition)),
                *self.blocks(entry.details),
            )
            search_objects.record(
                self.env, self.docname, entry.label, term.astext(), definition.children
            )
            items.append(nodes.definition_list_item("", term, definition))
        glossary = addnodes.glossary()
        glossary["sorted"] = False  # the entries come sorted for the language already
        glossary += nodes.definition_list("", *items, classes=["glossary"])
        return glossary

    def toctree(self, node: tree.TocTree) -> nodes.Node:
        toc = addnodes.toctree()
        toc["parent"] = self.docname
        # entries are relative to the page, as in a toctree directive; the node holds
        # document names (a game's start page lists "rules": "stationfall/rules")
        folder = posixpath.dirname(self.docname)
        docs = [posixpath.join(folder, entry) if folder else entry for entry in node.entries]
        toc["entries"] = [(None, doc) for doc in docs]
        toc["includefiles"] = docs
        toc["maxdepth"] = node.maxdepth
        toc["caption"] = node.caption
        toc["glob"] = False
        toc["hidden"] = node.hidden
        toc["includehidden"] = False
        toc["numbered"] = 0
        toc["titlesonly"] = False
        return nodes.compound("", toc, classes=["toctree-wrapper"])


def doctest_source(node: tree.Doctest) -> str:
    """The doctest of a worked example, written from its data only."""
    lines = [
        ">>> from rulepress.doctest_api import run_example",
        f">>> result = run_example({node.game!r}, {node.example!r})",
    ]
    for fact in node.facts:
        value = _literal(fact.value)
        if fact.ask == "player":
            lines += [f">>> result.fact({fact.subject!r}, {fact.key!r})", value]
        elif fact.ask == "tally":
            lines += [f">>> result.tally({fact.subject!r}, {fact.key!r}) == {value}", "True"]
        elif fact.ask == "winners":
            lines += [">>> sorted(result.winners())", value]
        else:
            lines += [">>> result.decided_by()", value]
    return "\n".join(lines)


def _literal(value: Any) -> str:
    """``repr`` of plain data, refusing anything else (so the literal reads back as the data)."""
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"a worked example states {type(value).__name__}, not plain data")


def doctest_node(node: tree.Doctest) -> nodes.comment:
    """A hidden ``doctest`` block, as ``sphinx.ext.doctest`` makes one for ``:hide:``.

    Its builder runs it; the HTML shows nothing of it: a player reads the example's
    state and results, not the Python that checks them.
    """
    code = doctest_source(node)
    return nodes.comment(
        code, code, testnodetype="doctest", groups=["default"], options={}, language="pycon"
    )
