"""A vote whose totals stop at a floor, chosen by a ruling: the ranking reads the raised totals.

Brink's council asks whether a total recorded on the vote track stops at
zero (its ruling ``negative_faction_totals``). The tally's ``floor`` is
generic: here the tiny fixture game votes for a colour, a blue vote counts
minus one, and a ruling says whether a colour's total stops at zero. Red leads;
blue (below zero) and green (no votes) compete for the second place, which
the floor decides. Brink's own worked example runs the same field under its
non-default option.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.errors import SpecError
from rulepress.games import load_spec
from rulepress.render.score_text import render_text
from rulepress.scoring.examples import check_examples, run_example
from tests.conftest import edit, loaded, run_main, tiny_game_with_vote

VOTE = """          final_tie_note: Players still tied share the win.
      - number: "3"
        title: Colour vote
        text: Every player votes for their colour; a blue vote counts against blue.
        rules: ["1"]
        tally:
          id: colour_vote
          title: Colour vote
          candidates: sets.colours
          ballots:
            - items: players
              item: voter
              player: voter.id
              target: voter.colour
              units: voter.times
              weight: "-1 if voter.colour == 'blue' else 1"
              note: "{player}: {units} for {target}"
          places: "2"
          floor:
            by_ruling: floor_reading
            as_counted: None
            at_zero: "0"
          floor_note: "{candidate} counted {votes}, raised to {floor}"
          tie_note: "{tied} are tied on {votes}"
"""
STATED = """examples:
  - id: as-counted
    title: Green's zero beats blue's minus one
    rules: ["1"]
    text: Ada votes red twice and Bo blue once; green, at zero, places second.
    state:
      players:
        - {id: Ada, colour: red, points: 1, times: 2}
        - {id: Bo, colour: blue, points: 1, times: 1}
    expect:
      tallies:
        colour_vote:
          totals: {red: 2, blue: -1, green: 0}
          ranking: [red, green, blue]
          winners: [red, green]
  - id: at-zero
    title: Raised to zero, blue ties green and is declared first
    rules: ["1"]
    variants: [at_zero]
    text: The same votes; blue stops at zero, ties green and places second.
    state:
      players:
        - {id: Ada, colour: red, points: 1, times: 2}
        - {id: Bo, colour: blue, points: 1, times: 1}
    expect:
      tallies:
        colour_vote:
          totals: {red: 2, blue: 0, green: 0}
          ranking: [red, blue, green]
          winners: [red, blue]
"""
RULINGS = """rulings:
  - id: floor_reading
    title: Do totals stop at zero?
    rules: ["1"]
    question: The rules do not say whether a total can fall below zero.
    decision: Totals are compared as counted.
    reason: Nothing in the rules stops them.
    default: as_counted
    options:
      - {id: as_counted, title: As counted, description: A total may fall below zero.}
      - {id: at_zero, title: At zero, description: A total stops at zero.}
