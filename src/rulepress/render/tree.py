"""The document tree of a page: what a reader sees, as typed nodes, never as markup.

Stage 1 of the site turns a spec (already in the reader's language) into
these nodes; stage 2, inside Sphinx, turns them one for one into docutils
nodes (:mod:`rulepress.sphinx_ext.doctree`). Between the two the tree is a
JSON file on disk, so each page can be read, diffed and tested without
Sphinx (GUIDE §3.11). The printed documents are written from these nodes
too (:mod:`rulepress.render.print_writer`), and so is the scorer's report
(:mod:`rulepress.render.report_tree`), which the terminal writer
(:mod:`rulepress.render.text_writer`) lays out as text.

Why a tree and not MyST text: text that came from a spec, a catalog or a
table state is held in :class:`Text` (and the few other fields typed ``str``
below), and the converter makes a docutils text node of it. Nothing parses
it again, so a translation cannot open a directive, a raw block, a fence or
a doctest, whatever characters it holds. The only structure on a page is
the structure these classes spell out. Doctests are :class:`Doctest` nodes
that carry the worked example's *data* (ids and stated values); the code is
written from that data by the converter, never from text.
"""

# No ``from __future__ import annotations`` here: with it every field's annotation is a
# string, which pydantic turns into a forward reference and evaluates while it defines
# each class (a compile() each), whether or not the class is ever used. Written as
# objects, only the names defined further down are quoted; defining the 34 classes in
# a warm `rulepress score` took about a sixth less.
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: what a label may look like: the permalink ids (``rule-16-4-8``, ``term-agenda``)
LABEL_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Label = Annotated[str, Field(pattern=LABEL_PATTERN, max_length=200)]


class Node(BaseModel):
    """Every node is frozen and refuses unknown fields when read back from JSON."""

    # Each class's validator is built when the class is first used, not when this module
    # is imported: a score report uses a handful of the classes, and building all of them
    # (forward references resolved from this module) took about 50 ms of `rulepress score`.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# ------------------------------------------------------------------ inline nodes


class Text(Node):
    """Plain text: shown exactly as it is, whatever characters it holds."""

    kind: Literal["text"] = "text"
    text: str


class Strong(Node):
    kind: Literal["strong"] = "strong"
    children: list["Inline"]


class Emphasis(Node):
    kind: Literal["emphasis"] = "emphasis"
    children: list["Inline"]


class Code(Node):
    """A short literal, such as a variant's id (shown in a monospace font)."""

    kind: Literal["code"] = "code"
    text: str


class Ref(Node):
    """A link to a label on one of the same project's pages (a rule, a term, a ruling …)."""

    kind: Literal["ref"] = "ref"
    label: Label
    children: list["Inline"]
    classes: list[Label] = []


class Link(Node):
    """A link to a page outside the project (another game, the home page); URLs are ours."""

    kind: Literal["link"] = "link"
    url: Annotated[str, Field(pattern=r"^[A-Za-z0-9_./#-]+$")]
    children: list["Inline"]


class Span(Node):
    """Text in a role readers recognise: a rule's or a step's number, a term, a ruling, cited rules.

    The role is what the text *is*; each writer gives it its own look (the
    print writer a class of the print stylesheet, the site writer a class too).
    """

    kind: Literal["span"] = "span"
    role: Literal["rule", "ruling", "term", "number", "cites"]
    children: list["Inline"]


class Quote(Node):
    """Words quoted from a source document, in the document's own language.

    Each writer marks them with that language (``lang``), so that a screen reader
    reads a Czech quote on a Japanese page as Czech, and sets them in its rules;
    the quotation marks around them are the page's, outside the node.
    """

    kind: Literal["quote"] = "quote"
    text: str
    lang: Annotated[str, Field(pattern=r"^[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$")]


class Icon(Node):
    """A glossary term's icon, before its words (which say what it shows): an inline SVG."""

    kind: Literal["icon"] = "icon"
    src: Annotated[str, Field(pattern=r"^data:image/svg\+xml;base64,[A-Za-z0-9+/=]*$")]


