"""Choices that come with their alternative, arithmetic in full, rates of 1 explained.

Every decision an optimizer makes (a choice tried in every combination, an
item's use) is noted with its worth and the best option it passed over, in
the text and in the JSON; a kind's arithmetic is written out ("3 × 3 = 9"),
without "× 1", and a rate of 1 says why; a sequence that works out amounts
(an economy) is not headed "Score". Brink is the real case; a small
component of no game shows the operation is generic.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from rulepress.expressions.records import fields_record
from rulepress.operations.weighted_counts import WeightedCountsComponent, _weighted
from rulepress.scoring.components import Outcome
from rulepress.scoring.notes import NoteRenderer
from rulepress.scoring.result import to_json
from tests.conftest import loaded
from tests.scoring.reports import example_report, example_result

LANGS = ["en", "cs", "ja"]


#: the example's localized game and result, and its text report (tests/scoring/reports.py)
_result = example_result
report = example_report


# what the choice example's report says, in each language: the option chosen
# with its worth and the best other's; the card's use and the use passed over
CHOICE_LINES = {
    "en": [
        "Discover Sorelia counts for Komek: adds 5; the best other, Ventus, would add 4",
        "Prestigious Maneuvers (Komek): kept for its prestige: 2, scored in its own step;"
        " the best other use, as influence (Komek): 1",
    ],
    "cs": [
        "Objevení Sorelia platí pro frakci Komek: přináší 5; nejlepší jiná možnost, Ventus,"
        " by přinesla 4",
        # the card's name in the state is a game message: Czech names it as its termbase does
        "Prestižní manévry (Komek): ponecháno kvůli prestiži: 2, boduje se ve vlastním"
        " kroku; nejlepší jiné použití, jako vliv (Komek): 1",
    ],
    "ja": [
        "「Soreliaの発見」の割り当て先：Komek（5点を加算）。次善のVentusなら4点",
        "Prestigious Maneuvers (Komek)：名声のために残す：2（専用のステップで得点）。"
        "次善の使い方は影響力として（Komek）：1",
    ],
}


def test_the_alternative_is_carried_in_the_json() -> None:
    _, result = _result("en", "choice-with-its-alternative")
    line = next(
        ln
        for ln in json.loads(to_json(result))["players"][0]["lines"]
        if ln["score"] == "influence_points"
    )
    choice, *_, card = line["notes"]
    assert choice["args"] | {"choice": None} == {
        "choice": None,
        "option": "komek",
        "points": 5,
        "other": "Ventus",
        "other_option": "ventus",
        "other_points": 4,
    }
    assert (card["args"]["use"], card["args"]["other_use"]) == ("maneuver", "as-influence")
    assert (card["args"]["chosen"]["args"]["points"], card["args"]["other_points"]) == (2, 1)


# the wild units' arithmetic in full, naming the kind whose rate they take
WILD_LINES = {
    "en": "Sorelia influence, each at the rate of Ventus: 3 × 3 = 9",
    "cs": "vliv Sorelia, každý za sazbu frakce Ventus: 3 × 3 = 9",
    "ja": "Soreliaの影響力（いずれもVentusの倍率）：3 × 3 = 9",
}


# a rate of 1: no "× 1", and why the unit counts once (said once for the step)
RATE_LINES = {
    "en": ["1 per unit (each cube counts once)", "Ventus: -1"],
    "cs": ["1 za kus (každá kostka se počítá jednou)", "Ventus: \u22121"],
    "ja": ["各1（各キューブを1つとして数えます）", "Ventus：\u22121"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_rate_of_one_is_explained_without_times_one(lang: str) -> None:
    text = report(lang, "trading-favors").replace("\u00a0", " ")
    for line in RATE_LINES[lang]:
        assert line in text, text
    for example in ("trading-favors", "railgun-class-two", "full-game-clear-winner"):
        assert not re.search(r"×\s?1\s?[=＝]", report(lang, example))


# a rate of 1 among other rates: said with its reason, after the count
ONCE_LINES = {
    "en": "Ventus: 2, at 1 per unit (council bonus for 2 council wins)",
    "cs": "Ventus: 2, po 1 za kus (bonus rady za 2 vítězství v radě)",
    "ja": "Ventus：2（各1：評議会での勝利2回による評議会ボーナス）",
}


PLAY_LINES = {
    "en": ["council scoring during the game: 41", "the top space of the Upgrade Board: 15"],
    "cs": ["bodování rady během hry: 41", "nejvyšší políčko desky vylepšení: 15"],
    "ja": ["ゲーム中の評議会の得点計算：41", "アップグレードボードの一番上のマス：15"],
}


HEADINGS = {"en": ("Quantity", "Score"), "cs": ("Veličina", "Bodování"), "ja": ("項目", "得点")}


@pytest.mark.parametrize("lang", LANGS)
def test_an_economy_report_is_not_headed_score(lang: str) -> None:
    quantity, score = HEADINGS[lang]
    economy = report(lang, "trading-favors").splitlines()
    end = report(lang, "full-game-clear-winner").splitlines()
    economy_head = next(line for line in economy if quantity in line)
    assert score not in economy_head
    assert any(score in line for line in end)
    assert not any(quantity in line for line in end)


def _component(**extra: Any) -> WeightedCountsComponent:
    """A component of no game: two kinds, a bonus kind picked, a wild and a token."""
    return WeightedCountsComponent.model_validate(
        {
            "op": "weighted_counts",
            "kinds": {"red": "red", "blue": "blue"},
            "count": "get(counts, kind)",
            "choices": [
                {"name": "pick", "options": "['red', 'blue']", "note": "bonus on {choice}"}
            ],
            "multiplier": [
                {"value": "1", "note": "base"},
                {"when": "kind == pick", "value": "2", "note": "bonus"},
            ],
            **extra,
        }
    )


def _texts(outcome: Outcome) -> list[str]:
    renderer = NoteRenderer.english(loaded("brink").spec)
    return [renderer.text(n.template, n.args) for n in outcome.notes]


def test_any_games_choice_gets_its_alternative() -> None:
    comp = _component(
        wild="wilds",
        wild_value="max(get(multipliers, k) for k in ['red', 'blue'])",
        wild_as="first(k for k in ['red', 'blue'] if get(multipliers, k) == 3)",
        wild_as_note="wild as {kind}: {count} × {value} = {points}",
        item_uses={
            "items": "tokens",
            "item": "token",
            "label": "'token'",
            "uses": [
                {"id": "unit", "title": "as a unit", "kind": "'blue'"},
                {"id": "flat", "title": "flat", "value": "2"},
            ],
        },
    )
    ns = {"counts": fields_record({"red": 3, "blue": 2}), "wilds": 1, "tokens": [None]}
    outcome = _weighted(comp, ns, {})
    assert outcome.export["pick"] == "red"
    assert _texts(outcome) == [
        # against no pick (8 in all): red 16, blue 15 (its token then worth 3 as a unit)
        "bonus on red: adds 8; the best other, blue, would add 7",
        "red: 3 × 3 = 9",
        "red: 3 per unit (base and bonus)",
        "blue: 2, at 1 per unit (base)",
        "wild as red: 1 × 3 = 3",
        "token: flat: 2; the best other use, as a unit (blue): 1",
    ]


def test_a_rate_shared_by_every_kind_is_said_once() -> None:
    comp = WeightedCountsComponent.model_validate(
        {
            "op": "weighted_counts",
            "kinds": {"red": "red", "blue": "blue"},
            "count": "get(counts, kind)",
            "multiplier": [{"value": "1", "note": "each counts once"}],
        }
    )
    outcome = _weighted(comp, {"counts": fields_record({"red": 3, "blue": -1})}, {})
    assert _texts(outcome) == ["1 per unit (each counts once)", "red: 3", "blue: -1"]


def test_a_choice_with_one_option_open_says_what_it_adds_alone() -> None:
    comp = _component()
    comp = comp.model_copy(
        update={"choices": [comp.choices[0].model_copy(update={"options": "['blue']"})]}
    )
    outcome = _weighted(comp, {"counts": fields_record({"red": 3, "blue": 2})}, {})
    # blue at 1 + 2 per unit: 6 against 2 without the pick; no other option to compare
    assert _texts(outcome)[0] == "bonus on blue: adds 4"


# the grouping of ambassador sets the scorer chose, against the best of other set sizes
GROUPING_LINES = {
    "en": "grouped as sets of 4, 2, and 1: 25; the best other grouping, sets of 4, 1, 1, and 1,"
    " would give 24",
    "cs": "rozdělení do sad velikosti 4, 2 a 1: 25; nejlepší jiné rozdělení, sady velikosti"
    " 4, 1, 1 a 1, by dalo 24",
    "ja": "4、2、1枚のセットに分ける：25。次善の分け方（4、1、1、1枚のセット）なら24",
}


def test_the_grouping_alternative_is_carried_in_the_json() -> None:
    _, result = _result("en", "ambassadors-several-sorelia")
    line = next(
        ln
        for ln in json.loads(to_json(result))["players"][0]["lines"]
        if ln["score"] == "ambassador_sets"
    )
    assert line["notes"][0]["args"] == {
        "sizes": [4, 2, 1],
        "points": 25,
        "other_sizes": [4, 1, 1, 1],
        "other_points": 24,
    }


# a kind held that no rate applies to: "× 0 = 0", and why
NO_RATE_LINES = {
    "en": "Komek: 3 × 0 = 0 (neither an objective nor a council bonus gives Komek a rate)",
    "cs": "Komek: 3 × 0 = 0 (frakci Komek nedává sazbu žádný cíl ani bonus rady)",
    "ja": "Komek：3 × 0 = 0（Komekには目標も評議会ボーナスもないため倍率がありません）",
}


def test_a_rate_of_zero_is_explained_in_any_game() -> None:
    """A component of no game, with no text of its own for it, still says why."""
    comp = _component(
        choices=[], multiplier=[{"when": "kind == 'red'", "value": "2", "note": "red's bonus"}]
    )
    outcome = _weighted(comp, {"counts": fields_record({"red": 1, "blue": 3})}, {})
    assert "blue: 3 × 0 = 0 (no rate applies to it)" in _texts(outcome)


#: what the reports say, in each language, by what they show: the example and its lines
SAID: dict[str, tuple[str, dict[str, list[str]]]] = {
    "a-choice-with-its-best-alternative": ("choice-with-its-alternative", CHOICE_LINES),
    "wild-units-in-full-and-whose-rate": (
        "discover-sorelia-best-faction",
        {lang: [line] for lang, line in WILD_LINES.items()},
    ),
    "a-rate-of-one-among-others-and-why": (
        "full-game-clear-winner",
        {lang: [line] for lang, line in ONCE_LINES.items()},
    ),
    "play-prestige-amounts": ("full-game-clear-winner", PLAY_LINES),
    "a-grouping-against-the-best-other": (
        "ambassadors-several-sorelia",
        {lang: [line] for lang, line in GROUPING_LINES.items()},
    ),
    "a-rate-of-zero-and-why": (
        "discover-sorelia-best-faction",
        {lang: [line] for lang, line in NO_RATE_LINES.items()},
    ),
}


@pytest.mark.parametrize(("shown", "lang"), [(shown, lang) for shown in SAID for lang in LANGS])
def test_the_report_says_it_in_every_language(shown: str, lang: str) -> None:
    example, lines = SAID[shown]
    text = report(lang, example).replace("\u00a0", " ")
    for line in lines[lang]:
        assert line in text, text
