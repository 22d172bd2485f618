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
