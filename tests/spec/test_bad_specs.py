"""Broken specs: every problem reported at once, located, with no traceback.

The cases are data (tests/data/bad_specs.yaml): each edits a fresh copy of
the real Stationfall spec; the exact expected stderr sits beside it in
tests/data/bad_specs/<id>.expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import DATA, edit, run_cli

CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "bad_specs.yaml").read_text(encoding="utf-8"))[
    "cases"
]


def apply(case: dict[str, Any], game_dir: Path) -> None:
    for change in case.get("replace", []):
        edit(game_dir / change["file"], change["old"], change["new"])
    for added in case.get("add", []):
        (game_dir / added["file"]).write_text(added["text"], encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_spec_is_reported_exactly(case: dict[str, Any], spec_copy: Path) -> None:
    apply(case, spec_copy / "stationfall")
    result = run_cli("validate", "rules_spec/stationfall", cwd=spec_copy.parent)
    expected = (DATA / "bad_specs" / f"{case['id']}.expected").read_text(encoding="utf-8")
    assert result.code == 3
    assert "Traceback" not in result.err
    assert result.err == expected
    count = expected.rstrip().rsplit(": ", 1)[1].split()[0]
    assert result.out == f"rules_spec/stationfall: {count} problem(s)\n"


def test_every_case_has_an_expectation() -> None:
    expected = {p.stem for p in (DATA / "bad_specs").glob("*.expected")}
    assert expected == {c["id"] for c in CASES}
