"""The invisible format characters that no writer shows as they are: one list for all.

Specs, catalogs and states are refused at read when they hold a control or a
bidi control (:mod:`rulepress.yamlsrc.reader`, the catalog checks); the writers
are the second line. Besides the C0/C1 controls (each writer treats line breaks
its own way), these characters can reorder or hide what a reader sees without
showing themselves, so a proofreader could not tell that a text carries one:

- the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
  which reorder the text after them (the "Trojan source" trick);
- zero-width and invisible characters that have no use in a rulebook's text:
  ZERO WIDTH SPACE, WORD JOINER and the invisible mathematical operators
  (U+200B, U+2060–U+2064), the deprecated format characters (U+206A–U+206F),
  the byte-order mark (U+FEFF), the interlinear annotation characters
  (U+FFF9–U+FFFB), MONGOLIAN VOWEL SEPARATOR (U+180E) and the tag characters
  (U+E0000–U+E007F), which can smuggle a hidden message.

The site and print show each as U+FFFD; the terminal report as ``<U+XXXX>``
(:mod:`rulepress.render.text_writer`); JSON output as a ``\\uXXXX`` escape
(:func:`json_text`: the same value, visible). Left as text, since some scripts need
them: ZWJ and ZWNJ, the soft hyphen and the bidi *marks* (LRM, RLM, ALM),
which change no order beyond their neighbours (the terminal report still
names the marks).
"""

from __future__ import annotations

import json
import re
from typing import Any

from rulepress.lazy_pattern import LazyPattern

#: the characters above, as the inside of a regular expression's character class
FORMAT_CHARACTERS = (
    "\u180e\u200b\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
)

#: what JSON output writes as ``\uXXXX`` escapes: the C1 controls, the line and paragraph
#: separators, the bidi marks and the characters above (json escapes C0 itself)
_JSON_ESCAPED = LazyPattern(f"[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029{FORMAT_CHARACTERS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # JSON spells a character beyond the BMP as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: Any, **options: Any) -> str:
    """``json.dumps(data, ensure_ascii=False, **options)`` with these characters escaped.

    JSON output is data for programs: a text in it must stay the text the
    template and arguments beside it make, so nothing is replaced. But it is
    also read in terminals and diffs, where a raw override would reorder what
    follows; written as ``\\u202e`` it is the same JSON value, and visible.
    Such a character can only stand inside a JSON string, where an escape
    means the character itself.
    """
    return _JSON_ESCAPED.sub(_escape, json.dumps(data, ensure_ascii=False, **options))
