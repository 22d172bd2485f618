"""Jobs for the executor's tests: module-level, so spawned processes and Dask workers import them."""

from __future__ import annotations

import random
import time

from rulepress.errors import Location, Problem, StateError


def draw(chunk: tuple[int, int]) -> list[tuple[int, int]]:
    """A chunk (seed, count) → that many (seed, draw) pairs, the same in any process.

    The first chunk takes longest, so in a pool the later chunks finish first: a
    merge in the order of finishing would show.
    """
    seed, count = chunk
    if seed == 0:
        time.sleep(0.3)
    rng = random.Random(seed)
    return [(seed, rng.randrange(1000)) for _ in range(count)]


def concatenate(first: list[tuple[int, int]], then: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A merge whose result shows the order it was given the results in."""
    return first + then


def fail_on_three(chunk: tuple[int, int]) -> list[tuple[int, int]]:
    """As :func:`draw`, but chunk 3 is a bad table."""
    if chunk[0] == 3:
        problem = Problem(Location("tables.jsonl", 3, 1), "players[0]", "expected an integer")
        raise StateError("tables.jsonl: not a valid table state", [problem])
    return draw(chunk)


#: eight chunks of different sizes
CHUNKS = [(seed, 5 + seed) for seed in range(8)]


def expected() -> list[tuple[int, int]]:
    """What merging the chunks' results in chunk order gives, drawn here, one after another."""
    out: list[tuple[int, int]] = []
    for seed, count in CHUNKS:
        rng = random.Random(seed)
        out += [(seed, rng.randrange(1000)) for _ in range(count)]
    return out
