"""The languages a game is published in, as its spec says (``game.languages``).

A language is any locale Babel (CLDR) knows, written as Babel writes it
(``de``, ``pt_BR``): the same code names the catalog folder
(``locales/<code>/``), the site's folder and the print folder. Every spec is
written in English, the source language, so every game lists ``en``; the
other languages are the translations its catalogs hold.

The loader checks a code's form only (:func:`language_syntax`): loading and
scoring a spec need no Babel. Whether Babel knows the language
(:func:`language_code`) is checked by ``rulepress validate`` (through
:func:`rulepress.checks.languages.language_problems`) and by every command that reads the languages to
publish them (:func:`game_languages`), each time located in ``game.yaml``.

Nothing in rulepress keeps a list of languages or games: the commands ask
this module. :func:`game_languages` reads one game's ``game.yaml`` alone
(catalog commands must work while the rest of a spec is being edited), and
:func:`all_languages` is the union over a specs' folder, which the site, the
shared catalog domains and the command line's ``--lang`` use.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rulepress.errors import Problem, SpecError
from rulepress.lazy_pattern import LazyPattern
from rulepress.yamlsrc import GAME_FILE, YamlError, display_path, find_game_dirs, load_yaml_file

#: the language every spec is written in (the msgids of its catalogs)
SOURCE_LANGUAGE = "en"
#: a locale code as Babel writes one: language, then script, territory, variant (pt_BR,
#: zh_Hant_TW, ca_ES_VALENCIA)
LANGUAGE_RE = LazyPattern(
    r"^[a-z]{2,3}(_[A-Z][a-z]{3})?(_(?:[A-Z]{2}|[0-9]{3}))?(_[A-Z0-9]{4,8})?$"
)
_NOT_KNOWN = "{!r} is not a language Babel knows (a CLDR code such as 'de' or 'pt_BR')"


def language_syntax(value: str) -> str:
    """``value`` if it is written as Babel writes a locale code; else ValueError (no Babel needed)."""
    if LANGUAGE_RE.match(value):
        return value
    fixed = value.replace("-", "_")
    parts = fixed.split("_")
    fixed = "_".join(
        [parts[0].lower(), *(p.title() if len(p) == 4 else p.upper() for p in parts[1:])]
    )
    if LANGUAGE_RE.match(fixed):
        raise ValueError(f"write the language {value!r} as {fixed!r}")
    raise ValueError(_NOT_KNOWN.format(value))


def language_tag(code: str) -> str:
    """The BCP 47 tag of a locale code as Babel writes it (``pt_BR`` -> ``pt-BR``).

    HTML's ``lang`` and ``hreflang``, sitemaps and browsers use these tags.
    Babel's form is a BCP 47 tag with ``_`` for ``-`` (language, script,
    territory and variant subtags, which BCP 47 compares case-blind), so the
    separator is all there is to change, with no Babel needed.
    """
    return code.replace("_", "-")


def language_code(value: str) -> str:
    """``value`` if it is a locale Babel knows, written as Babel writes it; else ValueError."""
    language_syntax(value)
    # imported here: the loader checks the form only, so that a spec loads without Babel
    from babel import Locale, UnknownLocaleError  # noqa: PLC0415

    try:
        locale = Locale.parse(value)
    except (ValueError, TypeError, UnknownLocaleError):
        raise ValueError(_NOT_KNOWN.format(value)) from None
    if str(locale) != value:
        raise ValueError(f"write the language {value!r} as {str(locale)!r}")
    return value


def published_languages(values: list[str]) -> list[str]:
    """``game.languages``: each once, English (the source language) among them."""
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{value!r} is listed twice")
        seen.add(value)
    if SOURCE_LANGUAGE not in seen:
        raise ValueError(
            f"must list {SOURCE_LANGUAGE!r}: the spec is written in English, the language"
            " every translation is made from"
        )
    return values


def translations(languages: Iterable[str]) -> tuple[str, ...]:
    """The languages that need catalogs: all but the source language."""
    return tuple(lang for lang in languages if lang != SOURCE_LANGUAGE)


def game_languages(game_dir: Path) -> tuple[str, ...]:
    """The languages ``game_dir``'s ``game.yaml`` lists, checked; located SpecError if unusable.

    Only ``game.yaml`` is read, so that the catalog commands work on a spec
    whose other files have problems (``rulepress validate`` reports those).
    """
    path = game_dir / GAME_FILE
    shown = display_path(path)
    try:
        data, sources = load_yaml_file(path, shown)
    except YamlError as exc:
        raise SpecError(f"{shown}: cannot read the game's languages", exc.problems) from None
    game = data.get("game") if isinstance(data, dict) else None
    values = game.get("languages") if isinstance(game, dict) else None
    where = "game.languages"
    if not isinstance(values, list) or not values:
        found = sources.locate(("game", "languages"))
        message = "expected a list of languages, such as [en, de]"
        raise SpecError(f"{shown}: no languages", [Problem(found, where, message)])
    problems: list[Problem] = []
    for index, value in enumerate(values):
        try:
            language_code(value if isinstance(value, str) else repr(value))
        except ValueError as exc:
            at = sources.locate(("game", "languages", index))
            problems.append(Problem(at, f"{where}[{index}]", str(exc)))
    if not problems:
        try:
            published_languages(values)
        except ValueError as exc:
            problems.append(Problem(sources.locate(("game", "languages")), where, str(exc)))
    if problems:
        raise SpecError(f"{shown}: the game's languages are not usable", problems)
    return tuple(values)


def spec_languages(spec_root: Path) -> dict[str, tuple[str, ...]]:
    """Every game's languages, by its folder's name (its catalog domain).

    Every game is read, and the problems of all of them raised at once.
    """
    out: dict[str, tuple[str, ...]] = {}
    problems: list[Problem] = []
    for directory in find_game_dirs(spec_root):
        try:
            out[directory.name] = game_languages(directory)
        except SpecError as exc:
            problems += exc.problems
    if problems:
        raise SpecError("the games' languages are not usable", problems)
    return out


def union(languages: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """Every language of any game, once: English first, then in the order the games list them."""
    out = [SOURCE_LANGUAGE]
    for langs in languages:
        out += [lang for lang in langs if lang not in out]
    return tuple(out)


def all_languages(spec_root: Path) -> tuple[str, ...]:
    """The languages of every game under ``spec_root`` (see :func:`union`)."""
    return union(spec_languages(spec_root).values())
