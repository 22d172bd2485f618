"""Optimal grouping of units into sets of distinct kinds, with wild units.

The problem: units of K kinds (``counts``) and ``wild`` units that can stand
for any kind; every unit goes into exactly one set; a set holds at most one
unit of each kind (wilds in one set stand for different kinds), so a set has
at most K units; a set of size s is worth ``values[s]``. Find the grouping
worth the most.

A greedy grouping is not always best (it depends on the value table), and
brute force over partitions explodes, so this solves it exactly in two
parts:

1. Which multisets of set sizes are possible? Choosing ``n_s`` sets of each
   size s, the real units fit iff a 0/1 matrix exists with column sums
   ``counts`` and row sums at most the set sizes; by the Gale–Ryser theorem
   (max-flow min-cut on the complete bipartite graph) that holds iff for
   every x in 1..K the sets can take ``sum(min(s, x))`` units of the x most
   numerous kinds. Wilds then fill exactly the remaining places. Every size
   vector with ``sum(s * n_s) == total units`` is enumerated and checked in
   O(K^2).
2. The best feasible size vector is turned into an explicit grouping by the
   constructive proof of that theorem: kinds in decreasing count each place
   one unit in the sets with the most free places.

Cost, for N units (wilds included) of K kinds: the size vectors are the
partitions of N into parts of at most K, about N**(K-1) / (K! (K-1)!) of
them and never more than the product of (N // s + 1) for s in 2..K; each
costs O(K^2), and the construction O(K N log N). That is polynomial in every
count a table state gives, and exponential only in K, which the spec fixes
(the spec check allows at most 6 kinds). The state formats bound N: Brink
allows ``ambassadors_per_colour_limit`` cards of each of 4 colours plus as
many Sorelia wilds, 100 units, 8,037 size vectors. Since a spec may raise
that parameter, the search is also charged to the command's budget
(:mod:`rulepress.expressions.budget`): a table past it is refused, never grouped
approximately.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from rulepress.expressions import current


class Group(NamedTuple):
    """One set: the real kinds in it and how many wilds complete it."""

    kinds: tuple[str, ...]
    wilds: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.kinds) + len(self.wilds)


def _size_vectors(total: int, largest: int) -> Iterator[dict[int, int]]:
    """Every {size: number of sets} with sizes 1..largest whose sizes add up to total."""

    def rec(remaining: int, size: int) -> Iterator[dict[int, int]]:
        if size == 1:
            yield {1: remaining}
            return
        for n in range(remaining // size, -1, -1):
            for rest in rec(remaining - n * size, size - 1):
                yield {size: n, **rest}

    if total == 0:
        yield {}
        return
    yield from rec(total, largest)


def _feasible(sizes: Mapping[int, int], sorted_counts: list[int]) -> bool:
    taken = 0
    for x in range(1, len(sorted_counts) + 1):
        taken += sorted_counts[x - 1]
        capacity = sum(n * min(s, x) for s, n in sizes.items())
        if capacity < taken:
            return False
    return True


class Grouping(NamedTuple):
    """The best grouping, and the best grouping of other set sizes (what a player compares)."""

    total: int
    groups: list[Group]
    #: the best feasible sizes other than the chosen ones, and their worth (None when the
    #: units can be grouped only one way: none, or a single one)
    other: tuple[int, dict[int, int]] | None


def best_grouping(
    counts: Mapping[str, int], wild: int, values: Mapping[int, int]
) -> tuple[int, list[Group]]:
    """The highest total and one grouping that reaches it.

    ``counts`` maps each kind (in display order) to its number of units;
    ``values`` maps a set size to its worth and must cover 1..len(counts).
    """
    found = groupings(counts, wild, values)
    return found.total, found.groups


def groupings(
    counts: Mapping[str, int],
    wild: int,
    values: Mapping[int, int],
    wild_per_set: int | None = None,
) -> Grouping:
    """The best grouping, with the best one of different set sizes as its alternative.

    ``wild_per_set``: the most wild units one set may hold (None: as many as fit).
    Capped, the wilds are spread over that many pseudo-kinds, the j-th wild of a
    set being of the j-th (so each is at most once in a set, as a kind is); every
    spread of them in non-increasing counts is solved exactly with sets no larger
    than the real kinds allow, and the best kept.
    """
    kinds = list(counts)
    if wild_per_set is None or wild == 0 or wild_per_set >= len(kinds):
        return _exact(counts, wild, values, len(kinds))
    best: Grouping | None = None
    others: list[tuple[int, dict[int, int]]] = []
    for spread in _spreads(wild, wild_per_set):
        pseudo = {f"{_PSEUDO}{j}": n for j, n in enumerate(spread)}
        found = _exact({**counts, **pseudo}, 0, values, len(kinds))
        found = Grouping(found.total, [_unpseudo(g, kinds) for g in found.groups], found.other)
        if found.other is not None:
            others.append(found.other)
        if best is None or found.total > best.total:
            if best is not None:
                others.append((best.total, _size_counts(best.groups)))
            best = found
        else:
            others.append((found.total, _size_counts(found.groups)))
    assert best is not None
    chosen = _size_counts(best.groups)
    different = [o for o in others if o[1] != chosen]
    return Grouping(best.total, best.groups, max(different, key=lambda o: o[0], default=None))


#: the prefix of the pseudo-kinds capped wilds are spread over (no kind id can start so)
_PSEUDO = "\0wild"


def _spreads(total: int, parts: int) -> Iterator[list[int]]:
    """Every way to write ``total`` as ``parts`` non-increasing counts (zeros allowed)."""

    def rec(remaining: int, left: int, most: int) -> Iterator[list[int]]:
        if left == 1:
            if remaining <= most:
                yield [remaining]
            return
        for first in range(min(remaining, most), -1, -1):
            for rest in rec(remaining - first, left - 1, first):
                yield [first, *rest]

    yield from rec(total, parts, total)


def _unpseudo(group: Group, kinds: list[str]) -> Group:
    """A group solved with pseudo-kinds, its pseudo-kind units as wilds for missing kinds."""
    held = tuple(k for k in group.kinds if not k.startswith(_PSEUDO))
    wilds = len(group.kinds) - len(held) + len(group.wilds)
    missing = tuple(k for k in kinds if k not in held)[:wilds]
    return Group(held, missing)


def _size_counts(groups: list[Group]) -> dict[int, int]:
    out: dict[int, int] = {}
    for g in groups:
        out[g.size] = out.get(g.size, 0) + 1
    return out


def _exact(
    counts: Mapping[str, int], wild: int, values: Mapping[int, int], largest: int
) -> Grouping:
    """The best grouping into sets of at most ``largest`` units, and its alternative."""
    kinds = list(counts)
    total_units = sum(counts.values()) + wild
    ordered = sorted(counts.values(), reverse=True)
    best: tuple[int, dict[int, int]] | None = None
    second: tuple[int, dict[int, int]] | None = None
    # The spec bounds the counts (a state format's max), and may set them as high as
    # it likes: the command's budget, which it cannot raise, bounds the search. The
    # result stays exact, or there is none: a table too large says so.
    budget = current()
    what = f"the grouping of {total_units:,} units into sets of up to {largest} kinds"
    # a size vector, and its feasibility check when it is made: O(K^2), as above
    cost = 1 + largest * largest
    for sizes in _size_vectors(total_units, largest):
        budget.charge(cost, what)
        worth = sum(n * values[s] for s, n in sizes.items())
        if second is not None and worth <= second[0]:
            continue  # feasibility, the costly part, only for a vector that could place
        if not _feasible(sizes, ordered):
            continue
        if best is None or worth > best[0]:
            best, second = (worth, sizes), best
        else:
            second = (worth, sizes)
    assert best is not None  # all singletons is always feasible
    return Grouping(best[0], _construct(best[1], counts, wild, kinds), second)


def _construct(
    sizes: Mapping[int, int], counts: Mapping[str, int], wild: int, kinds: list[str]
) -> list[Group]:
    capacity = [s for s in sorted(sizes, reverse=True) for _ in range(sizes[s])]
    members: list[list[str]] = [[] for _ in capacity]
    free = list(capacity)
    for kind in sorted(kinds, key=lambda k: -counts[k]):
        targets = sorted(range(len(free)), key=lambda j: (-free[j], j))[: counts[kind]]
        if len(targets) < counts[kind] or any(free[j] <= 0 for j in targets):
            raise AssertionError("grouping construction failed")  # pragma: no cover
        for j in targets:
            members[j].append(kind)
            free[j] -= 1
    groups = []
    for j, held in enumerate(members):
        missing = [k for k in kinds if k not in held][: free[j]]
        groups.append(Group(tuple(k for k in kinds if k in held), tuple(missing)))
    assert sum(len(g.wilds) for g in groups) == wild
    return groups
