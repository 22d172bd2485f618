"""Bad catalogs: every problem located as file.po:line: msgctxt: problem, never a crash.

Each tests/data/bad_catalogs/<domain>.<case>.po is checked through the real CLI
(its name gives the domain, its header the language); the exact expected
stderr is <case>.expected beside it. Files that must pass have an empty one.
A catalog that cannot be read safely (bad syntax or header) is refused while
reading, with every problem located as file.po:line:col: header: problem;
QA then marks the findings that make a build refuse a catalog "unsafe: ".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT, run_main

CASES = sorted((DATA / "bad_catalogs").glob("*.po"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_bad_catalog_is_reported_exactly(path: Path) -> None:
    result = run_main("i18n", "check", str(path.relative_to(ROOT)))
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert "Traceback" not in result.err
    assert result.err == expected
    assert result.code == (5 if expected else 0)


def test_locale_aware_numbers_pass() -> None:
    """Czech 0,5 / 1 000 / 12 345,5 and Japanese full-width １２ equal the English numbers."""
    for name in ("stationfall.numbers-cs.po", "stationfall.numbers-ja.po"):
        err = run_main("i18n", "check", str((DATA / "bad_catalogs" / name).relative_to(ROOT))).err
        assert "x/decimal" not in err
        assert "x/fullwidth" not in err
        assert "x/wrong" in err


# Refusal of unsafe catalogs by the builds and the scorer: tests/i18n/test_catalog_safety.py


def test_japanese_writes_number_words_as_digits() -> None:
    """ja: "three rounds" may be 3ラウンド (ASCII or full-width), "first and second" 1位と2位."""
    path = DATA / "bad_catalogs" / "stationfall.number-words-ja.po"
    result = run_main("i18n", "check", str(path.relative_to(ROOT)))
    assert result.err == ""
    assert result.code == 0


def test_number_words_are_counted_not_guessed() -> None:
    """The English number words and their values; "a"/"an" and words that merely contain one are none."""
    from decimal import Decimal

    from rulepress.i18n.qa import number_words

    assert number_words("Two players, the first of three; once or twice.") == {
        Decimal(2): 2,
        Decimal(1): 2,
        Decimal(3): 1,
    }
    assert number_words("Twenty-one cubes, the twenty-first round.") == {Decimal(21): 2}
    # month names are numbers when capitalised: "may" is a verb, "July 2024" is 2024年7月
    assert number_words("You may score in July 2024.") == {Decimal(7): 1}
    assert number_words("Take a cube from an often-used hex; none, someone, tone.") == {}
    # the words of a glossary link count, its target and placeholders do not
    assert number_words("[two Bribes](term:one) {param:three}") == {Decimal(2): 1}


def test_czech_keeps_digits_to_the_msgid() -> None:
    """cs spells small counts as English does, so a digit for "three" stays an error there."""
    err = run_main(
        "i18n",
        "check",
        str((DATA / "bad_catalogs" / "stationfall.number-words-cs.po").relative_to(ROOT)),
    ).err
    assert "x/czech-spells-words" not in err
    assert "x/czech-keeps-its-rule: the number 3 is not in the source" in err
