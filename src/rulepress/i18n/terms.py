"""Finding the glossary, approved renderings and checked vocabulary that QA checks a catalog against."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.errors import RulepressError
from rulepress.games import find_game_dirs
from rulepress.i18n.qa import Terms
from rulepress.i18n.reader_text import RawIds
from rulepress.i18n.spec_loads import loaded_spec
from rulepress.i18n.vocabulary import Vocabulary
from rulepress.model.spec_model import LanguageTermbase, Spec, VocabularyEntry

_LATIN = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class CheckedTerms(Terms):
    """QA's terms with the termbase's checked vocabulary (see :mod:`rulepress.i18n.vocabulary`).

    A subclass rather than a field of :class:`Terms`, so that QA reads the
    vocabulary in one call and everything else that builds ``Terms`` is unchanged.
    """

    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    #: the Latin words the language keeps in English (see :mod:`rulepress.i18n.english_left`)
    kept: frozenset[str] = frozenset()
    #: the spec ids a reader must see as their labels (see :class:`~rulepress.i18n.reader_text.RawIds`)
    raw_ids: RawIds = field(default_factory=lambda: RawIds(frozenset()))


def terms_for(spec_root: Path, domain: str, lang: str) -> tuple[Terms, str]:
    """The terms of ``domain`` in ``lang``, and a note when they cannot be had."""
    directory = spec_root / domain
    if not (directory / "game.yaml").is_file():
        # the interface domain has no glossary, but its sentences (tie-breaks, the
        # default ruling) appear on every game's pages: the vocabulary all games share applies
        specs = _loadable_specs(spec_root)
        vocabulary = Vocabulary.of(_shared_vocabulary(specs, lang))
        kept = frozenset(w for spec in specs for w in kept_words(spec, lang))
        return CheckedTerms({}, {}, vocabulary, kept, RawIds.of(specs)), ""
    try:
        spec = loaded_spec(directory).spec
    except RulepressError as exc:
        return (
            Terms.empty(),
            f"{domain}: the spec does not load, glossary terms not checked ({exc.summary})",
        )
    termbase = _language(spec, lang)
    missing = [t.id for t in spec.glossary if t.id not in termbase.terms]
    note = (
        f"{domain}: the {lang} termbase lacks {len(missing)} term(s): {', '.join(missing[:5])}"
        if missing
        else ""
    )
    # a term spelled like the game's own title (Stationfall) is mostly the game's name:
    # its mentions are not checked, its links still are
    glossary = [t for t in spec.glossary if t.term != spec.game.title]
    linked_only = Terms.of(spec.glossary, termbase.terms)
    english = Terms.of(glossary, termbase.terms).english
    vocabulary = Vocabulary.of(termbase.vocabulary)
    kept = kept_words(spec, lang)
    return CheckedTerms(english, linked_only.approved, vocabulary, kept, RawIds.of([spec])), note


def kept_words(spec: Spec, lang: str) -> frozenset[str]:
    """The Latin words ``lang`` keeps from English in this game's texts.

    The game's title and vocabulary labels (faction names), and each Latin word
    of the language's termbase: its approved renderings and forms, and its
    vocabulary's approved words.
    """
    termbase = _language(spec, lang)
    texts = [spec.game.title, *spec.vocabulary.values()]
    for rendering in termbase.terms.values():
        texts += [rendering.term, *rendering.forms]
    for entry in termbase.vocabulary.values():
        texts += [entry.term, *entry.forms]
    return frozenset(w.casefold() for text in texts for w in _LATIN.findall(text))


def _loadable_specs(spec_root: Path) -> list[Spec]:
    """Every game's spec that loads (the others' own catalogs report why not)."""
    specs = []
    for directory in find_game_dirs(spec_root) if spec_root.is_dir() else []:
        try:
            specs.append(loaded_spec(directory).spec)
        except RulepressError:
            continue
    return specs


def _language(spec: Spec, lang: str) -> LanguageTermbase:
    # lang is any folder name; a language the termbase has no entry for has no terms
    return spec.termbase.get(lang, LanguageTermbase())


def _shared_vocabulary(specs: list[Spec], lang: str) -> dict[str, VocabularyEntry]:
    """The vocabulary entries every game published in ``lang`` gives alike.

    Alike: the same English and the same approved word. A game not published in
    ``lang`` has no pages in it, and no say in its shared words.
    """
    shared: dict[str, VocabularyEntry] | None = None
    for spec in (s for s in specs if lang in s.game.languages):
        entries = _language(spec, lang).vocabulary
        if shared is None:
            shared = dict(entries)
        else:
            shared = {k: v for k, v in shared.items() if k in entries and entries[k].term == v.term}
    return shared or {}
