"""A vote that is not Brink's council: no routes for its ballots, ties in the candidates' order.

The tally was shaped by Brink (every ballot routed back to a supply, ties by
the top Rider card's list); ``routes``/``route``, ``tie_order``, ``weight``
and ``unit`` are now optional. Here a copy of the tiny fixture game votes
for a colour.
"""

from __future__ import annotations

from pathlib import Path

from rulepress.scoring.examples import check_examples
from rulepress.spec import load_spec
from tests.conftest import edit, run_cli, tiny_game_with_vote

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
    result = run_cli("validate", "rules_spec/tiny", cwd=tmp_path)
    assert result.code == 3
    assert result.err.splitlines()[0] == (
        "rules_spec/tiny/sequence.yaml:48:15: sequences[0].steps[2].tally.ballots[0]:"
        " ballots give a 'route' exactly when their tally declares 'routes'"
    )
