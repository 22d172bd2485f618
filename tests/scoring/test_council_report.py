"""A vote's report a player can follow: why each ballot counts, rules, stages, every cube.

Brink's council is the real case (its worked example with a Reassignment
Order, Discover Sorelia and a three-way tie); the tiny fixture game shows
that the same fields work for any vote: weights as cases with their rules and
reasons, counting in stages with a case that applies only from a later
stage, ties and placements citing rules. Bad declarations are refused where
they are written.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulepress.errors import SpecError
from rulepress.games import load_spec
from rulepress.i18n.runtime import localize
from rulepress.render.score_text import render_text
from rulepress.scoring import score
from rulepress.scoring.examples import check_examples, example_state, find_example, run_example
from rulepress.scoring.result import to_json
from tests.conftest import (
    GAME_LANGUAGES,
    LOCALES,
    edit,
    loaded,
    run_main,
    tiny_game_with_vote,
)
from tests.scoring.reports import example_report, example_result

EXAMPLE = "council-three-way-tie"


def report(lang: str, example: str = EXAMPLE) -> str:
    return example_report(lang, example)


def test_each_ballot_says_why_it_counts_and_which_rule_says_so() -> None:
    lines = report("en").splitlines()
    assert (
        "  · Mara: Sorelia × 2 on Magnomi, votes: 6; then to the common supply"
        " (14.2.2, 13.6: with Discover Sorelia, a Sorelia cube counts as 3 votes on any faction)"
    ) in lines
    assert (
        "  · Oskar: Ventus × 3 on Komek, votes: 3; then back to its owner’s supply"
        " (14.4.2: the Reassignment Order lets Ventus influence count as 1 vote for any faction)"
    ) in lines
    assert (
        "  · Nils: UA × 1 on Magnomi, votes: -2; then out of the game"
        " (14.2.3: a UA cube counts as -2 votes on any faction)"
    ) in lines
    assert any(
        line.startswith("  · Nils: an action card on Henko, votes: 1;")
        and "(14.4.3, 11.4: an action card counts as influence of" in line
        for line in lines
    )
    ballots = [line for line in lines if line.startswith("  · ") and "votes:" in line]
    assert len(ballots) == 7
    assert all(re.search(r"\((\d+(\.\d+)*)(, \d+(\.\d+)*)*: ", line) for line in ballots)


def test_the_totals_after_each_stage_the_tie_and_every_cube_cite_their_rules() -> None:
    text = report("en")
    for line in [
        "  Initial totals (14.4.1): Komek 2, Henko 4, Magnomi 4, and Ventus 0",
        "  Totals after Riders (14.4.2): Komek 5, Henko 4, Magnomi 5, and Ventus 0",
        "  Final totals, after action cards (14.4.3): Komek 5, Henko 5, Magnomi 5, and Ventus 0",
        "  · 14.4.4: Magnomi, Henko, and Komek are tied on 5:"
        " the tie order of the top Rider card ranks them in that order",
        "  Won: Magnomi and Henko",
        "    14.5: Magnomi × 1 from the common supply to the first-place slot of the council track",
        "    14.5: Henko × 1 from the common supply to the second-place slot of the council track",
        "    Mara → to the common supply (15.1.4): 2 × Sorelia and 1 × Ventus",
        "    Nils → out of the game (15.1.5): 1 × UA",
        "    Nils → to the discard pile (14.3): 1 × action card",
        "    Oskar → back to its owner’s supply (15.1.3): 3 × Ventus and 2 × Komek",
    ]:
        assert line in text.splitlines(), line
    # the final totals are the last stage's: no separate line repeats them
    assert "  Votes:" not in text


@pytest.mark.parametrize("lang", [g for g in GAME_LANGUAGES["brink"] if g != "en"])
def test_the_report_is_as_complete_in_every_language(lang: str) -> None:
    english, local = report("en").splitlines(), report(lang).splitlines()
    assert len(local) == len(english)
    for rules in ["14.4.1", "14.4.2", "14.4.3", "14.4.4", "14.5", "15.1.3", "15.1.4", "15.1.5"]:
        assert any(rules in line for line in local), rules
    # no id of a faction, cube, route or stage shows raw (they all have words)
    for raw in ["komek", "magnomi", "common-supply", "returned", "action-cards", "riders"]:
        assert not any(re.search(rf"\b{raw}\b", line) for line in local), raw


def test_the_json_result_carries_rules_reasons_stages_and_placements() -> None:
    _, result = example_result("en", EXAMPLE)
    data = json.loads(to_json(result))
    (tally,) = data["tallies"]
    first = tally["ballots"][0]
    assert first["rules"] == ["14.2.2", "13.6"]
    assert first["reason"]["args"]["weight"] == 3
    assert first["stage"] == "initial"
    assert tally["ballots"][-1]["stage"] == "action-cards"
    assert [s["id"] for s in tally["stages"]] == ["initial", "riders", "action-cards"]
    assert tally["stages"][0]["totals"] == {"komek": 2, "henko": 4, "magnomi": 4, "ventus": 0}
    assert tally["tie_rules"] == ["14.4.4"]
    assert tally["route_rules"]["removed"] == ["15.1.5"]
    assert [(p["candidate"], p["place"], p["units"]) for p in tally["placements"]] == [
        ("magnomi", 1, 1),
        ("henko", 2, 1),
    ]


def test_a_vote_without_ballots_says_so() -> None:
    local = localize(loaded("brink"), "en", LOCALES)
    index, _ = find_example(local.loaded, "council-tie-order")
    state = example_state(local.loaded, index)
    state["table"] = dict(state["table"]) | {"votes": []}
    result = score(local.loaded, state, sequence="council-vote", renderer=local.renderer)
    text = render_text(result, local.loaded.spec, local.renderer.translate).splitlines()
    assert "  No ballots were cast." in text
    assert not any(" → " in line for line in text)  # no ballot went anywhere


def test_the_examples_page_states_the_totals_after_each_stage() -> None:
    from rulepress.render.context import RenderContext
    from rulepress.render.pages import game_pages
    from tests.render.test_example_state import _paragraphs

    lines = _paragraphs(game_pages(RenderContext(loaded("brink").spec, "en", str, str))["examples"])
    assert "Initial totals: Komek 2, Henko 4, Magnomi 4, and Ventus 0" in lines
    assert "Totals after Riders: Komek 5, Henko 4, Magnomi 5, and Ventus 0" in lines
    assert not [line for line in lines if "action-cards" in line or "riders:" in line]


# ------------------------------------------------------------------ any vote, not only Brink's

VOTE = """          final_tie_note: Players still tied share the win.
      - number: "3"
        title: Colour vote
        text: Every player votes for their colour; big scorers count double from the recount.
        rules: ["1"]
        tally:
          id: colour_vote
          title: Colour vote
          candidates: sets.colours
          stages:
            - {id: count, title: First count, rules: ["1"]}
            - {id: recount, title: Recount, rules: ["1.1"]}
          ballots:
            - items: players
              item: voter
              player: voter.id
              target: voter.colour
              units: voter.times
              weights:
                - when: voter.points > 1
                  value: "2"
                  stage: recount
                  rules: ["1.1"]
                  because: a big scorer counts {weight|# vote|# votes} from the recount
                - value: "1"
                  rules: ["1"]
                  because: every vote counts {weight|# vote|# votes}
              note: "{player}: {units} for {target}"
          places: "1"
          tie_note: "{tied} are tied on {votes}"
          tie_rules: ["1.1"]
          placement:
            count: "1"
            places: [the winner's slot]
            note: "{candidate} × {count} to {place}"
"""
STATED = """examples:
  - id: a-recount
    title: A recount ties the vote, and the colour declared first wins
    rules: ["1"]
    text: Bo leads the first count; Ada's votes count double in the recount.
    state:
      players:
        - {id: Ada, colour: red, points: 2, times: 1}
        - {id: Bo, colour: blue, points: 1, times: 2}
    expect:
      tallies:
        colour_vote:
          stages: {count: {red: 1, blue: 2}, recount: {red: 2, blue: 2}}
          totals: {red: 2, blue: 2}
          winners: [red]
"""


def tiny_with_a_recount(tmp_path: Path) -> Path:
    return tiny_game_with_vote(tmp_path, VOTE, STATED)


def test_stages_weights_and_placements_serve_any_vote(tmp_path: Path) -> None:
    game = load_spec(tiny_with_a_recount(tmp_path))
    assert check_examples(game) == []
    result = run_example(game, 0)
    (tally,) = result.tallies
    assert [b.rules for b in tally.ballots] == [["1.1"], ["1"]]
    assert [p.note.text for p in tally.placements] == ["Red × 1 to the winner's slot"]
    text = render_text(result, game.spec)
    assert "  First count (1): Red 1 and Blue 2" in text
    assert "  Recount (1.1): Red 2 and Blue 2" in text
    assert "  · 1.1: Red and Blue are tied on 2" in text


def test_a_wrong_stage_total_is_caught(tmp_path: Path) -> None:
    game = tiny_with_a_recount(tmp_path)
    edit(game / "examples.yaml", "count: {red: 1, blue: 2}", "count: {red: 2, blue: 2}")
    (wrong,) = check_examples(load_spec(game))
    assert "colour_vote stages" in wrong.message


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (
            "                  stage: recount\n",
            "                  stage: later\n",
            "ballots[0].weights[0].stage",
            "no stage 'later' in the tally's stages",
        ),
        (
            '                - value: "1"\n',
            '                - value: "1"\n                  when: voter.times > 0\n',
            "ballots[0].weights[1]",
            "the last weight case has no 'when' (it holds when no other does)",
        ),
        (
            "              units: voter.times\n",
            '              units: voter.times\n              weight: "3"\n',
            "ballots[0].weights",
            "give 'weight' or 'weights', not both",
        ),
        (
            '          tie_rules: ["1.1"]\n',
            '          tie_rules: ["7.7"]\n',
            "tie_rules[0]",
            "7.7",
        ),
        (
            "                  because: every vote counts {weight|# vote|# votes}\n",
            "                  because: every vote counts {weigth}\n",
            "ballots[0].weights[1].because",
            "weigth",
        ),
        (
            '            note: "{candidate} × {count} to {place}"\n',
            '            note: "{candidate} × {count} to {slot}"\n',
            "placement.note",
            "slot",
        ),
    ],
    ids=[
        "unknown-stage",
        "last-case-conditional",
        "weight-and-weights",
        "tie-rule",
        "because",
        "placement",
    ],
)
def test_bad_vote_declarations_are_located(
    tmp_path: Path, old: str, new: str, where: str, message: str
) -> None:
    game = tiny_with_a_recount(tmp_path)
    edit(game / "sequence.yaml", old, new)
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    found = [p for p in caught.value.problems if p.where == f"sequences[0].steps[2].tally.{where}"]
    assert found, [f"{p.where}: {p.message}" for p in caught.value.problems]
    assert message in found[0].message
    assert found[0].location.file.endswith("sequence.yaml")


# the ruling on reading the Rider's flowchart, named under the tie it settles
TIE_RULING = {
    "en": "    · Ruling “Reading the tie-breaker flowchart”: A priority order",
    "cs": "    · Výklad „Jak číst rozhodovací diagram“: Pořadí priorit",
    "ja": "    · 裁定「タイブレーカーのフローチャートの読み方」：優先順位",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_the_tie_names_the_ruling_that_says_how_it_is_read(lang: str) -> None:
    result = run_main("score", "brink", "--example", EXAMPLE, "--lang", lang)
    assert result.code == 0, result.err
    lines = result.out.replace("\u00a0", " ").splitlines()
    tie = next(i for i, line in enumerate(lines) if line.startswith("  · 14.4.4"))
    assert lines[tie + 1] == TIE_RULING[lang]
    # a vote without a tie names no tie ruling
    untied = run_main("score", "brink", "--example", "council-reassignment-order", "--lang", lang)
    assert TIE_RULING[lang] not in untied.out.replace("\u00a0", " ").splitlines()
