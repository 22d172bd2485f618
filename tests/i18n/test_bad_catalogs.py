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

from tests.conftest import DATA, ROOT, run_cli

CASES = sorted((DATA / "bad_catalogs").glob("*.po"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_bad_catalog_is_reported_exactly(path: Path) -> None:
    result = run_cli("i18n", "check", str(path.relative_to(ROOT)))
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert "Traceback" not in result.err
    assert result.err == expected
    assert result.code == (5 if expected else 0)


def test_locale_aware_numbers_pass() -> None:
    """Czech 0,5 / 1 000 / 12 345,5 and Japanese full-width １２ equal the English numbers."""
    for name in ("stationfall.numbers-cs.po", "stationfall.numbers-ja.po"):
        err = run_cli("i18n", "check", str((DATA / "bad_catalogs" / name).relative_to(ROOT))).err
        assert "x/decimal" not in err
        assert "x/fullwidth" not in err
        assert "x/wrong" in err


# Refusal of unsafe catalogs by the builds and the scorer: tests/i18n/test_catalog_safety.py
