"""A Czech search language for Sphinx: light stemming, diacritics ignored.

Sphinx has no Czech search and silently falls back to English stemming,
which cannot match "kostky" to "kostka". This language folds diacritics
(so "zrady" finds "zrády" and a reader without a Czech keyboard finds
"úplatek" by typing "uplatek"), lower-cases, and strips the commonest case
and number endings, conservatively. The JavaScript stemmer applies exactly
the same steps to what the reader types; a test keeps the two in step.
"""

from __future__ import annotations

import unicodedata

from sphinx.search import SearchLanguage

#: endings stripped, longest first; a stem keeps at least MIN_STEM letters
ENDINGS = (
    "atech",
    "ovych",
    "ovymi",
    "emi",
    "ech",
    "ich",
    "ych",
    "ami",
    "ove",
    "ovi",
    "ova",
    "ost",
    "ou",
    "em",
    "ym",
    "im",
    "om",
    "um",
    "ech",
    "a",
    "e",
    "i",
    "o",
    "u",
    "y",
)
MIN_STEM = 3
STOPWORDS = frozenset(
    [
        "a",
        "aby",
        "ale",
        "ani",
        "ano",
        "az",
        "bez",
        "by",
        "byl",
        "byla",
        "byli",
        "bylo",
        "co",
        "do",
        "i",
        "jak",
        "jako",
        "je",
        "jeho",
        "jej",
        "jen",
        "jsou",
        "k",
        "kde",
        "kdyz",
        "ktery",
        "ktera",
        "ktere",
        "na",
        "nad",
        "ne",
        "nebo",
        "neni",
        "o",
        "od",
        "po",
        "pod",
        "pokud",
        "pro",
        "pri",
        "s",
        "se",
        "si",
        "ta",
        "tak",
        "take",
        "tato",
        "ten",
        "tento",
        "to",
        "tu",
        "u",
        "uz",
        "v",
        "ve",
        "z",
        "za",
        "ze",
    ]
)


def fold(word: str) -> str:
    """Lower case without diacritics."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def stem(word: str) -> str:
    folded = fold(word)
    for ending in sorted(ENDINGS, key=len, reverse=True):
        if folded.endswith(ending) and len(folded) - len(ending) >= MIN_STEM:
            return folded[: -len(ending)]
    return folded


_JS_ENDINGS = ", ".join(f'"{e}"' for e in sorted(ENDINGS, key=len, reverse=True))

JS_STEMMER = """
var Stemmer = function () {
  var endings = [ENDINGS];
  this.stemWord = function (w) {
    var folded = w.toLowerCase().normalize("NFD").replace(/[\\u0300-\\u036f]/g, "");
    for (var i = 0; i < endings.length; i++) {
      var e = endings[i];
      if (folded.length - e.length >= MIN && folded.slice(-e.length) === e) {
        return folded.slice(0, folded.length - e.length);
      }
    }
    return folded;
  };
};
""".replace("ENDINGS", _JS_ENDINGS).replace("MIN", str(MIN_STEM))


class SearchCzech(SearchLanguage):
    lang = "cs"
    language_name = "Czech"
    js_stemmer_code = JS_STEMMER
    stopwords = STOPWORDS

    def stem(self, word: str) -> str:
        return stem(word)

    def word_filter(self, word: str) -> bool:
        return len(word) > 1 and not word.isdigit() and word not in STOPWORDS
