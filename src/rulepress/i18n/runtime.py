"""Showing a game in the reader's language: a translated spec and a localized renderer.

The game's catalog translates the spec itself (rule titles, step names,
notes, rulings, vocabulary), so everything the scorer says comes out in the
reader's language with the numbers it computed; the interface catalog
translates rulepress's own sentences; Babel formats numbers for the locale.
A message without a usable translation (missing, empty or fuzzy) stays in
English and is counted, so the caller can warn; nothing fails for it.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.numbers import format_decimal

from rulepress.errors import UsageError
from rulepress.i18n.catalogs import CatalogError, catalog_path, read_catalog
from rulepress.i18n.extract import INTERFACE
from rulepress.scoring.notes import NoteRenderer, plain_context
from rulepress.spec.loaded import LoadedSpec
from rulepress.spec.messages import translate_data
from rulepress.spec.model import Spec
from rulepress.spec.text import NumberFormat
from rulepress.uitext import PluralText

SUPPORTED = ("en", "cs", "ja")
LIST_SEPARATORS = {"en": ", ", "cs": ", ", "ja": "、"}
LANGUAGE_NAMES = {"en": "English", "cs": "Czech", "ja": "Japanese"}


class LocaleNumbers(NumberFormat):
    """Integers as the locale writes them (Czech groups thousands with a no-break space)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, value: int) -> str:
        return format_decimal(value, locale=self.lang)


@dataclass
class Localized:
    """A spec and a renderer in one language, and what could not be translated."""

    loaded: LoadedSpec
    renderer: NoteRenderer
    missing: dict[str, int] = field(default_factory=dict)
    absent: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    def warnings(self) -> list[str]:
        name = LANGUAGE_NAMES.get(self.renderer.language, self.renderer.language)
        out = list(self.broken)
        out += [
            f"no usable {name} catalog for {domain}; shown in English" for domain in self.absent
        ]
        out += [
            f"{count} message(s) of {domain} have no {name} translation; shown in English"
            for domain, count in self.missing.items()
            if count and domain not in self.absent
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
    return string or None


def _load(locales: Path, lang: str, domain: str, broken: list[str]) -> Catalog | None:
    """The catalog, or None; a broken one is reported in ``broken`` and not used."""
    path = catalog_path(locales, lang, domain)
    if not path.exists():
        return None
    try:
        return read_catalog(path, lang)
    except CatalogError as exc:
        first = exc.problems[0] if exc.problems else exc.summary
        broken.append(f"{path} cannot be used ({first}); shown in English")
        return None


def localize(loaded: LoadedSpec, lang: str, locales: Path) -> Localized:
    """``loaded`` and a renderer for ``lang`` (English returns them unchanged)."""
    if lang not in SUPPORTED:
        raise UsageError(f"no language {lang!r} (languages: {', '.join(SUPPORTED)})")
    if lang == "en":
        return Localized(loaded, NoteRenderer.english(loaded.spec))
    game = loaded.spec.game.id
    broken: list[str] = []
    spec_catalog = _load(locales, lang, game, broken)
    ui_catalog = _load(locales, lang, INTERFACE, broken)
    missing = {game: 0, INTERFACE: 0}
    absent = [d for d, c in ((game, spec_catalog), (INTERFACE, ui_catalog)) if c is None]

    def spec_lookup(context: str, text: str) -> str | None:
        found = _usable(spec_catalog, text, context)
        if found is None:
            missing[game] += 1
        return found if isinstance(found, str) else None

    data = translate_data(loaded.spec.model_dump(), spec_lookup)
    spec = Spec.model_validate(data)
    translated = LoadedSpec(spec, loaded.sources, loaded.directory)
    by_id, interface_ids = _interface_index(ui_catalog)

    def translate(template: str) -> str:
        found = by_id.get(template)
        if found is None:
            # spec sentences arrive translated already; only interface ones can be missing
            if template in interface_ids:
                missing[INTERFACE] += 1
            return template
        return found if isinstance(found, str) else template

    plural_index = _plural_function(ui_catalog)

    def translate_plural(text: PluralText, n: int) -> str:
        forms = by_id.get(text.singular)
        if not isinstance(forms, tuple):
            missing[INTERFACE] += 1
            return text.singular if n == 1 else text.plural
        return str(forms[min(plural_index(n), len(forms) - 1)])

    numbers = LocaleNumbers(lang)
    plain = plain_context(spec)
    renderer = NoteRenderer(
        lang,
        type(plain)(plain.params, plain.terms, plain.rulings, numbers),
        translate,
        translate_plural,
        numbers,
        LIST_SEPARATORS[lang],
    )
    return Localized(translated, renderer, missing, absent, broken)


def _interface_index(catalog: Catalog | None) -> tuple[dict[str, Any], set[str]]:
    """Usable translations by English msgid (singular for plurals), and every msgid."""
    out: dict[str, Any] = {}
    ids: set[str] = set()
    for message in catalog or ():
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        ids.add(key)
        found = _usable(catalog, message.id, message.context)
        if found is not None:
            out[key] = found
    return out, ids


def _plural_function(catalog: Catalog | None) -> Callable[[int], int]:
    if catalog is None:
        return lambda n: 0 if n == 1 else 1
    return gettext.c2py(catalog.plural_expr)
