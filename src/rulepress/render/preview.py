"""What a page of a preview language says about itself (see :mod:`rulepress.i18n.preview`).

A language whose catalogs are below the completeness its game's spec sets is
published as a preview. Every page of the game in that language opens with a
notice in the language itself, built here as a document-tree paragraph (text
nodes only, as every translated sentence), and the language switcher names the
language with the short label beside it.
"""

from __future__ import annotations

from collections.abc import Callable

from rulepress.render.tree import Block, Page, Paragraph, Section, text
from rulepress.uitext import ui

#: the notice at the top of each page of a preview language
NOTICE = ui(
    "preview",
    "This translation is a preview: it is not finished, and some of its text is still shown in English.",
)
#: beside a preview language's name in the language switcher and on the site's root page
LABEL = ui("preview", "preview")
#: the class the theme styles the notice by
NOTICE_CLASS = "rp-preview-notice"


def with_notice(page: Page, translate: Callable[[str], str]) -> Page:
    """``page`` with the preview notice as the first block of its first section."""
    notice = Paragraph(children=text(translate(NOTICE)), classes=[NOTICE_CLASS])
    first = page.blocks[0] if page.blocks else None
    if isinstance(first, Section):
        # inside the section, under its heading: the heading stays the page's title
        section = first.model_copy(update={"children": [notice, *first.children]})
        blocks: list[Block] = [section, *page.blocks[1:]]
    else:
        blocks = [notice, *page.blocks]
    return page.model_copy(update={"blocks": blocks})
