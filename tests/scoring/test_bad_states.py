"""Bad table states: a located error per problem, exit code 3, never a score.

Each tests/data/bad_states/<game>/<case>.yaml is scored through the real CLI;
the exact expected stderr is <case>.expected beside it. A game that is a test
fixture (tests/data/specs/<game>, not a real spec) is found with --spec-root.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT, run_main

CASES = sorted((DATA / "bad_states").glob("*/*.yaml"))
FIXTURES = DATA / "specs"


def spec_root(game: str) -> list[str]:
    """The option that finds ``game``: none for a real game, the fixtures' folder for one."""
    if (FIXTURES / game).is_dir():
        return ["--spec-root", str(FIXTURES.relative_to(ROOT))]
    return []


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_bad_state_is_reported_exactly(path: Path, fmt: str) -> None:
    game = path.parent.name
    result = run_main("score", game, str(path.relative_to(ROOT)), "--format", fmt, *spec_root(game))
    assert result.code == 4
    assert result.out == ""
    assert "Traceback" not in result.err
    assert result.err == path.with_suffix(".expected").read_text(encoding="utf-8")


def test_the_issue_cases_are_all_covered() -> None:
    names = {f"{p.parent.name}/{p.stem}" for p in CASES}
    assert {
        "stationfall/unknown-fields",
        "stationfall/negative-counts",
        "stationfall/ten-players",
        "stationfall/unknown-player-reference",
        "stationfall/cubes-do-not-add-up",
        "brink/vote-for-unknown-faction",
        "brink/ua-rider-target",
        "brink/more-cubes-voted-than-held",
        "brink/negative-counts",
        "brink/council-track-missing",
        # issue 13: numbers and text
        "stationfall/integers-beyond-the-bound",
        "stationfall/integer-of-5000-digits",
        "tiny/product-beyond-the-bound",
        "stationfall/player-ids-not-ids",
        "stationfall/raw-control-characters",
        "stationfall/escaped-control-characters",
        "stationfall/forged-report-lines",
        "stationfall/texts-on-one-line",
    } <= names


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_31_digit_number_in_czech_is_a_located_error(fmt: str) -> None:
    """Babel's Czech number formatting raised decimal.InvalidOperation on such a number."""
    path = DATA / "bad_states" / "stationfall" / "integers-beyond-the-bound.yaml"
    args = ("score", "stationfall", str(path.relative_to(ROOT)), "--lang", "cs", "--format", fmt)
    result = run_main(*args)
    assert result.code == 4
    assert "Traceback" not in result.err
    assert result.err == path.with_suffix(".expected").read_text(encoding="utf-8")
