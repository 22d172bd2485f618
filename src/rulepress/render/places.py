"""Where readers meet each message: site page and anchor, print file and face, card or section.

spec → (every message marked) → the writers' own documents → places by msgctxt.

The places are not written down in a table beside the writers: each message
of the spec is prefixed with a marker of its own (one private-use character),
the marked spec is rendered by the same code that writes the site
(:func:`rulepress.render.pages.game_pages`) and the print documents
(:mod:`rulepress.render.print_writer`), and each marker is looked for in the
result. A message shown on several pages (a term's words in every link to it,
a ruling's title wherever it is cited) has a place on each; one shown nowhere
has none. The extractor writes them into the templates as comments, and the
print budgets (:mod:`rulepress.print.budgets`) read the print places' element
chains to know which box of the print layout a text is set in.

Site places are relative to a language's root (``brink/rules.html#rule-16-4-8``),
so they hold for any ``--base-url``. Print places name the file as the print
build writes it with the spec's own formats, and the part of it: the face of
the reference card (a two-page file: a page number that never moves), the
card by the name the build's overflow errors give it, and for the rulebook
the anchor of its section, which WeasyPrint writes as a PDF named destination
(``rulebook-a4.pdf#rule-16-4-8``): its page numbers come from the layout and
would change with every edit before it, churning every template.

Neither Sphinx nor WeasyPrint is imported: both kinds of document are
inspected before those tools see them (a page tree, an HTML string).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from html.parser import HTMLParser

from pydantic import BaseModel

from rulepress.games.messages import translate_data
from rulepress.model import LoadedSpec, Spec
from rulepress.render import print_trees, print_writer
from rulepress.render.context import RenderContext
from rulepress.render.html_tree import VOID
from rulepress.render.pages import PAGES, game_pages
from rulepress.render.tree import Card, GlossaryEntry, Section

#: the first marker; each message gets the next code point of Supplementary
#: Private Use Area-A, which no spec or writer uses (65 534 messages a game)
_FIRST = 0xF0000
_LAST = 0xFFFFD
#: the site's page files, as Sphinx writes them from the page names
SITE_SUFFIX = ".html"
#: a fixed date for the marked print documents (their date is not a place)
_CREATED = "2000-01-01T00:00:00Z"


@dataclass(frozen=True, slots=True)
class Place:
    """Where a reader meets a text: a site page or a print file, and the part of it.

    ``chain``: for print, the elements the text sits in, outermost first, each
    written ``tag.class.class`` (what the print budgets map to CSS boxes);
    ``prefix``: the text set in the same block before it (a step's number before
    its title, a bold label before a value); ``block``: which block of the
    document it is in (the paragraphs of one step text share the block of a card).
    """

    medium: str  # "site" or "print"
    file: str
    part: str = ""
    chain: tuple[str, ...] = ()
    prefix: str = ""
    block: int = 0

    def __str__(self) -> str:
        if self.medium == "site" or self.part.startswith("#"):
            return f"{self.medium}: {self.file}{self.part}"
        return (
            f"{self.medium}: {self.file}, {self.part}"
            if self.part
            else f"{self.medium}: {self.file}"
        )


@dataclass(frozen=True, slots=True)
class Marked:
    """A spec whose every message starts with its own marker, and the marker of each context."""

    spec: Spec
    #: context → its marker, in the order of the spec's messages
    markers: dict[str, str]
    by_marker: dict[str, str]
    #: context → its English text (spec markup and all)
    texts: dict[str, str]

    def contexts(self, text: str) -> Iterator[str]:
        """The contexts whose markers ``text`` holds."""
        for char in text:
            if _FIRST <= ord(char) <= _LAST and char in self.by_marker:
                yield self.by_marker[char]


def mark(loaded: LoadedSpec) -> Marked:
    """``loaded``'s spec with a marker before each message (after a list item's ``- ``)."""
    markers: dict[str, str] = {}
    texts: dict[str, str] = {}

    def lookup(context: str, text: str) -> str:
        texts[context] = text
        marker = markers.setdefault(context, chr(_FIRST + len(markers)))
        if ord(marker) > _LAST:
            return text  # a game this large gets no place for the rest (never met so far)
        # after the "- " of a list: the marker must not turn a list item into a paragraph
        head = "- " if text.startswith("- ") else ""
        return head + marker + text[len(head) :]

    data = translate_data(loaded.spec.model_dump(), lookup)
    by_marker = {marker: context for context, marker in markers.items()}
    return Marked(Spec.model_validate(data), markers, by_marker, texts)


def _context(spec: Spec) -> RenderContext:
    # English, plain numbers: a place does not depend on the language
    return RenderContext(spec, "en", str, str)


def _site(marked: Marked, game: str) -> Iterator[tuple[str, Place]]:
    pages = game_pages(_context(marked.spec))

    def walk(node: object, page: str, anchor: str) -> Iterator[tuple[str, Place]]:
        if isinstance(node, Section | Card | GlossaryEntry) and node.label:
            # the page's own section is the page itself: no anchor
            anchor = "" if node.label == page else "#" + node.label
        if isinstance(node, BaseModel):
            # a node's fields in their declared order (vars: the fastest way to them)
            for value in vars(node).values():
                if isinstance(value, str):
                    for context in marked.contexts(value):
                        yield context, Place("site", f"{game}/{page}{SITE_SUFFIX}", anchor)
                else:
                    yield from walk(value, page, anchor)
        elif isinstance(node, list | tuple):
            for item in node:
                yield from walk(item, page, anchor)

    order = {name: i for i, name in enumerate(PAGES)}
    for name in sorted(pages, key=lambda n: order.get(n, len(order))):
        yield from walk(pages[name], name, "")


#: the elements whose text is set as one block of lines (its own box)
_BLOCKS = frozenset(
    {"p", "div", "li", "h1", "h2", "h3", "h4", "dt", "dd", "caption", "td", "th", "footer"}
)


@dataclass
class _Open:
    name: str
    block: int  # the serial number of a block element (0: an inline one)
    text: list[str]


class _Reader(HTMLParser):
    """Finds the markers in a print document's HTML, with the elements around each."""

    def __init__(self, marked: Marked) -> None:
        super().__init__(convert_charrefs=True)
        self.marked = marked
        self.stack: list[_Open] = []
        self.blocks = 0
        self.last_id = ""
        self.found: list[tuple[str, Place]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        if tag in VOID:
            return
        block = 0
        if tag in _BLOCKS:
            self.blocks += 1
            block = self.blocks
        self.stack.append(_Open(".".join([tag, *classes]), block, []))
        if values.get("id"):
            self.last_id = values["id"] or ""

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop().name.split(".")[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        block = next((o for o in reversed(self.stack) if o.block), None)
        chain = tuple(o.name for o in self.stack)
        for i, char in enumerate(data):
            if _FIRST <= ord(char) <= _LAST and char in self.marked.by_marker:
                before = "".join(block.text) + data[:i] if block else ""
                prefix = "".join(c for c in before if not _FIRST <= ord(c) <= _LAST)
                place = Place("print", "", self.last_id, chain, prefix, block.block if block else 0)
                self.found.append((self.marked.by_marker[char], place))
        if block is not None:
            block.text.append(data)


def _read(marked: Marked, html: str) -> list[tuple[str, Place]]:
    reader = _Reader(marked)
    reader.feed(html)
    reader.close()
    return reader.found


def _shown(place: Place) -> bool:
    """Whether a reader sees it: not the PDF's metadata title, not the hidden slug line."""
    return not any(c == "head" or c.startswith("p.slug") for c in place.chain)


def _print(marked: Marked) -> Iterator[tuple[str, Place]]:
    spec = marked.spec
    pub = spec.publishing
    if pub is None:
        return
    ctx = _context(spec)
    card = pub.reference_card
    reference = print_writer.write(
        print_trees.reference_card(ctx, card.sequences, card.tables), _CREATED
    )
    file = f"reference-{card.format}.pdf"
    for context, found in _read(marked, reference):
        face = next((c.split(".")[-1] for c in found.chain if c.startswith("section.face.")), "")
        yield context, replace(found, file=file, part=face)
    book = f"rulebook-{pub.rulebook_format}.pdf"
    for context, found in _read(marked, print_writer.write(print_trees.rulebook(ctx), _CREATED)):
        if any(c.startswith("nav.toc") for c in found.chain):
            part = "contents"
        elif any(c.startswith("section.cover") for c in found.chain) or not found.part:
            part = "cover"
        else:
            part = "#" + found.part
        yield context, replace(found, file=book, part=part)
    if pub.step_cards is not None:
        cards = f"cards-{pub.step_cards.format}.pdf"
        deck = print_trees.step_cards(ctx, pub.step_cards.sequences)
        for one in print_writer.cards(deck):
            html = print_writer.card_document(deck, [one.front, one.back], _CREATED, one.name)
            for context, found in _read(marked, html):
                yield context, replace(found, file=cards, part=f"card '{one.name}'")


def message_places(loaded: LoadedSpec, marked: Marked | None = None) -> dict[str, list[Place]]:
    """Every place of every message of ``loaded``, by msgctxt, site first, each place once."""
    marked = marked or mark(loaded)
    game = loaded.spec.game.id
    out: dict[str, list[Place]] = {context: [] for context in marked.markers}
    seen: set[tuple[str, Place]] = set()
    for context, place in (*_site(marked, game), *_print(marked)):
        if _shown(place) and (context, place) not in seen:
            seen.add((context, place))
            out[context].append(place)
    return out