class PageNumber(Node):
    """The page a label is on, in a printed document (the site has no pages: it shows nothing)."""

    kind: Literal["page-number"] = "page-number"
    label: Label


Inline = Annotated[
    Text | Strong | Emphasis | Code | Ref | Link | Span | Quote | Icon | PageNumber,
    Field(discriminator="kind"),
]


# ------------------------------------------------------------------- block nodes


class Paragraph(Node):
    kind: Literal["paragraph"] = "paragraph"
    children: list[Inline]
    classes: list[Label] = []
    #: a permanent anchor for an entry that has no heading (a parameter on the Sources page)
    label: Label | None = None


class BulletList(Node):
    kind: Literal["bullets"] = "bullets"
    items: list[list["Block"]]


class NumberedList(Node):
    kind: Literal["numbered"] = "numbered"
    items: list[list["Block"]]


class Section(Node):
    """A heading and what follows it; ``label`` is its permanent anchor, the same in every language."""

    kind: Literal["section"] = "section"
    label: Label
    title: list[Inline]
    children: list["Block"]


class Card(Node):
    """A boxed block with a title (a step of a sequence), an optional footer."""

    kind: Literal["card"] = "card"
    title: list[Inline]
    body: list["Block"]
    footer: list["Block"] = []
    #: its permanent anchor (a step's, which the Sources page links to), if it has one
    label: Label | None = None


class Details(Node):
    """Blocks folded under a one-line summary, opened by the reader (HTML ``<details>``).

    It opens without JavaScript, and the browser's find-in-page looks inside it.
    """

    kind: Literal["details"] = "details"
    summary: list[Inline]
    children: list["Block"]
    #: classes for the writer's styles (a rule's quiet source marker: ``rp-source``)
    classes: list[Label] = []


class LinkCard(Node):
    """A card that is one big link (a game on the landing page)."""

    kind: Literal["link-card"] = "link-card"
    title: list[Inline]
    body: list["Block"]
    url: Annotated[str, Field(pattern=r"^[A-Za-z0-9_./#-]+$")]


class Grid(Node):
    """Cards side by side: ``columns`` per row on phones, small, medium and large screens."""

    kind: Literal["grid"] = "grid"
    columns: tuple[int, int, int, int]
    gutter: int = Field(ge=0, le=5)
    cards: list[LinkCard]


#: what a table's column holds, for writers that lay columns out themselves (the
#: terminal): a step's number, cited rules, words, or an amount (set right-aligned)
ColumnRole = Literal["number", "cites", "text", "amount"]


class Table(Node):
    kind: Literal["table"] = "table"
    header: list[list[Inline]]
    rows: list[list[list[Inline]]]
    #: its title, when the table is shown with one of its own (a look-up table on a card)
    caption: list[Inline] = []
    #: each column's role, when the tree says (the scorer's report); else every column is text
    columns: list[ColumnRole] = []
    #: lines that belong to each row, shown under it (a score line's notes): one list
    #: per row, or none at all
    notes: list[list[list[Inline]]] = []


class Group(Node):
    """Blocks that belong to the line before them, set under it (a vote's counts, a ruling).

    The terminal indents them; the site and print put them in a block of their own.
    """

    kind: Literal["group"] = "group"
    children: list["Block"]


class StepItem(Node):
    """One step of a sequence: its number, title, cited rules, text, and its own sub-steps."""

    number: str
    title: list[Inline]
    cites: list[Inline] = []
    text: list[Inline]
    steps: list["StepItem"] = []


class StepList(Node):
    """The steps of a reference sequence, in order (sub-steps under their step)."""

    kind: Literal["steps"] = "steps"
    steps: list[StepItem]


class TieBreakOrder(Node):
    """The criteria that break a tie, in the order they are tried."""

    kind: Literal["tiebreak-order"] = "tiebreak-order"
    criteria: list[list[Inline]]


class GlossaryEntry(Node):
    label: Label
    term: str
    definition: list[Inline]
    #: blocks under the definition (its closed source marker)
    details: list["Block"] = []


