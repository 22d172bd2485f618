"""The shape of a game's message in its catalog, and the spec-markup view the renderers read.

Spec YAML keeps its authors' syntax (``{param:x|# round|# rounds}``); the
change is at the catalog's boundary, so that translators' tools see plurals as
they know them:

- no count: a plain ``msgid``;
- one count: a gettext plural entry, ``msgid``/``msgid_plural`` and one
  ``msgstr[n]`` per plural form (:mod:`rulepress.i18n.plural_entries`);
- two or more counts: ICU MessageFormat, flagged ``icu-message-format``
  (:mod:`rulepress.i18n.icu`).

Babel marks every msgid with braces ``python-brace-format``; spec text is not
Python's format syntax (``{param:x}`` would be the field ``param`` with the
format spec ``x``), so game entries never carry that flag and no tool checks
them as Python.

Everything after reading (the renderers, QA, the diffs of editions) works on
spec markup: :func:`spec_view` turns a game catalog back into a catalog whose
msgids are the spec's English and whose translations are spec markup. An entry
it cannot turn back is listed (located) and left untranslated in the view: the
pages show its English, and QA reports why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from babel.messages.catalog import Catalog, Message

from rulepress.errors import Location, Problem
from rulepress.i18n.icu import (
    ICU_FLAG,
    ShapeError,
    categories,
    counts,
    english_categories,
    english_from_icu,
    from_icu,
    is_icu_source,
    known_categories,
    to_icu,
)
from rulepress.i18n.plural import PluralRule
from rulepress.i18n.plural_entries import english_from_forms, from_forms, to_forms
from rulepress.model.text import english_plural

PYTHON_BRACE = "python-brace-format"

MsgId = str | tuple[str, str]


def catalog_msgid(text: str) -> MsgId:
    """The msgid (a pair: msgid, msgid_plural) a spec message of English ``text`` takes.

    The shape is only used when reading it back gives ``text`` exactly (a test
    checks every shipped message); otherwise the next one is tried, and text
    neither holds stays as written.
    """
    found = counts(text)
    if not found:
        return text
    if len(found) == 1:
        singular, plural = to_forms(text, found[0], 2)
        try:
            if english_from_forms(singular, plural) == text:
                return (singular, plural)
        except ShapeError:
            pass
    icu = to_icu(text, english_categories())
    try:
        if english_from_icu(icu) == text:
            return icu
    except ShapeError:
        pass
    return text


def is_icu(message: Message) -> bool:
    """Whether a game entry is ICU MessageFormat: its flag, or its msgid's own shape.

    The flag is for translators' tools (Weblate's ICU check); the msgid decides.
    GNU msgcat and msgmerge (0.21) drop a flag they do not know, so a catalog saved
    through them still reads the same (the next ``i18n update`` writes the flag back).
    """
    if ICU_FLAG in message.flags:
        return True
    msgid = message.id
    return (
        isinstance(msgid, str)
        and ("plural," in msgid or msgid.count("{param:") >= 2)  # cheap: most are plain
        and is_icu_source(msgid)
    )


def set_flags(message: Message) -> None:
    """A game entry's format flags: ICU where its msgid is ICU, never Python's."""
    message.flags.discard(PYTHON_BRACE)
    if isinstance(message.id, str) and is_icu_source(message.id):
        message.flags.add(ICU_FLAG)


def source_text(message: Message) -> str:
    """The spec's English of a game entry (raises ShapeError when it cannot be read)."""
    if isinstance(message.id, tuple | list):
        return english_from_forms(message.id[0], message.id[1])
    if is_icu(message):
        return english_from_icu(message.id)
    return str(message.id)


@dataclass(frozen=True)
class Language:
    """What reading a translation needs: its code, name, and the catalog's plural rule."""

    code: str
    name: str
    nplurals: int
    index: Callable[[int], int]

    @classmethod
    def of(cls, code: str, name: str, rule: PluralRule | None, fallback: int) -> Language:
        if rule is None:
            return cls(code, name, fallback, english_plural if fallback == 2 else lambda n: 0)
        return cls(code, name, rule.nplurals, rule.index)


def translation_text(message: Message, english: str, lang: Language) -> str:
    """A game entry's translation as spec markup ("" when untranslated; raises ShapeError)."""
    string: Any = message.string
    if isinstance(message.id, tuple | list):
        forms = [str(s) for s in (string if isinstance(string, tuple | list) else [string])]
        if not any(forms):
            return ""
        empty = [f"msgstr[{i}]" for i, form in enumerate(forms) if not form]
        if empty:
            raise ShapeError(f"{', '.join(empty)} is empty: give every plural form")
        found = counts(english)
        if len(found) != 1:
            raise ShapeError("a plural entry whose English has no one number")
        # where the English words change with the number, forms a translator made alike
        # ("5 vítězství") stay forms: QA takes them as the translator's word
        changes = f"{{{found[0]}|" in english
        return from_forms(forms, found[0], explicit=changes and len(forms) > 1)
    if not string:
        return ""
    if is_icu(message):
        by_category = categories(lang.code, lang.index)
        return from_icu(
            str(string), lang.nplurals, by_category, known_categories(lang.code), lang.name
        )
    return str(string)


@dataclass
class View:
    """A game catalog as spec markup, and the entries that could not be read back."""

    catalog: Catalog
    problems: list[Problem]


def spec_view(catalog: Catalog, lang: Language, file: str) -> View:
    """``catalog`` with spec English as msgids and spec markup as translations."""
    view = Catalog(locale=catalog.locale, domain=catalog.domain, charset="utf-8", fuzzy=False)
    problems: list[Problem] = []
    for message in catalog:
        if not message.id:
            continue
        where = Location(file, message.lineno or 0, 1)
        try:
            english = source_text(message)
        except ShapeError as exc:
            problems.append(Problem(where, message.context or "", f"msgid: {exc}"))
            continue
        try:
            string = translation_text(message, english, lang)
        except ShapeError as exc:
            problems.append(Problem(where, message.context or "", f"{exc}"))
            string = ""
        view.add(
            english,
            string,
            list(message.locations),
            flags=message.flags - {PYTHON_BRACE, ICU_FLAG},
            auto_comments=list(message.auto_comments),
            user_comments=list(message.user_comments),
            previous_id=list(message.previous_id),
            lineno=message.lineno,
            context=message.context,
        )
    return View(view, problems)


def reshape(string: str, template: Message, english: str, lang: Language) -> Any:
    """A translation in spec markup, in the shape a template's entry takes (for ``i18n update``)."""
    if isinstance(template.id, tuple | list):
        if not string:
            return ("",) * lang.nplurals
        return to_forms(string, counts(english)[0], lang.nplurals)
    if not string:
        return ""
    if is_icu(template):
        return to_icu(string, categories(lang.code, lang.index))
    return string


@dataclass(frozen=True)
class Carried:
    """An old translation in a template entry's shape, and whether its English is unchanged."""

    string: Any
    same_english: bool


def carry(prior: Message, old: Language, template: Message, new: Language) -> Carried | None:
    """``prior``'s translation for ``template``'s entry, whatever shape either has.

    A message that changed shape (a singular that became a plural entry, an
    entry that became ICU, or back) keeps its translation exactly when its
    English is the same once read as spec markup; None when the old entry
    cannot be read (the caller keeps it as it is, for review).
    """
    try:
        before = source_text(prior)
        string = translation_text(prior, before, old)
        after = source_text(template)
        return Carried(reshape(string, template, after, new), before == after)
    except ShapeError:
        return None
