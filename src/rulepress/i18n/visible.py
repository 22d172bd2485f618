"""Text as a reader sees it: without the characters that take no room, in NFKC form.

Zero-width spaces and joiners, the word joiner, soft hyphens, byte-order
marks, bidi controls and tag characters (Unicode's category Cf, "format"),
and a few invisible characters of other categories, change no glyph a reader
sees, but they make ``"Sc\\u200bore"`` unequal to ``"Score"``. The publication
gate compares a page's words with English through this, and the translation
lookups use it to tell a translation from English in disguise.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from rulepress.lazy_pattern import LazyPattern

#: characters a reader does not see that are not of category Cf: the combining
#: grapheme joiner, the Hangul fillers, the variation selectors (and their supplement)
_INVISIBLE_OTHER = frozenset(
    "\u034f\u115f\u1160\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)


def as_seen(text: str) -> str:
    """``text`` as a reader sees it: invisible characters removed, then NFKC-normalised.

    Unicode's own categories (``unicodedata``), not a list of code points, so that
    every format character counts, including those a later Unicode adds.
    """
    return unicodedata.normalize("NFKC", _without_invisible(text))


def _without_invisible(text: str) -> str:
    return "".join(
        ch for ch in text if unicodedata.category(ch) != "Cf" and ch not in _INVISIBLE_OTHER
    )


def disguised(source: str, translation: str) -> bool:
    """Whether ``translation`` is ``source`` itself once invisible characters are gone.

    A translation written exactly as its English is a translator's choice (a
    name, "US Letter"); one that differs from it only by what no reader sees
    is English in disguise.
    """
    if translation == source:
        return False
    # invisible characters out; full-width letters and digits folded ("Ｓｃｏｒｅ" is
    # English too), but not punctuation: "{label}：" is how Japanese writes "{label}:"
    return _letters_folded(translation) == _letters_folded(source)


#: what :func:`_letters_folded` looks at: no ASCII character is invisible or folded
_NOT_ASCII = LazyPattern(r"[^\x00-\x7f]")


def _letters_folded(text: str) -> str:
    """``text`` without invisible characters, its letters and digits in NFKC form.

    Character by character (each is removed, folded or kept whatever its neighbours),
    and only for those outside ASCII: a translated score looks up every message of
    the game's catalog this way, and looking at each character took most of it.
    """
    return _NOT_ASCII.sub(_folded, text)


def _folded(match: re.Match[str]) -> str:
    return _fold(match.group())


@cache
def _fold(ch: str) -> str:
    if unicodedata.category(ch) == "Cf" or ch in _INVISIBLE_OTHER:
        return ""
    return unicodedata.normalize("NFKC", ch) if unicodedata.category(ch)[0] in "LN" else ch
