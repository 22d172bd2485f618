"""Checks on one piece of reader text, shared by the publication gate and translator QA.

The gate (:mod:`rulepress.gate`) runs these over what a build wrote, a page
or a PDF at a time; QA (:mod:`rulepress.i18n.qa`) runs the ones that make
sense for one catalog message over its msgstr, so that a translator sees the
problem at its ``.po`` line before any build. Each function returns findings
as text with an excerpt; the caller says where.

* :func:`spec_markup`: ``{param:…}``, ``{rule:…}``, ``](term:…)`` shown to a
  reader (for QA: markup that is left over once a msgstr's references are
  read, such as a broken link ``[words] (term:x)``);
* :func:`japanese_punctuation`: ASCII punctuation and half-width forms
  against Japanese text, where Japanese writes ：；、（）！？。 and 「」, a
  bracket closed by one of the other width, and a colon after a full stop
  (``。：``, a label pattern filled with a sentence);
* :func:`japanese_minus`: an ASCII hyphen standing for a minus in Japanese
  text (``（-4票）``), where the writers set U+2212 (QA does not run it: a
  translator's hyphen is set as a minus on the way out, as in Czech);
* :func:`raw_ids`: a spec id (``foreign_cubes``, ``most-points``) where its
  label belongs (:class:`RawIds` collects them from the specs);
* :func:`czech_spacing`: a Czech one-letter preposition or conjunction
  before a breaking space (QA does not run it: the writers' typesetting puts
  the no-break space in, see :func:`rulepress.i18n.typography.typeset`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulepress.i18n.typography import CS_ONE_LETTER_BREAK, JA_MINUS, JAPANESE

if TYPE_CHECKING:  # the spec model is read only when ids are collected from specs
    from rulepress.model import Spec

#: spec markup no reader should ever see
SPEC_MARKUP = re.compile(r"\{(?:param|rule|ruling|term):[^{}\s]*\}|\]\(term:[^)\s]*\)")
# ASCII punctuation against Japanese text ("評議会: ", "投票 (", "）, ", "です!"): a
# colon, semicolon, comma, bracket, exclamation or question mark, or a full stop
# after Japanese text. Against Latin text or digits these are right ("1,000",
# "Class I (II)", "16.4.8"), so only a mark touching Japanese (one space apart
# at most) is reported.
_ASCII_IN_JAPANESE = re.compile(
    rf"[{JAPANESE}][ ]?[:;,(!?]|[(][ ]?[{JAPANESE}]|[{JAPANESE}][ ]?[)]|[{JAPANESE}]\.(?!\.)"
)
#: half-width katakana and the half-width 「」、。・ (U+FF61-FF9F): never right in a Japanese text
_HALF_WIDTH = re.compile(r"[\uff61-\uff9f]+")
#: a colon after a full stop: a sentence put where a label goes ("説明。：3")
_STOP_COLON = re.compile(r"。[ ]?[：:]")


def excerpt(text: str, at: int) -> str:
    """The text around ``at``, on one line, to show where a finding is."""
    return " ".join(text[max(0, at - 12) : at + 16].split())


def spec_markup(text: str) -> list[str]:
    return [f"spec markup: {m.group()!r}" for m in SPEC_MARKUP.finditer(text)]


def japanese_punctuation(text: str) -> list[str]:
    found = [
        f"ASCII punctuation in Japanese: {excerpt(text, m.start())!r}"
        for m in _ASCII_IN_JAPANESE.finditer(text)
    ]
    found += [
        f"half-width {m.group()!r} in Japanese: {excerpt(text, m.start())!r}"
        for m in _HALF_WIDTH.finditer(text)
    ]
    found += [
        f"colon after a full stop in Japanese: {excerpt(text, m.start())!r}"
        for m in _STOP_COLON.finditer(text)
    ]
    return found + _mixed_brackets(text)


def japanese_minus(text: str) -> list[str]:
    return [
        f"hyphen as a minus in Japanese (U+2212 −): {excerpt(text, m.start())!r}"
        for m in JA_MINUS.finditer(text)
    ]


_PAIRS = {")": "(", "）": "（"}


def _mixed_brackets(text: str) -> list[str]:
    """A full-width bracket closed by an ASCII one, or the other way round: （14.1)."""
    opened: list[str] = []
    found = []
    for at, char in enumerate(text):
        if char in "(（":
            opened.append(char)
        elif char in _PAIRS and opened and opened.pop() != _PAIRS[char]:
            found.append(f"brackets of two widths in Japanese: {excerpt(text, at)!r}")
    return found


def czech_spacing(text: str) -> list[str]:
    return [
        f"breaking space after {m.group(1)!r}: {excerpt(text, m.start())!r}"
        for m in CS_ONE_LETTER_BREAK.finditer(text)
    ]


@dataclass(frozen=True)
class RawIds:
    """The spec ids a reader must never see, because each has a label or title to show instead.

    Ruling, option, criterion, score, tally and vocabulary ids with a ``-`` or
    ``_`` in them (so they cannot be a word of the text): ``foreign_cubes``,
    ``most-points``, ``agenda_points``, ``common-supply``.
    """

    ids: frozenset[str]

    @classmethod
    def from_specs(cls, spec_root: Path) -> RawIds:
        from rulepress.games import find_game_dirs, load_spec  # noqa: PLC0415  (see of)

        return cls.of(load_spec(directory).spec for directory in find_game_dirs(spec_root))

    @classmethod
    def of(cls, specs: Iterable[Spec]) -> RawIds:
        # imported here: the gate reads sites and PDFs without the spec model otherwise
        from rulepress.model.spec_model import all_steps  # noqa: PLC0415

        found: set[str] = set()
        for spec in specs:
            found.update(r.id for r in spec.rulings)
            found.update(o.id for r in spec.rulings for o in r.options)
            found.update(k for k, label in spec.vocabulary.items() if k != label)
            for seq in spec.sequences:
                for step in all_steps(seq.steps):
                    if step.score is not None:
                        found.add(step.score.id)
                    if step.tally is not None:
                        found.add(step.tally.id)
                        found.update(step.tally.routes)
                        found.update(step.tally.candidates)
                    if step.winners is not None:
                        found.update(c.id for c in step.winners.criteria)
        return cls(frozenset(i for i in found if re.search(r"[-_]", i)))

    def in_text(self, text: str) -> Iterator[str]:
        for token in dict.fromkeys(re.findall(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+", text)):
            if token in self.ids:
                yield token


def raw_ids(text: str, raw: RawIds | None) -> list[str]:
    """The findings of spec ids shown where their labels belong."""
    if raw is None:
        return []
    return [f"raw id where a label exists: {token!r}" for token in raw.in_text(text)]
