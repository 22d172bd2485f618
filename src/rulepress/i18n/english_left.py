"""English left in a translation: a msgstr that is its msgid, or mostly the msgid's words.

A translator who pastes the English, or leaves a sentence of it while
translating the rest, gets no placeholder or number error: everything the
other checks compare is still there. This check reads the msgstr as a reader
would see it (placeholders and link targets out, invisible characters such as
zero-width spaces removed, NFKC-normalised), so that English disguised with a
zero-width space inside each word still reads as English.

A word of the msgstr counts as **English left in** when it is an ASCII word
the msgid also has, and it is none of the words a language keeps in English:

* **kept names**: the game's title and the labels of its vocabulary (faction
  names such as *Komek*), and every Latin word of the language's termbase
  renderings (*Sorelia*, *Prestigious Maneuvers* in Japanese, *data* in
  Czech), given by :func:`rulepress.i18n.terms.terms_for`;
* **names of the message itself**: a word the msgid capitalises in the middle
  of a sentence (a card such as *Reassignment Order*, a player such as
  *Tomas*), unless the msgid is a title in Title Case (no word of four
  letters or more in lower case), where capitals say nothing;
* **printed keywords and acronyms**: a word in capitals (*UA*, *TURN*, *PDF*);
* one-letter words (Czech *a*, *i*, *v*; a ship of Class *I*), and code a
  text names (``foreign_cubes``, ``--variant``).

Why these and not a dictionary of English: the project ships none, and the
words that may stay English are exactly the ones the spec and the termbase
already name. What is left is judged by share: a msgstr with three English
words or more that make up half its words (Japanese counted as one word per
two characters) is an **error**, and so is a msgstr equal to its msgid with
three English words or more. One or two words equal to the English are not
reported: a label such as "Partner" is the same word in Czech, a card keeps
its printed name, and the gate too takes such a msgstr as the translator's
decision to keep the words.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from rulepress.i18n.typography import JAPANESE
from rulepress.i18n.visible import as_seen
from rulepress.model.text import transform

#: how many English words make a finding, and which share of the msgstr's words they must be
_MIN_WORDS = 3
_SHARE = 0.5
#: a word in Latin letters (Czech ones included): Japanese text around it is no part of it
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:['’][A-Za-z\u00c0-\u024f]+)?")
#: Japanese script, and half-width katakana
_WIDE = re.compile(rf"[{JAPANESE}\uff66-\uff9f]")
#: code a text may name (an id such as foreign_cubes, an option such as --variant): no words
_CODE = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|\w+_[\w-]+")
#: where a sentence starts: a capital after these is no sign of a name
_SENTENCE_END = re.compile(r"(?:^|[.!?:;]\s+|\n\s*(?:-\s+)?)$")


def visible(text: str) -> str:
    """``text`` as a reader sees its words: references out, invisible characters out, NFKC.

    A placeholder becomes a space (its value is no word of the translation), a
    glossary link its words; format characters (zero-width spaces and joiners,
    soft hyphens, bidi marks) are dropped, as a reader does not see them.
    """
    plain = transform(text, str, lambda token: token.words or " ")
    # the gate reads pages through the same function (one notion of what a reader sees)
    return " ".join(as_seen(plain).split())


def _names(source: str) -> set[str]:
    """The words ``source`` capitalises inside a sentence (names), unless it is in Title Case."""
    words = list(_WORD.finditer(source))
    # Title Case ("Score of the Council"): only short function words are in lower case
    if not any(w.group(0)[0].islower() and len(w.group(0)) > 3 for w in words):
        return set()
    return {
        w.group(0).casefold()
        for w in words
        if w.group(0)[0].isupper() and not _SENTENCE_END.search(source[: w.start()])
    }


def english_issues(
    source: str, string: str, kept: Collection[str] = frozenset()
) -> list[tuple[str, bool]]:
    """English left in ``string`` (see the module docstring), as ``(message, error)`` pairs.

    ``kept``: the words the language keeps, in lower case (casefolded), as
    :func:`rulepress.i18n.terms.kept_words` gives them.
    """
    shown_source, shown = _CODE.sub(" ", visible(source)), _CODE.sub(" ", visible(string))
    source_words = {w.casefold() for w in _WORD.findall(shown_source)}
    allowed = _names(shown_source)
    words = _WORD.findall(shown)
    english = [
        w
        for w in words
        if w.isascii()
        and len(w) > 1
        and not w.isupper()
        and w.casefold() in source_words
        and w.casefold() not in allowed
        and w.casefold() not in kept
    ]
    if len(english) < _MIN_WORDS:
        # one or two words equal to the English ("Partner", a card's printed name, "US Letter")
        # are the translator's decision, as the gate takes them (see gate.English.kept)
        return []
    if shown.casefold() == shown_source.casefold():
        return [("the translation is the English text", True)]
    units = len(words) + len(_WIDE.findall(shown)) / 2
    if len(english) >= _SHARE * units:
        quoted = ", ".join(dict.fromkeys(english[:6]))
        return [(f"mostly English words left in the translation: {quoted}", True)]
    return []
