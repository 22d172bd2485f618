"""Contents lists: which pages are long, and the list of chapters each long page opens with.

Input: a finished page tree; output: the same page, with a
:class:`~rulepress.render.tree.Contents` block under its heading when it has
enough chapters (top-level sections) to be long on a phone. Decided here, in the
page tree, once for every writer and every page a game has (the changes and
sources pages too), rather than in a template that cannot see the chapters.
"""

from __future__ import annotations

from rulepress.render.tree import (
    Card,
    Contents,
    ContentsEntry,
    Page,
    Section,
    plain_text,
    text,
)

#: a page with this many chapters or more gets a contents list. Fewer fit on a few
#: phone screens and a list would only push their text down; three chapters of rules,
#: tables or examples already run to many screens
LONG_PAGE_CHAPTERS = 3
#: the contents list's anchor (the way back to it, in the site's writer, points here)
CONTENTS_LABEL = "contents"


#: a chapter, or a part of one that has an anchor: a section, or a step's card
Part = Section | Card


def chapters(page: Page) -> list[Part]:
    """The page's chapters: the sections directly under its own heading.

    A page of few chapters (Stationfall's rules: rule 16 and the rules it cites
    from elsewhere; its one sequence of steps) lists each chapter's own parts
    after it as well, its sections or its steps' cards: they are where such a
    page is long.
    """
    if not page.blocks or not isinstance(page.blocks[0], Section):
        return []
    found: list[Part] = list(_sections(page.blocks[0]))
    if len(found) < LONG_PAGE_CHAPTERS:
        found = [part for chapter in found for part in (chapter, *_parts(chapter))]
    return found


def _sections(section: Section) -> list[Section]:
    return [child for child in section.children if isinstance(child, Section)]


def _parts(part: Part) -> list[Part]:
    """A chapter's sections, or its anchored cards (a sequence's steps)."""
    if not isinstance(part, Section):
        return []
    return [
        child
        for child in part.children
        if isinstance(child, Section) or (isinstance(child, Card) and child.label is not None)
    ]


def _label(part: Part) -> str:
    label = part.label
    assert label is not None  # _parts() takes only the cards that have one
    return label


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
        ContentsEntry(label=_label(chapter), title=text(plain_text(chapter.title)))
        for chapter in found
    ]
    listed = Contents(label=CONTENTS_LABEL, title=text(title), entries=entries)
    opened = top.model_copy(update={"children": [listed, *top.children]})
    return page.model_copy(update={"blocks": [opened, *page.blocks[1:]]})
