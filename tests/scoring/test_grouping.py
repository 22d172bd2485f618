"""The optimal set grouping against brute force, on many small cases and value tables."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import cache

import pytest

from rulepress.scoring.grouping import best_grouping, groupings

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


def test_the_largest_brink_state_stays_polynomial(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the most ambassadors the Brink state format allows, the search is counted, not timed.

    The size vectors are the partitions of N units into parts of at most K = 4:
    never more than (N//2 + 1)(N//3 + 1)(N//4 + 1), a cubic in N, and N itself
    is bounded by the state format (every colour, Sorelia included, at most
    ``ambassadors_per_colour_limit``).
    """
    from rulepress.scoring import grouping
    from tests.conftest import loaded

    spec = loaded("brink").spec
    limit = spec.parameters["ambassadors_per_colour_limit"].value
    ambassadors = spec.table_states["end-of-game"].players.fields["ambassadors"]
    assert {f.max for f in ambassadors.fields.values()} == {"param:ambassadors_per_colour_limit"}
    enumerated = [0]
    original = grouping._size_vectors

    def counted(total: int, largest: int) -> Iterator[dict[int, int]]:
        for vector in original(total, largest):
            enumerated[0] += 1
            yield vector

    monkeypatch.setattr(grouping, "_size_vectors", counted)
    counts = dict.fromkeys("khmv", limit)
    total, groups = best_grouping(counts, limit, BRINK)
    units = 5 * limit
    assert total == units // 4 * BRINK[4]  # every unit in a full set of four
    assert len(groups) == units // 4
    assert 0 < enumerated[0] <= (units // 2 + 1) * (units // 3 + 1) * (units // 4 + 1)


def brute_force_sizes(counts: tuple[int, ...], wild: int) -> set[tuple[int, ...]]:
    """Every multiset of set sizes (sorted, largest first) some grouping of the units has."""
    kinds = len(counts)

    @cache
    def reach(left: tuple[int, ...], wilds: int) -> frozenset[tuple[int, ...]]:
        if sum(left) + wilds == 0:
            return frozenset({()})
        out: set[tuple[int, ...]] = set()
        first = next((i for i, c in enumerate(left) if c), None)
        for size in range(1, kinds + 1):
            for subset in itertools.combinations(range(kinds), size):
                # the set holding the first remaining unit (each grouping counted once)
                if first is not None and first not in subset:
                    continue
                if any(left[i] == 0 for i in subset):
                    continue
                rest = tuple(c - 1 if i in subset else c for i, c in enumerate(left))
                for extra in range(min(wilds, kinds - size) + 1):
                    for sizes in reach(rest, wilds - extra):
                        out.add(tuple(sorted((*sizes, size + extra), reverse=True)))
        if first is None:  # wilds only
            for extra in range(1, min(wilds, kinds) + 1):
                for sizes in reach(left, wilds - extra):
                    out.add(tuple(sorted((*sizes, extra), reverse=True)))
        return frozenset(out)

    return set(reach(counts, wild))


@pytest.mark.parametrize("values", [BRINK, FLAT, LUMPY], ids=["brink", "flat", "lumpy"])
def test_the_alternative_is_the_best_grouping_of_other_sizes(values: dict[int, int]) -> None:
    """What the report compares the chosen grouping with: no better grouping of other
    set sizes exists, and none is left out (checked against every grouping)."""
    rng = random.Random(20261202)
    for _ in range(120):
        counts = tuple(rng.randint(0, 3) for _ in range(4))
        wild = rng.randint(0, 3)
        found = groupings(dict(zip("khmv", counts, strict=True)), wild, values)
        chosen = tuple(sorted((g.size for g in found.groups), reverse=True))
        worth = {sizes: sum(values[s] for s in sizes) for sizes in brute_force_sizes(counts, wild)}
        assert worth[chosen] == found.total == max(worth.values()), (counts, wild)
        others = [w for sizes, w in worth.items() if sizes != chosen]
        if not others:
            assert found.other is None, (counts, wild)
            continue
        assert found.other is not None, (counts, wild)
        other_worth, other_sizes = found.other
        shown = tuple(s for s in sorted(other_sizes, reverse=True) for _ in range(other_sizes[s]))
        assert shown in worth, (counts, wild)
        assert shown != chosen, (counts, wild)
        assert other_worth == worth[shown] == max(others), (counts, wild)
