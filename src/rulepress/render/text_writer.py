"""A page tree as terminal text: the scorer's report (``rulepress score``).

The tree decides every text, label and order (:mod:`rulepress.render.report_tree`);
this writer only lays it out: a section's title with a rule line under it,
blank lines between the blocks of a section, a :class:`~rulepress.render.tree.Group`
indented under the line before it, list markers, and table columns padded by
display width (``wcwidth``), so Japanese full-width text and Czech combining
marks line up. Text made only of characters that take one column each (the
Latin letters, Latin-1 and most of General Punctuation: an English or Czech
report) is measured by its length, without importing wcwidth, which takes
longer to import than the rest of the report takes to write.

Player ids, agenda texts and notes come from table states, titles and labels
from specs and catalogs: all untrusted. So every piece of text goes through
:func:`visible` before it is written, which makes it single-line and free of
controls: a C0 or C1 control (CR, LF, TAB, ESC …), DEL, U+2028/U+2029, the
bidi marks (ALM, LRM, RLM) and the bidi embeddings, overrides and isolates
(U+202A–U+202E, U+2066–U+2069) are shown as ``<U+XXXX>`` (``"\\r"`` becomes
``<U+000D>``, ``"\\u202e"`` ``<U+202E>``). So a player id cannot forge a
report line, move the cursor, colour the terminal or reorder the text around
it, and whoever reads the report sees that the input held something odd. The
loader refuses all of these in specs and states already
(:data:`rulepress.yamlsrc.reader.CONTROLS`); this is the second line of
defence, for text that comes another way (a catalog, a state given as data).
Letters, combining marks, full-width characters and ZWJ are text and stay as
they are. Like the site and print writers, it sets each text in the report's
language (:func:`~rulepress.i18n.typography.typeset`: no-break spaces and
minus signs keep their width).
"""

from __future__ import annotations

import re

from rulepress.i18n.typography import typeset
from rulepress.invisible import FORMAT_CHARACTERS
from rulepress.render import tree

# controls, line/paragraph separators, bidi marks, and the invisible format characters
# (bidi embeddings/overrides/isolates, zero-width spaces, tags …: rulepress.invisible)
_INVISIBLE = re.compile(f"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029{FORMAT_CHARACTERS}]")

#: the narrowest a column of each role is laid out, so that short tables line up alike
MIN_WIDTH: dict[tree.ColumnRole, int] = {"number": 5, "cites": 0, "text": 12, "amount": 7}
INDENT = "  "
BULLET = "· "


def visible(text: str) -> str:
    """``text`` on one line with every control shown as ``<U+XXXX>`` (see the module docstring)."""
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


#: Characters that each take one column, alone or beside any other: printable ASCII,
#: Latin-1 but the soft hyphen, Latin Extended-A and -B, General Punctuation but its
#: separators, invisible and bidi characters, and the minus sign. No combining mark,
#: joiner or variation selector is among them, so a text of them is as wide as it is
#: long (tests/render/test_text_writer.py checks every one against wcwidth).
NARROW = re.compile(r"[\x20-\x7e\xa0-\xac\xae-\u024f\u2010-\u2027\u2030-\u205e\u2212]*")


def width(shown: str) -> int:
    """Columns ``shown`` (text made :func:`visible` already) takes in a terminal."""
    if NARROW.fullmatch(shown):
        return len(shown)
    from wcwidth import wcswidth, wcwidth  # noqa: PLC0415 - only for wider text (see NARROW)

    columns = wcswidth(shown)
    # -1 means a character wcwidth cannot place; count each one it can, the rest as one
    return columns if columns >= 0 else sum(max(wcwidth(c), 1) for c in shown)


class _Writer:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.lines: list[str] = []

    def shown(self, inlines: list[tree.Inline]) -> str:
        """The one place text enters the report: set in the language, and made visible."""
        return visible(typeset(tree.plain_text(inlines), self.lang))

    def block(self, node: tree.Block, indent: int, depth: int) -> None:
        pad = INDENT * indent
        if isinstance(node, tree.Section):
            self.section(node, indent, depth)
        elif isinstance(node, tree.Paragraph):
            self.lines.append(pad + self.shown(node.children))
        elif isinstance(node, tree.Group):
            for child in node.children:
                self.block(child, indent + 1, depth)
        elif isinstance(node, tree.BulletList | tree.NumberedList):
            for n, item in enumerate(node.items, start=1):
                marker = BULLET if isinstance(node, tree.BulletList) else f"{n}. "
                self.item(item, marker, indent, depth)
        elif isinstance(node, tree.Table):
            self.table(node, pad)
        elif isinstance(node, tree.CodeBlock):
            # literal text (a table state as YAML), each line made visible as it stands:
            # no typesetting, which would change what a reader copies
            self.lines.extend(pad + INDENT + visible(line) for line in node.text.splitlines())
        elif isinstance(node, tree.Chart):
            # a terminal draws no picture: the words that say what the chart shows
            self.lines.append(pad + visible(typeset(node.alt, self.lang)))
        else:
            raise TypeError(f"the terminal report has no form for a {node.kind} node")

    def item(self, item: list[tree.Block], marker: str, indent: int, depth: int) -> None:
        """A list item: its first paragraph after the marker, the rest indented under it."""
        rest = item
        if item and isinstance(item[0], tree.Paragraph):
            self.lines.append(INDENT * indent + marker + self.shown(item[0].children))
            rest = item[1:]
        for child in rest:
            self.block(child, indent + 1, depth)

    def section(self, node: tree.Section, indent: int, depth: int) -> None:
        """Its title (ruled, below the page's own), then its blocks, a blank line between two.

        A group belongs to the line above it, so no blank line comes before one.
        """
        pad = INDENT * indent
        title = self.shown(node.title)
        self.lines.append(pad + title)
        if depth > 0:
            self.lines.append(pad + "-" * width(title))
        for k, child in enumerate(node.children):
            if k > 0 and not isinstance(child, tree.Group):
                self.lines.append("")
            self.block(child, indent, depth + 1)

    def table(self, node: tree.Table, pad: str) -> None:
        """Columns padded to their widest cell; a row's notes under it, from the text column on."""
        rows = [[self.shown(cell) for cell in row] for row in [node.header, *node.rows]]
        count = max(len(row) for row in rows)
        roles: list[tree.ColumnRole] = list(node.columns) or ["text"] * count
        widths = [
            max([MIN_WIDTH[roles[c]], *(width(row[c]) for row in rows if c < len(row))])
            for c in range(count)
        ]
        # two spaces before a column of words, one between the others
        gaps = ["" if c == 0 else "  " if roles[c] == "text" else " " for c in range(count)]
        text_at = tree.notes_column(node)
        under = " " * sum(widths[c] + len(gaps[c]) for c in range(text_at)) + gaps[text_at]
        for r, row in enumerate(rows):
            cells = []
            for c, cell in enumerate(row):
                fill = " " * max(0, widths[c] - width(cell))
                cells.append(gaps[c] + (fill + cell if roles[c] == "amount" else cell + fill))
            self.lines.append(pad + "".join(cells))
            notes = tree.row_notes(node, r - 1) if r > 0 else []
            self.lines.extend(f"{pad}{under}  {BULLET}{self.shown(note)}" for note in notes)


def write(page: tree.Page, lang: str) -> str:
    """``page`` as terminal text in ``lang``, ending with a newline."""
    writer = _Writer(lang)
    for block in page.blocks:
        writer.block(block, 0, 0)
    return "\n".join(writer.lines).rstrip() + "\n"
