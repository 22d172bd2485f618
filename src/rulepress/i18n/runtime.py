"""Showing a game in the reader's language: a translated spec and a localized renderer.

The game's catalog translates the spec itself (rule titles, step names,
notes, rulings, vocabulary), so everything the scorer says comes out in the
reader's language with the numbers it computed; the interface catalog
translates rulepress's own sentences; Babel formats numbers for the locale.
A message without a usable translation (missing, empty, fuzzy, or its
English with only invisible characters added, see
:mod:`rulepress.i18n.visible`) stays in English and is counted, so the caller can warn; nothing fails for it, but
each such message is noted as a :class:`~rulepress.i18n.fallbacks.Fallback`
(``Localized.fallbacks``), which the builds record for the publication gate. A
language without a catalog file is shown in English, with a warning.

A catalog that exists but cannot be used safely (see
:mod:`rulepress.i18n.safety`: syntax, headers, plural forms, placeholders the
source does not have) is refused: :func:`localize` raises one
:class:`~rulepress.i18n.catalogs.CatalogError` with every located problem of
both catalogs, before any of it is used. Content that only looks like markup
is not refused; the renderers show it as text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulepress.errors import UsageError
from rulepress.i18n.typography import quote
from rulepress.i18n.usage import looked_up
from rulepress.i18n.visible import disguised
from rulepress.model import SOURCE_LANGUAGE, LoadedSpec
from rulepress.model.text import NumberFormat, PlainContext
from rulepress.scoring.notes import NoteRenderer, plain_context
from rulepress.uitext import PluralText, english_form

# Reading catalogs (Babel's PO reader, the safety checks, the walk that translates a
# spec) is imported by the functions that read one: a report in English, the
# source language, reads no catalog, and ``rulepress score`` should not pay for them.
if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

    from rulepress.i18n.catalogs import CatalogError
    from rulepress.i18n.fallbacks import Fallback, Reason
    from rulepress.i18n.plural import PluralRule
    from rulepress.i18n.safety import Checked


def english_name(lang: str) -> str:
    """The language's name in English, for warnings (CLDR's, through Babel)."""
    from babel import Locale  # noqa: PLC0415 - an English report needs no CLDR data

    return str(Locale.parse(lang).english_name or lang)


def native_name(lang: str) -> str:
    """The language's name in itself ("Čeština", "日本語"), as a list of languages shows it.

    CLDR's name, through Babel; CLDR writes it as inside a sentence ("čeština"),
    and a menu starts it with a capital (CLDR's uiListOrMenu transform, which
    Babel does not carry).
    """
    from babel import Locale  # noqa: PLC0415 - an English report needs no CLDR data

    name = str(Locale.parse(lang).get_display_name(lang) or lang)
    return name[:1].upper() + name[1:]


def list_separator(lang: str) -> str:
    """What stands between the items of a list in ``lang`` (", ", Japanese "、").

    CLDR's list pattern for the middle of a list (``{0}, {1}``), without its
    placeholders, so that every language Babel knows has its own.
    """
    from babel import Locale  # noqa: PLC0415 - an English report needs no CLDR data

    middle = Locale.parse(lang).list_patterns["standard"]["middle"]
    return str(middle).replace("{0}", "").replace("{1}", "") or ", "


class LocaleNumbers(NumberFormat):
    """Integers as the locale writes them (Czech groups thousands with a no-break space)."""

    def __init__(self, lang: str) -> None:
        # Babel is imported by the languages that need it: an English report writes its
        # numbers plainly, and importing Babel took longer than writing the whole report
        from babel.numbers import format_decimal  # noqa: PLC0415

        self.lang = lang
        self._format = format_decimal

    def __call__(self, value: int) -> str:
        return self._format(value, locale=self.lang)


@dataclass
class Localized:
    """A spec and a renderer in one language, and what could not be translated."""

    loaded: LoadedSpec
    renderer: NoteRenderer
    missing: dict[str, int] = field(default_factory=dict)
    absent: list[str] = field(default_factory=list)
    #: the game's own texts (English, one paragraph each) shown untranslated: the
    #: publication gate tells them from the interface's English by these
    untranslated: frozenset[str] = frozenset()
    #: every message shown in English so far: the game's texts when the spec is
    #: translated, the interface's sentences as the writers look them up
    fallbacks: set[Fallback] = field(default_factory=set)

    def warnings(self) -> list[str]:
        missing = [d for d, count in self.missing.items() if count and d not in self.absent]
        if not self.absent and not missing:
            return []  # (the language's name is read from Babel's locale data only for a warning)
        name = english_name(self.renderer.language)
        out = [f"no usable {name} catalog for {domain}; shown in English" for domain in self.absent]
        out += [
            f"{self.missing[domain]} message(s) of {domain} have no {name} translation;"
            " shown in English"
            for domain in missing
        ]
        return out


def _usable(catalog: Catalog | None, msgid: Any, context: str | None) -> Any:
    if catalog is None:
        return None
    message = catalog.get(msgid, context)
    if message is None or message.fuzzy:
        return None
    string = message.string
    if isinstance(string, tuple | list):
        return tuple(string) if all(string) else None
    if string and disguised(str(msgid), string):
        return None  # English with invisible characters in it: English, and noted as such
    return string or None


def fallback(
    catalog: Catalog | None,
    path: Path,
    domain: str,
    msgid: str,
    context: str | None,
    game: str = "",
) -> Fallback:
    """Why ``msgid`` has no usable translation in ``catalog`` (read from ``path``), located.

    ``game``: the game whose pages show it ("" for the pages every game shares).
    """
    # (imported here: an English report notes no fallback)
    from rulepress.i18n.fallbacks import Fallback  # noqa: PLC0415

    message = catalog.get(msgid, context) if catalog is not None else None
    string = message.string if message is not None else None
    line = message.lineno if message is not None and message.lineno else 0
    reason: Reason = "untranslated"
    if message is not None and message.fuzzy and string:
        reason = "fuzzy"
    elif isinstance(string, str) and disguised(msgid, string):
        reason = "disguised"
    return Fallback(game, domain, context or "", msgid, reason, str(path), line)


def _load(locales: Path, lang: str, domain: str) -> Checked:
    """The checked catalog of ``domain``; an absent file is no catalog and no problem.

    Rulepress's own domains fall back on the package's catalogs (see find_catalog).
    """
    from rulepress.i18n.catalogs import find_catalog  # noqa: PLC0415 - only when a catalog is read
    from rulepress.i18n.safety import Checked, check_safe  # noqa: PLC0415 - only when a catalog is read

    path = find_catalog(locales, lang, domain)
    if not path.exists():
        return Checked(None, None, [])
    return check_safe(path, lang)


def load_catalogs(
    locales: Path, lang: str, domains: tuple[str, ...]
) -> tuple[list[Checked], CatalogError | None]:
    """Each domain's checked catalog, and the error listing every unsafe problem (if any)."""
    from rulepress.i18n.catalogs import CatalogError  # noqa: PLC0415 - only when a catalog is read

    checked = [_load(locales, lang, domain) for domain in domains]
    problems = [p for c in checked for p in c.problems]
    if not problems:
        return checked, None
    name = english_name(lang)
    summary = f"the {name} catalogs cannot be used safely (see docs/translators.md)"
    return checked, CatalogError(summary, problems)


