"""A line a ruling decided names the ruling and the option chosen, in the text and the JSON.

"Decided" means another option of that ruling would have changed the line:
an Annihilated Grudge scores only because Stationfall's grudge ruling counts
Annihilated as Down, and a "+" line under a Possession line whose holder
stayed on board scores only because the ruling on "+" lines reads the base
line's condition. A ruling that gives the same line either way is not named.
"""

from __future__ import annotations

import json

import pytest

from rulepress.i18n.runtime import localize
from rulepress.render.score_text import render_text
from rulepress.scoring import score
from rulepress.scoring.result import Line, ScoreResult, to_json
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import LOCALES, loaded
from tests.scoring.players import stationfall_player as player

PLAYERS = [
    # Ada's Grudge was annihilated: it scores its 2 symbols under the default ruling only
    player(
        "Ada",
        bonus_character={"name": "Medical", "kind": "grudge", "symbols": 2, "state": "annihilated"},
    ),
    # Boris's Possession line cannot score (his character stayed on board); its "+" line
    # scores 2 because its base line's condition is met
    player(
        "Boris",
        agenda=[
            {"text": "3 if you hold the Gold", "points": 3, "met": True, "possession": True},
            {"text": "+2 if you are on the Bridge", "points": 2, "met": True, "plus": True},
        ],
    ),
    # Chen's Grudge is Down: it scores under either reading, so no ruling is named
    player(
        "Chen", bonus_character={"name": "Captain", "kind": "grudge", "symbols": 1, "state": "down"}
    ),
]


def scored(
    lang: str = "en", variants: list[str] | None = None, cite: bool = True
) -> tuple[ScoreResult, str]:
    local = localize(loaded("stationfall"), lang, LOCALES)
    state = check_state(local.loaded, {"players": PLAYERS}, SourceMap(), "test")
    result = score(
        local.loaded, state, variants=variants, renderer=local.renderer, cite_rulings=cite
    )
    return result, render_text(result, local.loaded.spec, local.renderer.translate)


def line(result: ScoreResult, pid: str, score_id: str) -> Line:
    found = next(p for p in result.players if p.id == pid)
    return next(x for x in found.lines if x.score == score_id)


def cited(result: ScoreResult, pid: str, score_id: str) -> list[tuple[str, str]]:
    return [(c.ruling, c.option) for c in line(result, pid, score_id).rulings]


def test_each_line_names_the_rulings_that_decided_it() -> None:
    result, _ = scored()
    assert line(result, "Ada", "bonus_points").points == 2
    assert cited(result, "Ada", "bonus_points") == [("grudge_state", "not_live")]
    assert line(result, "Boris", "agenda_points").points == 2
    assert cited(result, "Boris", "agenda_points") == [("plus_line_base", "base_condition")]
    # the same ruling read, but its options agree here
    assert cited(result, "Chen", "bonus_points") == []
    # a ruling that decides nothing on the lines it reads (no cubes in any Betrayal Box)
    assert all(
        not x.rulings for p in result.players for x in p.lines if x.score == "excess_influence"
    )


def test_the_other_option_is_named_when_it_is_chosen() -> None:
    result, text = scored(variants=["down_only"])
    assert line(result, "Ada", "bonus_points").points == 0
    assert cited(result, "Ada", "bonus_points") == [("grudge_state", "down_only")]
    assert "· Ruling “Does an Annihilated Grudge score”: Down only" in text


