"""Shrinking: a known smallest table for a hand-made fact, legality kept, deterministic."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from rulepress.population.sampler import Sampler, draw_states
from rulepress.population.shrink import shrink
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
