"""The errata sheet: the page "Changes in this edition" as a print document.

The sheet prints the very page tree the site shows
(:func:`rulepress.render.changes.changes_page`), so the two cannot say
different things: the print writer (:mod:`rulepress.render.print_writer`)
writes the node kinds that page uses as print HTML elements; a link to a
permalink becomes its words (a sheet has no links).
"""

from __future__ import annotations

from rulepress.render.context import RenderContext
from rulepress.render.print_trees import head
from rulepress.render.print_writer import page_document
from rulepress.render.tree import Page, Section, plain_text


def errata_sheet(ctx: RenderContext, page: Page, created: str) -> str:
    """The print HTML of the errata sheet of ``page`` (the changes page in ``ctx``'s language)."""
    title = plain_text(page.blocks[0].title) if isinstance(page.blocks[0], Section) else ""
    return page_document(head(ctx, title), page.blocks, "errata", created)
