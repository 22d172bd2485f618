"""Can a catalog be used as data? The checks every build runs before it uses a catalog.

The site build, the print build and ``rulepress score --lang`` all get their
translations through :func:`rulepress.i18n.runtime.localize`, which calls
:func:`check_safe` first and refuses an unsafe catalog with one
:class:`~rulepress.i18n.catalogs.CatalogError` listing every located problem.

*Unsafe* means the renderers could crash or show a wrong value:

- the file is not UTF-8 or not valid PO syntax;
- the header is missing or unusable: ``Content-Type`` charset other than
  UTF-8, ``Plural-Forms`` that does not parse within the bounds of
  :mod:`rulepress.i18n.plural`, divides by zero or picks a form that does not
  exist, ``nplurals`` other than the language's CLDR count, a ``Language``
  other than the catalog's (see :mod:`rulepress.i18n.headers`);
- a plural entry with a number of ``msgstr[n]`` other than ``nplurals``;
- a msgstr with a placeholder the renderer would resolve that its source
  does not have: ``{rule:…}``, ``{param:…}``, ``{ruling:…}``, ``{term:…}`` or a
  ``(term:…)`` link (a wrong number, rule or link, or a reference Sphinx
  cannot resolve).

Everything else :mod:`rulepress.i18n.qa` reports is a translator error but
*not* unsafe: text that merely looks like markup (``<script>``,
``{doctest}``, ``>>>``, backticks), control characters, numbers that differ,
untranslated or fuzzy entries. The renderers turn every translated string
into plain text, so such content shows as visible text; refusing it would
only block a build. An added ``{name}`` is in that group too: the writers
fill only the arguments the scorer passes for that sentence, which are the
ones its English uses, and show any other ``{name}`` as written (``{raw}``
or ``{doctest}`` in a hostile catalog is text, not a role).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message

from rulepress.errors import Location, Problem
from rulepress.i18n.catalog_shapes import Language, spec_view
from rulepress.i18n.catalogs import (
    PACKAGE_DOMAINS,
    CatalogError,
    inspect_bytes,
    inspect_catalog,
    plural_counts,
    read_bounded,
)
from rulepress.i18n.plural import PluralRule, cldr_plural_count
from rulepress.model.text import Ref, scan_deep


def _references(text: str) -> set[str]:
    """The references of a text as written (``(term:id)`` for a link); ``{name}`` arguments aside."""
    refs: set[str] = set()
    for token in scan_deep(text):
        if not isinstance(token, Ref) or token.kind == "arg":
            continue
        refs.add(f"(term:{token.target})" if token.words else f"{{{token.kind}:{token.target}}}")
    return refs


def unsafe_placeholders(source: str, string: str) -> list[str]:
    """The references of ``string`` that make it unsafe to show in place of ``source``.

    Compared as sets: a reference repeated, or one left out, shows nothing false
    (QA reports both); one the source does not have links or numbers something else.
    """
    return sorted(_references(string) - _references(source))


def not_in_source(placeholder: str) -> str:
    """The message for an added placeholder (QA words it the same way)."""
    if placeholder.startswith("(term:"):
        return f"glossary link {placeholder} is not in the source"
    return f"placeholder {placeholder} is not in the source"


def _strings(value: Any) -> list[str]:
    return [s for s in (value if isinstance(value, tuple | list) else [value]) if s]


def message_problems(msg: Message) -> list[str]:
    """Why one entry is unsafe to use (nothing for entries a build would not use)."""
    if not msg.id or msg.fuzzy:
        return []  # fuzzy or empty entries stay in English
    sources = _strings(msg.id)
    out: list[str] = []
    for string in _strings(msg.string):
        for placeholder in unsafe_placeholders(sources[-1] if sources else "", string):
            out.append(not_in_source(placeholder))
    return list(dict.fromkeys(out))


@dataclass
class Checked:
    """A catalog and its plural rule, usable only when ``problems`` is empty.

    A game's catalog is given as spec markup (see
    :mod:`rulepress.i18n.catalog_shapes`); ``unreadable`` lists its entries
    whose plural forms or ICU could not be turned back into it. Those entries
    are left untranslated (a page shows their English), so they are QA errors,
    not unsafe.
    """

    catalog: Catalog | None
    plural: PluralRule | None
    problems: list[Problem]
    unreadable: list[Problem] = field(default_factory=list)


def english_name(code: str) -> str:
    """A language's English name for messages ("Czech"), the code when Babel does not know it."""
    with contextlib.suppress(ValueError, UnknownLocaleError):
        return str(Locale.parse(code).english_name or code)
    return code or "the catalog's language"


