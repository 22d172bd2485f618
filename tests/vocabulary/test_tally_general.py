"""A vote that is not Brink's council: no routes for its ballots, ties in the candidates' order.

The tally was shaped by Brink (every ballot routed back to a supply, ties by
the top Rider card's list); ``routes``/``route``, ``tie_order``, ``weight``
and ``unit`` are now optional. Here a copy of the tiny fixture game votes
for a colour.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulepress.games import load_spec
from rulepress.scoring.examples import check_examples
from tests.conftest import edit, run_main, tiny_game_with_vote

VOTE = """          final_tie_note: Players still tied share the win.
      - number: "3"
        title: Colour vote
        text: Every player votes for their colour once per time they score.
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
              note: "{player}: {units} for {target}"
          places: "1"
          tie_note: "{tied} are tied on {votes}"
"""
EXAMPLE = """examples:
  - id: a-tied-vote
    title: A tied vote goes to the colour declared first
    rules: ["1"]
    text: Ada votes red twice, Bo blue twice; the tie goes to red, declared first.
    state:
      players:
        - {id: Ada, colour: red, points: 1, times: 2}
        - {id: Bo, colour: blue, points: 1, times: 2}
    expect:
      tallies:
        colour_vote: {totals: {red: 2, blue: 2}, ranking: [red, blue], winners: [red]}
"""


def tiny_with_a_vote(tmp_path: Path) -> Path:
    return tiny_game_with_vote(tmp_path, VOTE, EXAMPLE)


def test_a_vote_without_routes_or_tie_order(tmp_path: Path) -> None:
    loaded = load_spec(tiny_with_a_vote(tmp_path))
    assert check_examples(loaded) == []


def test_routes_and_routed_ballots_go_together(tmp_path: Path) -> None:
    game = tiny_with_a_vote(tmp_path)
    edit(
        game / "sequence.yaml",
        '          tie_note: "{tied} are tied on {votes}"\n',
        '          tie_note: "{tied} are tied on {votes}"\n          routes: {kept: kept}\n',
    )
    result = run_main("validate", "rules_spec/tiny", cwd=tmp_path)
    assert result.code == 3
    assert result.err.splitlines()[0] == (
        "rules_spec/tiny/sequence.yaml:48:15: sequences[0].steps[2].tally.ballots[0]:"
        " ballots give a 'route' exactly when their tally declares 'routes'"
    )


RULINGS = """rulings:
  - id: double_votes
    title: Do repeated votes count double?
    rules: ["1"]
    question: The rules do not say whether a player's votes count once or twice.
    decision: Each vote counts once.
    reason: Nothing in the rules doubles them.
    default: once
    options:
      - {id: once, title: Once each, description: Every vote counts once.}
      - {id: twice, title: Twice each, description: Every vote counts twice.}
  - id: tie_reading
    title: Reading ties
    rules: ["1"]
    question: The rules do not say how a tied vote is settled.
    decision: The colour declared first wins.
    reason: The colours are listed in the rules in that order.
    default: declared_order
    options:
      - {id: declared_order, title: In declared order, description: Earlier colours win ties.}
"""


def test_a_vote_names_the_rulings_that_decided_it(tmp_path: Path) -> None:
    """A ruling that changes the totals is named under the vote; one that says how ties
    are read is named on the ties, in the text and in the JSON; neither where it did not
    decide anything."""
    game = tiny_with_a_vote(tmp_path)
    (game / "rulings.yaml").write_text(RULINGS, encoding="utf-8")
    edit(
        game / "sequence.yaml",
        "              units: voter.times\n",
        "              units: voter.times\n"
        "              weight: \"2 if voter.colour == 'red' and ruling.double_votes == 'twice'"
        ' else 1"\n',
    )
    edit(
        game / "sequence.yaml",
        '          tie_note: "{tied} are tied on {votes}"\n',
        '          tie_note: "{tied} are tied on {votes}"\n          tie_rulings: [tie_reading]\n',
    )
    result = run_main("score", "tiny", "--example", "a-tied-vote", cwd=tmp_path)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    tie = lines.index("  · Red and Blue are tied on 2")
    assert lines[tie + 1] == "    · Ruling “Reading ties”: In declared order"
    won = next(i for i, line in enumerate(lines) if line.startswith("  Won:"))
    assert lines[won + 1] == "    · Ruling “Do repeated votes count double?”: Once each"
    data = json.loads(
        run_main("score", "tiny", "--example", "a-tied-vote", "--format", "json", cwd=tmp_path).out
    )
    (tally,) = data["tallies"]
    assert [(c["ruling"], c["option"]) for c in tally["rulings"]] == [("double_votes", "once")]
    assert [(c["ruling"], c["option"]) for c in tally["tie_rulings"]] == [
        ("tie_reading", "declared_order")
    ]
    # under the other option red wins on 4 against 2: no tie, so no tie ruling is named
    twice = run_main(
        "score",
        "tiny",
        "--example",
        "a-tied-vote",
        "--variant",
        "twice",
        cwd=tmp_path,
    )
    assert "Reading ties" not in twice.out
    assert "“Do repeated votes count double?”: Twice each" in twice.out


def test_a_candidate_or_route_the_spec_writes_is_checked_at_validate(tmp_path: Path) -> None:
    """A ballot's target and route must be a candidate and a declared route: one the spec
    writes (a quoted text, either side of a conditional) is refused where it is written,
    not when a table state first casts such a ballot (issue 31, point 4)."""
    game = tiny_with_a_vote(tmp_path)
    edit(
        game / "sequence.yaml",
        "target: voter.colour",
        "target: \"voter.colour if voter.times else 'green'\"",
    )
    edit(
        game / "sequence.yaml",
        '          tie_note: "{tied} are tied on {votes}"\n',
        '          tie_note: "{tied} are tied on {votes}"\n          routes: {kept: kept}\n',
    )
    edit(
        game / "sequence.yaml",
        "              units: voter.times\n",
        "              units: voter.times\n              route: \"'keep'\"\n",
    )
    result = run_main("validate", "rules_spec/tiny", cwd=tmp_path)
    assert result.code == 3
    assert result.err.splitlines()[:2] == [
        "rules_spec/tiny/sequence.yaml:51:23: sequences[0].steps[2].tally.ballots[0].target:"
        " 'green' is none of red, blue",
        "rules_spec/tiny/sequence.yaml:53:22: sequences[0].steps[2].tally.ballots[0].route:"
        " 'keep' is none of kept",
    ]
