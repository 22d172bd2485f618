"""Records drawn until their own constraints hold: sums drawn as compositions, list items
drawn again one by one, and nothing of another record read."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rulepress.population.local import Section, composition
from rulepress.population.sampler import Sampler
from rulepress.states.validation import validate_state
from rulepress.yamlsrc import SourceMap
from tests.conftest import loaded

#: Stationfall's per-player constraints that read the player alone (where the check reports them)
OWN = ("cubes", "agenda", "foreign_bribes")


def test_a_composition_is_uniform_among_those_within_the_bounds() -> None:
    rng = random.Random(5)
    drawn = Counter(tuple(composition(rng, [(0, 8)] * 3, 8) or ()) for _ in range(4500))
    # the 45 ways of making 8 of three counts from 0 to 8, each about 100 times
    assert len(drawn) == 45
    assert all(sum(parts) == 8 and all(0 <= p <= 8 for p in parts) for parts in drawn)
    assert min(drawn.values()) > 60
    assert max(drawn.values()) < 140


def test_a_composition_keeps_each_part_in_its_own_bounds() -> None:
    rng = random.Random(1)
    for _ in range(200):
        parts = composition(rng, [(2, 3), (-1, 4), (0, 0)], 5)
        assert parts is not None
        assert 2 <= parts[0] <= 3
        assert -1 <= parts[1] <= 4
        assert parts[2] == 0
        assert sum(parts) == 5
    assert composition(rng, [(0, 1), (0, 1)], 5) is None


def test_each_player_is_drawn_meeting_the_constraints_that_read_them_alone() -> None:
    """Before any mending, no player breaks a constraint of their own record."""
    spec = loaded("stationfall")
    sampler = Sampler.of(spec, None)
    assert sampler.sections is not None
    refused: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    for i in range(40):
        state = sampler.raw(random.Random(i))
        _, problems = validate_state(
            sampler.fmt, spec.spec.parameters, state, SourceMap(), sets=spec.spec.sets
        )
        for p in problems:
            field = p.where.split(".", 1)[1] if "." in p.where else p.where
            refused[field.split("[")[0].split(".")[0]] += 1
        for player in state["players"]:
            for line in player["agenda"]:
                lines["met" if "met" in line else "held_after_data"] += 1
    assert not any(refused[name] for name in OWN), refused
    # an Agenda line gives either field: redrawn on its own, each half the time
    assert 0.4 < lines["met"] / sum(lines.values()) < 0.6


def test_the_shapes_drawn_directly_are_read_from_the_constraints() -> None:
    """Stationfall's cube sum and its Agenda lines' either-or are drawn, not retried."""
    sections = Sampler.of(loaded("stationfall"), None).sections
    assert sections is not None
    (total,) = sections[0].sums
    assert total.paths == (("cubes", "supply"), ("cubes", "on_cards"), ("cubes", "betrayal_box"))
    (either,) = sections[0].eithers
    assert (either.within, either.first, either.second) == ("agenda", "met", "held_after_data")
    # Brink's hexes are no sum and no either-or: left to the redraws
    brink = Sampler.of(loaded("brink"), "council-vote").sections
    assert brink is not None
    assert not brink[1].sums
    assert not brink[1].eithers


def test_names_no_two_items_may_share_are_drawn_without_putting_one_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Brink's hexes, named once each: distinct as drawn, never a clash to draw again."""
    sampler = Sampler.of(loaded("brink"), "council-vote")
    assert sampler.sections is not None
    (distinct,) = sampler.sections[1].distincts
    assert (distinct.within, distinct.field) == ("hexes", "id")
    redrawn: Counter[str] = Counter()
    again = Section._redraw_items

    def counted(
        self: Section, rng: random.Random, drawer: Any, raw: Any, name: str, *rest: Any
    ) -> None:
        redrawn[name] += 1
        again(self, rng, drawer, raw, name, *rest)

    monkeypatch.setattr(Section, "_redraw_items", counted)
    drawn = 0
    for i in range(60):
        table = sampler.raw(random.Random(f"hexes:{i}"))["table"]
        names = [hex_["id"] for hex_ in table.get("hexes", [])]
        assert len(set(names)) == len(names), names
        drawn += len(names)
    assert drawn > 10  # (the Shield Lattice and Sorelia rules keep the lists short)
    assert redrawn["hexes"] == 0