"""


def tiny_with_a_floor(tmp_path: Path) -> Path:
    game = tiny_game_with_vote(tmp_path, VOTE, STATED)
    edit(game / "game.yaml", "colours: [red, blue]", "colours: [red, blue, green]")
    edit(game / "game.yaml", "  blue: Blue\n", "  blue: Blue\n  green: Green\n")
    (game / "rulings.yaml").write_text(RULINGS, encoding="utf-8")
    return game


def test_the_ruling_chooses_the_floor_and_the_ranking_reads_the_raised_totals(
    tmp_path: Path,
) -> None:
    game = load_spec(tiny_with_a_floor(tmp_path))
    assert check_examples(game) == []
    (counted,) = run_example(game, 0).tallies
    assert (counted.totals, counted.winners, counted.floored) == (
        {"red": 2, "blue": -1, "green": 0},
        ["red", "green"],
        [],
    )
    assert counted.ties == []
    (floored,) = run_example(game, 1).tallies
    assert floored.totals == {"red": 2, "blue": 0, "green": 0}
    assert floored.ranking == ["red", "blue", "green"]
    assert floored.winners == ["red", "blue"]
    assert [n.text for n in floored.floored] == ["Blue counted -1, raised to 0"]
    # the tie is on the raised totals, broken by the declared order
    assert [n.text for n in floored.ties] == ["Blue and Green are tied on 0"]


def test_the_report_says_which_total_was_raised_before_the_tie(tmp_path: Path) -> None:
    game = load_spec(tiny_with_a_floor(tmp_path))
    text = render_text(run_example(game, 1), game.spec).splitlines()
    raised = text.index("  · Blue counted -1, raised to 0")
    assert text[raised + 1] == "  · Blue and Green are tied on 0"
    assert "raised to" not in render_text(run_example(game, 0), game.spec)


def test_a_floor_that_is_not_an_integer_is_refused(tmp_path: Path) -> None:
    game = tiny_with_a_floor(tmp_path)
    edit(game / "sequence.yaml", 'at_zero: "0"', "at_zero: \"'zero'\"")
    (wrong,) = check_examples(load_spec(game))
    assert "must give an integer, gave 'zero'" in wrong.message


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (
            'at_zero: "0"',
            'at_zero: "lowest +"',
            "floor.at_zero",
            "lowest +",
        ),
        (
            'at_zero: "0"',
            'at_zero: "lowest"',
            "floor.at_zero",
            "unknown name(s) lowest",
        ),
        (
            'at_zero: "0"',
            'at_nothing: "0"',
            "floor.at_nothing",
            "floor_reading has no option 'at_nothing'",
        ),
        (
            "by_ruling: floor_reading",
            "by_ruling: floor_readings",
            "floor.by_ruling",
            "no ruling 'floor_readings'",
        ),
        (
            'floor_note: "{candidate} counted {votes}, raised to {floor}"',
            'floor_note: "{candidate} counted {votes}, raised to {bottom}"',
            "floor_note",
            "bottom",
        ),
        (
            '          floor_note: "{candidate} counted {votes}, raised to {floor}"\n',
            "",
            "",
            "a tally gives a 'floor_note' exactly when it gives a 'floor'",
        ),
    ],
    ids=["syntax", "unknown-name", "unknown-option", "unknown-ruling", "note", "no-note"],
)
def test_bad_floors_are_located(
    tmp_path: Path, old: str, new: str, where: str, message: str
) -> None:
    game = tiny_with_a_floor(tmp_path)
    edit(game / "sequence.yaml", old, new)
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    at = "sequences[0].steps[2].tally" + (f".{where}" if where else "")
    found = [p for p in caught.value.problems if p.where == at]
    assert found, [f"{p.where}: {p.message}" for p in caught.value.problems]
    assert message in found[0].message
    assert found[0].location.file.endswith("sequence.yaml")


def test_brinks_council_scores_both_readings_of_negative_totals() -> None:
    """The worked example runs under stops_at_zero; plain totals, the default, give Henko
    the second place the tie order gives Magnomi under the floor."""
    brink = loaded("brink")
    index = next(
        i for i, ex in enumerate(brink.spec.examples) if ex.id == "council-totals-stop-at-zero"
    )
    assert brink.spec.examples[index].variants == ["stops_at_zero"]
    (floored,) = run_example(brink, index).tallies
    assert floored.winners == ["ventus", "magnomi"]
    assert len(floored.floored) == 2
    (plain,) = run_example(brink, index, variants=["plain_totals"]).tallies
    assert plain.totals == {"komek": -2, "henko": 0, "magnomi": -1, "ventus": 3}
    assert plain.winners == ["ventus", "henko"]
    assert plain.floored == []
    result = run_main(
        "score", "brink", "--example", "council-totals-stop-at-zero", "--variant", "plain_totals"
    )
    assert result.code == 0, result.err
    assert "Won: Ventus and Henko" in result.out