def localize(loaded: LoadedSpec, lang: str, locales: Path) -> Localized:
    """``loaded`` and a renderer for ``lang`` (English returns them unchanged).

    ``lang`` must be one of the game's languages (``game.languages``).
    """
    published = loaded.spec.game.languages
    if lang not in published:
        listed = ", ".join(published)
        raise UsageError(
            f"{loaded.spec.game.id} is not published in {lang!r} (its languages: {listed})"
        )
    if lang == SOURCE_LANGUAGE:
        english = plain_context(loaded.spec)
        return Localized(loaded, NoteRenderer(lang, _quoted(english, lang)))
    from rulepress.games.messages import translate_spec  # noqa: PLC0415 - only when a catalog is read
    from rulepress.i18n.catalogs import INTERFACE, find_catalog  # noqa: PLC0415 - only when a catalog is read

    game = loaded.spec.game.id
    (spec_checked, ui_checked), error = load_catalogs(locales, lang, (game, INTERFACE))
    if error is not None:
        raise error
    spec_catalog, ui_catalog = spec_checked.catalog, ui_checked.catalog
    missing = {game: 0, INTERFACE: 0}
    fallbacks: set[str] = set()
    absent = [d for d, c in ((game, spec_catalog), (INTERFACE, ui_catalog)) if c is None]
    spec_path, ui_path = (find_catalog(locales, lang, d) for d in (game, INTERFACE))
    shown: set[Fallback] = set()

    def spec_lookup(context: str, text: str) -> str | None:
        found = _usable(spec_catalog, text, context)
        if found is None:
            missing[game] += 1
        if not isinstance(found, str):
            fallbacks.add(text)
            shown.add(fallback(spec_catalog, spec_path, game, text, context, game))
        looked_up(lang, game, text, translated=isinstance(found, str))
        return found if isinstance(found, str) else None

    spec = translate_spec(loaded.spec, spec_lookup)
    translated = LoadedSpec(spec, loaded.sources, loaded.directory)
    index = by_context, by_id, _ = _interface_index(ui_catalog)

    def ui_fallback(context: str | None, msgid: str) -> None:
        shown.add(fallback(ui_catalog, ui_path, INTERFACE, msgid, context, game))

    translate = _translator(lang, index, missing, ui_fallback)

    plural_index = _plural_function(ui_checked.plural)

    def translate_plural(text: PluralText, n: int) -> str:
        forms = by_context.get((text.context, text.singular)) or by_id.get(text.singular)
        looked_up(lang, INTERFACE, text.singular, translated=isinstance(forms, tuple))
        if not isinstance(forms, tuple):
            missing[INTERFACE] += 1
            ui_fallback(text.context, text.singular)
            return english_form(text, n)
        return str(forms[min(plural_index(n), len(forms) - 1)])

    numbers = LocaleNumbers(lang)
    plain = _quoted(plain_context(spec), lang)
    renderer = NoteRenderer(
        lang,
        # the forms of a {param:x|…} in spec text follow the game catalog's plural rule
        plain._replace(number=numbers, plural=_plural_function(spec_checked.plural)),
        translate,
        translate_plural,
        numbers,
        list_separator(lang),
    )
    return Localized(translated, renderer, missing, absent, frozenset(fallbacks), shown)


