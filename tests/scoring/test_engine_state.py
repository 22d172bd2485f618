"""The scorer and the table state it is given: shared, never changed, read the same either way.

A validated state's records are shared with the scorer (only the records a
sequence's updates write into are copied), and each player has one
namespace for the whole run; these tests pin what that must not change.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import StateError
from rulepress.expressions.records import Record, owned, plain
from rulepress.games import load_spec
from rulepress.scoring import engine, score
from rulepress.scoring.result import to_json
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import DATA, edit, loaded


def player(pid: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": pid,
        "identity": "Pilot",
        "influence_limit": 2,
        "character": {
            "state": "live",
            "location": "Bridge",
            "data": [{"kind": "evidence", "to": ["authorities"]}],
        },
        "bonus_character": {
            "name": "Boarder",
            "kind": "grudge",
            "symbols": 2,
            "location": "Bridge",
        },
        "guilt": "guilty",
        "agenda": [{"points": 3, "met": True}, {"points": 2, "met": True, "plus": True}],
        "cubes": {"supply": 2, "on_cards": 4, "betrayal_box": 2},
        **extra,
    }


def state() -> dict[str, Any]:
    """Antimatter annihilates every character on the Bridge: the updates write into players."""
    data = {
        "players": [player("ada"), player("boris", guilt="innocent"), player("cyd", agenda=[])],
        "table": {"antimatter": {"armed": True, "location": "Bridge"}},
    }
    return check_state(loaded("stationfall"), data, SourceMap(), "test")


def test_validated_states_are_records_all_the_way_down() -> None:
    def walk(value: Any) -> None:
        if isinstance(value, dict):
            assert type(value) is Record
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(state()["players"])
    walk(state()["table"])


def test_scoring_never_changes_the_state_it_is_given() -> None:
    given = state()
    kept = copy.deepcopy(given)
    first = score(loaded("stationfall"), given)
    assert {e.field for e in first.events} == {"character.state", "bonus_character.state"}
    assert given == kept
    # and so a second run over the same state gives the same result
    assert to_json(score(loaded("stationfall"), given)) == to_json(first)


def test_plain_data_scores_as_its_records_do() -> None:
    given = state()
    as_plain = {"players": plain(given["players"]), "table": plain(given["table"])}
    assert to_json(score(loaded("stationfall"), as_plain)) == to_json(
        score(loaded("stationfall"), given)
    )


def test_a_lines_step_over_no_lines_leaves_no_names_behind() -> None:
    result = score(loaded("stationfall"), state())
    cyd = next(p for p in result.players if p.id == "cyd")
    assert next(line.points for line in cyd.lines) == 0


def test_owned_copies_only_along_the_paths() -> None:
    inner = Record(state="live")
    shared = Record(cubes=4)
    rec = Record(character=inner, cubes=shared)
    out = owned(rec, (("character",),))
    assert out == rec
    assert out is not rec
    assert out["character"] is not inner
    assert out["cubes"] is shared
    plain_out = owned({"character": {"state": "live"}}, ())
    assert type(plain_out) is Record
    assert type(plain_out["character"]) is Record


def test_a_failing_expression_is_located_at_its_step(spec_copy: Path) -> None:
    # The scorer evaluates with one call less and, when that fails, again checked:
    # the error must name the step, the player and the expression, as before.
    edit(
        spec_copy / "stationfall" / "sequence.yaml",
        'value: "line.points * (line.per if line.per is not None else 1)"',
        'value: "line.points // (line.per if line.per is not None else 0)"',
    )
    spec = load_spec(spec_copy / "stationfall")
    data = check_state(spec, {"players": [player("ada"), player("boris")]}, SourceMap(), "t")
    with pytest.raises(StateError) as caught:
        score(spec, data)
    (problem,) = caught.value.problems
    assert problem.where == "step 4a (Agenda)"
    assert problem.message == (
        "player ada: 'line.points // (line.per if line.per is not None else 0)': "
        "column 1: division by zero"
    )
    assert "sequence.yaml" in str(problem.location)


def test_a_failing_let_is_located_too(spec_copy: Path) -> None:
    edit(
        spec_copy / "stationfall" / "sequence.yaml",
        "scoring_symbols: bonus_character.symbols * param.points_per_symbol",
        "scoring_symbols: bonus_character.symbols // (cubes.supply - cubes.supply)",
    )
    spec = load_spec(spec_copy / "stationfall")
    data = check_state(spec, {"players": [player("ada")]}, SourceMap(), "t")
    with pytest.raises(StateError) as caught:
        score(spec, data)
    (problem,) = caught.value.problems
    assert problem.where == "step 4b (Bonus)"
    assert problem.message == (
        "player ada: 'bonus_character.symbols // (cubes.supply - cubes.supply)': "
        "column 1: division by zero"
    )


def test_each_choice_of_rulings_scores_as_its_own() -> None:
    # the plans fold param and ruling into their expressions, one plan per choice
    given = state()
    default = score(loaded("stationfall"), given)
    cubes = score(loaded("stationfall"), given, variants=["cards_only"])
    assert to_json(score(loaded("stationfall"), given)) == to_json(default)
    assert [p.total for p in cubes.players] != [p.total for p in default.players]


def test_a_player_field_named_ruling_is_read_as_the_field() -> None:
    # a player's own field hides the ruling record: nothing may be folded then
    given = state()
    as_plain = {"players": plain(given["players"]), "table": plain(given["table"])}
    variant = score(loaded("stationfall"), given, variants=["cards_only"])
    ruling = plain(variant.variants)
    for p in as_plain["players"]:
        p["ruling"] = {k.replace("-", "_"): v for k, v in ruling.items()}
    hidden = score(loaded("stationfall"), as_plain)
    assert [p.total for p in hidden.players] == [p.total for p in variant.players]


def test_a_question_kept_for_another_spec_is_not_answered_from_it() -> None:
    # the engine keeps each question's sequence and rulings by the spec's id: an id
    # Python gave another spec before must not answer for this one
    spec = loaded("stationfall")
    given = state()
    expected = to_json(score(spec, given))
    other = loaded("brink").spec
    key = (id(spec.spec), given.get("sequence"), ())
    engine._CHOICES[key] = (other, 0, other.sequences[0], {})
    try:
        assert to_json(score(spec, given)) == expected
    finally:
        engine._CHOICES.pop(key, None)


def test_a_name_a_step_binds_over_a_players_field_is_the_field_again_after_it(
    tmp_path: Path,
) -> None:
    # a step whose let is named as a player's field hides the field for that step only:
    # the steps after it read the player's own value
    game = tmp_path / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    shadow = """      - number: "0"
        title: Shadow
        text: Nothing, twice nothing.
        rules: ["1"]
        score:
          id: shadow
          title: Shadow
          let:
            times: "0"
          component:
            op: sum
            parts:
              - when: "True"
                value: points * times
                note: "nothing"
                args: {}
"""
    edit(game / "sequence.yaml", "    steps:\n", "    steps:\n" + shadow)
    spec = load_spec(game)
    players = [{"id": "Ada", "colour": "red", "points": 3, "times": 2}]
    result = score(spec, {"players": players, "table": {}})
    lines = {line.score: line.points for line in result.players[0].lines}
    assert lines == {"shadow": 0, "held": 6}
    assert result.players[0].total == 6
