"""Bad table states: a located error per problem, exit code 3, never a score.

Each tests/data/bad_states/<game>/<case>.yaml is scored through the real CLI;
the exact expected stderr is <case>.expected beside it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT, run_cli

CASES = sorted((DATA / "bad_states").glob("*/*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_bad_state_is_reported_exactly(path: Path, fmt: str) -> None:
    game = path.parent.name
    result = run_cli("score", game, str(path.relative_to(ROOT)), "--format", fmt)
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
    } <= names
