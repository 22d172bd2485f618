"""The optimal set grouping against brute force, on many small cases and value tables."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from rulepress.scoring.grouping import best_grouping

BRINK = {1: 2, 2: 5, 3: 10, 4: 18}
FLAT = {1: 5, 2: 6, 3: 7, 4: 8}  # concave: many small sets beat a few large ones
LUMPY = {1: 1, 2: 7, 3: 7, 4: 12}


def brute_force(counts: tuple[int, ...], wild: int, values: dict[int, int]) -> int:
    kinds = len(counts)

    @cache
    def best(left: tuple[int, ...], wilds: int) -> int:
        if sum(left) + wilds == 0:
            return 0
        result = -1
        for size in range(1, kinds + 1):
            for subset in itertools.combinations(range(kinds), size):
                if any(left[i] == 0 for i in subset):
                    continue
                rest = tuple(c - 1 if i in subset else c for i, c in enumerate(left))
                for extra in range(min(wilds, kinds - size) + 1):
                    result = max(result, values[size + extra] + best(rest, wilds - extra))
        for extra in range(1, min(wilds, kinds) + 1):  # a set of wilds only
            result = max(result, values[extra] + best(left, wilds - extra))
        return result

    return best(counts, wild)


@pytest.mark.parametrize("values", [BRINK, FLAT, LUMPY], ids=["brink", "flat", "lumpy"])
def test_matches_brute_force(values: dict[int, int]) -> None:
    rng = random.Random(20261130)
    for _ in range(150):
        counts = tuple(rng.randint(0, 4) for _ in range(4))
        wild = rng.randint(0, 4)
        total, groups = best_grouping(dict(zip("khmv", counts, strict=True)), wild, values)
        assert total == brute_force(counts, wild, values), (counts, wild)
        # the grouping shown is a real grouping worth that total
        assert sum(values[g.size] for g in groups) == total
        for kind, count in zip("khmv", counts, strict=True):
            assert sum(kind in g.kinds for g in groups) == count
        assert sum(len(g.wilds) for g in groups) == wild
        for g in groups:
            assert len(set(g.kinds) | set(g.wilds)) == g.size  # distinct kinds per set


def test_large_hand_stays_exact() -> None:
    total, groups = best_grouping({"k": 10, "h": 8, "m": 5, "v": 2}, 15, BRINK)
    assert len(groups) == 10
    assert total == 10 * 18  # forty ambassadors make ten full sets
