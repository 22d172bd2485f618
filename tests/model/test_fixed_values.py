"""Values that must be one of a fixed set are checked at validate (issue 31, point 4).

A tie rule, a winners rule's choices, a ballot's candidate and route, and an item
use's kind are each one of a set the spec or rulepress fixes. Wherever the spec
tells the value (a quoted text, either side of a conditional, each option of a
ruling it reads), `validate` refuses one outside the set, at the field; only a
value the table state decides is left to scoring. The corpus of bad specs
(tests/data/bad_specs.yaml) holds the tie rule; the tally's fields are in
tests/vocabulary/test_tally_general.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import SPEC_ROOT, edit, run_main


def test_an_item_use_names_one_of_the_kinds(tmp_path: Path) -> None:
    game = tmp_path / "rules_spec" / "brink"
    shutil.copytree(SPEC_ROOT / "brink", game)
    edit(
        game / "sequences.yaml",
        "                  kind: card.colour\n",
        "                  kind: \"card.colour if card.colour != 'grey' else 'purple'\"\n",
    )
    result = run_main("validate", "rules_spec/brink", cwd=tmp_path)
    assert result.code == 3
    assert result.err.splitlines()[:-1] == [
        "rules_spec/brink/sequences.yaml:378:25: sequences[7].steps[2].score.component"
        ".item_uses.uses[0].kind: 'purple' is none of komek, henko, magnomi, ventus"
    ]
