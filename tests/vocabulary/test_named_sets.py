"""Named sets: a list of ids declared once (``sets:``) and used by name everywhere.

Each bad case edits a copy of the third fixture game (tests/data/specs/harbour)
and expects the exact located line ``rulepress validate`` prints.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulepress.errors import SpecError
from rulepress.games import load_spec
from rulepress.games.schema import state_schema
from rulepress.model.spec_model import Spec
from rulepress.operations.sets import SetsComponent
from tests.conftest import DATA, edit, run_main

GAME = DATA / "specs" / "harbour"


def copy_of(tmp_path: Path) -> Path:
    target = tmp_path / "rules_spec" / "harbour"
    shutil.copytree(GAME, target)
    return target


BAD = [
    (
        "unknown-set-as-kinds",
        [("sequence.yaml", "kinds: sets.goods", "kinds: sets.good")],
        "rules_spec/harbour/sequence.yaml:33:20: sequences[0].steps[1].score.component.kinds:"
        " no set 'good' (sets: goods, harbours)",
    ),
    (
        "unknown-set-in-an-expression",
        [("sequence.yaml", "areas: sets.harbours", "areas: sets.harbors")],
        "rules_spec/harbour/sequence.yaml:20:20: sequences[0].steps[0].score.component.areas:"
        " unknown set sets.harbors (sets: goods, harbours)",
    ),
    (
        "unknown-set-as-choices",
        [("state.yaml", "choices: sets.harbours", "choices: sets.ports")],
        "rules_spec/harbour/state.yaml:24:20:"
        " table_states.harbour-end.players.fields.colour.choices:"
        " no set 'ports' (sets: goods, harbours)",
    ),
    (
        "a-member-without-a-word",
        [("game.yaml", "  silk: Silk\n", "")],
        "rules_spec/harbour/sequence.yaml:33:20: sequences[0].steps[1].score.component.kinds:"
        " sets.goods labels its members with the vocabulary, which has no word for 'silk'",
    ),
    (
        "an-included-set-that-does-not-exist",
        [("game.yaml", "goods: [fish,", "goods: [sets.cargo, fish,")],
        "rules_spec/harbour/game.yaml:38:11: sets.goods[0]: no set 'cargo' (sets: goods, harbours)",
    ),
    (
        "sets-that-include-each-other",
        [
            ("game.yaml", "harbours: [north,", "harbours: [sets.goods, north,"),
            ("game.yaml", "goods: [fish,", "goods: [sets.harbours, fish,"),
        ],
        "rules_spec/harbour/game.yaml:38:11: sets.goods[0]:"
        " the sets include each other: harbours → goods → harbours",
    ),
    (
        "an-id-twice",
        [("game.yaml", "goods: [fish,", "goods: [silk, fish,")],
        "rules_spec/harbour/game.yaml:38:44: sets.goods[5]: 'silk' is in the set twice",
    ),
]


@pytest.mark.parametrize(("edits", "expected"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_wrong_set_name_is_located(
    edits: list[tuple[str, str, str]], expected: str, tmp_path: Path
) -> None:
    game = copy_of(tmp_path)
    for file, old, new in edits:
        edit(game / file, old, new)
    result = run_main("validate", "rules_spec/harbour", cwd=tmp_path)
    assert result.code == 3, result.err
    assert "Traceback" not in result.err
    assert expected in result.err.splitlines(), result.err


def test_sets_include_other_sets_in_order(tmp_path: Path) -> None:
    game = copy_of(tmp_path)
    edit(
        game / "game.yaml",
        "goods: [fish, salt, timber, spice, silk]",
        "goods: [fish, sets.dry, silk]\n  dry: [salt, timber, spice]",
    )
    loaded = load_spec(game)
    kinds = next(
        s.score.component.kinds
        for s in loaded.spec.sequences[0].steps
        if s.score is not None and isinstance(s.score.component, SetsComponent)
    )
    assert list(kinds) == ["fish", "salt", "timber", "spice", "silk"]


def test_a_set_is_resolved_with_the_vocabulary_of_the_spec_being_built() -> None:
    """A translated spec is rebuilt from the dump of the English one (i18n.runtime.localize).

    The dump keeps ``sets.goods`` where it was written, so the labels come from
    the (translated) vocabulary, their one message, not from copies of it.
    """
    spec = load_spec(GAME).spec
    data = spec.model_dump()
    component = data["sequences"][0]["steps"][1]["score"]["component"]
    assert component["kinds"] == "sets.goods"
    assert data["table_states"]["harbour-end"]["players"]["fields"]["colour"]["choices"] == (
        "sets.harbours"
    )
    data["vocabulary"]["fish"] = "Ryba"
    rebuilt = Spec.model_validate(data)
    comp = rebuilt.sequences[0].steps[1].score
    assert comp is not None
    assert isinstance(comp.component, SetsComponent)
    assert comp.component.kinds["fish"] == "Ryba"


def test_choices_from_a_set_are_checked_and_published(tmp_path: Path) -> None:
    loaded = load_spec(GAME)
    schema = state_schema(loaded.spec)
    assert "'enum': ['north', 'east', 'south', 'west']" in str(schema)
    game = copy_of(tmp_path)
    edit(
        game / "examples.yaml",
        "        - id: Cy\n",
        "        - id: Cy\n          colour: harbourside\n",
    )
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    assert any("'harbourside'" in p.message and "north" in p.message for p in caught.value.problems)
