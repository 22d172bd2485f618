"""The errata sheet PDF of each game and language (issue 16 point 3).

From the session's print build, made with ``since`` = the session's previous
edition (tests/conftest.py). Its fonts are embedded as every PDF's are
(tests/print/test_print_files.py reads every PDF of a game); here, its text.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import OLD_TITLE, PUBLISHED

pytestmark = [pytest.mark.slow, pytest.mark.print]

#: what the Stationfall sheet says in each language: its title, "before", rule 16.4.8's old title
WORDS = {
    "en": ["Changes in this edition", "Before", OLD_TITLE["en"]],
    "cs": ["Změny v\u00a0tomto vydání", "Dříve", OLD_TITLE["cs"]],
    "ja": ["この版の変更点", "変更前", OLD_TITLE["ja"]],
}


def _text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def _flat(text: str) -> str:
    """Runs of white space (a Czech no-break space, a line's end) as one space."""
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_game_has_an_errata_sheet_with_its_fonts(
    built_print: tuple[Path, object], game: str, lang: str
) -> None:
    sheet = built_print[0] / lang / game / "errata-a4.pdf"
    text = _text(sheet)
    assert _flat(WORDS[lang][0]) in _flat(text)
    assert "\ufffd" not in text
    fonts = subprocess.run(
        ["pdffonts", str(sheet)], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    assert fonts
    assert all(row.split()[-5] == "yes" for row in fonts)  # every font embedded
    if lang == "ja":  # Japanese set in a CJK face, not boxes
        assert any("CJK" in row for row in fonts)
    # no pdfx4 variant and no press marks: a player's sheet
    assert not (built_print[0] / lang / game / "errata-a4-pdfx4.pdf").exists()


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_the_stationfall_sheet_shows_the_rule_and_the_cell(
    built_print: tuple[Path, object], lang: str
) -> None:
    text = _text(built_print[0] / lang / "stationfall" / "errata-a4.pdf")
    flat = _flat(text)
    for word in WORDS[lang]:
        assert _flat(word) in flat, word
    assert "16.4.8" in flat
    assert "{" not in flat  # no spec markup left
