"""A catalog's header entry, read from the file's text and checked before Babel sees it.

The header (the entry with an empty msgid) says how to read everything else:
``Content-Type: text/plain; charset=…`` is the encoding Babel decodes the
file with, ``Plural-Forms`` picks a form for each count, ``Language`` the
plural rules it must agree with. All of it is translator input, so it is
parsed here with bounds, and every problem is located
(``file:line:col: Plural-Forms: …``) and reported at once.

Babel is never allowed to act on an unchecked header: it would call
``int()`` on ``nplurals`` (a traceback for ``nplurals=abc``), allocate
``nplurals`` strings for every plural entry, and decode the file with
whatever codec the charset names (``utf-7`` turns ``+ADw-script+AD4-`` into
``<script>`` after the UTF-8 text was checked; ``rot13`` raises). Catalogs
are therefore read as UTF-8 only; see :mod:`rulepress.i18n.catalogs`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from babel import Locale, UnknownLocaleError

from rulepress.errors import Location, Problem
from rulepress.i18n.plural import (
    PluralFormsError,
    PluralRule,
    cldr_plural_count,
    parse_plural_forms,
)

_UTF8 = {"utf8"}
# encodings in which ASCII bytes do not stand for themselves: the PO syntax
# (quotes, backslashes, keywords) would be read as something else than it shows
_NOT_ASCII = {
    "utf7", "utf16", "utf16le", "utf16be", "utf32", "utf32le", "utf32be", "ucs2", "ucs4",
    "unicode", "unicodeescape", "rawunicodeescape", "punycode", "idna", "cp037", "cp273",
    "cp424", "cp500", "cp875", "cp1026", "cp1140", "ebcdic", "hz", "iso2022jp", "iso2022kr",
}  # fmt: skip
# Python codecs that transform bytes or text instead of decoding characters
_TRANSFORMS = {"rot13", "rot", "base64", "base64codec", "hex", "hexcodec", "zlib", "bz2",
               "quopri", "quotedprintable", "uu", "uucodec"}  # fmt: skip
_KEYWORD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")$')
_ESCAPE = {"\\": "\\", "t": "\t", "r": "\r", "n": "\n", '"': '"'}  # as Babel's unescape


def po_lines(text: str) -> list[str]:
    """The lines of a PO text, split at ``\\n`` only, as gettext and Babel's file reader do.

    ``str.splitlines`` would also split at NEL, U+2028, U+2029, form feed …,
    which a msgstr may contain (QA warns about them; they are still text).
    """
    return text.split("\n")


class _Reporter(Protocol):
    """The ``problem`` callback: a header field, a message, an offset in the header value."""

    def __call__(self, key: str, message: str, at: int | None = None) -> None: ...


@dataclass
class _Field:
    keyword: str
    line: int
    # (line, 0-based column of the opening quote, the quoted string)
    parts: list[tuple[int, int, str]] = field(default_factory=list)

    def value(self) -> str:
        return "".join(_unescape(quoted, column)[0] for _, column, quoted in self.parts)

    def is_empty(self) -> bool:
        """Whether :meth:`value` is ``""``, without unescaping any part.

        A part's text is what lies between its first and last character, so it is
        empty exactly when the part is at most two characters long (``""``; a
        malformed continuation line such as ``"`` or ``"x`` reads as empty too).
        Catalogs have thousands of msgids: only the header's is empty.
        """
        return all(len(quoted) <= 2 for _, _, quoted in self.parts)


def _unescape(quoted: str, column: int) -> tuple[str, list[int]]:
    """A quoted PO string's text and, per character, its 0-based column in the file line."""
    out: list[str] = []
    columns: list[int] = []
    offset = column + 1
    body = quoted[1:-1]
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body) and body[i + 1] in _ESCAPE:
            out.append(_ESCAPE[body[i + 1]])
            columns.append(offset + i)
            i += 2
            continue
        out.append(char)
        columns.append(offset + i)
        i += 1
    return "".join(out), columns


