"""Whether a language is complete enough to publish a game in it, or only as a preview.

A game's spec sets the bar (``game.translation.complete_at``, a percentage;
0, the default, means no language is ever a preview). A language's
completeness for a game is the share of translated messages over both catalogs
its pages are made from: the game's own and rulepress's interface catalog
(counted as ``rulepress i18n stats`` counts them: an entry is translated when
it is neither fuzzy nor empty). Both are counted together, so a well-translated
game in a language whose interface is half done is still a preview: a reader
would meet the English of either.

English, the source language, is always complete. A language with no catalog
of the game is 0 % complete.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from rulepress.i18n.catalogs import find_catalog, stats
from rulepress.i18n.extract import INTERFACE
from rulepress.model import SOURCE_LANGUAGE, Spec


@dataclass(frozen=True)
class Readiness:
    """A game in one language: how complete its catalogs are, and whether that is a preview."""

    completeness: float
    preview: bool


def completeness(locales: Path, lang: str, domains: tuple[str, ...]) -> float:
    """The share (percent) of the messages of ``domains`` in ``lang`` that are translated."""
    if lang == SOURCE_LANGUAGE:
        return 100.0
    total = done = 0
    for domain in domains:
        path = find_catalog(locales, lang, domain)
        if not path.is_file():
            continue  # no catalog: nothing of it is translated (counted by the others)
        counted = _counts(path.resolve(), path.stat().st_mtime_ns)
        total += counted[0]
        done += counted[1]
    if not (find_catalog(locales, lang, domains[0]).is_file()):
        return 0.0  # the game itself is not translated at all
    return 100.0 * done / total if total else 100.0


@functools.lru_cache(maxsize=64)
def _counts(path: Path, mtime_ns: int) -> tuple[int, int]:
    """(messages, translated) of one catalog; kept while the file is unchanged.

    The interface catalog is counted with every game, so it is read once per build.
    """
    with path.open("rb") as fh:
        # the build refuses an unreadable catalog with located problems before this
        found = stats(read_po(fh), "", path.stem)
    return found.total, found.translated


def readiness(spec: Spec, lang: str, locales: Path, share: float | None = None) -> Readiness:
    """Whether ``spec``'s game is published in ``lang`` as a preview, and why.

    ``share``: its :func:`completeness`, when the caller has read it already.
    """
    if share is None:
        share = completeness(locales, lang, (spec.game.id, INTERFACE))
    bar = spec.game.translation.complete_at
    return Readiness(round(share, 1), lang != SOURCE_LANGUAGE and share < bar)
