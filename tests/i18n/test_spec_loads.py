"""A game's spec is loaded once for all the catalog commands' needs, and never kept stale."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulepress.i18n.spec_loads import loaded_spec
from tests.conftest import DATA


def test_a_spec_is_loaded_once_until_a_file_of_it_changes(tmp_path: Path) -> None:
    game = tmp_path / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    first = loaded_spec(game)
    assert loaded_spec(game) is first
    path = game / "game.yaml"
    path.write_text(path.read_text().replace("title: Tiny", "title: Tiny Again"))
    again = loaded_spec(game)
    assert again is not first
    assert again.spec.game.title == "Tiny Again"
