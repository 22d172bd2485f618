"""Shrinking: a known smallest table for a hand-made fact, legality kept, deterministic."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from benchmarks import greedy_shrink

from rulepress.population.sampler import Sampler, draw_states
from rulepress.population.shrink import shrink, size
from tests.conftest import GAMES, loaded
from tests.population.conftest import loaded_tidewater


def rich(state: dict[str, Any]) -> bool:
    """The hand-made fact: some merchant holds at least 5 coins."""
    return any(p.get("coins", 0) >= 5 for p in state["players"])


def test_shrinking_reaches_the_smallest_table_that_shows_the_fact(tmp_path: Path) -> None:
    spec = loaded_tidewater(tmp_path)
    drawn = next(
        s
        for s in draw_states(spec, "final-scoring", seed=4, count=50)
        if rich(s) and len(s["players"]) > 2
    )
    before = copy.deepcopy(drawn)
    small = shrink(spec, "final-scoring", drawn, rich)
    assert drawn == before  # the given state is left as it was
    # two merchants (the fewest the format allows), one with exactly 5 coins, and
    # every other field back to its default
    players = sorted(({k: v for k, v in p.items() if k != "id"} for p in small["players"]), key=len)
    assert players == [{}, {"coins": 5}]
    assert small["table"] == {}
    assert shrink(spec, "final-scoring", drawn, rich) == small  # deterministic


def test_every_shrunk_table_is_legal_and_keeps_the_fact() -> None:
    for game in GAMES:
        spec = loaded(game)
        sampler = Sampler.of(spec, None)
        for state in draw_states(spec, None, seed=8, count=2):
            size = len(state["players"])

            def same_size(s: dict[str, Any], size: int = size) -> bool:
                return len(s["players"]) == size

            small = shrink(spec, None, state, same_size, budget=300)
            assert sampler.legal(copy.deepcopy(small)), (game, small)
            assert same_size(small)


def test_the_budget_bounds_the_checks(tmp_path: Path) -> None:
    spec = loaded_tidewater(tmp_path)
    drawn = next(s for s in draw_states(spec, "final-scoring", seed=4, count=50) if rich(s))
    calls: list[int] = []

    def counted(state: dict[str, Any]) -> bool:
        calls.append(1)
        return rich(state)

    shrink(spec, "final-scoring", drawn, counted, budget=5)
    assert len(calls) <= 5


def ten_apart(state: dict[str, Any]) -> bool:
    """A fact about a relation: two merchants hold coins exactly 10 apart.

    Lowering either merchant's coins alone breaks it; lowering both together keeps it.
    """
    coins = [p.get("coins", 0) for p in state["players"]]
    return any(a - b == 10 for a in coins for b in coins)


def rich_pair(tmp_path: Path) -> tuple[Any, dict[str, Any]]:
    """Tidewater, and a drawn table whose first two merchants hold 40 and 30 coins."""
    spec = loaded_tidewater(tmp_path)
    drawn = next(
        s for s in draw_states(spec, "final-scoring", seed=4, count=50) if len(s["players"]) > 2
    )
    drawn["players"][0]["coins"], drawn["players"][1]["coins"] = 40, 30
    for other in drawn["players"][2:]:
        other["coins"] = 3
    assert Sampler.of(spec, "final-scoring").legal(copy.deepcopy(drawn))
    return spec, drawn


def test_a_relation_between_fields_shrinks_both_together(tmp_path: Path) -> None:
    spec, drawn = rich_pair(tmp_path)
    sampler = Sampler.of(spec, "final-scoring")
    small = shrink(spec, "final-scoring", drawn, ten_apart)
    assert sampler.legal(copy.deepcopy(small))
    assert ten_apart(small)
    # the two merchants, 10 and 0 coins (0 is the default: left out), nothing else
    players = sorted(({k: v for k, v in p.items() if k != "id"} for p in small["players"]), key=len)
    assert players == [{}, {"coins": 10}]
    assert shrink(spec, "final-scoring", drawn, ten_apart) == small  # deterministic
    # the greedy shrinker it replaced stalls with both merchants rich: never smaller than it
    old = greedy_shrink.shrink(spec, "final-scoring", drawn, ten_apart)
    assert max(p.get("coins", 0) for p in old["players"]) >= 30
    assert size(sampler, small) <= size(sampler, old)


@pytest.mark.parametrize("fact", [ten_apart, rich])
def test_each_kept_change_makes_the_state_strictly_smaller(
    tmp_path: Path, fact: Callable[[dict[str, Any]], bool]
) -> None:
    spec, drawn = rich_pair(tmp_path)
    sampler = Sampler.of(spec, "final-scoring")
    kept: list[tuple[int, ...]] = []

    def recorded(state: dict[str, Any]) -> bool:
        if fact(state):  # only legal candidates reach it: one that holds is kept
            kept.append(size(sampler, state))
        return fact(state)

    shrink(spec, "final-scoring", drawn, recorded)
    assert kept
    assert all(b < a for a, b in itertools.pairwise([size(sampler, drawn), *kept]))


def at_least_17(state: dict[str, Any]) -> bool:
    """A fact that an integer's search stops short of its target for: 17 coins or more."""
    return any(p.get("coins", 0) >= 17 for p in state["players"])


@pytest.mark.parametrize("fact", [ten_apart, at_least_17])
def test_the_budget_bounds_the_searches_too(
    tmp_path: Path, fact: Callable[[dict[str, Any]], bool]
) -> None:
    """Every budget, even one that runs out inside a search for an amount, is kept to."""
    spec, drawn = rich_pair(tmp_path)
    calls: list[int] = []

    def counted(state: dict[str, Any]) -> bool:
        calls.append(1)
        return fact(state)

    small = shrink(spec, "final-scoring", drawn, counted)
    assert fact(small)
    unbounded = len(calls)
    for budget in range(1, unbounded):
        calls.clear()
        shrink(spec, "final-scoring", drawn, counted, budget=budget)
        assert 0 < len(calls) <= budget
