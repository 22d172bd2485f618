"""Catalog → PO text: Babel's writer, with the parts it gets wrong written by us.

The messages are written by Babel's ``write_po``; two parts are not:

* **Previous msgids** (``#| msgid``, ``#| msgid_plural``; ``#~|`` on obsolete
  entries). Babel 2.19's ``write_po(include_previous=True)`` quotes the old
  msgid with ``normalize`` and then passes the result through its *comment*
  wrapper (``textwrap``), which joins the quoted lines with spaces and
  re-breaks them inside the strings: any previous msgid longer than a line
  comes out as ``#| msgid "" "first part`` / ``#| second part" " …``, a file
  that GNU msgfmt, msgcat, msgmerge and polib reject. It also writes neither
  flags nor previous msgids for obsolete entries. So Babel writes without
  them, and each entry's lines are added here, quoted line by line with
  Babel's own ``normalize`` as gettext does (``#| "…"`` on every line).
* **The header**, so that the fields and comment lines that are the
  translators' survive an update (:mod:`rulepress.i18n.header_fields`).
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from textwrap import TextWrapper

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import normalize, write_po

from rulepress.i18n.header_fields import KeptHeader, compose

#: a fixed date for headers, so that files change only when their messages do
STABLE_DATE = datetime(2026, 1, 1, tzinfo=UTC)
#: line width, as gettext's tools wrap (``msgcat -w 79``)
WIDTH = 79
_KEYWORDS = ("msgctxt ", "msgid ", "#~ msgctxt ", "#~ msgid ")


class WriterError(RuntimeError):
    """Babel's output did not have one block per message (a Babel change rulepress must follow)."""


def render(catalog: Catalog, kept: KeptHeader | None = None) -> bytes:
    """The .po/.pot text of a catalog, deterministically; ``kept``: the old file's header."""
    catalog.creation_date = STABLE_DATE
    catalog.revision_date = STABLE_DATE
    buf = io.BytesIO()
    write_po(buf, catalog, width=WIDTH, omit_header=True, include_previous=False, sort_output=False)
    body = buf.getvalue().decode("utf-8")
    messages = [m for m in catalog if m.id] + list(catalog.obsolete.values())
    # Babel ends every message with one blank line and writes no blank line inside
    # one (strings are escaped, empty comments skipped): the blocks are the messages
    blocks = body.split("\n\n")[:-1] if body else []
    if len(blocks) != len(messages):
        raise WriterError(f"{len(blocks)} blocks written for {len(messages)} messages")
    out = [_header(catalog, kept)]
    obsolete = set(range(len(messages) - len(catalog.obsolete), len(messages)))
    for index, (message, block) in enumerate(zip(messages, blocks, strict=True)):
        out.append(_with_history(block, message, obsolete=index in obsolete) + "\n\n")
    return "".join(out).encode("utf-8")


def _header(catalog: Catalog, kept: KeptHeader | None) -> str:
    if kept is not None and kept.comment:
        comment = kept.comment
    else:  # Babel's own header comment, wrapped as write_po wraps it
        wrapper = TextWrapper(width=WIDTH, subsequent_indent="# ", break_long_words=False)
        lines: list[str] = []
        for line in catalog.header_comment.splitlines():
            lines += wrapper.wrap(line)
        comment = "\n".join(lines)
    fields = compose([(str(k), str(v).strip()) for k, v in catalog.mime_headers], kept)
    value = "".join(f"{name}: {text}\n" for name, text in fields)
    head = f"{comment}\n" if comment else ""
    return f'{head}msgid ""\nmsgstr {normalize(value, width=WIDTH)}\n\n'


def _with_history(block: str, message: Message, *, obsolete: bool) -> str:
    """A message's block with its flags (obsolete entries) and previous msgids added."""
    extra: list[str] = []
    if obsolete and message.flags:
        extra.append("#, " + ", ".join(sorted(message.flags)))
    previous = list(message.previous_id or ())
    prefix = "#~| " if obsolete else "#| "
    for keyword, text in zip(("msgid", "msgid_plural"), previous, strict=False):
        # not normalize(prefix=…): it counts the prefix once per word and wraps too early
        quoted = normalize(text, width=WIDTH - len(prefix)).split("\n")
        extra.append(f"{prefix}{keyword} {quoted[0]}")
        extra += [prefix + line for line in quoted[1:]]
    if not extra:
        return block
    lines = block.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(_KEYWORDS))
    return "\n".join([*lines[:at], *extra, *lines[at:]])
