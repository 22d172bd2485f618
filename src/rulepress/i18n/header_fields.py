"""Whose each header field of a catalog is, and the header ``i18n update`` writes.

A catalog's header (the msgstr of the entry whose msgid is empty) is shared
between rulepress and the translators' tools. Rulepress owns what decides how
the file is read and which project it belongs to; everything else belongs to
whoever translates, and ``i18n update`` keeps it as it finds it:

=============================  ========  ===========================================
field                          whose     on update / in ``update --check``
=============================  ========  ===========================================
Project-Id-Version             ours      set from the template; compared
Language                       ours      set to the catalog's language; compared
Plural-Forms                   ours      set from CLDR (Babel); compared by meaning
                                         (same number of forms, same form per count),
                                         so Poedit's spelling of the rule is not stale
Content-Type                   ours      ``text/plain; charset=utf-8``; the charset is
                                         compared (``UTF-8`` and ``utf-8`` are one)
Report-Msgid-Bugs-To,          ours      set from the template; not compared (they
POT-Creation-Date,                       say nothing about the messages; the date is
MIME-Version,                            fixed, see ``STABLE_DATE``)
Content-Transfer-Encoding
PO-Revision-Date,              theirs    kept; written with a default only in a new
Last-Translator,                         catalog (a "FULL NAME" placeholder is
Language-Team                            replaced); never compared
Generated-By, X-Generator,     theirs    kept, in their order, after the standard
X-Poedit-*, any other field              fields; never compared
the header's comment lines     theirs    kept (a new catalog gets Babel's)
=============================  ========  ===========================================

So a catalog saved by Poedit, Weblate or msgcat keeps its header through every
``update``, and only a change to one of our compared fields makes it stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulepress.i18n.headers import header_text, po_lines
from rulepress.i18n.plural import SAMPLE, PluralFormsError, parse_plural_forms

#: the fields rulepress writes on every update (lower case)
OURS = frozenset(
    {
        "project-id-version",
        "report-msgid-bugs-to",
        "pot-creation-date",
        "language",
        "plural-forms",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
    }
)
#: of ours, those whose value says something about the messages (compared by content)
COMPARED = ("project-id-version", "language", "plural-forms", "content-type")

Fields = list[tuple[str, str]]


@dataclass(frozen=True)
class KeptHeader:
    """What an existing catalog's header holds that ``update`` keeps: fields and comment lines."""

    fields: Fields
    comment: str


def parse_fields(value: str) -> Fields:
    """``Name: value`` lines of a header msgstr, in order (lines without a colon are skipped)."""
    out: Fields = []
    for line in value.split("\n"):
        name, sep, rest = line.partition(":")
        if sep and name.strip():
            out.append((name.strip(), rest.strip()))
    return out


def header_comment(text: str) -> str:
    """The comment lines above the header entry (translator credits, licence), as written."""
    lines: list[str] = []
    for line in po_lines(text):
        stripped = line.strip()
        # flags, extracted comments and references belong to the header entry, not its comment
        if not stripped.startswith("#") or stripped.startswith(("#,", "#.", "#:", "#|", "#~")):
            break
        lines.append(line.rstrip())
    return "\n".join(lines)


def kept_header(text: str) -> KeptHeader:
    """What ``update`` keeps from an existing catalog's text."""
    value = header_text(text)
    return KeptHeader(parse_fields(value) if value is not None else [], header_comment(text))


def compose(ours: Fields, kept: KeptHeader | None) -> Fields:
    """The header fields to write: ours, with the translator's values and extra fields kept.

    ``ours`` is the full header of a fresh catalog (Babel's, in gettext's order);
    a field of the translator's takes the old file's value where it has one, and
    the old file's own fields that ours lacks follow, in their order.
    """
    if kept is None:
        return list(ours)
    theirs = {
        name.lower(): (name, value)
        for name, value in kept.fields
        if name.lower() not in OURS and not value.startswith("FULL NAME")
    }
    out: Fields = []
    for name, value in ours:
        key = name.lower()
        if key in theirs:
            out.append(theirs.pop(key))
        else:
            out.append((name, value))
    out.extend(theirs.values())
    return out


def compared(fields: Fields) -> tuple[tuple[str, object], ...]:
    """Our compared fields, each reduced to its meaning (see the table in the module docstring)."""
    by_name = {name.lower(): value for name, value in fields}
    out: list[tuple[str, object]] = []
    for key in COMPARED:
        value = by_name.get(key)
        meaning: object = value
        if value is not None and key == "language":
            meaning = value.replace("-", "_").lower()
        elif value is not None and key == "content-type":
            match = re.search(r"charset\s*=\s*([A-Za-z0-9._:-]+)", value)
            meaning = re.sub(r"[^a-z0-9]", "", match.group(1).lower()) if match else value
        elif value is not None and key == "plural-forms":
            meaning = _plural_meaning(value)
        out.append((key, meaning))
    return tuple(out)


def _plural_meaning(value: str) -> object:
    """A Plural-Forms value as the forms it picks; an unparsable one as its text."""
    try:
        rule = parse_plural_forms(value).rule
    except PluralFormsError:
        return value
    return (rule.nplurals, tuple(rule.index(n) for n in SAMPLE))
