"""Sets with a cap on wild units per set: the grouping stays optimal.

The Sorelia ambassador ruling's other reading (one Sorelia ambassador per set)
caps the wilds of a set. Checked against brute force on small tables of
counts, wild units, caps and value tables that hypothesis draws (a bounded,
reproducible set by default; ``HYPOTHESIS_PROFILE=thorough`` draws 1,000, more
than the 800 tables there are, which an earlier version of this file tried one
test each), and on the case that shows the difference.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.scoring.grouping import groupings

VALUES = {1: 2, 2: 5, 3: 10, 4: 18}
FLAT = {1: 3, 2: 5, 3: 6, 4: 7}  # falling marginal values: small sets win


def brute(counts: Mapping[str, int], wild: int, values: Mapping[int, int], cap: int) -> int:
    """The best total by trying every placement of every unit into sets."""
    kinds = list(counts)
    units = [k for k in kinds for _ in range(counts[k])] + ["*"] * wild
    best = 0

    def place(i: int, sets: list[list[str]]) -> None:
        nonlocal best
        if i == len(units):
            best = max(best, sum(values[len(s)] for s in sets))
            return
        unit = units[i]
        for s in sets:
            if len(s) >= len(kinds):
                continue
            if unit != "*" and unit in s:
                continue
            if unit == "*" and s.count("*") >= cap:
                continue
            s.append(unit)
            place(i + 1, sets)
            s.pop()
        sets.append([unit])
        place(i + 1, sets)
        sets.pop()

    place(0, [])
    return best


#: a small table: each of four kinds held 0-2 times, four units at most
COUNTS = st.tuples(*[st.integers(0, 2)] * 4).filter(lambda c: sum(c) <= 4)


# each example takes well under a millisecond: 200 of them by default, not the profile's 25
@settings(max_examples=max(200, settings.default.max_examples))
@given(
    counts=COUNTS.map(lambda c: dict(zip("khmv", c, strict=True))),
    wild=st.integers(0, 3),
    cap=st.sampled_from([1, 2]),
    values=st.sampled_from([VALUES, FLAT]),
)
def test_capped_grouping_is_optimal(
    counts: dict[str, int], wild: int, cap: int, values: dict[int, int]
) -> None:
    found = groupings(counts, wild, values, cap)
    assert found.total == brute(counts, wild, values, cap)
    # the grouping is real: every unit placed, wilds within the cap, kinds distinct
    assert sorted(k for g in found.groups for k in g.kinds) == sorted(
        k for k, n in counts.items() for _ in range(n)
    )
    assert sum(len(g.wilds) for g in found.groups) == wild
    for g in found.groups:
        assert len(g.wilds) <= cap
        assert len(set(g.kinds) | set(g.wilds)) == g.size <= len(counts)
    assert found.total == sum(values[g.size] for g in found.groups)


def test_the_cap_changes_the_best_grouping() -> None:
    two_wilds = {"k": 0, "h": 0, "m": 0, "v": 0}
    assert groupings(two_wilds, 2, VALUES).total == 5  # one set of two
    capped = groupings(two_wilds, 2, VALUES, 1)
    assert capped.total == 4  # two sets of one
    assert [g.size for g in capped.groups] == [1, 1]