#: the sentence under Ada's Bonus line, by language (the ruling's and the option's titles
#: are the spec's, in its catalog's words)
GRUDGE_RULING = {
    "en": "· Ruling “Does an Annihilated Grudge score”: Down or Annihilated",
    "cs": "· Výklad „Boduje anihilovaný nepřítel“: Vyřazená nebo anihilovaná",
    "ja": "· 裁定「消滅した恨みの相手は得点になるか」：ダウンまたは消滅",
}
#: the option under Boris's Agenda line
PLUS_OPTION = {
    "en": "The base line’s condition",
    "cs": "Podmínka základního řádku",
    "ja": "基準行の条件",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_the_text_report_names_the_ruling_under_the_line(lang: str) -> None:
    _, text = scored(lang)
    lines = [row.strip() for row in text.splitlines()]
    # under the line it decided: after the note on Ada's Grudge (the first time it is
    # named; the winners name it too, as both rulings decide the tie of Ada and Boris)
    assert "Medical" in lines[lines.index(GRUDGE_RULING[lang]) - 1], text
    # and after Boris's "+" line, the ruling on "+" lines
    plus = next(i for i, row in enumerate(lines) if row.startswith("· +2"))
    assert lines[plus + 1].endswith(PLUS_OPTION[lang]), text
    assert lines[plus + 1].startswith(GRUDGE_RULING[lang][:5])


def test_the_json_carries_the_ruling_and_its_sentence() -> None:
    result, _ = scored()
    data = json.loads(to_json(result))
    ada = next(p for p in data["players"] if p["id"] == "Ada")
    bonus = next(x for x in ada["lines"] if x["score"] == "bonus_points")
    (choice,) = bonus["rulings"]
    assert (choice["ruling"], choice["option"]) == ("grudge_state", "not_live")
    assert choice["note"]["template"] == "Ruling {ruling}: {option}"
    assert (
        choice["note"]["text"] == "Ruling “Does an Annihilated Grudge score”: Down or Annihilated"
    )


def test_the_header_names_rulings_and_options_by_their_titles() -> None:
    _, text = scored(variants=["down_only", "cards_only"])
    header = text.splitlines()[1]
    assert header == (
        "Rulings: “Does an Annihilated Grudge score”: Down only; "
        "“Which cubes count against the Influence Limit”: Cubes on cards only"
    )
    assert "down_only" not in text
    assert "cards_only" not in text


def test_rulings_are_named_only_when_asked() -> None:
    result, _ = scored(cite=False)
    assert all(not x.rulings for p in result.players for x in p.lines)


def test_an_event_and_the_winners_name_the_ruling_that_decided_them() -> None:
    # Yusuf's character is Live, not Escaped: only the "Live or Escaped" reading lets him
    # hand over his Evidence, lose his guilt and win
    yusuf = player(
        "Yusuf",
        guilt="guilty",
        character={"state": "live", "data": [{"kind": "evidence", "to": ["authorities"]}]},
        agenda=[{"text": "5 if the Reactor blew", "points": 5, "met": True}],
    )
    other = player("Xenia", agenda=[{"text": "1 if you Escaped", "points": 1, "met": True}])
    local = localize(loaded("stationfall"), "en", LOCALES)
    state = check_state(local.loaded, {"players": [yusuf, other]}, SourceMap(), "test")
    result = score(local.loaded, state, variants=["surviving_characters"], cite_rulings=True)
    (event,) = result.events
    assert [(c.ruling, c.option) for c in event.rulings] == [
        ("data_providers", "surviving_characters")
    ]
    assert result.winners is not None
    assert result.winners.winners == ["Yusuf"]
    assert [c.ruling for c in result.winners.rulings] == ["data_providers"]
    result = score(
        local.loaded,
        state,
        variants=["surviving_characters"],
        renderer=local.renderer,
        cite_rulings=True,
    )
    text = render_text(result, local.loaded.spec)
    assert text.count("· Ruling “Who may provide Data”: Live or Escaped characters") == 2


def test_the_runs_that_cite_rulings_share_one_plan() -> None:
    # one run per other option of every ruling: each compiling a plan of its own took most
    # of a `rulepress score` that cites them; they read the rulings as data from one plan
    from rulepress.scoring import engine

    spec = loaded("stationfall").spec
    others = sum(len(r.options) - 1 for r in spec.rulings)
    assert others >= 3  # enough runs that sharing shows
    kept = dict(engine._PLANS)
    engine._PLANS.clear()
    try:
        scored()
        assert len(engine._PLANS) == 2  # the cited result's, and the one the runs share
    finally:
        engine._PLANS.clear()
        engine._PLANS.update(kept)
