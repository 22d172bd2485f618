"""Stationfall's totals below zero: the default lets them stand, the variant stops them at zero.

The card takes a point for each cube beyond the Influence Limit and sets no floor
(ruling negative_totals); the variant floor_at_zero is the habit of games that stop
scores at zero. Step 4d is the only step that takes points away, so the variant caps
its loss at the points scored before it, and says so on the line.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulepress.scoring import score
from rulepress.scoring.result import Line, ScoreResult
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import loaded
from tests.scoring.players import stationfall_player as player

#: seven cubes outside the supply against a limit of two: five over, so five points lost
SPREAD = {"influence_limit": 2, "cubes": {"supply": 1, "on_cards": 4, "betrayal_box": 3}}
#: an unused Bribe and an escaped Friend: two points before step 4d
TWO_POINTS: dict[str, Any] = {
    "bribe_unused": True,
    "bonus_character": {"name": "Boarder", "kind": "friend", "symbols": 1, "state": "escaped"},
}


def run(players: list[dict[str, Any]], variants: list[str] | None = None) -> ScoreResult:
    spec = loaded("stationfall")
    state = check_state(spec, {"players": players}, SourceMap(), "test")
    return score(spec, state, variants=variants, cite_rulings=True)


def excess(result: ScoreResult, pid: str) -> tuple[int, Line]:
    found = next(p for p in result.players if p.id == pid)
    return found.total, next(x for x in found.lines if x.score == "excess_influence")


@pytest.mark.parametrize(
    ("extra", "variants", "total", "lost"),
    [
        pytest.param(SPREAD, None, -5, -5, id="default-nothing-before-goes-negative"),
        pytest.param(SPREAD, ["floor_at_zero"], 0, 0, id="floor-nothing-before-stops-at-zero"),
        pytest.param({**SPREAD, **TWO_POINTS}, None, -3, -5, id="default-two-before"),
        pytest.param({**SPREAD, **TWO_POINTS}, ["floor_at_zero"], 0, -2, id="floor-two-before"),
    ],
)
def test_the_floor_caps_the_loss_at_the_points_before_it(
    extra: dict[str, Any], variants: list[str] | None, total: int, lost: int
) -> None:
    got_total, line = excess(run([player("Ada", **extra)], variants), "Ada")
    assert (got_total, line.points) == (total, lost)


def test_the_floor_is_named_where_it_changed_the_line_and_only_there() -> None:
    # Ada goes below zero; Boris loses one point of his three and stays above it
    boris = player(
        "Boris",
        **TWO_POINTS,
        agenda=[{"text": "1 if you are Live", "points": 1, "met": True}],
        influence_limit=4,
        cubes={"supply": 3, "on_cards": 5, "betrayal_box": 0},
    )
    result = run([player("Ada", **SPREAD), boris], ["floor_at_zero"])
    total, line = excess(result, "Ada")
    assert total == 0
    assert "your total stops at zero" in str(line.notes[0])
    assert ("negative_totals", "floor_at_zero") in [(c.ruling, c.option) for c in line.rulings]
    total, line = excess(result, "Boris")
    assert (total, line.points) == (2, -1)
    assert all("stops at zero" not in str(n) for n in line.notes)
    assert "negative_totals" not in [c.ruling for c in line.rulings]
