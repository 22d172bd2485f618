"""Locale typography, applied once, by each writer, to the text it shows a reader.

The catalogs hold words; how a language sets them is the writers' job (site,
print and terminal call :func:`typeset` on every text they output, never on
code or ids). What this module knows, per language:

* **Czech**: a no-break space after the one-letter prepositions and
  conjunctions (k, s, v, z, o, u, a, i), which Czech typography forbids at
  the end of a line, and between a number and the word it counts (``3 body``);
  U+2212 MINUS SIGN for a minus before a number (``−2``), not a hyphen.
* **Japanese**: U+2212 MINUS SIGN too (``合計：−5``, ``（−4票）``). CLDR's Japanese
  number symbols give the ASCII hyphen (``babel.numbers.get_minus_sign_symbol("ja")``
  is ``-``), so Babel's numbers still need this; Japanese type sets a minus sign.
* **Quotes** around a title (:func:`quote`): the locale's own marks (“…” in
  English, „…“ in Czech, 「…」 in Japanese), with the alternate marks for
  quotes already inside the title (「『…』」). Straight double quotes that a
  text pairs ("…") become those marks too, in every language, and an
  apostrophe inside a word becomes ’ (typewriter marks are for code).
* **Collation** (:func:`sort_key`): Czech alphabetical order, and Japanese
  order by the reading the termbase gives (五十音順).

Why a collation of our own: Python has none for a given locale (``locale.strxfrm``
depends on the machine's installed locales), and ICU's needs PyICU, a C
extension built against the system's ICU. Czech order is short to state
(ČSN 97 6030, the primary level below), and Japanese order is the order of
the kana of the reading.
"""

from __future__ import annotations

import json
import pkgutil
import re
import unicodedata
from collections.abc import Callable
from functools import cache

from rulepress.lazy_pattern import LazyPattern

NBSP = "\u00a0"
MINUS = "\u2212"

#: the Czech one-letter prepositions and conjunctions, which may not end a line
CS_ONE_LETTER = "kKsSvVzZoOuUaAiI"
#: one of them standing as a word before a breaking space. Written once: :func:`typeset`
#: binds each to the next word, and the publication gate and translator QA report each
#: one left in a reader's text (:func:`rulepress.i18n.reader_text.czech_spacing`). A
#: letter after a word character, a full stop, a comma or a hyphen is not a word ("3.a",
#: "A-a"); at the end of a piece of text, the word is the element that follows (a link)
CS_ONE_LETTER_BREAK = LazyPattern(rf"(?<![\w.,\-])([{CS_ONE_LETTER}]) (?=\S|$)")
#: Japanese script (hiragana, katakana, CJK ideographs), as a character-class range; the
#: full-width forms (U+FF00-FFEF) are Japanese punctuation already
JAPANESE = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
#: a number and the word after it stay together ("3 body", "16.4.8 Remíza"); at the end
#: of a piece of text, the word is the element that follows ("1 " + a glossary link)
_CS_NUMBER_WORD = LazyPattern(r"(?<![\w.])(\d+(?:[.,]\d+)*) (?=[^\W\d_]|$)")
#: a hyphen used as a minus: before a digit, after a space, an opening bracket or the start
_MINUS = LazyPattern(r"(?:(?<=^)|(?<=[\s(\[]))-(?=\d)")
#: the same in Japanese, where a number also follows Japanese text, a full-width bracket or
#: mark with no space ("Ventus：-1", "（-4票）"). A hyphen after a Latin letter or a digit
#: is no minus ("X-2", "1-3"). Written once: :func:`typeset` sets each as U+2212, and the
#: publication gate reports each one left in a reader's text
#: (:func:`rulepress.i18n.reader_text.japanese_minus`)
JA_MINUS = LazyPattern(rf"(?:(?<=^)|(?<=[\s(\[（［「『【〔：、。・，～{JAPANESE}]))-(?=\d)")


#: a pair of straight double quotes on one line, and an apostrophe inside a word
_STRAIGHT_QUOTES = LazyPattern(r'"([^"\n]+)"')
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def typeset(text: str, lang: str) -> str:
    """``text`` as ``lang`` sets it (see the module docstring)."""
    if '"' in text:
        start, end, _, _ = _marks(lang)
        text = _STRAIGHT_QUOTES.sub(lambda m: start + m.group(1) + end, text)
    if "'" in text:
        text = _APOSTROPHE.sub("\u2019", text)
    if lang == "cs":
        text = CS_ONE_LETTER_BREAK.sub(r"\1" + NBSP, text)
        text = _CS_NUMBER_WORD.sub(r"\1" + NBSP, text)
        return _MINUS.sub(MINUS, text)
    if lang == "ja":
        return JA_MINUS.sub(MINUS, text)
    return text


def number_range(low: str, high: str, lang: str) -> str:
    """A range of two numbers as the locale writes it: 1–5, in Japanese 1～5.

    From Babel's interval pattern (CLDR's fallback for intervals), with the
    spaces it puts around the dash for dates taken out: numbers close up.
    """
    return _range_pattern(lang).format(low, high)