def _entries(text: str) -> Iterator[dict[str, _Field]]:
    """The active (not obsolete) entries of a PO text, as keyword fields with lines.

    One at a time, so that a reader after the header (the first entry of every
    catalog a tool writes) stops there instead of going through the whole file.
    An entry is yielded once the line that starts the next one is met.
    """
    current: dict[str, _Field] = {}
    last: _Field | None = None
    for number, raw in enumerate(po_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                last = None
            continue
        if line.startswith('"'):
            if last is not None:
                last.parts.append((number, raw.index('"'), line))
            continue
        match = _KEYWORD.match(line)
        if match is None:
            last = None
            continue  # lint_po reports it
        keyword = match.group(1)
        starts = keyword == "msgctxt" or (keyword == "msgid" and "msgctxt" not in current)
        if starts or keyword in current:
            if current:
                yield current
            current = {}
        quoted = match.group(2)
        last = _Field(keyword, number, [(number, raw.index(quoted), quoted)])
        current[keyword] = last
    if current:
        yield current


def _is_header(entry: dict[str, _Field]) -> bool:
    """Whether an entry has an empty msgid (with or without a msgctxt)."""
    return "msgid" in entry and entry["msgid"].is_empty()


def header_text(text: str) -> str | None:
    """The value of a PO text's header entry (its msgstr, unescaped), or None without one."""
    for entry in _entries(text):
        if _is_header(entry) and "msgctxt" not in entry:
            return entry["msgstr"].value() if "msgstr" in entry else None
    return None


@dataclass
class Header:
    """What the header says, once checked; ``None`` where it is missing or unusable."""

    language: str | None = None
    plural: PluralRule | None = None
    lines: tuple[int, ...] = ()  # the file lines of the header's msgstr parts
    problems: list[Problem] = field(default_factory=list)


def _locate(entry: _Field, value_start: int) -> tuple[int, int]:
    """File (line, 1-based column) of character ``value_start`` of a field's joined value."""
    seen = 0
    for line, column, quoted in entry.parts:
        text, columns = _unescape(quoted, column)
        if value_start < seen + len(text):
            return line, columns[value_start - seen] + 1
        seen += len(text)
    return entry.line, 1


def read_header(text: str, name: str, lang: str | None) -> Header:
    """Check the header entry of a PO text (for language ``lang``, or the one it declares)."""
    header = Header()
    empty = [e for e in _entries(text) if _is_header(e)]
    if len(empty) > 1:
        for extra in empty[1:]:
            line = extra["msgid"].line
            header.problems.append(
                Problem(Location(name, line, 1), "header", 'a second header entry (msgid "")')
            )
    if not empty or "msgstr" not in empty[0] or "msgctxt" in empty[0]:
        header.problems.append(
            Problem(Location(name, 1, 1), "header", 'no header entry (msgid "" first)')
        )
        return header
    msgstr = empty[0]["msgstr"]
    header.lines = tuple(line for line, _, _ in msgstr.parts)
    value = msgstr.value()
    fields: dict[str, tuple[str, int]] = {}  # lowercased name → (value, offset in the msgstr)
    offset = 0
    for raw_line in value.split("\n"):
        key, sep, rest = raw_line.partition(":")
        if sep:
            name_key = key.strip().lower()
            start = offset + len(key) + 1 + (len(rest) - len(rest.lstrip()))
            if name_key in fields and name_key in ("content-type", "plural-forms", "language"):
                at = _locate(msgstr, offset)
                header.problems.append(
                    Problem(Location(name, *at), key.strip(), "given twice in the header")
                )
            fields.setdefault(name_key, (rest.strip(), start))
        offset += len(raw_line) + 1

    def problem(key: str, message: str, at: int | None = None) -> None:
        line, column = _locate(msgstr, at) if at is not None else (msgstr.line, 1)
        header.problems.append(Problem(Location(name, line, column), key, message))

    _check_charset(fields, problem)
    header.language = _check_language(fields, lang, problem)
    if "plural-forms" not in fields:
        problem("Plural-Forms", "missing: the header must say how many plural forms there are")
        return header
    forms, start = fields["plural-forms"]
    try:
        parsed = parse_plural_forms(forms)
    except PluralFormsError as exc:
        problem("Plural-Forms", exc.message, start + exc.column)
        return header
    header.plural = parsed.rule
    if header.language is not None:
        expected = cldr_plural_count(header.language)
        if parsed.rule.nplurals != expected:
            problem(
                "Plural-Forms",
                f"nplurals={parsed.rule.nplurals}, but {header.language} has {expected} "
                f"plural form(s) for whole numbers (CLDR)",
                start + parsed.nplurals_at,
            )
            header.plural = None
    return header


def _check_charset(fields: dict[str, tuple[str, int]], problem: _Reporter) -> None:
    if "content-type" not in fields:
        problem("Content-Type", "missing: declare 'text/plain; charset=UTF-8'")
        return
    value, start = fields["content-type"]
    match = re.fullmatch(r"text/plain\s*;\s*charset\s*=\s*([A-Za-z0-9._:-]{1,40})\s*", value)
    if match is None:
        problem("Content-Type", "expected 'text/plain; charset=UTF-8'", start)
        return
    charset = match.group(1)
    at = start + match.start(1)
    # Names are compared, never given to codecs.lookup: a name from a file must
    # not pick which codec (or codec module) Python runs.
    key = re.sub(r"[^a-z0-9]", "", charset.lower())
    if key in _UTF8:
        return
    if key in _NOT_ASCII or key.startswith(("utf16", "utf32", "ucs")):
        problem(
            "Content-Type",
            f"charset {charset!r} is not ASCII-compatible: the file would not read as it "
            "shows; catalogs are UTF-8 (charset=UTF-8)",
            at,
        )
    elif key in _TRANSFORMS:
        problem("Content-Type", f"charset {charset!r} is not a character encoding", at)
    else:
        problem(
            "Content-Type",
            f"charset {charset!r} is not UTF-8: rulepress reads catalogs only as UTF-8 "
            "(convert the file and declare charset=UTF-8)",
            at,
        )


def _check_language(
    fields: dict[str, tuple[str, int]], lang: str | None, problem: _Reporter
) -> str | None:
    declared, start = fields.get("language", ("", 0))
    if declared and not re.fullmatch(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8}){0,3}", declared):
        problem("Language", f"{declared[:20]!r} is not a language code", start)
        declared = ""
    base = declared.replace("-", "_").split("_")[0].lower() if declared else ""
    if lang is not None and base and base != lang:
        problem("Language", f"the header says {base}, but the catalog is for {lang}", start)
    chosen = lang or base
    if not chosen:
        problem("Language", "missing: the header must name the catalog's language")
        return None
    try:
        Locale.parse(chosen)
    except (UnknownLocaleError, ValueError):
        problem("Language", f"unknown language {chosen!r}", start)
        return None
    return chosen


def blank_header(text: str, header: Header) -> str:
    """``text`` with the header's values emptied, line numbers kept.

    Used to go on checking the messages of a catalog whose header is unusable:
    Babel then takes the language's own plural rules instead of the file's.
    """
    if not header.lines:
        return text
    lines = text.split("\n")
    for number in header.lines:
        raw = lines[number - 1]
        if raw.lstrip().startswith('"'):
            lines[number - 1] = '""'
        else:  # the msgstr keyword line itself
            lines[number - 1] = 'msgstr ""'
    return "\n".join(lines)
