"""Broken specs: every problem reported at once, located, with no traceback.

The cases are data (tests/data/bad_specs.yaml): each edits a fresh copy of a
fixture game in tests/data/specs/ (``base: <game>``; by default ``stationfall``,
a frozen copy of the real spec), never of rules_spec/, so that an edit to the
real spec cannot shift their expected lines; the exact expected stderr sits
beside it in tests/data/bad_specs/<id>.expected.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import DATA, edit, run_main

CASES: list[dict[str, Any]] = yaml.safe_load((DATA / "bad_specs.yaml").read_text(encoding="utf-8"))[
    "cases"
]


def nested_rules(levels: int) -> str:
    """A rules section whose rules nest ``levels`` deep (each two YAML levels)."""
    lines = ["rules:"]
    indent = "  "
    for depth in range(levels):
        lines += [f'{indent}- number: "9{".1" * depth}"', f"{indent}  title: Deep"]
        lines.append(f"{indent}  rules:")
        indent += "    "
    return "\n".join([*lines, indent + "[]"]) + "\n"


def apply(case: dict[str, Any], game_dir: Path) -> None:
    for change in case.get("replace", []):
        edit(game_dir / change["file"], change["old"], change["new"])
    for added in case.get("add", []):
        (game_dir / added["file"]).write_text(added["text"], encoding="utf-8")
    # a file too large to write out in the cases (1,500 lines), made by its recipe
    for made in case.get("generate", []):
        text = nested_rules(made["rules_nested"])
        (game_dir / made["file"]).write_text(text, encoding="utf-8")


def fixture_copy(game: str, tmp_path: Path) -> Path:
    """A copy of the fixture game ``game`` at ``<tmp_path>/rules_spec/<game>``."""
    target = tmp_path / "rules_spec" / game
    shutil.copytree(DATA / "specs" / game, target)
    return target


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_spec_is_reported_exactly(case: dict[str, Any], tmp_path: Path) -> None:
    game = case.get("base", "stationfall")
    game_dir = fixture_copy(game, tmp_path)
    apply(case, game_dir)
    result = run_main("validate", f"rules_spec/{game}", cwd=tmp_path)
    expected = (DATA / "bad_specs" / f"{case['id']}.expected").read_text(encoding="utf-8")
    assert result.code == 3
    assert "Traceback" not in result.err
    assert result.err == expected
    count = expected.rstrip().rsplit(": ", 1)[1].split()[0]
    assert result.out == f"rules_spec/{game}: {count} problem(s)\n"


def test_every_case_has_an_expectation() -> None:
    expected = {p.stem for p in (DATA / "bad_specs").glob("*.expected")}
    assert expected == {c["id"] for c in CASES}


@pytest.mark.parametrize("game", sorted(p.name for p in (DATA / "specs").iterdir()))
def test_the_fixture_game_is_valid(game: str, tmp_path: Path) -> None:
    """Each case breaks what it names, not a fixture that was broken already.

    When a change to rulepress makes the frozen stationfall fail here, refresh it from
    rules_spec/stationfall and the cases' expected lines with it, in one commit.
    """
    fixture_copy(game, tmp_path)
    result = run_main("validate", f"rules_spec/{game}", cwd=tmp_path)
    assert (result.code, result.err) == (0, "")
