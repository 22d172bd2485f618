"""Properties of the scorer over generated table states, for every sequence of every game.

States are drawn from each sequence's state format (see strategies.py) and
made to meet its cross-field constraints. For each:

- scoring is deterministic: the same state gives the same result, twice on one
  engine and once on a second, freshly loaded spec;
- nothing depends on the order the players are listed in;
- the leader stays ahead when given more points;
- the JSON form round-trips, through the result's own schema;
- Stationfall's totals and winners agree with the hand-written scorer of
  benchmarks/bench_stationfall_scoring.py (an independent implementation),
  under each reading of who provides Data in step 3 (ruling data_providers).

The number of examples comes from the hypothesis profile (tests/conftest.py).
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from rulepress.errors import StateError
from rulepress.games import LoadedSpec, load_spec
from rulepress.scoring import score
from rulepress.scoring.result import ScoreResult, json_schema, to_data, to_json
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import ROOT, SPEC_ROOT, loaded
from tests.properties.strategies import raw_states, sequence, sequences, valid

CASES = [pytest.param(game, seq, id=f"{game}/{seq}") for game, seq in sequences()]

_fresh: dict[str, LoadedSpec] = {}


def fresh(game: str) -> LoadedSpec:
    """A second load of the spec: its own model objects, so none of the engine's caches."""
    if game not in _fresh:
        _fresh[game] = load_spec(SPEC_ROOT / game)
    return _fresh[game]


def drawn(data: st.DataObject, game: str, seq_id: str) -> tuple[LoadedSpec, dict[str, Any]]:
    """A valid table state of ``seq_id`` (plain data, not yet checked)."""
    spec = loaded(game)
    seq = sequence(spec, seq_id)
    state = valid(spec, seq, data.draw(raw_states(spec, seq), label="state"))
    assume(state is not None)
    assert state is not None
    return spec, state


def run(spec: LoadedSpec, state: dict[str, Any]) -> ScoreResult:
    return score(spec, check_state(spec, copy.deepcopy(state), SourceMap(), "drawn"))


def per_player(result: ScoreResult) -> dict[str, Any]:
    """What each player got: total, eligibility and every line's points, by player id."""
    return {
        p.id: (p.total, p.eligible, [(line.score, line.points, line.breakdown) for line in p.lines])
        for p in result.players
    }


def outcome(result: ScoreResult) -> Any:
    """What a vote or the game decided, in no particular order of players."""
    tallies = [(t.id, t.totals, sorted(t.winners), t.flows) for t in result.tallies]
    won = sorted(result.winners.winners) if result.winners else None
    return tallies, won


@pytest.mark.parametrize(("game", "seq_id"), CASES)
@given(data=st.data())
def test_scoring_is_deterministic(game: str, seq_id: str, data: st.DataObject) -> None:
    spec, state = drawn(data, game, seq_id)
    checked = check_state(spec, copy.deepcopy(state), SourceMap(), "drawn")
    first = to_data(score(spec, checked))
    assert to_data(score(spec, checked)) == first  # scoring changed nothing it was given
    assert to_data(run(spec, state)) == first
    assert to_data(run(fresh(game), state)) == first


@pytest.mark.parametrize(("game", "seq_id"), CASES)
@given(data=st.data())
def test_nothing_depends_on_the_order_of_the_players(
    game: str, seq_id: str, data: st.DataObject
) -> None:
    spec, state = drawn(data, game, seq_id)
    order = data.draw(st.permutations(range(len(state["players"]))), label="order")
    shuffled = {**state, "players": [state["players"][i] for i in order]}
    before, after = run(spec, state), run(spec, shuffled)
    assert per_player(after) == per_player(before)
    assert outcome(after) == outcome(before)
    assert [p.id for p in after.players] == [p["id"] for p in shuffled["players"]]


def _more_other_prestige(player: dict[str, Any], points: int) -> bool:
    # Brink: "prestige gained during play in any other way" is added as it is (step 1)
    room = 500 - player.get("other_prestige", 0)
    if room < points:
        return False
    player["other_prestige"] = player.get("other_prestige", 0) + points
    return True


def _another_agenda_line(player: dict[str, Any], points: int) -> bool:
    # Stationfall: a satisfied line with no "+" and no Possession scores its points (4a);
    # added last, it is no other line's base
    agenda = player.setdefault("agenda", [])
    if len(agenda) >= 12 or points > 20:
        return False
    agenda.append({"points": points, "met": True})
    return True


#: per sequence with a winner: how to give one player more points and nothing else
MORE_POINTS: dict[tuple[str, str], Callable[[dict[str, Any], int], bool]] = {
    ("brink", "end-of-game"): _more_other_prestige,
    ("stationfall", "stationfall-sequence"): _another_agenda_line,
}


