"""Bidi overrides and other invisible format characters are visible on every output.

One list (:mod:`rulepress.invisible`) for every writer: the site's text nodes and
print's HTML show U+FFFD, the terminal report ``<U+XXXX>``, JSON a ``\\uXXXX``
escape (the same value, so the text still equals what its template makes). The
site's list lacked the bidi overrides (a catalog's U+202E reached the pages raw);
each test goes red when a writer drops a character of the list.
"""

from __future__ import annotations

import json

import pytest

from rulepress.invisible import json_text
from rulepress.render.html_tree import clean_text
from rulepress.render.score_text import visible
from rulepress.sphinx_ext.doctree import _text

#: one of each kind: overrides, embeddings, isolates, zero-width, joiners, BOM, tags
INVISIBLE = [
    "\u202e",  # RIGHT-TO-LEFT OVERRIDE
    "\u202a",  # LEFT-TO-RIGHT EMBEDDING
    "\u2067",  # RIGHT-TO-LEFT ISOLATE
    "\u2069",  # POP DIRECTIONAL ISOLATE
    "\u200b",  # ZERO WIDTH SPACE
    "\u2060",  # WORD JOINER
    "\u206a",  # INHIBIT SYMMETRIC SWAPPING
    "\ufeff",  # BYTE ORDER MARK
    "\ufff9",  # INTERLINEAR ANNOTATION ANCHOR
    "\u180e",  # MONGOLIAN VOWEL SEPARATOR
    "\U000e0041",  # TAG LATIN CAPITAL LETTER A
]
#: text in some script needs these: they pass as they are
KEPT = ["\u200d", "\u200c", "\u00ad", "\u200e"]


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_the_site_shows_u_fffd(char: str) -> None:
    assert _text(f"Score{char} 3", "cs").astext() == "Score\ufffd 3"


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_print_shows_u_fffd(char: str) -> None:
    assert clean_text(f"Score{char} 3") == "Score\ufffd 3"


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_the_terminal_report_names_it(char: str) -> None:
    assert visible(f"Score{char} 3") == f"Score<U+{ord(char):04X}> 3"


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_json_escapes_it_and_keeps_the_value(char: str) -> None:
    data = {"text": f"Score{char} 3", f"id{char}": 1}
    written = json_text(data, indent=2)
    assert char not in written
    assert json.loads(written) == data


@pytest.mark.parametrize("char", KEPT, ids=lambda c: f"U+{ord(c):04X}")
def test_what_scripts_need_is_kept(char: str) -> None:
    assert _text(f"a{char}b").astext() == f"a{char}b"
    assert clean_text(f"a{char}b") == f"a{char}b"
