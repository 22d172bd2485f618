"""The errata sheet: the page "Changes in this edition" as a print document.

The sheet prints the very page tree the site shows
(:func:`rulepress.render.changes.changes_page`), so the two cannot say
different things. :func:`print_blocks` writes the node kinds that page uses
(sections, paragraphs, lists, tables and the inline nodes) as print HTML
elements; a link to a permalink becomes its words (a sheet has no links),
and text stays text (:mod:`rulepress.render.html_tree` escapes it once).
"""

from __future__ import annotations

from rulepress.render import print_html
from rulepress.render.context import RenderContext
from rulepress.render.html_tree import Content, Element, Tag, el
from rulepress.render.tree import (
    Block,
    BulletList,
    Code,
    Emphasis,
    Inline,
    Link,
    NumberedList,
    Page,
    Paragraph,
    Ref,
    Section,
    Strong,
    Table,
    Text,
    plain_text,
)

#: section headings by depth: the page's title, its parts, deeper parts
_HEADINGS: tuple[Tag, ...] = ("h1", "h2", "h3")


def print_inlines(nodes: list[Inline]) -> list[Content]:
    out: list[Content] = []
    for node in nodes:
        if isinstance(node, Text):
            out.append(node.text)
        elif isinstance(node, Code):
            out.append(el("span", node.text, cls="code"))
        elif isinstance(node, Strong):
            out.append(el("b", print_inlines(node.children)))
        elif isinstance(node, Emphasis):
            out.append(el("i", print_inlines(node.children)))
        elif isinstance(node, Ref | Link):
            # the rule, ruling or example named, in the book's style for a rule
            out.append(el("span", print_inlines(node.children), cls="rule"))
    return out


def print_blocks(nodes: list[Block], depth: int = 0) -> list[Element]:
    """Page-tree blocks as print elements (the kinds a generated page of text uses)."""
    out: list[Element] = []
    for node in nodes:
        if isinstance(node, Section):
            tag = _HEADINGS[min(depth, len(_HEADINGS) - 1)]
            heading = el(tag, print_inlines(node.title)) if node.title else None
            children = print_blocks(node.children, depth + 1)
            out.append(el("section", *([heading] if heading else []), *children, id=node.label))
        elif isinstance(node, Paragraph):
            out.append(el("p", print_inlines(node.children)))
        elif isinstance(node, BulletList | NumberedList):
            kind: Tag = "ul" if isinstance(node, BulletList) else "ol"
            out.append(el(kind, [el("li", print_blocks(item, depth)) for item in node.items]))
        elif isinstance(node, Table):
            head = el("tr", [el("th", print_inlines(cell)) for cell in node.header])
            rows = [el("tr", [el("td", print_inlines(cell)) for cell in row]) for row in node.rows]
            out.append(el("table", head, rows, cls="changes"))
        else:
            raise TypeError(f"the errata sheet has no print form for a {node.kind} node")
    return out


def errata_sheet(ctx: RenderContext, page: Page, created: str) -> str:
    """The print HTML of the errata sheet of ``page`` (the changes page in ``ctx``'s language)."""
    title = plain_text(page.blocks[0].title) if isinstance(page.blocks[0], Section) else ""
    document = print_html.document_title(ctx, title)
    return print_html.print_document(ctx, document, print_blocks(page.blocks), "errata", created)
