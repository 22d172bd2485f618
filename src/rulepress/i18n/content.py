"""What a catalog says, apart from how it is laid out: the measure of a stale catalog.

Translators save catalogs with Poedit, Weblate (translate-toolkit), Lokalize,
msgcat or an editor; each wraps lines at its own width, orders header fields
its own way and adds its own fields. None of that changes what readers get or
what a translator sees, so ``i18n update --check`` and ``i18n extract --check``
compare what this module reads, not bytes, and ``update`` leaves a file whose
content would not change untouched, in its translator's layout.

The content of a catalog is, in file order:

* for every live entry: its context, msgid (and msgid_plural), translation(s),
  flags, previous msgid(s) (``#|``), translator comments and extracted comments
  (their characters but not their spaces: line breaks are a writer's) and references;
* for every obsolete entry: context, ids, translations, flags, previous msgids
  and translator comments (the rest is not kept by gettext's tools either);
* of the header, the fields that are rulepress's and say how to read the
  messages (:data:`rulepress.i18n.header_fields.COMPARED`), by meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError

from rulepress.i18n.catalog_shapes import is_icu
from rulepress.i18n.catalogs import lint_po, parse_po
from rulepress.i18n.header_fields import compared, parse_fields
from rulepress.i18n.headers import header_text
from rulepress.i18n.icu import ICU_FLAG


@dataclass(frozen=True)
class Entry:
    """One message as the content comparison sees it."""

    context: str | None
    msgid: Any
    string: Any
    flags: frozenset[str]
    previous: tuple[str, ...]
    comments: str
    extracted: str
    references: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class Content:
    """Everything of a catalog that a layout change leaves as it is."""

    header: tuple[tuple[str, object], ...]
    entries: tuple[Entry, ...]
    obsolete: tuple[Entry, ...]


def _text(comments: list[str]) -> str:
    """Comments as one text without spaces: a rewrapped comment is the same comment.

    Writers break comment lines at spaces and after hyphens (polib writes
    ``stationfall-`` / ``table``), so where a line broke is not known: spaces
    are not compared at all. Comments never reach readers.
    """
    return "".join("".join(comments).split())


def _flags(message: Message) -> frozenset[str]:
    """An entry's flags, less those its msgid decides (so a tool that drops them changes nothing).

    ``python-brace-format`` is what Babel adds to any msgid with braces as it reads
    one; ``icu-message-format`` follows from an ICU msgid (GNU msgcat 0.21 drops it).
    """
    flags = set(message.flags) - {"python-brace-format", ICU_FLAG}
    if is_icu(message):
        flags.add(ICU_FLAG)
    return frozenset(flags)


def _entry(message: Message, *, obsolete: bool) -> Entry:
    msgid = tuple(message.id) if isinstance(message.id, list | tuple) else message.id
    string = tuple(message.string) if isinstance(message.string, list | tuple) else message.string
    return Entry(
        message.context,
        msgid,
        string,
        _flags(message),
        tuple(message.previous_id or ()),
        _text(message.user_comments),
        "" if obsolete else _text(message.auto_comments),
        () if obsolete else tuple(sorted(message.locations, key=lambda loc: (loc[0], loc[1] or 0))),
    )


def content_of(catalog: Catalog, header: str) -> Content:
    """The content of a catalog read from a file whose header msgstr is ``header``."""
    return Content(
        compared(parse_fields(header)),
        tuple(_entry(m, obsolete=False) for m in catalog if m.id),
        tuple(_entry(m, obsolete=True) for m in catalog.obsolete.values()),
    )


def readable_header(text: str) -> str | None:
    """A PO text's header, or None when the text reads as no catalog (then it is stale).

    No catalog: it has no header entry, or lines that :func:`lint_po` refuses.
    """
    header = header_text(text)
    return None if header is None or lint_po(text, "") else header


def read_content(text: str, locale: str | None) -> Content | None:
    """The content of a PO text, or None when it cannot be read (then it is stale)."""
    header = readable_header(text)
    if header is None:
        return None
    try:
        catalog = parse_po(text, locale)
    except PoFileError:
        return None
    return content_of(catalog, header)


def same_content(old: bytes, new: bytes, locale: str | None) -> bool:
    """Whether two PO files say the same (see the module docstring); unreadable is never same."""
    try:
        before, after = old.decode("utf-8"), new.decode("utf-8")
    except UnicodeDecodeError:
        return False
    first = read_content(before, locale)
    return first is not None and first == read_content(after, locale)
