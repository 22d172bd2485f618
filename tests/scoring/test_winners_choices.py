"""The winners step's fields a ruling chooses: a criterion's ``when``, ``final_tie``, ``places_among``.

A game's rule on winners may be read several ways (Stationfall's rulings
last_place_tie and guilty_places): tie-breaks meant for a single winner only,
no more winners than places, a place a player who cannot win would take left
empty. The fields are generic, so the tiny fixture game tries each: two places
win, a total is points times times, the tie-break is the most times, and only red
players can win. Stationfall's own worked examples run the same fields under its
non-default options.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import SpecError
from rulepress.games import LoadedSpec, load_spec
from rulepress.scoring import score
from rulepress.scoring.examples import run_example
from rulepress.scoring.result import ScoreResult
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import DATA, edit, loaded

WINNERS = """          eligible:
            test: colour == 'red'
            fails: blue players cannot win
          count: 2
          criteria:
            - id: most-points
              key: total
              order: highest
              label: Most points
            - id: most-times
              key: times
              order: highest
              label: Most times
              when:
                by_ruling: tie_reading
                break_ties: "True"
                report_ties: "True"
                points_alone: places == 1
          final_tie:
            by_ruling: tie_reading
            break_ties: "'share'"
            report_ties: "'report'"
            points_alone: "'share'"
          places_among:
            by_ruling: place_reading
            pass_on: "'eligible'"
            stay_empty: "'all'"
