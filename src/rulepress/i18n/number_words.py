"""Numbers written as words, read in the English and in each translation for translator QA.

A translator who changes "pět" (five) to "šest" changes a cost as surely as
one who changes a digit, so QA reads number words on both sides of a
message. The words come from num2words (which spells numbers in each of our
languages) and the month names from Babel's CLDR data, turned around into
tables from word to value, instead of word lists typed by hand.

What each language reads (any language num2words spells gets its cardinals
from 2 to 100; a language it does not know has its digits compared only):

* **English** (the msgids): the cardinals and ordinals num2words writes for
  0–100 ("two", "twenty-one", "third", "hundred"), the month names when
  capitalised (so that the verb "may" is not May), and a few multiplicatives
  num2words has no form for ("once", "twice", "double", "triple").
* **Czech**: num2words's cardinals from 2 to 100 ("dva", "pět", "dvacet
  jedna"), the multiplicatives made from them ("třikrát", "pětkrát"), the
  case forms of 5 and up made the regular way ("pěti", "dvaceti"), and the
  case forms of 2–4, which are irregular and listed below. *Not read*: 1
  ("jeden", "jedna" and "jedno" also mean "a" and "one of"), ordinals
  ("první", "druhý": num2words has no Czech ordinals), and collective or
  fractional words ("dvojice", "polovina"); "oba"/"obě" (both) and
  "trojnásobek" (three times) may stand for a number of the source, but are
  not read as numbers of their own.
* **Japanese**: kanji numerals from num2words for 2–100 (二, 十二, 二十一),
  as runs inside the text (Japanese has no spaces; ordinals with 番目 are
  such runs too), and 両 (both) may stand for a two. 一 is not read: in running text it is mostly
  part of a word (一番, 一部, 一方, 一度, 一緒), and Japanese counts with
  digits (3ラウンド) anyway; nor is 十分 (enough).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from functools import cache, lru_cache

from babel import Locale
from num2words import num2words  # type: ignore[import-untyped]  # no type information shipped

from rulepress.model.text import transform

#: the largest value read as words: rule texts count small things
_LIMIT = 100

# num2words spells cardinals and ordinals but not multiplicatives, which rule
# texts use often ("score it twice"): these are the only words typed here
_MULTIPLICATIVES = {
    "once": 1,
    "single": 1,
    "twice": 2,
    "double": 2,
    "doubles": 2,
    "doubled": 2,
    "thrice": 3,
    "triple": 3,
    "triples": 3,
    "tripled": 3,
}

# Czech declines 2-4 irregularly (dva: dvou, dvěma; also feminine and neuter dvě);
# num2words gives the nominative only, so these case forms are listed
_CZECH_CASES = {
    2: ("dvě", "dvou", "dvěma"),
    3: ("tří", "třem", "třech", "třemi"),
    4: ("čtyř", "čtyřem", "čtyřech", "čtyřmi"),
}
# Words that say a number without being a numeral: "both" (oba, 両) for "the two",
# "trojnásobek" for "three times". They may stand for a number of the source, but
# are not read as numbers of their own (両者 or "oba" may answer "each" or "they").
_CZECH_ALSO = {"oba": 2, "obě": 2, "obou": 2, "oběma": 2}
_CZECH_MULTIPLE = {"dvojnásob": 2, "trojnásob": 3, "čtyřnásob": 4}
_JAPANESE_ALSO = {"両": 2}
#: the one number from 5 up whose case forms change the stem's vowel
_CZECH_STEM = {"devět": "devíti"}


@cache
def english_table() -> Mapping[str, int]:
    """Each English number word (lower case) and its value."""
    table: dict[str, int] = {}
    for n in range(_LIMIT + 1):
        for kind in ("cardinal", "ordinal"):
            words = str(num2words(n, lang="en", to=kind))
            # "one hundred": the counted word is the last; "twenty-one" stays whole
            table.setdefault(words.rsplit(maxsplit=1)[-1], n)
    return {**table, **_MULTIPLICATIVES}


@cache
def english_cardinals() -> frozenset[str]:
    """The English words that count two or more things ("two", "twenty-one", "hundred").

    Only these must be found again in a translation: ordinals ("first") are
    often rephrased ("the start player"), "one" is also a pronoun, and "once"
    also means "when".
    """
    return frozenset(str(num2words(n, lang="en")).split()[-1] for n in range(2, _LIMIT + 1))


@cache
def month_table() -> Mapping[str, int]:
    """The English month names (capitalised, as they are matched) and their numbers."""
    return {str(name): int(n) for n, name in Locale("en").months["format"]["wide"].items()}


@cache
def target_table(lang: str) -> Mapping[str, int]:
    """Each number word QA reads in ``lang`` (lower case) and its value, from 2 to 100.

    num2words's cardinals for any language it knows (none for one it does not:
    then only digits are compared), with the Czech forms the module docstring
    lists. 1 is left out in every language: its words are also articles and
    parts of words (jeden, ein, un; 一番).
    """
    table: dict[str, int] = {}
    for n in range(2, _LIMIT + 1):
        try:
            word = str(num2words(n, lang=lang)).lower()
        except (NotImplementedError, OverflowError):
            return {}
        table[word] = n
        if lang == "cs":
            table.update(dict.fromkeys(_czech_forms(word, n), n))
    return table


def _czech_forms(word: str, n: int) -> list[str]:
    """The case forms and the multiplicative of a Czech cardinal (num2words has the nominative)."""
    if " " in word:
        return []  # "dvacet jedna": its forms are rare in rules; the nominative is read
    forms = [word + "krát", *_CZECH_CASES.get(n, ())]
    if n >= 5 and word != "sto":  # "sto" is a noun (sta, stem)
        forms.append(_CZECH_STEM.get(word, word + "i"))
    return forms


@cache
def _written_without_spaces(lang: str) -> bool:
    """Whether ``lang`` writes its numerals inside runs of text (Japanese 二人, 十二点)."""
    return any(unicodedata.east_asian_width(word[0]) == "W" for word in target_table(lang))


_EN_WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?:-[A-Za-z]+)*(?![\w-])")


def _plain(text: str) -> str:
    """The text with placeholders and link targets left out (their digits and ids are no words)."""
    return transform(text, str, lambda token: token.words)


@lru_cache(maxsize=8192)
def english_words(text: str) -> tuple[tuple[str, int], ...]:
    """The number words of an English text, in order, as (word, value).

    Kept per text: QA asks it of each msgid twice per catalog, and again for
    each language the msgid is translated into.
    """
    table, months = english_table(), month_table()
    found: list[tuple[str, int]] = []
    for match in _EN_WORD.finditer(_plain(text)):
        token = match.group(0)
        value = table.get(token.lower(), months.get(token))
        if value is not None:
            found.append((token, value))
            continue
        # "two-player": its parts are words of their own ("often-used" has none)
        for part in token.split("-"):
            value = table.get(part.lower(), months.get(part))
            if value is not None:
                found.append((part, value))
    return tuple(found)


def number_words(text: str, source_lang: str = "en") -> Counter[Decimal]:
    """The values of the number words of an English ``text`` (``two``, ``third``, ``twice``, ``July``)."""
    if source_lang != "en":
        return Counter()
    return Counter(Decimal(value) for _, value in english_words(text))


def target_words(text: str, lang: str) -> list[tuple[str, int]]:
    """The number words of a translation into ``lang``, in order, as (word, value)."""
    table = target_table(lang)
    if not table:
        return []
    plain = _plain(text)
    if _written_without_spaces(lang):
        return _runs(plain, table)
    words = [m.group(0) for m in re.finditer(r"[^\W\d_]+", plain)]
    found: list[tuple[str, int]] = []
    i = 0
    while i < len(words):
        pair = f"{words[i]} {words[i + 1]}".lower() if i + 1 < len(words) else ""
        if pair in table:  # "dvacet jedna", "twenty one"
            found.append((f"{words[i]} {words[i + 1]}", table[pair]))
            i += 2
            continue
        value = table.get(words[i].lower())
        if value is not None:
            found.append((words[i], value))
        i += 1
    return found


def _runs(plain: str, table: Mapping[str, int]) -> list[tuple[str, int]]:
    """Numerals written inside text: the longest runs of the table's characters that are numbers."""
    alphabet = "".join(sorted({char for word in table for char in word}))
    found = []
    for match in re.finditer(f"[{re.escape(alphabet)}]+", plain):
        run = match.group(0)
        if run == "十" and plain.startswith("分", match.end()):
            continue  # 十分: enough
        if run in table:
            found.append((run, table[run]))
    return found


