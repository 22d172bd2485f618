"""A ``let`` that reads only what every player shares is worked out once per step.

What Stationfall's Institutions hold after Provide Data reads every player's
Data; evaluated per player it made a nine-player table nine times the work
(benchmarks/bench_stationfall_scoring.py). The plan sets such lets apart, the
engine evaluates them once, and a failure among them is still located and
named as a per-player one is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.errors import StateError
from rulepress.games import load_spec
from rulepress.scoring import score
from rulepress.scoring.plan import compile_step
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import edit, loaded
from tests.scoring.players import stationfall_player as player


def agenda_plan(spec_root: Path | None = None) -> tuple[set[str], set[str]]:
    spec = (load_spec(spec_root / "stationfall") if spec_root else loaded("stationfall")).spec
    (seq,) = spec.sequences
    step = next(s for top in seq.steps for s in [top, *top.steps] if s.score and s.score.let)
    plan = compile_step(("sequences", 0), step, {})
    assert plan.score is not None
    return {n for n, _ in plan.score.shared_lets}, {n for n, _ in plan.score.lets}


def test_a_let_over_the_whole_table_is_shared_and_one_over_the_player_is_not(
    spec_copy: Path,
) -> None:
    shared, own = agenda_plan()
    assert shared == {"held_after_data"}
    assert own == set()
    # the same let made to read the player's own agenda is the player's own again
    edit(
        spec_copy / "stationfall" / "sequence.yaml",
        "                  [(h.institution, h.data) for h in table.held_before_data]",
        "                  [(h.institution, h.data) for h in table.held_before_data"
        " if len(agenda) > 0]",
    )
    shared, own = agenda_plan(spec_copy)
    assert (shared, own) == (set(), {"held_after_data"})


def test_a_shared_let_that_fails_is_located_and_names_a_player(spec_copy: Path) -> None:
    edit(
        spec_copy / "stationfall" / "sequence.yaml",
        "                  [(h.institution, h.data) for h in table.held_before_data]",
        "                  [(h.institution, h.data) for h in table.held_before_data]"
        " + [1 // (n_players - len(players))]",
    )
    spec = load_spec(spec_copy / "stationfall")
    state = check_state(spec, {"players": [player("Ada"), player("Bo")]}, SourceMap(), "test")
    with pytest.raises(StateError, match=r"sequence\.yaml:\d+:\d+: .*player Ada: .*division"):
        score(spec, state)
