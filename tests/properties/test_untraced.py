"""Scoring without a trace gives what scoring with one does, but the notes and tie-breaks.

``score(..., trace=False)`` is the scorer of batches (many tables, the outcome
read): it makes no line notes, skips what only they show, and makes no rows of
the winners' tie-break trace (the result says so: ``traced`` is False).
Everything else in the result (points, breakdowns, totals, events, votes,
ranks, winners, what decided them and the winners' sentences) must be exactly
the traced result's, for every sequence of every game, under any choice of
rulings.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from rulepress.errors import StateError
from rulepress.games import LoadedSpec
from rulepress.scoring import score
from rulepress.scoring.result import ScoreResult, to_data
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import loaded
from tests.properties.test_scoring_properties import CASES, _bench, drawn


def _rulings(data: st.DataObject, spec: LoadedSpec) -> list[str]:
    """One option of each ruling, drawn (the defaults among them)."""
    return [
        data.draw(st.sampled_from([o.id for o in r.options]), label=r.id) for r in spec.spec.rulings
    ]


def _untraced(result: ScoreResult) -> dict[str, Any]:
    """The traced ``result`` as data, less what an untraced run leaves out."""
    assert result.traced
    out = to_data(result)
    for player in out["players"]:
        for line in player["lines"]:
            line["notes"] = []
    if out["winners"] is not None:
        out["winners"]["trace"] = []
    out["traced"] = False
    return out


def _agree(spec: LoadedSpec, state: dict[str, Any], variants: list[str]) -> None:
    checked = check_state(spec, copy.deepcopy(state), SourceMap(), "drawn")
    try:
        traced = score(spec, checked, variants=variants)
    except StateError:
        reject()  # a state this choice of rulings cannot score: nothing to compare
    lean = score(spec, checked, variants=variants, trace=False)
    assert all(not line.notes for p in lean.players for line in p.lines)
    assert lean.winners is None or not lean.winners.trace
    assert to_data(lean) == _untraced(traced)


@pytest.mark.parametrize(("game", "seq_id"), CASES)
@given(data=st.data())
def test_scoring_without_a_trace_gives_the_same_outcome(
    game: str, seq_id: str, data: st.DataObject
) -> None:
    spec, state = drawn(data, game, seq_id)
    _agree(spec, state, _rulings(data, spec))


@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=9),
    data=st.data(),
)
def test_stationfall_without_a_trace_on_the_benchmarks_states(
    seed: int, players: int, data: st.DataObject
) -> None:
    # the states drawn from the format have no line about what the Institutions hold
    # after step 3, nor Offsite characters giving Data: the benchmark's have both
    spec = loaded("stationfall")
    state = _bench().generate_state(random.Random(seed), players)
    _agree(spec, state, _rulings(data, spec))
