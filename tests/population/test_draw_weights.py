"""The spec check of ``draw`` weights: every problem at its place, all at once."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_main
from tests.population.conftest import (
    COINS,
    END_PLAYERS,
    LOANS,
    tidewater,
    with_draw,
    with_field,
)


def test_bad_draw_weights_are_located_problems(tmp_path: Path) -> None:
    game = tidewater(
        tmp_path,
        with_draw(END_PLAYERS, "{weights: {'1': 1, '2': 0, '7': 2}}"),
        with_draw(LOANS, "{weights: {'0': 0}}"),
        with_draw(COINS, "{weights: {x: 2, '02': 1, '41': 1}}"),
        with_field(
            "mood: {type: choice, choices: [calm, keen], default: calm, description: A mood,"
            " draw: {weights: {calm: 1, wild: 2}}}"
        ),
        with_field(
            "motto: {type: text, optional: true, description: A motto, draw: {weights: {a: 1}}}"
        ),
    )
    checked = run_main("validate", cwd=game.parent.parent)
    assert checked.code != 0
    where = "rules_spec/tidewater/state.yaml"
    lines = [line for line in checked.err.splitlines() if line.startswith(where)]
    shown = [line.split(": ", 1)[1] for line in lines]
    assert sorted(shown) == sorted(
        [
            "table_states.end.players.fields.motto.draw: a text field takes no draw weights (only"
            " int, choice and list fields, and players)",
            "table_states.end.players.fields.mood.draw.weights.wild: 'wild' is not one of the"
            " choices (calm, keen)",
            "table_states.end.players.draw.weights.1: number of players 1 is outside the bounds (2–4)",
            "table_states.end.players.draw.weights.7: number of players 7 is outside the bounds (2–4)",
            "table_states.end.players.fields.loans.draw.weights: every weight is 0: no table"
            " could be drawn (give one above 0)",
            "table_states.end.players.fields.coins.draw.weights.x: expected a value (a whole"
            " number), got 'x'",
            "table_states.end.players.fields.coins.draw.weights.02: expected a value (a whole"
            " number), got '02'",
            "table_states.end.players.fields.coins.draw.weights.41: value 41 is outside the"
            " bounds (0–40)",
        ]
    )
    assert all(line.split(":")[1].isdigit() for line in lines)  # file:line:col
    assert "Traceback" not in checked.err


def test_a_negative_weight_is_refused(tmp_path: Path) -> None:
    game = tidewater(tmp_path, with_draw(LOANS, "{weights: {'1': -1}}"))
    checked = run_main("validate", cwd=game.parent.parent)
    assert checked.code != 0
    assert "loans.draw.weights.1: expected greater than or equal to 0" in checked.err


def test_bad_typical_ranges_are_located_problems_all_at_once(tmp_path: Path) -> None:
    """Outside the bounds, backwards, a share outside (0, 1], weights as well: each at its place."""
    game = tidewater(
        tmp_path,
        with_draw(END_PLAYERS, "{typical: [3, 5], share: 0.9}"),
        with_draw(LOANS, "{typical: [3, 1], share: 1.5}"),
        with_draw(COINS, "{weights: {'1': 1}, typical: [0, 9], share: 0}"),
        with_field(
            "mood: {type: choice, choices: [calm, keen], default: calm, description: A mood,"
            " draw: {typical: [0, 1], share: 0.5}}"
        ),
        with_field("debt: {type: int, min: 0, max: 9, description: Debt, draw: {share: 0.5}}"),
        with_field("dues: {type: int, min: 0, max: 9, description: Dues, draw: {typical: [1, 2]}}"),
        with_field(
            "fees: {type: int, min: 0, max: 9, description: Fees,"
            " draw: {typical: [0, 9], share: 0.5}}"
        ),
        with_field("tolls: {type: int, min: 0, max: 9, description: Tolls, draw: {}}"),
    )
    checked = run_main("validate", cwd=game.parent.parent)
    assert checked.code != 0
    where = "rules_spec/tidewater/state.yaml"
    lines = [line for line in checked.err.splitlines() if line.startswith(where)]
    shown = [line.split(": ", 1)[1] for line in lines]
    fields = "table_states.end.players.fields"
    assert sorted(shown) == sorted(
        [
            "table_states.end.players.draw.typical[1]: number of players 5 is outside the"
            " bounds (2–4)",
            f"{fields}.loans.draw.share: share 1.5 is not above 0 and at most 1",
            f"{fields}.loans.draw.typical: the range runs backwards: 3 is above 1 (write [1, 3])",
            f"{fields}.coins.draw: give either weights or typical (with share), not both",
            f"{fields}.coins.draw.share: share 0.0 is not above 0 and at most 1",
            f"{fields}.mood.draw.typical: a choice field takes weights, not a typical range"
            " (typical is for int fields, list lengths and players)",
            f"{fields}.debt.draw.share: share needs typical (the range it is the share of)",
            f"{fields}.dues.draw: typical needs share (how often a drawn value comes from the"
            " range)",
            f"{fields}.fees.draw.typical: the range covers every value the field allows"
            " (0–9), so share 0.5 weighs nothing (narrow the range, or leave draw out)",
            f"{fields}.tolls.draw: give weights, or typical with share",
        ]
    )
    assert all(line.split(":")[1].isdigit() for line in lines)  # file:line:col
    assert "Traceback" not in checked.err


def test_a_typical_range_within_the_bounds_is_valid(tmp_path: Path) -> None:
    game = tidewater(
        tmp_path,
        with_draw(END_PLAYERS, "{typical: [3, 4], share: 0.75}"),
        with_draw(COINS, "{typical: [0, 9], share: 1}"),
    )
    checked = run_main("validate", cwd=game.parent.parent)
    assert checked.code == 0, checked.err