def sequences_with_a_winner() -> set[tuple[str, str]]:
    """(game, sequence) of every sequence that names a winner.

    Which field gives a player more points and nothing else is a fact of each game:
    MORE_POINTS knows it for ours, and tests/test_our_games.py checks it covers every
    such sequence of theirs (a designer's game is not listed, and needs not be).
    """
    return {
        (game, seq.id)
        for game, seq_id in sequences()
        for seq in [sequence(loaded(game), seq_id)]
        if any(step.winners for step in _steps(seq.steps))
    }


def _steps(steps: list[Any]) -> list[Any]:
    return [s for step in steps for s in [step, *_steps(step.steps)]]


@pytest.mark.parametrize(
    ("game", "seq_id"), [pytest.param(g, s, id=f"{g}/{s}") for g, s in MORE_POINTS]
)
@given(data=st.data(), points=st.integers(1, 20))
def test_the_leader_stays_ahead_with_more_points(
    game: str, seq_id: str, data: st.DataObject, points: int
) -> None:
    spec, state = drawn(data, game, seq_id)
    before = run(spec, state)
    assert before.winners is not None
    assume(before.winners.winners)
    leader = data.draw(st.sampled_from(before.winners.winners), label="leader")
    richer = copy.deepcopy(state)
    player = next(p for p in richer["players"] if p["id"] == leader)
    assume(MORE_POINTS[game, seq_id](player, points))
    after = run(spec, richer)
    assert after.winners is not None
    old = {p.id: p.total for p in before.players}
    new = {p.id: p.total for p in after.players}
    assert new == {**old, leader: old[leader] + points}  # only the leader's total moved
    assert leader in after.winners.winners
    assert set(after.winners.winners) <= set(before.winners.winners)


_RESULT = TypeAdapter(ScoreResult)
_SCHEMA = jsonschema.Draft202012Validator(json_schema())


@pytest.mark.parametrize(("game", "seq_id"), CASES)
@given(data=st.data())
def test_the_json_form_round_trips(game: str, seq_id: str, data: st.DataObject) -> None:
    spec, state = drawn(data, game, seq_id)
    result = run(spec, state)
    text = to_json(result)
    parsed = json.loads(text)
    assert parsed == json.loads(json.dumps(to_data(result)))
    _SCHEMA.validate(parsed)
    # read back into the result's own types, it writes the same JSON
    assert to_json(_RESULT.validate_python(parsed)) == text


def _bench() -> ModuleType:
    """benchmarks/bench_stationfall_scoring.py: its hand-written Stationfall scorer
    (default rulings, but for data_providers, whose option it takes) and its states."""
    folder = str(ROOT / "benchmarks")
    sys.path.insert(0, folder)  # the benchmark imports its neighbours by name
    try:
        return importlib.import_module("bench_stationfall_scoring")
    finally:
        sys.path.remove(folder)


def _agree_under_a_reading_of_data_providers(
    data: st.DataObject, spec: LoadedSpec, checked: dict[str, Any]
) -> None:
    # every reading the spec offers of who provides Data in step 3, the default among
    # them: an option the hand-written scorer has not learnt fails here
    (ruling,) = [r for r in spec.spec.rulings if r.id == "data_providers"]
    option = data.draw(st.sampled_from([o.id for o in ruling.options]), label="data_providers")
    result = score(spec, checked, variants=[] if option == ruling.default else [option])
    totals, winners = _bench().baseline_score(checked, option)
    assert {p.id: p.total for p in result.players} == totals
    assert result.winners is not None
    assert sorted(result.winners.winners) == sorted(winners)


@given(data=st.data())
def test_stationfall_agrees_with_the_hand_written_scorer(data: st.DataObject) -> None:
    spec, state = drawn(data, "stationfall", loaded("stationfall").spec.scorer.sequence)
    # what the hand-written scorer leaves out: the Antimatter (step 1)
    state["table"].pop("antimatter", None)
    checked = check_state(spec, copy.deepcopy(state), SourceMap(), "drawn")
    _agree_under_a_reading_of_data_providers(data, spec, checked)


@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=9),
    data=st.data(),
)
def test_stationfall_agrees_with_the_hand_written_scorer_on_its_own_states(
    seed: int, players: int, data: st.DataObject
) -> None:
    # The states drawn from the format meet "met or held_after_data" with met alone, so
    # no line there asks what the Institutions hold after step 3; the benchmark's states
    # have such lines and Offsite characters giving Data, where the readings differ
    spec = loaded("stationfall")
    raw = _bench().generate_state(random.Random(seed), players)
    checked = check_state(spec, raw, SourceMap(), "generated")
    _agree_under_a_reading_of_data_providers(data, spec, checked)


def test_an_omitted_list_needs_its_items() -> None:
    # found by the generated states: a list left out of a record was an empty list that
    # passed the check, and the scorer then blamed the spec for the missing tie order
    spec = loaded("brink")
    state = {
        "sequence": "council-vote",
        "players": [{"id": "a"}],
        "table": {"round": 1, "council_track": [{"round": 1, "first": 5, "second": 3}]},
    }
    with pytest.raises(StateError, match=r"missing field 'tie_order' \(a list of at least 4"):
        check_state(spec, state, SourceMap(), "no-tie-order")
