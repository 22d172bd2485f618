"""Checked vocabulary: the variants a termbase rules out, flagged in translations.

The glossary's terms are checked by :func:`rulepress.i18n.qa.check_message`
against their approved renderings. Recurring words that are not game terms
(a *tie*, the *board*, to *draw* a card) drift between synonyms all the same,
so a termbase may list, per language, the approved word for such a concept
and the variants to avoid (``vocabulary:`` in ``termbase.<lang>.yaml``, see
:class:`rulepress.model.spec_model.VocabularyEntry`). A msgstr that uses an avoided
variant gets a QA *warning* naming the approved word: it is a translator's
inconsistency, not a safety problem, and the builds use the catalog as it is.

The check does not look at the English: a variant listed here is wrong
wherever it appears in the game's catalogs, so only words that are wrong in
every context belong in ``avoid``. Variants match as whole words and
ignore case, except one written in capitals (a printed keyword), which
matches only as written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from rulepress.model.spec_model import VocabularyEntry
from rulepress.model.text import transform


def _edge(char: str) -> bool:
    """Whether a word ending in ``char`` needs a word boundary there.

    Czech words must match whole ("shodu", not the "shod" of "shodný"), but
    Japanese is written without spaces, so a wide character (kana, kanji)
    matches inside a run of text.
    """
    return unicodedata.east_asian_width(char) not in ("W", "F")


def _alternative(variant: str) -> str:
    # whitespace inside a phrase matches any run of spaces (a line may wrap there)
    body = r"\s+".join(re.escape(part) for part in variant.split())
    before = r"(?<![\w-])" if _edge(variant[0]) else ""
    after = r"(?![\w-])" if _edge(variant[-1]) else ""
    # a variant written in capitals is a printed keyword (TAH for the timing TURN):
    # it is matched as written, so that the ordinary word (tah, a turn) is not flagged
    group = "(?:" if variant.isupper() and len(variant) > 1 else "(?i:"
    return f"{group}{before}{body}{after})"


def _pattern(variants: list[str]) -> re.Pattern[str]:
    """One pattern for all of a concept's variants: the first one used is the one named.

    Longest first, so that at one place "herní plochy" is named rather than a
    shorter variant inside it.
    """
    ordered = sorted(variants, key=len, reverse=True)
    return re.compile("|".join(_alternative(v) for v in ordered))


@dataclass(frozen=True, slots=True)
class _Rule:
    english: str
    approved: str
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """One language's checked vocabulary, compiled once per domain."""

    rules: tuple[_Rule, ...] = ()

    @classmethod
    def of(cls, entries: Mapping[str, VocabularyEntry]) -> Vocabulary:
        rules = []
        for english, entry in entries.items():
            rules.append(_Rule(english, entry.term, _pattern(entry.avoid)))
        return cls(tuple(rules))

    def flagged(self, text: str) -> list[str]:
        """One warning per concept whose avoided variant ``text`` uses, in the order of the text."""
        # placeholders and link targets are ids, not words; link *words* are checked
        plain = transform(text, str, lambda token: token.words)
        found = []
        for rule in self.rules:
            match = rule.pattern.search(plain)
            if match:
                # a phrase may wrap inside the msgstr: the finding stays on one line
                used = " ".join(match.group(0).split())
                message = (
                    f"'{used}' is not the approved word for '{rule.english}': use '{rule.approved}'"
                )
                found.append((match.start(), message))
        return [message for _, message in sorted(found)]


def vocabulary_issues(string: str, terms: object) -> list[tuple[str, bool]]:
    """The vocabulary warnings for one msgstr, as ``(message, error=False)`` pairs.

    ``terms`` is QA's :class:`~rulepress.i18n.qa.Terms`; the vocabulary rides
    on the subclass :func:`rulepress.i18n.terms.terms_for` builds, so QA's own
    code needs only this call (and terms built without a vocabulary check
    nothing).
    """
    vocabulary = getattr(terms, "vocabulary", None)
    if not isinstance(vocabulary, Vocabulary):
        return []
    return [(message, False) for message in vocabulary.flagged(string)]