@cache
def _range_pattern(lang: str) -> str:
    from babel import Locale, UnknownLocaleError  # noqa: PLC0415 - only for tables

    try:
        pattern = Locale.parse(lang or "en").interval_formats.get(None)
    except (ValueError, UnknownLocaleError):
        pattern = None
    if not isinstance(pattern, str) or "{0}" not in pattern or "{1}" not in pattern:
        return "{0}–{1}"
    return pattern.replace(" ", "").replace("\u2009", "")


@cache
def _quotation_table() -> dict[str, list[str]]:
    """Every language's four quotation marks: docutils' table, kept as this package's data.

    docutils keeps the quotation marks of 75 languages (its smart-quotes table, from
    CLDR and national style guides); Babel does not carry CLDR's delimiters. Read as
    data (written, and checked current, by tools/quotation_marks.py) rather than by
    importing docutils, which only the site builds need otherwise: the import was 3 %
    of a ``rulepress score`` of one table. Read through the package's loader
    (:func:`pkgutil.get_data`), as :mod:`importlib.resources` would, without importing
    that (tempfile, zipfile …) on a score's path.
    """
    data = pkgutil.get_data("rulepress.i18n", "quotation_marks.json")
    if data is None:  # a loader that cannot read data files: not one rulepress installs with
        raise FileNotFoundError("rulepress.i18n/quotation_marks.json")
    table: dict[str, list[str]] = json.loads(data.decode("utf-8"))
    return table


@cache
def _marks(lang: str) -> tuple[str, str, str, str]:
    table = _quotation_table()
    marks = table.get(lang) or table.get(lang.split("-", maxsplit=1)[0])
    if isinstance(marks, list) and len(marks) == 4:
        return (str(marks[0]), str(marks[1]), str(marks[2]), str(marks[3]))
    return ("“", "”", "‘", "’")


def quotation_marks(lang: str) -> tuple[str, str]:
    """The locale's outer quotation marks (``„`` ``“`` in Czech, ``「`` ``」`` in Japanese).

    For words quoted verbatim from another language's document, whose own marks
    must stay as they are (:func:`quote` would change them).
    """
    start, end, _, _ = _marks(lang)
    return start, end


#: a pair of typewriter double quotes, as an English source writes them (What "foreign" …)
_STRAIGHT_PAIR = re.compile(r'"([^"\n]*)"')


def quote(text: str, lang: str) -> str:
    """``text`` in the locale's quotation marks; quotes inside it become the alternate ones.

    Typewriter quotes inside count too: left as they are, the smart quotes of a page or
    a report would turn them into the outer marks, quoting inside a quote with the
    same marks.
    """
    start, end, alt_start, alt_end = _marks(lang)
    inner = text.replace(start, alt_start).replace(end, alt_end)
    inner = _STRAIGHT_PAIR.sub(rf"{alt_start}\1{alt_end}", inner)
    return f"{start}{inner}{end}"


# ----------------------------------------------------------------- collation

#: the Czech alphabet's primary order: č, ř, š, ž and ch are letters of their own;
#: á, é, ě, í, ó, ú, ů, ý, ď, ň, ť sort with their base letter (they differ at the
#: secondary level only)
_CS_LETTERS = [
    "a",
    "b",
    "c",
    "č",
    "d",
    "e",
    "f",
    "g",
    "h",
    "ch",
    "i",
    "j",
    "k",
    "l",
    "m",
    "n",
    "o",
    "p",
    "q",
    "r",
    "ř",
    "s",
    "š",
    "t",
    "u",
    "v",
    "w",
    "x",
    "y",
    "z",
    "ž",
]
_CS_RANK = {letter: i for i, letter in enumerate(_CS_LETTERS)}
_CS_SECONDARY = str.maketrans("áéěíóúůýďňť", "aeeiouuydnt")


def _czech_key(text: str) -> tuple[tuple[int, ...], str, str]:
    folded = text.casefold()
    base = folded.translate(_CS_SECONDARY)
    primary: list[int] = []
    i = 0
    while i < len(base):
        if base.startswith("ch", i):
            primary.append(_CS_RANK["ch"])
            i += 2
            continue
        char = base[i]
        if char.isspace():  # a word ends before any letter: "Hex Sorelia" before "Hexová akce"
            primary.append(-1)
            i += 1
            continue
        # letters outside the alphabet (digits, other scripts) sort after it, by code point
        primary.append(_CS_RANK.get(char, len(_CS_LETTERS) + ord(char)))
        i += 1
    return tuple(primary), folded, text


def _kana_key(reading: str) -> tuple[str, str]:
    """五十音順: katakana as hiragana, voicing marks only as a tie-break."""
    hiragana = "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in reading)
    decomposed = unicodedata.normalize("NFD", hiragana)
    plain = "".join(c for c in decomposed if c not in "\u3099\u309a")
    return plain, hiragana


def sort_key(lang: str) -> Callable[[str, str], tuple[object, ...]]:
    """A key for (shown text, reading) pairs in ``lang``'s alphabetical order.

    The reading matters for Japanese only (kanji have no order of their own a
    reader would know); without one, the text itself is read as kana.
    """
    if lang == "cs":
        return lambda text, reading: _czech_key(text)
    if lang == "ja":
        return lambda text, reading: (*_kana_key(reading or text), text)
    return lambda text, reading: (text.casefold(), text)
