"""Stationfall's step 3 and Identity powers, derived by the scorer from the table state.

Agenda lines may say what an Institution must (or must not) hold after Provide
Data; the scorer works it out from the Data each character gives, from what the
Institutions already held, and from who may provide Data under the ruling. A
Guilty player's own Evidence handed to the Authorities clears their Guilt. The
Engineer's "may win even if Guilty" follows from the identity, through the
spec's set of such identities (the table of card exceptions): the identity is
matched by the card's id in any case, never by a name in another language.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulepress.errors import StateError
from rulepress.scoring import score
from rulepress.scoring.result import ScoreResult
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import loaded
from tests.scoring.players import stationfall_player as player


def run(
    players: list[dict[str, Any]], table: dict[str, Any] | None = None, **kw: Any
) -> ScoreResult:
    state: dict[str, Any] = {"players": players}
    if table is not None:
        state["table"] = table
    spec = loaded("stationfall")
    return score(spec, check_state(spec, state, SourceMap(), "test"), **kw)


def line(institution: str, data: str, held: bool = True, points: int = 4) -> dict[str, Any]:
    return {
        "text": f"{points} if {institution} {'holds' if held else 'lacks'} {data}",
        "points": points,
        "held_after_data": {"institution": institution, "data": data, "held": held},
    }


def gives(state: str, *data: tuple[str, list[str]]) -> dict[str, Any]:
    return {"state": state, "data": [{"kind": k, "to": to} for k, to in data]}


def agenda(result: ScoreResult, pid: str) -> int:
    (p,) = [p for p in result.players if p.id == pid]
    return next(x.points for x in p.lines if x.score == "agenda_points")


@pytest.mark.parametrize(
    ("giver", "held", "expected"),
    [
        pytest.param("escaped", True, 4, id="escaped-gives-held-line-met"),
        pytest.param("live", True, 0, id="live-does-not-give"),
        pytest.param("escaped", False, 0, id="escaped-gives-not-held-line-fails"),
        pytest.param("live", False, 4, id="live-keeps-not-held-line"),
    ],
)
def test_a_line_about_holdings_follows_the_data_given(
    giver: str, held: bool, expected: int
) -> None:
    reader = player("Ada", agenda=[line("authorities", "evidence", held)])
    other = player("Boris", character=gives(giver, ("evidence", ["authorities"])))
    assert agenda(run([reader, other]), "Ada") == expected


def test_only_the_institution_and_kind_given_count() -> None:
    reader = player(
        "Ada", agenda=[line("news", "evidence", points=1), line("authorities", "nda", points=2)]
    )
    # Evidence to the Authorities and an NDA to the News: neither line's pair
    other = player(
        "Boris", character=gives("escaped", ("evidence", ["authorities"]), ("nda", ["news"]))
    )
    assert agenda(run([reader, other]), "Ada") == 0


def test_a_bonus_character_provides_data_and_copies_reach_every_institution() -> None:
    reader = player(
        "Ada",
        agenda=[line("news", "x_secret", points=1), line("authorities", "x_secret", points=2)],
    )
    bc = {"name": "Pilot", "kind": "friend", "symbols": 1, "state": "escaped"}
    other = player(
        "Boris", bonus_character={**bc, **gives("escaped", ("x_secret", ["news", "authorities"]))}
    )
    assert agenda(run([reader, other]), "Ada") == 3


def test_what_the_institutions_held_already_counts() -> None:
    reader = player("Ada", agenda=[line("news", "digital_assistant")])
    table = {"held_before_data": [{"institution": "news", "data": "digital_assistant"}]}
    assert agenda(run([reader], table), "Ada") == 4
    assert agenda(run([reader]), "Ada") == 0


def test_the_live_variant_lets_a_live_character_give() -> None:
    reader = player("Ada", agenda=[line("authorities", "evidence")])
    other = player("Boris", character=gives("live", ("evidence", ["authorities"])))
    assert agenda(run([reader, other], variants=["surviving_characters"]), "Ada") == 4


@pytest.mark.parametrize(
    ("giver", "variant", "expected"),
    [
        pytest.param("offsite", None, 0, id="offsite-gives-nothing-by-default"),
        # the Live-or-Escaped reading reads the state's words: Offsite is neither
        pytest.param("offsite", "surviving_characters", 0, id="offsite-not-live"),
        pytest.param("offsite", "escaped_or_offsite", 4, id="offsite-gives-under-its-reading"),
        pytest.param("live", "escaped_or_offsite", 0, id="live-does-not-give-there"),
        pytest.param("escaped", "escaped_or_offsite", 4, id="escaped-still-gives"),
    ],
)
def test_who_gives_data_under_each_reading(giver: str, variant: str | None, expected: int) -> None:
    reader = player("Ada", agenda=[line("authorities", "evidence")])
    other = player("Boris", character=gives(giver, ("evidence", ["authorities"])))
    variants = [variant] if variant else []
    assert agenda(run([reader, other], variants=variants), "Ada") == expected
    # the same reading decides whether Boris's own Evidence clears his Guilt (step 3)
    guilty = player("Boris", guilt="guilty", character=gives(giver, ("evidence", ["authorities"])))
    shown = run([guilty], variants=variants).players[0].shown["guilt"]
    assert shown == ("suspect" if expected else "guilty")


def test_an_offsite_character_scores_as_one_that_has_not_escaped() -> None:
    # Possession needs an Escaped holder; a Friend needs to have Escaped, a Grudge to be
    # Down (or Annihilated): Offsite is none of these, whichever reading gives it Data
    lines = [
        {"text": "3 if in Possession of the Gun", "points": 3, "met": True, "possession": True}
    ]
    for kind in ("friend", "grudge"):
        bc = {"name": "Pilot", "kind": kind, "symbols": 2, "state": "offsite"}
        ada = player("Ada", character={"state": "offsite"}, bonus_character=bc, agenda=lines)
        (result,) = run([ada], variants=["escaped_or_offsite"]).players
        assert {x.score: x.points for x in result.lines}["agenda_points"] == 0
        assert {x.score: x.points for x in result.lines}["bonus_points"] == 0


def test_a_failed_holdings_line_says_why() -> None:
    reader = player("Ada", agenda=[line("news", "evidence"), line("news", "nda", held=False)])
    other = player("Boris", character=gives("escaped", ("nda", ["news"])))
    (ada, _) = run([reader, other]).players
    (agenda_line,) = [x for x in ada.lines if x.score == "agenda_points"]
    reasons = [n.args["reason"]["template"] for n in agenda_line.notes]
    assert reasons == [
        "after Provide Data, that Institution does not hold this Data",
        "after Provide Data, that Institution holds this Data",
    ]


@pytest.mark.parametrize(
    ("character", "guilt"),
    [
        pytest.param(gives("escaped", ("evidence", ["authorities"])), "suspect", id="cleared"),
        pytest.param(gives("escaped", ("evidence", ["news"])), "guilty", id="to-the-news"),
        pytest.param(gives("escaped", ("nda", ["authorities"])), "guilty", id="not-evidence"),
        pytest.param(gives("live", ("evidence", ["authorities"])), "guilty", id="not-escaped"),
    ],
)
def test_own_evidence_to_the_authorities_clears_guilt(
    character: dict[str, Any], guilt: str
) -> None:
    result = run([player("Ada", guilt="guilty", character=character)])
    assert result.players[0].shown["guilt"] == guilt


def test_evidence_carried_by_the_bonus_character_clears_no_guilt() -> None:
    bc = {"name": "Pilot", "kind": "friend", "symbols": 1}
    ada = player(
        "Ada",
        guilt="guilty",
        bonus_character={**bc, **gives("escaped", ("evidence", ["authorities"]))},
    )
    assert run([ada]).players[0].shown["guilt"] == "guilty"


@pytest.mark.parametrize(
    ("identity", "winners"),
    [
        pytest.param("Engineer", ["Ada"], id="engineer"),
        # the card's id itself, as sets.win_while_guilty lists it, in any case
        pytest.param("engineer", ["Ada"], id="engineer-id"),
        pytest.param("ENGINEER", ["Ada"], id="engineer-capitals"),
        pytest.param("Pilot", [], id="pilot"),
        # a near miss, or the card's name in another language, is not the card
        pytest.param("Engineers", [], id="near-miss"),
        pytest.param("Inženýr", [], id="czech-name"),
    ],
)
def test_the_identity_decides_whether_a_guilty_player_can_win(
    identity: str, winners: list[str]
) -> None:
    result = run([player("Ada", identity=identity, guilt="guilty")])
    assert result.winners is not None
    assert result.winners.winners == winners


def test_a_line_gives_met_or_a_holdings_condition_never_both_nor_neither() -> None:
    both = {**line("news", "evidence"), "met": True}
    neither = {"text": "1 if nothing", "points": 1}
    spec = loaded("stationfall")
    with pytest.raises(StateError) as caught:
        check_state(spec, {"players": [player("Ada", agenda=[both, neither])]}, SourceMap(), "t")
    found = [(p.where, p.message) for p in caught.value.problems]
    message = (
        "an Agenda line gives either met (a free-form condition) or held_after_data (a "
        "condition on the Data the Institutions hold after step 3), and only one"
    )
    assert sorted(found) == [
        ("players[0].agenda[0]", message),
        ("players[0].agenda[1]", message),
    ]