"""
RULINGS = """rulings:
  - id: tie_reading
    title: How is a tie for the last place settled?
    rules: ["1.1"]
    question: The rules do not say how many players may share the last place.
    decision: The tie-break settles it; players it cannot separate share.
    reason: Nothing in the rules limits the winners.
    default: break_ties
    options:
      - {id: break_ties, title: Break and share, description: Players still tied share.}
      - {id: report_ties, title: Break and report, description: Players still tied do not win.}
      - {id: points_alone, title: Points alone, description: With two places points decide.}
  - id: place_reading
    title: Does a blue player take a place?
    rules: ["1.1"]
    question: The rules do not say whether a blue player's points take a place.
    decision: They do not; the next red player takes it.
    reason: The places are for the players who can win.
    default: pass_on
    options:
      - {id: pass_on, title: Passed on, description: The next red player takes it.}
      - {id: stay_empty, title: Left empty, description: A blue player's place stays empty.}
"""


def tiny_with_choices(tmp_path: Path) -> Path:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    old_rule = (
        "          eligible:\n"
        '            test: "True"\n'
        "            fails: every player can win\n"
        "          count: 1\n"
        "          criteria:\n"
        "            - id: most-points\n"
        "              key: total\n"
        "              order: highest\n"
        "              label: Most points\n"
        "          final_tie: share\n"
    )
    edit(game / "sequence.yaml", old_rule, WINNERS)
    (game / "rulings.yaml").write_text(RULINGS, encoding="utf-8")
    return game


@pytest.fixture
def tiny(tmp_path: Path) -> LoadedSpec:
    return load_spec(tiny_with_choices(tmp_path))


def player(pid: str, points: int, times: int = 1, colour: str = "red") -> dict[str, Any]:
    return {"id": pid, "colour": colour, "points": points, "times": times}


def run(game: LoadedSpec, players: list[dict[str, Any]], *variants: str) -> ScoreResult:
    state = check_state(game, {"players": players}, SourceMap(), "test")
    return score(game, state, variants=list(variants), cite_rulings=True)


def won(result: ScoreResult) -> tuple[list[str], str]:
    assert result.winners is not None
    return sorted(result.winners.winners), result.winners.decided_by


#: Ada first; Bo and Cy tie on points and on times for the second place
UNBROKEN = [player("Ada", 5), player("Bo", 2), player("Cy", 2), player("Di", 1)]
#: Ada first; Bo and Cy tie on points (2), and Cy has more times
BROKEN = [player("Ada", 5), player("Bo", 2), player("Cy", 1, times=2), player("Di", 1)]


@pytest.mark.parametrize(
    ("players", "variant", "winners", "decided_by"),
    [
        pytest.param(UNBROKEN, "break_ties", ["Ada", "Bo", "Cy"], "shared", id="unbroken-shared"),
        pytest.param(UNBROKEN, "report_ties", ["Ada"], "unresolved", id="unbroken-reported"),
        pytest.param(UNBROKEN, "points_alone", ["Ada", "Bo", "Cy"], "shared", id="unbroken-alone"),
        pytest.param(BROKEN, "break_ties", ["Ada", "Cy"], "most-times", id="broken"),
        pytest.param(BROKEN, "report_ties", ["Ada", "Cy"], "most-times", id="broken-reported"),
        pytest.param(BROKEN, "points_alone", ["Ada", "Bo", "Cy"], "shared", id="broken-alone"),
    ],
)
def test_the_ruling_chooses_how_the_last_place_is_settled(
    tiny: LoadedSpec,
    players: list[dict[str, Any]],
    variant: str,
    winners: list[str],
    decided_by: str,
) -> None:
    assert won(run(tiny, players, variant)) == (winners, decided_by)


def test_a_criterion_left_out_is_not_applied_and_ranks_nobody(tiny: LoadedSpec) -> None:
    result = run(tiny, BROKEN, "points_alone")
    assert result.winners is not None
    assert [s.criterion for s in result.winners.trace] == ["most-points"]
    assert result.winners.conclusion.text == (
        "Ada wins outright. Some tie-breaks are not used in this game. No tie-break separates"
        " them: Bo and Cy share the last winning place."
    )
    # Bo and Cy share a rank: the times that would have split them were never compared
    assert {p.id: p.rank for p in result.players} == {"Ada": 1, "Bo": 2, "Cy": 2, "Di": 4}
    assert [c.option for c in result.winners.rulings] == ["points_alone"]


def test_a_when_may_read_the_number_of_places(tmp_path: Path) -> None:
    # with one place, "points alone when several win" keeps the tie-break
    game = tiny_with_choices(tmp_path)
    edit(game / "sequence.yaml", "          count: 2\n", "          count: 1\n")
    one_place = load_spec(game)
    players = [player("Ada", 2), player("Bo", 1, times=2)]
    assert won(run(one_place, players, "points_alone")) == (["Bo"], "most-times")


def test_a_place_that_falls_to_a_player_who_cannot_win_stays_empty(tiny: LoadedSpec) -> None:
    players = [player("Ada", 5, colour="blue"), player("Bo", 2), player("Cy", 1), player("Di", 0)]
    assert won(run(tiny, players)) == (["Bo", "Cy"], "most-points")
    result = run(tiny, players, "stay_empty")
    assert won(result) == (["Bo"], "most-points")
    assert result.winners is not None
    (step,) = result.winners.trace
    assert step.note.text == (
        "Most points: Ada 5, Bo 2, Cy 1, Di 0. Bo wins. Ada cannot win: that place is not passed on."
    )
    # Ada took the first place by points, though she cannot win
    ranks = {p.id: (p.eligible, p.rank) for p in result.players}
    assert ranks == {"Ada": (False, 1), "Bo": (True, 2), "Cy": (True, 3), "Di": (True, 4)}


def test_when_every_place_falls_to_players_who_cannot_win_nobody_wins(tiny: LoadedSpec) -> None:
    players = [player("Ada", 5, colour="blue"), player("Eve", 4, colour="blue"), player("Bo", 1)]
    assert won(run(tiny, players)) == (["Bo"], "eligibility")
    result = run(tiny, players, "stay_empty")
    assert won(result) == ([], "most-points")
    assert result.winners is not None
    assert result.winners.conclusion.text == (
        "Nobody wins: every winning place fell to a player who cannot win."
    )


def test_a_player_who_cannot_win_shares_in_no_tie(tiny: LoadedSpec) -> None:
    # Bo (blue) and Cy tie for the second place on points and times
    players = [player("Ada", 5), player("Bo", 2, colour="blue"), player("Cy", 2), player("Di", 1)]
    shared = run(tiny, players, "stay_empty")
    assert won(shared) == (["Ada", "Cy"], "shared")
    assert shared.winners is not None
    assert shared.winners.conclusion.text == (
        "Ada wins outright. No tie-break separates them: Bo and Cy share the last winning"
        " place. Bo cannot win: that place is not passed on."
    )
    assert won(run(tiny, players, "stay_empty", "report_ties")) == (["Ada"], "unresolved")


def test_fewer_players_than_places_all_win_if_they_can(tiny: LoadedSpec) -> None:
    players = [player("Ada", 5, colour="blue"), player("Bo", 2)]
    assert won(run(tiny, players, "stay_empty")) == (["Bo"], "eligibility")


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        pytest.param(
            """          final_tie:
            by_ruling: tie_reading
            break_ties: "'share'"
            report_ties: "'report'"
            points_alone: "'share'"
""",
            "          final_tie: shared\n",
            "final_tie",
            "'shared' is none of share, report",
            id="bare-word",
        ),
        pytest.param(
            "report_ties: \"'report'\"",
            "report_ties: \"'reported'\"",
            "final_tie.report_ties",
            "'reported' is none of share, report",
            id="quoted-value",
        ),
        pytest.param(
            "stay_empty: \"'all'\"",
            "stay_empty: \"'everyone'\"",
            "places_among.stay_empty",
            "'everyone' is none of eligible, all",
            id="places-among",
        ),
        pytest.param(
            "points_alone: places == 1",
            "points_alone: place == 1",
            "criteria[1].when.points_alone",
            "unknown name(s) place",
            id="when-name",
        ),
        pytest.param(
            "points_alone: places == 1",
            "points_alone: total > 1",
            "criteria[1].when.points_alone",
            "unknown name(s) total",
            id="when-reads-a-player",
        ),
    ],
)
def test_bad_choices_are_located(
    tmp_path: Path, old: str, new: str, where: str, message: str
) -> None:
    game = tiny_with_choices(tmp_path)
    edit(game / "sequence.yaml", old, new)
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    at = f"sequences[0].steps[1].winners.{where}"
    found = [p for p in caught.value.problems if p.where == at]
    assert found, [f"{p.where}: {p.message}" for p in caught.value.problems]
    assert message in found[0].message
    assert found[0].location.file.endswith("sequence.yaml")


def test_an_expression_that_gives_no_choice_fails_when_scored(tmp_path: Path) -> None:
    game = tiny_with_choices(tmp_path)
    edit(game / "sequence.yaml", "break_ties: \"'share'\"", "break_ties: \"'sh' + 'ared'\"")
    with pytest.raises(Exception, match="final_tie must give 'share' or 'report', not 'shared'"):
        run(load_spec(game), UNBROKEN)


# ----------------------------------------------------------------- Stationfall's readings


def stationfall_example(example_id: str) -> int:
    return next(
        i for i, ex in enumerate(loaded("stationfall").spec.examples) if ex.id == example_id
    )


@pytest.mark.parametrize(
    ("example_id", "default", "variant"),
    [
        pytest.param(
            "last-place-left-empty",
            (["Ada", "Bo", "Cy"], "shared"),
            (["Ada"], "unresolved"),
            id="no-more-winners-than-places",
        ),
        pytest.param(
            "points-alone-decide",
            (["Ada", "Cy"], "fewest-betrayal-cubes"),
            (["Ada", "Bo", "Cy"], "shared"),
            id="points-alone-when-several-win",
        ),
        pytest.param(
            "guilty-place-left-empty",
            (["Bo", "Cy"], "most-points"),
            (["Bo"], "most-points"),
            id="guilty-place-stays-empty",
        ),
    ],
)
def test_stationfalls_examples_show_each_reading_against_the_default(
    example_id: str, default: tuple[list[str], str], variant: tuple[list[str], str]
) -> None:
    stationfall = loaded("stationfall")
    index = stationfall_example(example_id)
    (option,) = stationfall.spec.examples[index].variants
    under_option = run_example(stationfall, index, cite_rulings=True)
    assert won(under_option) == variant
    assert under_option.winners is not None
    assert option in [c.option for c in under_option.winners.rulings]
    assert won(run_example(stationfall, index, variants=[])) == default
