"""ICU MessageFormat plurals: how a message with several counts sits in a game's catalog.

Spec text counts a number inline, ``{param:rounds|# round|# rounds}`` (see
:mod:`rulepress.model.text`). A message with one count goes into the catalog as
a gettext plural entry (:mod:`rulepress.i18n.plural_entries`); gettext's
``msgstr[n]`` can follow only one number, so a message with two or more counts
is written in ICU MessageFormat instead, the syntax Weblate checks when an
entry carries the ``icu-message-format`` flag::

    {param:rounds, plural, one {# round} other {# rounds}} and {param:cubes}

Argument names keep their colons (``param:rounds``, ``rule:16.4.8``):
pyicumessageformat, the parser Weblate's ICU check uses, accepts them.

This module turns spec markup into ICU (English, and a translation carried
into a new ICU entry by ``i18n update``) and reads ICU back into spec markup
for the renderers and QA. CLDR plural categories (``one``, ``few``,
``other``) are matched with the catalog's ``Plural-Forms`` indexes through
sample numbers: category ``few`` is the form the catalog's rule picks for the
first whole number CLDR puts in ``few``. What rulepress's markup cannot hold is
refused with :class:`ShapeError`: exact-number selectors (``=0``), an offset,
``select``/``selectordinal``, a category the language does not have, a
placeholder inside a plural form. Catalogs are untrusted, so parsing is
bounded (length and nesting) and never evaluates anything.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from babel import Locale
from pyicumessageformat import Parser

from rulepress.i18n.plural import SAMPLE
from rulepress.model.text import Ref, english_plural, scan

#: CLDR's categories in the order translators' tools list them
_ORDER = ("zero", "one", "two", "few", "many", "other")
#: the flag Weblate's ICU MessageFormat check reads
ICU_FLAG = "icu-message-format"
#: the longest ICU string read (the longest spec message is under 3000 characters)
MAX_LENGTH = 20_000
#: a plural inside a plural is refused anyway; the parser stops well before Python's stack does
MAX_DEPTH = 8
#: the numbers tried when CLDR categories are matched with Plural-Forms indexes
_CATEGORY_SAMPLE = SAMPLE[:1001]


class ShapeError(ValueError):
    """A catalog string cannot be turned back into spec markup (why, for a located message)."""


def count_label(ref: Ref) -> str | None:
    """The name of the count ``ref`` is, or None when it counts nothing.

    A count is a parameter (every parameter is a whole number) or a scorer's
    value that the English gives plural forms to.
    """
    if ref.kind == "param" and not ref.words:
        return f"param:{ref.target}"
    if ref.kind == "arg" and ref.forms:
        return ref.target
    return None


def counts(text: str) -> list[str]:
    """The distinct counts of spec text, in order of first appearance."""
    found = (count_label(t) for t in scan(text) if isinstance(t, Ref))
    return list(dict.fromkeys(label for label in found if label is not None))


# ---------------------------------------------------------------- categories


@functools.lru_cache(maxsize=64)
def _cldr(lang: str) -> tuple[Callable[[int], str], frozenset[str]]:
    rule = Locale.parse(lang).plural_form
    return rule, frozenset((*rule.rules, "other"))


def categories(lang: str, index: Callable[[int], int]) -> dict[str, int]:
    """Each CLDR category whole numbers reach in ``lang``, and the form ``index`` gives it.

    ``index`` is the catalog's plural rule (English: one → 0, other → 1;
    Czech: one → 0, few → 1, other → 2). Categories only decimals reach
    (Czech ``many``) are absent: rulepress counts whole numbers.
    """
    return {category: index(n) for category, n in _first_numbers(lang).items()}


@functools.lru_cache(maxsize=64)
def _first_numbers(lang: str) -> dict[str, int]:
    """The first whole number of each CLDR category of ``lang`` (cached: CLDR rules are slow)."""
    rule, _ = _cldr(lang)
    first: dict[str, int] = {}
    for n in _CATEGORY_SAMPLE:
        first.setdefault(rule(n), n)
    return {c: first[c] for c in _ORDER if c in first}


def known_categories(lang: str) -> frozenset[str]:
    """Every CLDR category of ``lang``, decimals' too (a translator may give Czech ``many``)."""
    return _cldr(lang)[1]


ENGLISH = "en"


def english_categories() -> dict[str, int]:
    return categories(ENGLISH, english_plural)


# ---------------------------------------------------------------- writing


def _escape(text: str, in_plural: bool) -> str:
    """Text as ICU literal text: an apostrophe before a special character is doubled.

    ICU reads a lone apostrophe (``player's``) as itself, but one before
    ``{``, ``}``, ``'`` or (in a plural form) ``#`` opens a quoted span. The
    end of a piece is followed by a brace, so an apostrophe there is doubled too.
    """
    special = "{}'#" if in_plural else "{}'"
    out = []
    for i, char in enumerate(text):
        if char == "'" and (i + 1 == len(text) or text[i + 1] in special):
            out.append("''")
        else:
            out.append(char)
    return "".join(out)


