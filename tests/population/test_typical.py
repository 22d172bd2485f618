"""Typical ranges of drawn tables (``draw: {typical: [lo, hi], share: p}``): the share kept,
each part uniform, sums that hold such a field composed as drawing until the sum holds
would, and the draws the same in any partition.

The seeds are fixed, so each figure is the same on every run; the tolerances are several
standard errors wide, so that a change of how the generator is called cannot turn a
correct draw red, while a draw that ignores the share is far outside them.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

from rulepress.games import LoadedSpec, load_spec
from rulepress.model.spec_model import Draw
from rulepress.population.local import composition
from rulepress.population.sampler import Sampler, draw_states
from rulepress.population.values import chances, typical
from tests.conftest import ROOT
from tests.population.conftest import COINS, END_PLAYERS, loaded_tidewater, with_draw, with_field
from tests.population.test_sampler import assert_legal

#: Stationfall's cubes in supply, as state.yaml writes them, and with a typical range
SUPPLY = """\
              description: Unused cubes in the player's supply."""
TYPICAL_SUPPLY = SUPPLY + "\n              draw: {typical: [0, 2], share: 0.9}"


def stationfall_with_typical_supply(tmp_path: Path) -> LoadedSpec:
    """A copy of Stationfall whose cubes in supply are typically 0 to 2 (of a fixed 8)."""
    game = tmp_path / "rules_spec" / "stationfall"
    shutil.copytree(ROOT / "rules_spec" / "stationfall", game)
    state = game / "state.yaml"
    text = state.read_text(encoding="utf-8")
    assert text.count(SUPPLY) == 1
    state.write_text(text.replace(SUPPLY, TYPICAL_SUPPLY), encoding="utf-8")
    return load_spec(game)


#: a list whose length has a typical range
CARGO = with_field(
    "cargo: {type: list, max: 10, description: Crates,"
    " item: {type: int, min: 0, max: 1, description: A crate},"
    " draw: {typical: [0, 2], share: 0.9}}"
)


def test_a_typical_draw_keeps_its_share_and_is_uniform_in_each_part() -> None:
    rng = random.Random("typical")
    draw = Draw(typical=[10, 19], share=0.8)
    drawn = Counter(typical(rng, draw, range(41)) for _ in range(4000))
    inside = sum(n for v, n in drawn.items() if 10 <= v <= 19)
    assert abs(inside / 4000 - 0.8) < 0.04  # a standard error is 0.006
    assert set(drawn) == set(range(41))  # the other values still come up
    # 320 draws expected of each typical value, 26 of each other one
    assert all(240 < drawn[v] < 400 for v in range(10, 20))
    assert all(6 < drawn[v] < 50 for v in [*range(10), *range(20, 41)])


def test_share_one_draws_the_typical_range_only() -> None:
    rng = random.Random(3)
    draw = Draw(typical=[2, 4], share=1)
    assert {typical(rng, draw, range(9)) for _ in range(300)} == {2, 3, 4}


def test_the_chances_of_a_typical_range_add_up_to_one_and_keep_the_share() -> None:
    found = chances(Draw(typical=[0, 1], share=0.9), range(9))
    assert found is not None
    assert abs(sum(found) - 1) < 1e-9
    assert abs(found[0] + found[1] - 0.9) < 1e-9
    assert chances(Draw(typical=[0, 8], share=0.9), range(9)) is None  # all typical: uniform


def test_a_weighted_composition_is_the_parts_drawn_until_they_make_the_total() -> None:
    """Each way of making the total is as likely as its parts' chances make it."""
    rng = random.Random(8)
    first = (0.8, 0.1, 0.1)
    drawn = Counter(
        tuple(composition(rng, [(0, 2), (0, 2)], 2, [first, None]) or ()) for _ in range(3000)
    )
    # the second part is uniform, so the ways weigh 0.8, 0.1, 0.1: 2400, 300, 300
    assert set(drawn) == {(0, 2), (1, 1), (2, 0)}
    assert 2250 < drawn[(0, 2)] < 2550
    assert 220 < drawn[(1, 1)] < 380
    assert 220 < drawn[(2, 0)] < 380


def test_drawn_tables_keep_the_typical_share(tmp_path: Path) -> None:
    """Players and coins drawn by their typical ranges, every table legal."""
    spec = loaded_tidewater(
        tmp_path,
        with_draw(END_PLAYERS, "{typical: [4, 4], share: 0.75}"),
        with_draw(COINS, "{typical: [0, 9], share: 0.8}"),
        CARGO,
    )
    states = list(draw_states(spec, "final-scoring", seed=7, count=300))
    assert_legal(spec, "final-scoring", states, every=False)
    fours = sum(len(s["players"]) == 4 for s in states)
    assert abs(fours / 300 - 0.75) < 0.1  # a standard error is 0.025
    assert {len(s["players"]) for s in states} == {2, 3, 4}
    coins = [p["coins"] for s in states for p in s["players"] if "coins" in p]
    low = sum(c <= 9 for c in coins)
    assert len(coins) > 300
    assert abs(low / len(coins) - 0.8) < 0.08  # a standard error is at most 0.023
    assert max(coins) > 30  # the rest still reaches the top of the range
    crates = [len(p["cargo"]) for s in states for p in s["players"]]
    assert abs(sum(n <= 2 for n in crates) / len(crates) - 0.9) < 0.06
    assert max(crates) > 5


def test_a_sum_holding_a_typical_field_is_drawn_as_one_weighted_composition(
    tmp_path: Path,
) -> None:
    """supply + on_cards + betrayal_box == 8, supply typically 0 to 2 nine times in ten.

    Each composition weighs as its parts' chances: supply s leaves 9 - s ways for the
    two uniform parts, so the sum reweighs the share: 0.3 x (9 + 8 + 7) against
    (0.1 / 6) x (6 + 5 + 4 + 3 + 2 + 1), 95.4 % of players hold 0 to 2 in supply.
    """
    spec = stationfall_with_typical_supply(tmp_path)
    sampler = Sampler.of(spec, None)
    assert sampler.sections is not None
    (total,) = sampler.sections[0].sums
    assert total.paths[0] == ("cubes", "supply")
    assert total.chances[0] is not None
    assert total.chances[1] is None
    supply = Counter(
        p["cubes"]["supply"]
        for i in range(150)
        for p in sampler.raw(random.Random(f"sum:{i}"))["players"]
    )
    players = sum(supply.values())
    assert players > 500
    assert abs((supply[0] + supply[1] + supply[2]) / players - 0.954) < 0.03  # s.e. 0.009
    assert max(supply) >= 5  # the rest still comes up
    states = list(draw_states(spec, None, seed=4, count=5))
    assert_legal(spec, states[0]["sequence"], states, every=False)


def test_typical_draws_are_the_same_in_any_partition(tmp_path: Path) -> None:
    spec = loaded_tidewater(
        tmp_path,
        with_draw(END_PLAYERS, "{typical: [3, 4], share: 0.9}"),
        with_draw(COINS, "{typical: [0, 9], share: 0.8}"),
        CARGO,
    )
    whole = list(draw_states(spec, "final-scoring", seed=11, count=6))
    chunks = [
        *draw_states(spec, "final-scoring", seed=11, start=4, count=2),
        *draw_states(spec, "final-scoring", seed=11, start=0, count=1),
        *draw_states(spec, "final-scoring", seed=11, start=1, count=3),
    ]
    assert chunks[2:] + chunks[:2] == whole
    assert list(draw_states(spec, "final-scoring", seed=12, count=6)) != whole
