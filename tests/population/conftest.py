"""Helpers of the population tests: a copy of the test game Tidewater with its format changed."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulepress.games import LoadedSpec, load_spec
from tests.conftest import DATA

#: the test game beside ours (tests/test_any_game.py): two to four merchants
TIDEWATER = DATA / "specs" / "tidewater"


def tidewater(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    """A copy of Tidewater in ``tmp_path`` with each (old, new) text edit made to its state.yaml."""
    game = tmp_path / "rules_spec" / "tidewater"
    shutil.copytree(TIDEWATER, game)
    state = game / "state.yaml"
    text = state.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    state.write_text(text, encoding="utf-8")
    return game


def loaded_tidewater(tmp_path: Path, *edits: tuple[str, str]) -> LoadedSpec:
    return load_spec(tidewater(tmp_path, *edits))


#: the end sequence's players, as state.yaml writes them (an edit's anchor)
END_PLAYERS = """\
    players:
      min: 2
      max: param:max_players
      fields:
        stalls: {use: quay_stalls, description: The merchant's stalls on each quay.}
        goods:"""
#: the end sequence's goods field, where a test adds fields before it
GOODS = """\
        goods:
          title: Goods"""
#: the end sequence's loans field, down to its max (an edit's anchor)
LOANS = """\
          max: param:max_loans
          default: 0"""
#: the end sequence's coins field, down to its max
COINS = """\
          max: param:bank_coins
          default: 0"""


def with_draw(anchor: str, draw: str) -> tuple[str, str]:
    """An edit giving the field (or players) ``anchor`` ends with the ``draw`` line."""
    lines = anchor.splitlines()
    indent = " " * (len(lines[1]) - len(lines[1].lstrip()))
    return anchor, "\n".join([*lines[:2], f"{indent}draw: {draw}", *lines[2:]])


def with_field(field: str) -> tuple[str, str]:
    """An edit adding ``field`` (one line of YAML) to the end sequence's player fields."""
    return GOODS, f"        {field}\n{GOODS}"