def to_icu(text: str, forms_by_category: Mapping[str, int]) -> str:
    """Spec text in ICU MessageFormat: each count with forms becomes a ``plural`` argument.

    ``forms_by_category`` gives the spec form for each category (see
    :func:`categories`); a count without forms stays a simple argument.
    """

    def literal(piece: str) -> str:
        return _escape(piece, in_plural=False)

    def ref(token: Ref) -> str:
        raw = text[token.start : token.end]
        label = count_label(token)
        if label is None or not token.forms:
            return raw  # {rule:…}, {param:x}, {name}, [words](term:id): the same in ICU
        arms = [
            f"{category} {{{_escape(token.forms[min(i, len(token.forms) - 1)], in_plural=True)}}}"
            for category, i in forms_by_category.items()
        ]
        return f"{{{label}, plural, {' '.join(arms)}}}"

    out: list[str] = []
    pos = 0
    for token in scan(text):
        out.append(literal(text[pos : token.start]))
        out.append(ref(token) if isinstance(token, Ref) else literal(token.char))
        pos = token.end if isinstance(token, Ref) else token.start + 1
    out.append(literal(text[pos:]))
    return "".join(out)


# ---------------------------------------------------------------- reading


def parse(text: str) -> list[Any]:
    """The ICU syntax tree of ``text`` (bounded; raises :class:`ShapeError`)."""
    if len(text) > MAX_LENGTH:
        raise ShapeError(f"{len(text)} characters long (at most {MAX_LENGTH})")
    parser = Parser({"maximum_depth": MAX_DEPTH, "require_other": True})
    try:
        tree: list[Any] = parser.parse(text)
    except SyntaxError as exc:
        raise ShapeError(f"not valid ICU MessageFormat: {exc.msg or exc}") from None
    return tree


def _form(label: str, category: str, parts: Sequence[Any]) -> str:
    """One plural form as spec markup: its words, ``#`` for the number."""
    out = []
    for part in parts:
        if isinstance(part, str):
            for char in "{}|#":
                if char in part:
                    raise ShapeError(
                        f"{{{label}, plural}}: the {category} form has a quoted {char!r},"
                        " which spec text cannot hold"
                    )
            out.append(part)
        elif part.get("hash"):
            out.append("#")
        else:
            raise ShapeError(
                f"{{{label}, plural}}: the {category} form holds {{{part.get('name', '')}}};"
                " a form may hold only words and # (the number)"
            )
    return "".join(out)


def from_icu(
    text: str,
    nplurals: int,
    by_category: Mapping[str, int],
    known: frozenset[str],
    language: str,
) -> str:
    """ICU MessageFormat as spec markup, ``{name|form|…}`` with one form per Plural-Forms index.

    ``by_category``: the form index of each category whole numbers reach
    (:func:`categories`); ``known``: every category of the language. A form
    index no category selects, or whose category the text leaves out, takes
    the ``other`` form, as ICU does.
    """
    out: list[str] = []
    for node in parse(text):
        if isinstance(node, str):
            out.append(node)
            continue
        name = str(node.get("name", ""))
        kind = node.get("type")
        if kind is None:
            out.append(f"{{{name}}}")
            continue
        if kind != "plural":
            raise ShapeError(f"{{{name}, {kind}}}: rulepress reads only plural arguments")
        if node.get("offset"):
            raise ShapeError(f"{{{name}, plural}}: an offset is not supported")
        options: dict[str, Any] = node["options"]
        for selector in options:
            if selector.startswith("="):
                raise ShapeError(
                    f"{{{name}, plural}}: exact-number selectors ({selector}) are not supported;"
                    " give the form of the number's category"
                )
            if selector not in known:
                have = ", ".join(sorted(known))
                raise ShapeError(
                    f"{{{name}, plural}}: {language} has no plural category {selector!r}"
                    f" (it has {have})"
                )
        forms = {c: _form(name, c, parts) for c, parts in options.items()}
        chosen = []
        for i in range(nplurals):
            matching = [c for c, index in by_category.items() if index == i and c in forms]
            chosen.append(forms[matching[0]] if matching else forms["other"])
        out.append(f"{{{name}|{'|'.join(chosen)}}}")
    return "".join(out)


def english_from_icu(text: str) -> str:
    """The English of an ICU msgid as spec markup."""
    by_category = english_categories()
    return from_icu(text, 2, by_category, known_categories(ENGLISH), "English")


#: msgids whose answer is kept: a command asks about each msgid of a game several times
#: (extracting, merging each language, reading contents), and most are short
_ICU_SOURCES_KEPT = 16_384


@functools.lru_cache(maxsize=_ICU_SOURCES_KEPT)
def is_icu_source(msgid: str) -> bool:
    """Whether a template's msgid is the ICU form of a message with two or more counts.

    Kept per msgid (a bool of a string: nothing a caller could change): parsing
    every msgid again for each catalog took a tenth of ``i18n update --check``.
    """
    try:
        tree = parse(msgid)
    except ShapeError:
        return False
    nodes = [node for node in tree if isinstance(node, dict)]
    names = {
        str(node.get("name", ""))
        for node in nodes
        if node.get("type") == "plural" or str(node.get("name", "")).startswith("param:")
    }
    if any("|" in name for name in names):
        return False
    # two counts, or one that gettext's forms could not hold exactly (catalog_shapes)
    return len(names) >= 2 or any(node.get("type") == "plural" for node in nodes)