def also_words(text: str, lang: str) -> set[int]:
    """The values that words of ``lang`` say without being numerals ("obě", "trojnásobek", 両)."""
    plain = _plain(text)
    if lang == "ja":
        return {value for char, value in _JAPANESE_ALSO.items() if char in plain}
    if lang != "cs":
        return set()
    found = set()
    for word in re.findall(r"[^\W\d_]+", plain.lower()):
        if word in _CZECH_ALSO:
            found.add(_CZECH_ALSO[word])
        found.update(v for prefix, v in _CZECH_MULTIPLE.items() if word.startswith(prefix))
    return found


def word_issues(
    source: str, string: str, lang: str, src_digits: Counter[Decimal], dst_digits: Counter[Decimal]
) -> list[tuple[str, bool]]:
    """Number words changed between ``source`` (English) and ``string`` (in ``lang``).

    Compared by value, as sets, on top of QA's digit comparison (which the
    digits arguments are): a number word of the translation must stand for a
    number the source has (as digits or words), and a cardinal of the source
    ("five", not "first" or "one") should be in the translation as words or
    digits (a warning: it may be rephrased). Counts are not compared: a translation may say a number once where
    English says it twice ("two cubes … the two" as "dvě kostky … obě").
    """
    src_words = english_words(source)
    dst_words = target_words(string, lang)
    in_source = {int(v) for v in src_digits if v == v.to_integral_value()}
    in_source |= {value for _, value in src_words}
    in_translation = {int(v) for v in dst_digits if v == v.to_integral_value()}
    in_translation |= {value for _, value in dst_words} | also_words(string, lang)
    problems: list[tuple[str, bool]] = []
    for value, word in {v: w for w, v in reversed(dst_words)}.items():
        if value not in in_source:
            problems.append((f"the number word '{word}' ({value}) is not in the source", True))
    counted = english_cardinals()
    cardinals = [(w.lower(), v) for w, v in src_words if w.lower() in counted]
    for value, word in {v: w for w, v in reversed(cardinals)}.items():
        if value not in in_translation:
            # a warning: a translation may say it otherwise ("two or more players": "víc hráčů")
            problems.append(
                (f"the number word '{word}' ({value}) is not in the translation", False)
            )
    return problems
