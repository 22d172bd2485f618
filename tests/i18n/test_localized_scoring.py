"""The scorer in Czech and Japanese: labels, rule titles, notes, tie-break trace, numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulepress.i18n.catalogs import find_catalog, render
from rulepress.i18n.runtime import LocaleNumbers
from tests.conftest import DATA, LOCALES, ROOT, catalog_copy, run_main

STATE = str((DATA / "states" / "stationfall-four-players.yaml").relative_to(ROOT))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("cs", ["Úkoly", "Celkem", "Kdo vyhrál", "Pravidlo", "Podezřelý"]),
        ("ja", ["アジェンダ", "合計", "勝者", "ルール", "容疑者"]),
    ],
)
def test_text_report_is_in_the_language(lang: str, words: list[str]) -> None:
    result = run_main("score", "stationfall", STATE, "--lang", lang)
    assert result.code == 0, result.err
    assert result.err == ""  # complete catalogs: no fallback warning
    for word in words:
        assert word in result.out, (word, result.out)
    assert "16.4.8" in result.out  # rule numbers are the same in every language


def test_json_texts_are_translated_and_data_is_not() -> None:
    en = json.loads(
        run_main("score", "brink", "--example", "council-tie-order", "--format", "json").out
    )
    ja = json.loads(
        run_main(
            "score", "brink", "--example", "council-tie-order", "--format", "json", "--lang", "ja"
        ).out
    )
    assert ja["language"] == "ja"
    assert ja["tallies"][0]["totals"] == en["tallies"][0]["totals"]
    assert ja["tallies"][0]["ranking"] == en["tallies"][0]["ranking"]
    assert [p["total"] for p in ja["players"]] == [p["total"] for p in en["players"]]
    assert ja["players"][0]["lines"][0]["title"] != en["players"][0]["lines"][0]["title"]
    assert ja["tallies"][0]["ties"][0]["text"] != en["tallies"][0]["ties"][0]["text"]
    # the arguments travel with the text, identical in every language
    assert (
        ja["tallies"][0]["ties"][0]["args"]["votes"] == en["tallies"][0]["ties"][0]["args"]["votes"]
    )
    assert "{votes}" in ja["tallies"][0]["ties"][0]["template"]


def test_tie_break_trace_in_czech() -> None:
    result = run_main(
        "score", "stationfall", "--example", "tie-fewest-betrayal-cubes", "--lang", "cs"
    )
    assert result.code == 0
    assert "16.4.8" in result.out
    assert "Nejméně kostek na poli zrady" in result.out or "poli zrady" in result.out


def test_numbers_follow_the_locale() -> None:
    assert LocaleNumbers("cs")(1234) == "1\u00a0234"
    assert LocaleNumbers("ja")(1234) == "1,234"
    assert LocaleNumbers("cs")(-3) in ("-3", "\u22123")


def test_czech_plural_forms_in_the_interface() -> None:
    with find_catalog(LOCALES, "cs", "rulepress").open("rb") as fp:
        catalog = read_po(fp)
    plural = next(m for m in catalog if isinstance(m.id, tuple) and m.context == "winners.places")
    assert catalog.num_plurals == 3
    assert len(plural.string) == 3
    assert all(plural.string)
    one = run_main("score", "stationfall", "--example", "plus-line-voided", "--lang", "cs").out
    two = run_main(
        "score", "stationfall", "--example", "six-players-two-winners", "--lang", "cs"
    ).out
    three = run_main(
        "score", "stationfall", "--example", "nine-players-three-winners", "--lang", "cs"
    ).out
    assert plural.string[0].split("{places}")[1].split()[0] in one  # 1 … místo
    assert plural.string[1].split("{places}")[1].split()[0] in two  # 2 … místa
    assert plural.string[1].split("{places}")[1].split()[0] in three  # 3 … místa


def test_missing_translation_falls_back_with_a_warning(tmp_path: Path) -> None:
    locales, po, catalog = catalog_copy(tmp_path, "cs", "stationfall")
    target = catalog.get("Agenda", "sequences/stationfall-sequence/steps/4a/score/title")
    step = next(m for m in catalog if m.context == "sequences/stationfall-sequence/steps/5/title")
    assert target is not None
    target.string = ""
    step.flags.add("fuzzy")
    po.write_bytes(render(catalog))
    result = run_main("score", "stationfall", STATE, "--lang", "cs", "--locales", str(locales))
    assert result.code == 0
    assert (
        "warning: 2 message(s) of stationfall have no Czech translation; shown in English"
        in result.err
    )
    assert "Step 5 (16.4.8)" not in result.out  # the interface is still Czech
    assert "  4a    16.4.4          Agenda" in result.out  # the blank title falls back to English


def test_one_english_text_in_two_contexts_keeps_both_translations() -> None:
    import pickle

    from rulepress.i18n.runtime import localize
    from rulepress.render.pages import T
    from rulepress.render.score_text import LABELS
    from tests.conftest import loaded

    renderer = localize(loaded("stationfall"), "cs", LOCALES).renderer
    # "Who wins": a rule's heading on the scoring page, and over a finished game's result
    assert T["tiebreak"] == LABELS["winners"] == "Who wins"
    assert renderer.translate(T["tiebreak"]) == "Kdo vyhrává"
    assert renderer.translate(LABELS["winners"]) == "Kdo vyhrál"
    assert renderer.text(T["tiebreak"], {}) == "Kdo vyhrává"
    assert renderer.text(LABELS["winners"], {}) == "Kdo vyhrál"
    copy = pickle.loads(pickle.dumps(LABELS["winners"]))
    assert (copy, copy.context) == ("Who wins", "report.heading")
