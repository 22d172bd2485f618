"""What ``rulepress diff`` and ``rulepress i18n changes`` print, from two editions of a game.

The CLI (:mod:`rulepress.cli`) parses the arguments and writes the text;
this module reads the editions (a folder or a git revision each, see
:mod:`rulepress.editions.sources`; the new one defaults to the game's folder
as it is now), compares them and renders the report as text or JSON.
:func:`previous_edition` gives the site and print builds (``--since``) the
same diff, with the old edition's catalogs, for the changes page and the
errata sheet.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from rulepress.editions.diff import diff_specs
from rulepress.editions.model import Diff, to_json
from rulepress.editions.sources import edition_files, read_catalogs, read_edition
from rulepress.errors import UsageError
from rulepress.i18n.catalogs import Stats, catalog_path
from rulepress.i18n.changes import MessageChange, message_changes, retranslated
from rulepress.i18n.runtime import (
    game_translation,
    game_translator,
    interface_translator,
    localize,
)
from rulepress.i18n.safety import read_spec_catalog
from rulepress.model import SOURCE_LANGUAGE, LoadedSpec, Spec
from rulepress.render.context import RenderContext
from rulepress.render.diff_text import render_diff
from rulepress.render.markup import Links
from rulepress.render.pages import links_of
from rulepress.render.text_writer import visible
from rulepress.yamlsrc import display_path


@contextmanager
def editions(
    game_dir: Path, old: str, new: str | None
) -> Iterator[tuple[LoadedSpec, str, LoadedSpec, str]]:
    """Both editions, loaded (temporary copies of git revisions removed afterwards)."""
    with ExitStack() as stack:
        before, old_label = stack.enter_context(read_edition(old, game_dir))
        after, new_label = stack.enter_context(
            read_edition(str(game_dir) if new is None else new, game_dir)
        )
        if new is None:
            new_label = display_path(game_dir)
        if before.spec.game.id != after.spec.game.id:
            raise UsageError(
                f"{old_label} is the spec of {before.spec.game.id}, {new_label} of"
                f" {after.spec.game.id}: a diff compares two editions of one game"
            )
        yield before, old_label, after, new_label


def _published(loaded: LoadedSpec, lang: str) -> str:
    if lang not in loaded.spec.game.languages:
        listed = ", ".join(loaded.spec.game.languages)
        raise UsageError(
            f"{loaded.spec.game.id} is not published in {lang!r} (its languages: {listed})"
        )
    return lang


def diff_report(
    game_dir: Path, old: str, new: str | None, *, as_json: bool, lang: str, locales: Path
) -> str:
    """The diff of the two editions: JSON, or the text report in ``lang``."""
    with ExitStack() as stack:
        before, old_label, after, new_label = stack.enter_context(editions(game_dir, old, new))
        _published(after, lang)
        result = diff_specs(before, after, old_label, new_label)
        if as_json:
            return to_json(result) + "\n"
        title = after.spec.game.title
        # each edition's texts from its own catalogs, as the changes page reads them
        old_locales = stack.enter_context(read_catalogs(old, game_dir, locales))
        new_locales = (
            locales if new is None else stack.enter_context(read_catalogs(new, game_dir, locales))
        )
        translate = interface_translator(locales, lang)
        spec_text = (
            game_translator(new_locales, lang, result.game) if new_locales is not None else _english
        )
        old_text = (
            game_translation(old_locales, lang, result.game)
            if old_locales is not None
            else _nothing(lang)
        )
        links = _text_links(after, lang, new_locales)
        return render_diff(
            result, lang, spec_text("game/title", title), translate, spec_text, old_text, links
        )


def _text_links(loaded: LoadedSpec, lang: str, locales: Path | None) -> Links:
    """What the new edition's markup shows in ``lang``: rule numbers, numbers, terms, rulings."""
    if locales is None:  # an edition without catalogs: its English
        ctx = RenderContext(loaded.spec, lang, _same, str)
    else:
        ctx = RenderContext.of(localize(loaded, lang, locales), lang)
    return links_of(ctx, linked=False)


def _catalog_changes(
    before: LoadedSpec, after: LoadedSpec, lang: str, locales: Path
) -> list[MessageChange]:
    path = catalog_path(locales, lang, after.spec.game.id)
    # the catalog as spec markup, the English of the spec's messages (see i18n.catalog_shapes)
    catalog = read_spec_catalog(path, lang) if path.is_file() else None
    return message_changes(before.spec, after.spec, catalog)


