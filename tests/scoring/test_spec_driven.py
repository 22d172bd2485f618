"""No scoring value, order or table lives in Python: editing the spec changes the answer.

Each test scores the same table state twice, with the real spec and with an
edited copy, and shows the scorer follows the edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rulepress.games import LoadedSpec, load_spec
from rulepress.scoring import score
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import edit, loaded


def player(pid: str, points: int, *, box: int = 0, supply: int = 8, **extra: Any) -> dict[str, Any]:
    return {
        "id": pid,
        "identity": "Pilot",
        "influence_limit": 8,
        "bonus_character": {"name": "Boarder", "kind": "friend", "symbols": 1},
        "agenda": [{"points": points, "met": True}],
        "cubes": {"supply": supply, "on_cards": 8 - supply - box, "betrayal_box": box},
        **extra,
    }


def run(spec: LoadedSpec, players: list[dict[str, Any]], **kw: Any) -> Any:
    state = check_state(spec, {"players": players}, SourceMap(), "test")
    return score(spec, state, **kw)


SIX = [player(f"p{i}", points) for i, points in enumerate([9, 8, 7, 6, 5, 4])]


def test_winner_count_comes_from_the_spec_table(spec_copy: Path) -> None:
    before = run(loaded("stationfall"), SIX)
    assert before.winners is not None
    assert before.winners.winners == ["p0", "p1"]
    edit(
        spec_copy / "stationfall" / "tables.yaml",
        "{min: 6, max: 8, value: 2,",
        "{min: 6, max: 8, value: 3,",
    )
    after = run(load_spec(spec_copy / "stationfall"), SIX)
    assert after.winners is not None
    assert after.winners.places == 3
    assert after.winners.winners == ["p0", "p1", "p2"]


def test_tie_break_criteria_come_from_the_spec(spec_copy: Path) -> None:
    tied = [player("ada", 5, box=2, supply=6), player("boris", 5, box=0, supply=1)]
    before = run(loaded("stationfall"), tied)
    assert before.winners is not None
    assert (before.winners.winners, before.winners.decided_by) == (
        ["boris"],
        "fewest-betrayal-cubes",
    )
    # swap the two tie-breaks: unused cubes first
    path = spec_copy / "stationfall" / "sequence.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    criteria = data["sequences"][0]["steps"][5]["winners"]["criteria"]
    criteria[1], criteria[2] = criteria[2], criteria[1]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    after = run(load_spec(spec_copy / "stationfall"), tied)
    assert after.winners is not None
    assert (after.winners.winners, after.winners.decided_by) == (["ada"], "most-unused-cubes")


def test_point_values_come_from_parameters(spec_copy: Path) -> None:
    bribed = [player("ada", 0, bribe_unused=True, foreign_bribes=["boris"]), player("boris", 0)]
    before = run(loaded("stationfall"), bribed)
    assert before.players[0].total == 2
    params = spec_copy / "stationfall" / "parameters.yaml"
    edit(params, "  unused_bribe_points:\n    value: 1", "  unused_bribe_points:\n    value: 3")
    after = run(load_spec(spec_copy / "stationfall"), bribed)
    assert after.players[0].total == 4


def test_step_order_comes_from_the_sequence(spec_copy: Path) -> None:
    """Moving Provide Data after the winner step means Evidence no longer saves a Guilty player."""
    guilty = player(
        "ada",
        9,
        guilt="guilty",
        character={"state": "escaped", "data": [{"kind": "evidence", "to": ["authorities"]}]},
    )
    players = [guilty, player("boris", 3)]
    before = run(loaded("stationfall"), players)
    assert before.winners is not None
    assert before.winners.winners == ["ada"]
    path = spec_copy / "stationfall" / "sequence.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    steps = data["sequences"][0]["steps"]
    data_step = steps.pop(3)
    data_step["number"] = "6"
    steps.append(data_step)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    after = run(load_spec(spec_copy / "stationfall"), players)
    assert after.winners is not None
    assert after.winners.winners == ["boris"]


def test_record_defaults_get_their_optional_fields() -> None:
    """A player with no `character` entry still has a location (None) for Antimatter."""
    players = [player("ada", 2), player("boris", 1)]
    players[1]["bonus_character"] = {
        "name": "Medical",
        "kind": "grudge",
        "symbols": 1,
        "location": "Lab",
    }
    spec = loaded("stationfall")
    state = check_state(
        spec,
        {"players": players, "table": {"antimatter": {"armed": True, "location": "Lab"}}},
        SourceMap(),
        "t",
    )
    result = score(spec, state)
    assert [e.player for e in result.events] == ["boris"]
    assert result.events[0].after == "annihilated"
    assert result.players[1].lines[1].points == 1  # the annihilated Grudge scores (default ruling)
