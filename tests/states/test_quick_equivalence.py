"""The state check with its quick path accepts exactly what the full check alone accepts.

:func:`~rulepress.states.validation.validate_state` asks the quick path of
each stage first; :func:`~rulepress.states.validation.full_validate_state`
never does. Over every game and sequence, for the population sampler's
drawn states and for those states mutated the ways a hand-written or
generated state goes wrong (a bound crossed, a wrong type, true for an
integer, a float for one, a huge integer, a key missing or unknown, an
item or a player's id given twice, odd unicode in an id or a text), the
two give the same state (records all the way down), the same problems,
and, for a state they accept, the same score.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.population.sampler import draw_states
from rulepress.scoring import score
from rulepress.states.validation import full_validate_state, validate_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import loaded
from tests.properties.strategies import sequence, sequences

SEQUENCES = [pytest.param(g, s, id=f"{g}/{s}") for g, s in sequences()]
#: drawn states per sequence (the sampler's seed is fixed: the same states every run)
DRAWN = 12


@cache
def drawn(game: str, seq_id: str) -> tuple[dict[str, Any], ...]:
    return tuple(draw_states(loaded(game), seq_id, seed=20261206, count=DRAWN))


def shape(value: Any) -> Any:
    """``value`` with the type of every mapping and list in it (a Record or a plain dict)."""
    if isinstance(value, dict):
        return (type(value).__name__, {k: shape(v) for k, v in value.items()})
    if isinstance(value, list):
        return (type(value).__name__, [shape(v) for v in value])
    return (type(value).__name__, value)


def both(game: str, seq_id: str, data: Any) -> tuple[Any, Any]:
    """(quick path, full check alone): each the state's shape and its located problems."""
    spec = loaded(game).spec
    fmt = spec.table_states[sequence(loaded(game), seq_id).state]
    out = []
    for check in (validate_state, full_validate_state):
        state, problems = check(
            fmt, spec.parameters, copy.deepcopy(data), SourceMap(), (), spec.game.id, spec.sets
        )
        found = [(str(p.location), p.where, p.message) for p in problems]
        out.append((shape(state), found, state))
    return out[0], out[1]


def outcome(game: str, seq_id: str, state: dict[str, Any]) -> Any:
    result = score(loaded(game), state, sequence=seq_id)
    winners = result.winners.winners if result.winners is not None else None
    return [(p.id, p.total) for p in result.players], winners


@pytest.mark.parametrize(("game", "seq_id"), SEQUENCES)
def test_drawn_states_are_accepted_alike_and_score_alike(game: str, seq_id: str) -> None:
    for data in drawn(game, seq_id):
        (quick_shape, quick_found, quick_state), (full_shape, full_found, full_state) = both(
            game, seq_id, data
        )
        assert quick_found == full_found == []
        assert quick_shape == full_shape
        assert outcome(game, seq_id, quick_state) == outcome(game, seq_id, full_state)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (the root's own left out), parents before children."""
    out = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            out += _paths(inner, (*path, i))
    return out


def _at(data: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    """The holder of the value at ``path`` in ``data``, and the value's key in it."""
    for part in path[:-1]:
        data = data[part]
    return data, path[-1]


def _is_list_with_items(data: Any, path: tuple[Any, ...]) -> bool:
    holder, key = _at(data, path)
    return isinstance(holder[key], list) and bool(holder[key])


def _replacements(value: Any, ids: list[str]) -> list[Any]:
    """What a mutated state may have instead of ``value``: near it, or of another kind."""
    if isinstance(value, bool):
        return [not value, 0, 1, "true", None, 1.0]
    if isinstance(value, int):
        return [value + 1, value - 1, value + 100, -1, 0, True, False, float(value)]
    if isinstance(value, str):
        odd = ["", "Tomáš", "日本語", "a b", "a\u200eb", "x\ud800", "x" * 40, "a\tb"]
        return [*ids[:2], value + "x", *odd, 1, None]
    if isinstance(value, list):
        more = [*value, *value[:1]] if value else [None]
        return [more, [], value * 5, value[1:], tuple(value), {"0": value}]
    if isinstance(value, dict):
        # ([]: no fields at all, as the arguments of the quick path's call of Record)
        return [{**value, "extra": 1}, dict(list(value.items())[1:]), [value], [], None]
    return [None, 0, "x"]


#: a change: where (a fraction of the paths), which replacement, and what kind of change
MUTATIONS = st.lists(
    st.tuples(
        st.floats(0, 1, exclude_max=True),
        st.integers(0, 15),
        st.sampled_from(["replace", "twin", "again"]),
    ),
    min_size=1,
    max_size=3,
)


def mutated(data: dict[str, Any], changes: list[tuple[float, int, str]]) -> Any:
    """``data`` (a copy) with each change: a value replaced, a player's id made another's,
    or an item of a list given twice."""
    data = copy.deepcopy(data)
    ids = [p["id"] for p in data.get("players", []) if isinstance(p, dict) and "id" in p]
    for where, which, kind in changes:
        players = data.get("players")
        if kind == "twin" and isinstance(players, list) and len(players) > 1 and len(ids) > 1:
            if isinstance(players[-1], dict):
                players[-1]["id"] = ids[0]  # a player's id used twice
            continue
        listed = [p for p in _paths(data) if _is_list_with_items(data, p)]
        if kind == "again" and listed:
            holder, key = _at(data, listed[int(where * len(listed))])
            items = holder[key]
            items.append(copy.deepcopy(items[which % len(items)]))
            continue
        paths = _paths(data)
        if not paths:
            return data
        path = paths[int(where * len(paths))]
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        choices = _replacements(parent[path[-1]], ids)
        parent[path[-1]] = choices[which % len(choices)]
    return data


@pytest.mark.parametrize(("game", "seq_id"), SEQUENCES)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, DRAWN - 1), changes=MUTATIONS)
def test_mutated_states_are_judged_alike(
    game: str, seq_id: str, which: int, changes: list[tuple[float, int, str]]
) -> None:
    data = mutated(drawn(game, seq_id)[which], changes)
    (quick_shape, quick_found, quick_state), (full_shape, full_found, full_state) = both(
        game, seq_id, data
    )
    assert quick_found == full_found
    assert quick_shape == full_shape
    if not quick_found:
        assert outcome(game, seq_id, quick_state) == outcome(game, seq_id, full_state)


@pytest.mark.parametrize(("game", "seq_id"), SEQUENCES)
def test_every_value_of_a_drawn_state_changed_each_way_is_judged_alike(
    game: str, seq_id: str
) -> None:
    """One drawn state, each value in turn replaced by each of its replacements (a list given
    an item twice among them): no rare case is left to chance.

    The values of its first player and its table, and the players list itself
    (the other players are made the same way).
    """
    state = drawn(game, seq_id)[0]
    ids = [p["id"] for p in state["players"]]
    for path in _paths(state):
        if path[:1] == ("players",) and len(path) > 1 and path[1] != 0:
            continue
        holder, key = _at(state, path)
        for replacement in _replacements(holder[key], ids):
            data = copy.deepcopy(state)
            inner, at = _at(data, path)
            inner[at] = replacement
            quick, full = both(game, seq_id, data)
            assert quick[:2] == full[:2], (path, replacement)