class Glossary(Node):
    kind: Literal["glossary"] = "glossary"
    entries: list[GlossaryEntry]


class CodeBlock(Node):
    """Literal text shown as it is (an example's table state as YAML)."""

    kind: Literal["code-block"] = "code-block"
    text: str
    language: Literal["yaml", "json", "text"]


class Chart(Node):
    """A chart rulepress drew from data, as an SVG inside the page, and the words for it.

    The SVG is rulepress's own drawing (:mod:`rulepress.render.impact_chart`),
    whose labels went through the charting library as text; it is embedded as a
    ``data:`` URI, so nothing is fetched, and shown as an image, in which no
    script runs. ``alt`` says what it shows, for a reader who cannot see it.
    A printed document and the terminal show the numbers beside it instead.
    """

    kind: Literal["chart"] = "chart"
    src: Annotated[str, Field(pattern=r"^data:image/svg\+xml;base64,[A-Za-z0-9+/=]*$")]
    alt: str


#: a value an example states: what the doctest compares the scorer's answer with
Stated = Any


class Fact(Node):
    """One stated fact of a worked example, as data: what to ask the scorer and the answer."""

    ask: Literal["player", "tally", "winners", "decided_by"]
    subject: str = ""  # the player id or the tally id
    key: str = ""
    value: Stated


class Doctest(Node):
    """A check that the worked example computes what its text states (run by ``-b doctest``)."""

    kind: Literal["doctest"] = "doctest"
    game: Label
    example: Label
    facts: list[Fact]


class ContentsEntry(Node):
    """One chapter of a page in its contents list: the chapter's anchor and its title."""

    label: Label
    title: list[Inline]


class Contents(Node):
    """A long page's contents: a link to each of its chapters, in reading order.

    The page tree decides which pages are long (:mod:`rulepress.render.contents`);
    the site's writer also keeps a way back to the list in view wherever the
    reader has scrolled to, so a chapter is two taps away from anywhere.
    """

    kind: Literal["contents"] = "contents"
    label: Label
    title: list[Inline]
    entries: list[ContentsEntry]


class TocTree(Node):
    """The pages a project's start page lists (Sphinx's toctree)."""

    kind: Literal["toctree"] = "toctree"
    entries: list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9/_-]*$")]]
    caption: str | None = None
    maxdepth: int = 1
    #: listed for navigation (previous/next, the page list) but not shown in the page
    hidden: bool = False


Block = Annotated[
    Paragraph
    | BulletList
    | NumberedList
    | Section
    | Card
    | Details
    | Grid
    | Table
    | Group
    | StepList
    | TieBreakOrder
    | Glossary
    | CodeBlock
    | Chart
    | Doctest
    | Contents
    | TocTree,
    Field(discriminator="kind"),
]


class Page(Node):
    """One page: its blocks, the first of which is normally the page's own section."""

    format: Literal[1] = 1
    blocks: list[Block]

    def to_json(self) -> str:
        return self.model_dump_json(indent=1, exclude_defaults=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "Page":
        return cls.model_validate_json(text)


def row_notes(table: Table, index: int) -> list[list[Inline]]:
    """The notes under a table's row ``index`` (none, when the table has none)."""
    return table.notes[index] if index < len(table.notes) else []


def notes_column(table: Table) -> int:
    """The column a row's notes are shown in: its first column of words, else the first."""
    return next((c for c, role in enumerate(table.columns) if role == "text"), 0)


def text(value: str) -> list[Inline]:
    """Plain text as inline content."""
    return [Text(text=value)]


def plain_text(inlines: list[Inline]) -> str:
    """What the inline content reads as, without its links and emphasis."""
    out: list[str] = []
    for node in inlines:
        if isinstance(node, Text | Code | Quote):
            out.append(node.text)
        elif isinstance(node, Icon | PageNumber):
            continue  # an icon's words follow it; a page number is the layout's
        else:
            out.append(plain_text(node.children))
    return "".join(out)