def changes_report(
    game_dir: Path, old: str, new: str | None, *, lang: str, locales: Path, as_json: bool
) -> str:
    """The messages whose English changed, with the ``lang`` catalog's translation and state."""
    with editions(game_dir, old, new) as (before, _, after, _):
        if _published(after, lang) == SOURCE_LANGUAGE:
            raise UsageError("English is the source language: give the language of a catalog")
        changes = _catalog_changes(before, after, lang, locales)
    if as_json:
        return json.dumps([asdict(c) for c in changes], ensure_ascii=False, indent=2) + "\n"
    out = []
    for change in changes:
        out.append(f"{change.context}  [{change.status}]")
        for label, text in (("old", change.old), ("new", change.new), (lang, change.translation)):
            if text is not None:
                out.append(f"  {label + ':':<5}{visible(text.replace(chr(10), ' / '))}")
    count, redone = retranslated(changes)
    out.append(
        f"{count} message(s) of the new edition changed: {redone} translated again in {lang},"
        f" {count - redone} to check; {len(changes) - count} removed"
    )
    return "\n".join(out) + "\n"


def since_counts(
    game_dirs: dict[str, Path], since: str, rows: list[Stats], locales: Path
) -> dict[tuple[str, str], tuple[int, int]]:
    """For ``i18n stats --since``: per (language, game), the changed messages and the redone.

    The messages of the game's current spec whose English changed since the
    edition ``since``, and how many of them are translated again (not fuzzy).
    """
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for domain in dict.fromkeys(r.domain for r in rows if r.domain in game_dirs):
        with editions(game_dirs[domain], since, None) as (before, _, after, _):
            for row in rows:
                if row.domain == domain:
                    out[(row.lang, domain)] = retranslated(
                        _catalog_changes(before, after, row.lang, locales)
                    )
    return out


@dataclass(frozen=True)
class PreviousEdition:
    """The edition a build compares the game with (``--since``), as the changes page needs it."""

    diff: Diff
    spec: Spec
    #: the old edition's texts by language: context and English to its translation then
    #: (None: that edition's catalog has none usable)
    old_text: dict[str, Callable[[str, str], str | None]]


#: the comparisons made in this process, by what each is made from (:func:`_made_from`):
#: ``rulepress build`` runs the print and the site build, which compare each game with
#: its previous edition alike (loading and rescoring an edition takes a second or two)
_MADE: dict[str, PreviousEdition] = {}


def _made_from(game_dir: Path, since: str, locales: Path, langs: tuple[str, ...]) -> str:
    """A digest of what :func:`previous_edition` reads: the game's files and the edition's.

    (For a revision, its commit names its files; ``locales`` says where its catalogs lie.)
    """
    identity, files = edition_files(since, game_dir)
    where = [str(game_dir.resolve()), identity, str(locales.resolve()), langs]
    digest = hashlib.sha256(json.dumps(where).encode())
    for path in sorted([*game_dir.glob("*.yaml"), *files]):
        digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def previous_edition(
    game_dir: Path, now: LoadedSpec, since: str, locales: Path, langs: tuple[str, ...]
) -> PreviousEdition:
    """The diff from the edition ``since`` (a folder or a git revision) to ``now``.

    The old edition's catalogs are read as they stood then (the same
    ``git archive`` as its spec, see :func:`read_catalogs`), one translator
    per language of ``langs``; an edition without catalogs shows its old
    texts in English. Made once per process for the same files (``now`` is
    the game's folder, loaded).
    """
    key = _made_from(game_dir, since, locales, langs)
    if key not in _MADE:
        _MADE[key] = _compared(game_dir, now, since, locales, langs)
    return _MADE[key]


def _compared(
    game_dir: Path, now: LoadedSpec, since: str, locales: Path, langs: tuple[str, ...]
) -> PreviousEdition:
    with ExitStack() as stack:
        before, label = stack.enter_context(read_edition(since, game_dir))
        old_locales = stack.enter_context(read_catalogs(since, game_dir, locales))
        diff = diff_specs(before, now, label, display_path(game_dir))
        old_text = {
            lang: game_translation(old_locales, lang, now.spec.game.id)
            if old_locales is not None
            else _nothing(lang)
            for lang in langs
        }
    return PreviousEdition(diff, before.spec, old_text)


def _same(text: str) -> str:
    return text


def _english(context: str, text: str) -> str:
    return text


def _nothing(lang: str) -> Callable[[str, str], str | None]:
    """The texts of an edition without catalogs: its English, in English only."""
    if lang == SOURCE_LANGUAGE:
        return _english
    return lambda context, text: None