def interface_translator(
    locales: Path, lang: str, shown: set[Fallback] | None = None
) -> Callable[[str], str]:
    """Rulepress's own sentences in ``lang`` (the checked interface catalog; English as is).

    ``shown``: where each sentence shown in English is noted.
    """
    if lang == "en":
        return str
    from rulepress.i18n.catalogs import INTERFACE, find_catalog  # noqa: PLC0415 - only when a catalog is read

    (checked,), error = load_catalogs(locales, lang, (INTERFACE,))
    if error is not None:
        raise error
    path = find_catalog(locales, lang, INTERFACE)

    def fell_back(context: str | None, msgid: str) -> None:
        if shown is not None:
            shown.add(fallback(checked.catalog, path, INTERFACE, msgid, context))

    return _translator(lang, _interface_index(checked.catalog), {INTERFACE: 0}, fell_back)


def _translator(
    lang: str,
    index: tuple[dict[tuple[str | None, str], Any], dict[str, Any], set[str]],
    missing: dict[str, int],
    fell_back: Callable[[str | None, str], None] | None = None,
) -> Callable[[str], str]:
    """An interface sentence's translation, by its context and msgid (counted when missing)."""
    from rulepress.i18n.catalogs import INTERFACE  # noqa: PLC0415 - only when a catalog is read

    by_context, by_id, interface_ids = index

    def translate(template: str) -> str:
        context = getattr(template, "context", None)
        found = by_context.get((context, template)) if context is not None else None
        if found is None:
            found = by_id.get(template)
        if found is None:
            # spec sentences arrive translated already; only interface ones can be missing
            # (with no catalog at all, a sentence that knows its context is an interface one)
            if template in interface_ids or (not interface_ids and context is not None):
                missing[INTERFACE] += 1
                looked_up(lang, INTERFACE, template, translated=False)
                if fell_back is not None:
                    fell_back(context, str(template))
            return template
        looked_up(lang, INTERFACE, template, translated=isinstance(found, str))
        return found if isinstance(found, str) else template

    return translate


def _quoted(plain: PlainContext, lang: str) -> PlainContext:
    """A ruling cited in a sentence shows its title in the language's quotation marks."""
    rulings = {rid: quote(title, lang) for rid, title in plain.rulings.items()}
    return plain._replace(rulings=rulings)


def _interface_index(
    catalog: Catalog | None,
) -> tuple[dict[tuple[str | None, str], Any], dict[str, Any], set[str]]:
    """Usable translations by (context, msgid) and by msgid alone (singular for plurals).

    The lookup by msgid is for a text that lost its context (a plain string);
    where two contexts share a msgid it holds the last, so a sentence that
    knows its context (see :class:`rulepress.uitext.UiText`) is looked up by both.
    """
    by_context: dict[tuple[str | None, str], Any] = {}
    by_id: dict[str, Any] = {}
    ids: set[str] = set()
    for message in catalog or ():
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        ids.add(key)
        found = _usable(catalog, message.id, message.context)
        if found is not None:
            by_context[(message.context, key)] = found
            by_id[key] = found
    return by_context, by_id, ids


def _plural_function(rule: PluralRule | None) -> Callable[[int], int]:
    """The form index for a count, from the checked rule (never ``gettext.c2py``: it evals)."""
    if rule is None:
        return lambda n: 0 if n == 1 else 1
    return rule.index


def game_translator(locales: Path, lang: str, game: str) -> Callable[[str, str], str]:
    """A text of ``game`` in ``lang``, by its context and English (English when not translated).

    For writers that hold a spec's texts as data with their contexts (the
    diff of two editions): the checked catalog of the game, and a usable
    translation only (not fuzzy, not empty).
    """
    find = game_translation(locales, lang, game)

    def translate(context: str, text: str) -> str:
        found = find(context, text)
        return text if found is None else found

    return translate


def game_translation(locales: Path, lang: str, game: str) -> Callable[[str, str], str | None]:
    """As :func:`game_translator`, but None where the catalog has no usable translation.

    For a writer that must not show English in another language: the old
    wording of a changed text, which the old edition's catalog may lack.
    """
    if lang == SOURCE_LANGUAGE:
        return lambda context, text: text
    (checked,), error = load_catalogs(locales, lang, (game,))
    if error is not None:
        raise error

    def translate(context: str, text: str) -> str | None:
        found = _usable(checked.catalog, text, context or None)
        return found if isinstance(found, str) else None

    return translate