def expected_plurals(lang: str) -> int | None:
    try:
        return cldr_plural_count(lang)
    except (UnknownLocaleError, ValueError):
        return None


#: the last catalog checked, by its file, language and bytes: ``i18n check`` reads each
#: catalog twice in a row (translator QA, then the print budgets), and reading one is
#: most of the time of a check of its structure
_last: dict[tuple[str, str | None, bytes], Checked] = {}


def check_structure(path: Path, lang: str | None) -> Checked:
    """Reading problems (syntax, header) and plural entries with the wrong number of forms.

    The same file (same bytes, read as the same language) checked again in a row
    gets the same catalog (no caller changes one) and its own lists of problems.
    """
    try:
        raw = read_bounded(path)
    except OSError:
        return _check_structure(path, None, lang)  # inspect_catalog says why, located
    key = (str(path), lang, raw)
    kept = _last.get(key)
    if kept is None:
        kept = _check_structure(path, raw, lang)
        _last.clear()
        _last[key] = kept
    return Checked(kept.catalog, kept.plural, list(kept.problems), list(kept.unreadable))


def _check_structure(path: Path, raw: bytes | None, lang: str | None) -> Checked:
    found = inspect_catalog(path, lang) if raw is None else inspect_bytes(raw, str(path), lang)
    problems = list(found.problems)
    catalog = found.catalog
    if catalog is None:
        return Checked(None, None, problems)
    language = found.header.language
    plurals = found.header.plural.nplurals if found.header.plural else None
    if plurals is None and language is not None:
        plurals = expected_plurals(language)
    # inspect_catalog has read and decoded it already
    text = raw.decode("utf-8") if raw is not None else path.read_text(encoding="utf-8")
    for line, count in plural_counts(text):
        if plurals is not None and count != plurals:
            message = f"needs {plurals} plural form(s) for {language}, has {count}"
            problems.append(Problem(Location(str(path), line, 1), "", message))
    # a game's catalog is read as spec markup (brink.cs.part1.po is brink's, as i18n check has it)
    if path.name.split(".")[0] in PACKAGE_DOMAINS:
        return Checked(catalog, found.header.plural, problems)
    code = (language or str(catalog.locale or "")).split("_")[0]
    name = english_name(code)
    reader = Language.of(code, name, found.header.plural, plurals or catalog.num_plurals)
    view = spec_view(catalog, reader, str(path))
    return Checked(view.catalog, found.header.plural, problems, view.problems)


def check_safe(path: Path, lang: str | None) -> Checked:
    """Every reason ``path`` cannot be used safely, located, all at once."""
    checked = check_structure(path, lang)
    for msg in checked.catalog or ():
        for message in message_problems(msg):
            location = Location(str(path), msg.lineno or 0, 1)
            checked.problems.append(Problem(location, msg.context or "", message))
    return checked


def read_spec_catalog(path: Path, lang: str | None) -> Catalog:
    """A game's catalog as spec markup, for the writers that compare it with a spec.

    Any reading problem becomes one located CatalogError, as in ``read_catalog``.
    """
    checked = check_structure(path, lang)
    if checked.problems or checked.catalog is None:
        raise CatalogError(f"{path}: not a valid catalog", checked.problems)
    return checked.catalog
