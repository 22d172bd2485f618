"""Contents lists: which pages are long, and the list of chapters each long page opens with.

Input: a finished page tree; output: the same page, with a
:class:`~rulepress.render.tree.Contents` block under its heading when it has
enough chapters (top-level sections) to be long on a phone. Decided here, in the
page tree, once for every writer and every page a game has (the changes and
sources pages too), rather than in a template that cannot see the chapters.
"""

from __future__ import annotations

from rulepress.render.tree import Contents, ContentsEntry, Page, Section, plain_text, text

#: a page with this many chapters or more gets a contents list. Fewer fit on a few
#: phone screens and a list would only push their text down; three chapters of rules,
#: tables or examples already run to many screens
LONG_PAGE_CHAPTERS = 3
#: the contents list's anchor (the way back to it, in the site's writer, points here)
CONTENTS_LABEL = "contents"


def chapters(page: Page) -> list[Section]:
    """The page's chapters: the sections directly under its own heading."""
    if not page.blocks or not isinstance(page.blocks[0], Section):
        return []
    return [child for child in page.blocks[0].children if isinstance(child, Section)]


def with_contents(page: Page, title: str) -> Page:
    """``page`` with a contents list of its chapters under its heading, if it is long.

    An entry shows its chapter's title as plain text: a title may hold a
    reference, and a link inside the list's own link would be two links in one.
    """
    found = chapters(page)
    if len(found) < LONG_PAGE_CHAPTERS:
        return page
    top = page.blocks[0]
    assert isinstance(top, Section)  # chapters() found some, so the page opens with one
    entries = [
        ContentsEntry(label=chapter.label, title=text(plain_text(chapter.title)))
        for chapter in found
    ]
    listed = Contents(label=CONTENTS_LABEL, title=text(title), entries=entries)
    opened = top.model_copy(update={"children": [listed, *top.children]})
    return page.model_copy(update={"blocks": [opened, *page.blocks[1:]]})
