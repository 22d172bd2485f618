"""The winners' trace says what happened: who won outright, who shares, what was looked at.

Each state is built by hand and its outcome worked out by hand from
Stationfall's rules (16.4.8: most points, then fewest cubes in the Betrayal
Box, then most unused cubes; 1 winner up to 5 players, 2 for 6 to 8, 3 for 9).
Wording is checked in every language of the game, since plural forms
differ: Czech has three, Japanese one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulepress.i18n.runtime import localize
from rulepress.render.score_text import render_text
from rulepress.scoring import score
from rulepress.scoring.engine import PLACES_NOTE, places_args
from rulepress.scoring.result import ScoreResult, to_json
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import LOCALES, loaded
from tests.scoring.players import stationfall_player


def player(
    pid: str, points: int, box: int = 1, supply: int = 3, guilt: str = "innocent"
) -> dict[str, Any]:
    """A player who ends with ``points`` (one met Agenda line, nothing else scores).

    The rest of the 8 cubes are on cards, within the Influence Limit.
    """
    return stationfall_player(
        pid,
        guilt=guilt,
        agenda=[{"points": points, "met": True}],
        cubes={"supply": supply, "on_cards": 8 - supply - box, "betrayal_box": box},
    )


def scored(players: list[dict[str, Any]], lang: str = "en") -> tuple[ScoreResult, str]:
    """The result and the text report in ``lang``."""
    local = localize(loaded("stationfall"), lang, LOCALES)
    state = check_state(local.loaded, {"players": players}, SourceMap(), "test")
    result = score(local.loaded, state, renderer=local.renderer)
    return result, render_text(result, local.loaded.spec, local.renderer.translate)


def trace(result: ScoreResult) -> list[str]:
    assert result.winners is not None
    return [step.note.text for step in result.winners.trace]


def conclusion(result: ScoreResult) -> str:
    assert result.winners is not None
    return result.winners.conclusion.text


# --------------------------------------------------------------------- only the tied share

#: 6 players, so 2 winning places: A leads alone; B and C are tied on every criterion
#: for the one place left
OUTRIGHT_AND_SHARED = [
    player("A", 12),
    player("B", 10),
    player("C", 10),
    player("D", 5),
    player("E", 4),
    player("F", 3),
]

SHARED_CONCLUSION = {
    "en": "A wins outright. No tie-break separates them: B and C share the last winning place.",
    "cs": "A vyhrává jednoznačně. Žádné rozhodovací kritérium je nerozliší: "
    "B a\u00a0C se dělí o poslední vítězné místo.",
    "ja": "Aは同点なしで勝者に決まりました。"
    "どのタイブレークでも差がつきません。B、Cが最後の勝者枠を分け合います。",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_only_the_players_still_tied_share(lang: str) -> None:
    result, _ = scored(OUTRIGHT_AND_SHARED, lang)
    assert result.winners is not None
    assert result.winners.winners == ["A", "B", "C"]
    assert (result.winners.decided_by, result.winners.shared) == ("shared", True)
    assert conclusion(result) == SHARED_CONCLUSION[lang]


def test_the_json_gives_a_nested_sentence_by_its_msgid() -> None:
    result, _ = scored(OUTRIGHT_AND_SHARED, "cs")
    data = json.loads(to_json(result))["winners"]["conclusion"]
    assert data["template"] == "{winners} wins outright. {tie}"
    assert data["args"]["tie"] == {
        "template": "No tie-break separates them: {tied} share the last winning place.",
        "args": {"tied": ["B", "C"], "room": 1},
    }
    assert data["text"] == SHARED_CONCLUSION["cs"]


def test_the_trace_names_the_outright_winner_and_then_the_tie() -> None:
    result, _ = scored(OUTRIGHT_AND_SHARED)
    assert trace(result) == [
        "Most points: A 12, B 10, C 10, D 5, E 4, F 3. A wins. "
        "Still tied for the last winning place: B and C.",
        "Fewest cubes in the Betrayal Box: B 1, C 1. "
        "Still tied for the last winning place: B and C.",
        "Most unused cubes: B 3, C 3. Still tied for the last winning place: B and C.",
    ]
    assert {p.id: p.rank for p in result.players} == {
        "A": 1,
        "B": 2,
        "C": 2,
        "D": 4,
        "E": 5,
        "F": 6,
    }


def test_three_tied_for_two_places_share_both() -> None:
    # 9 players, 3 places: A leads; B, C and D tie on everything for the last two
    players = [player("A", 12), *(player(p, 10) for p in "BCD")]
    players += [player(p, 9 - i) for i, p in enumerate("EFGHI")]
    result, _ = scored(players)
    assert result.winners is not None
    assert result.winners.winners == ["A", "B", "C", "D"]
    assert conclusion(result) == (
        "A wins outright. No tie-break separates them: B, C, and D share the last winning places."
    )
    assert trace(result)[0].endswith("A wins. Still tied for the last winning places: B, C, and D.")


def test_a_tie_for_the_only_place_shares_the_win() -> None:
    result, _ = scored([player("A", 8), player("B", 8), player("C", 2)])
    assert conclusion(result) == "No tie-break separates them: A and B share the win."
    assert trace(result)[0] == (
        "Most points: A 8, B 8, C 2. Still tied for the winning place: A and B."
    )


# --------------------------------------------------- only the criteria the game applied

#: 6 players, 2 places: B and D tie on 11 and both win on points. D has fewer cubes in
#: the Betrayal Box, and E fewer than F, but the game never looks at them.
TIE_WITHIN_THE_PLACES = [
    player("A", 8),
    player("B", 11, box=3),
    player("C", 7),
    player("D", 11, box=0),
    player("E", 2, box=0),
    player("F", 2, box=3),
]


def test_a_tie_inside_the_winning_places_is_not_broken() -> None:
    result, _ = scored(TIE_WITHIN_THE_PLACES)
    assert result.winners is not None
    assert result.winners.winners == ["B", "D"]
    assert result.winners.decided_by == "most-points"
    # listed by points alone, equal points in turn order: no "D, B"
    assert trace(result) == ["Most points: B 11, D 11, A 8, C 7, E 2, F 2. B and D win."]
    assert conclusion(result) == "Winners: B and D."


def test_ranks_count_only_the_criteria_applied() -> None:
    result, _ = scored(TIE_WITHIN_THE_PLACES)
    ranks = {p.id: p.rank for p in result.players}
    assert ranks == {"B": 1, "D": 1, "A": 3, "C": 4, "E": 5, "F": 5}


def test_a_later_criterion_ranks_only_the_players_it_split() -> None:
    # 1 place: A and B tie on points and the Betrayal Box splits them; C and D tie on
    # points too, below them, and are never compared by it
    players = [
        player("A", 9, box=2),
        player("B", 9, box=1),
        player("C", 5, box=0),
        player("D", 5, box=3),
    ]
    result, _ = scored(players)
    assert {p.id: p.rank for p in result.players} == {"B": 1, "A": 2, "C": 3, "D": 3}
    assert trace(result)[1] == "Fewest cubes in the Betrayal Box: B 1, A 2. B wins."


# ---------------------------------------------------------------------------- plurals

PLACES = {
    # (places, players) → the sentence
    "en": {
        (1, 1): "1 winning place with 1 player.",
        (1, 3): "1 winning place with 3 players.",
        (2, 6): "2 winning places with 6 players.",
        (3, 9): "3 winning places with 9 players.",
    },
    "cs": {
        (1, 1): "1 vítězné místo pro 1 hráče.",
        (1, 3): "1 vítězné místo pro 3 hráče.",
        (2, 6): "2 vítězná místa pro 6 hráčů.",
        (3, 9): "3 vítězná místa pro 9 hráčů.",
        (5, 21): "5 vítězných míst pro 21 hráčů.",
    },
    "ja": {
        (1, 1): "1人プレイでは勝者枠は1つです。",
        (3, 9): "9人プレイでは勝者枠は3つです。",
    },
}


@pytest.mark.parametrize(
    ("lang", "places", "players", "text"),
    [(lang, p, n, text) for lang, cases in PLACES.items() for (p, n), text in cases.items()],
)
def test_places_and_players_each_take_their_own_plural(
    lang: str, places: int, players: int, text: str
) -> None:
    renderer = localize(loaded("stationfall"), lang, LOCALES).renderer
    assert renderer.text(PLACES_NOTE, places_args(places, players)) == text


ONLY_ONE = {
    "en": "A is the only player who can win, and wins.",
    "cs": "Vyhrát může jen A, a tak vyhrává.",
    "ja": "勝利できるのはAだけで、勝者枠に収まるので、そのまま勝者になります。",
}
ONLY_TWO = {
    "en": "Only A and B can win, no more than there are winning places: they all win.",
    "cs": "Vyhrát mohou jen A a\u00a0B, tedy nejvýš tolik hráčů, kolik je vítězných míst: "
    "vyhrávají všichni.",
    "ja": "勝利できるのはA、Bだけで、勝者枠に収まるので、そのまま勝者になります。",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_one_player_who_can_win_is_not_all_of_them(lang: str) -> None:
    guilty = [player(p, 20, guilt="guilty") for p in "BCDEF"]
    result, _ = scored([player("A", 1), *guilty], lang)
    assert conclusion(result) == ONLY_ONE[lang]
    result, _ = scored([player("A", 1), player("B", 2), *guilty[1:]], lang)
    assert conclusion(result) == ONLY_TWO[lang]


def test_can_win_is_said_only_where_someone_cannot() -> None:
    _, everyone = scored([player("A", 3), player("B", 2)])
    assert "can win" not in everyone
    assert "\n  rank 1\n" in everyone
    _, one_guilty = scored([player("A", 3), player("B", 2, guilt="guilty")])
    assert "\n  can win; rank 1\n" in one_guilty
    assert "\n  cannot win: Guilty players cannot win\n" in one_guilty


# ------------------------------------------------------------ keys of three criteria


@pytest.mark.parametrize("bad", [0, 1, 2])
def test_a_highest_key_that_is_no_number_is_refused_in_turn(bad: int) -> None:
    # Stationfall's three criteria are read in one go (winners.decide): each key is
    # still read and negated in turn, so a text where a 'highest' key needs a number
    # is refused as such, before a later key is read
    from rulepress.expressions import ExpressionEvalError
    from rulepress.scoring import winners

    step = next(s for s in loaded("stationfall").spec.sequences[0].steps if s.winners)
    rule = step.winners
    assert rule is not None
    assert len(rule.criteria) == 3
    read: list[int] = []

    def key(index: int) -> Any:
        def value(ns: Any, fns: Any = None) -> Any:
            read.append(index)
            return "text" if index == bad else 1

        return value

    def note(template: Any, args: Any) -> Any:
        raise AssertionError("no note is made without the trace")

    compiled = (lambda ns, fns=None: True, tuple((key(i), True) for i in range(3)))
    choices = winners.Choices("share", False, [True, True, True])
    with pytest.raises(ExpressionEvalError, match="'highest' tie-break key must be a number"):
        winners.decide(rule, 1, ["A", "B"], lambda i: {}, {}, note, compiled, choices, trace=False)
    assert read == list(range(bad + 1))
