"""The translator checks of issue 26 one by one: English left in, number words, Japanese punctuation.

Each function is called on one msgid/msgstr pair, with what it must find and
what it must let pass; the whole of `i18n check` on real catalogs is in
tests/i18n/test_translator_mistakes.py.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rulepress.i18n.english_left import english_issues
from rulepress.i18n.number_words import target_words, word_issues
from rulepress.i18n.qa import Terms, check_message
from rulepress.i18n.reader_text import RawIds, japanese_punctuation
from rulepress.i18n.terms import CheckedTerms
from rulepress.i18n.vocabulary import Vocabulary

SENTENCE = "The player with the most [prestige](term:prestige) wins ({rule:16.4})."


# ------------------------------------------------------------ English left in


@pytest.mark.parametrize(
    ("msgstr", "finding"),
    [
        (SENTENCE, "the translation is the English text"),
        # disguised: a zero-width space in each word, a no-break space, full-width letters
        (
            "The\u200b player\u200b with\u00a0the most [prestige](term:prestige) wins ({rule:16.4}).",
            "the translation is the English text",
        ),
        ("Ｔｈｅ ｐｌａｙｅｒ with the most [prestige](term:prestige) wins ({rule:16.4}).", "the"),
        # half translated: the rest of the sentence still English
        (
            "Vítězí the player with the most [prestiže](term:prestige) ({rule:16.4}).",
            "mostly English words left in the translation: the, player, with, most",
        ),
        ("最も[prestige](term:prestige)の多いplayer with the most wins（{rule:16.4}）。", "mostly"),
    ],
)
def test_english_left_in_is_an_error(msgstr: str, finding: str) -> None:
    found = english_issues(SENTENCE, msgstr)
    assert [error for _, error in found] == [True]
    assert found[0][0].startswith(finding)


@pytest.mark.parametrize(
    ("msgid", "msgstr", "kept"),
    [
        (SENTENCE, "Vítězí hráč s nejvíce [prestiže](term:prestige) ({rule:16.4}).", ()),
        # names the msgid capitalises mid-sentence (cards, players) stay as printed
        (
            "Tomas gives Bill Bendo and the Reassignment Order to Ada.",
            "Bill Bendo a Reassignment Order dá Tomas Adě.",
            (),
        ),
        # the words a language keeps: faction names from the spec, the termbase's renderings
        (
            "Komek, Henko and Ventus cubes score power.",
            "Kostky Komek, Henko a Ventus dávají sílu.",
            ("komek", "henko", "ventus"),
        ),
        ("Prestigious Maneuvers", "Prestigious Maneuvers", ("prestigious", "maneuvers")),
        # printed keywords and acronyms, one-letter words
        ("TURN card of the UA", "Karta TURN frakce UA", ()),
        ("Class I ship", "クラスIの船", ()),
    ],
)
def test_what_a_language_keeps_in_english_passes(msgid: str, msgstr: str, kept: tuple[str]) -> None:
    assert english_issues(msgid, msgstr, kept) == []


def test_a_title_in_title_case_has_no_names_to_excuse() -> None:
    """Capitals in a heading say nothing: "Council Scoring" left as it is is still reported."""
    found = english_issues("Council Scoring Rules", "Council Scoring Rules")
    assert found == [("the translation is the English text", True)]


def test_one_or_two_words_equal_to_their_english_are_the_translators_decision() -> None:
    """ "Partner" is Czech too, a card keeps its printed name: as the gate, QA lets them be."""
    assert english_issues("Partner", "Partner") == []
    assert english_issues("Reassignment Order", "Reassignment Order") == []


def test_the_kept_words_reach_the_check_through_the_terms() -> None:
    msgid, msgstr = "Komek Henko Ventus", "Komek Henko Ventus"
    plain = check_message_issues(msgid, msgstr, Terms.empty())
    kept = check_message_issues(
        msgid, msgstr, CheckedTerms({}, {}, Vocabulary(), frozenset({"komek", "henko", "ventus"}))
    )
    assert "the translation is the English text" in plain
    assert kept == []


def check_message_issues(msgid: str, msgstr: str, terms: Terms) -> list[str]:
    from babel.messages.catalog import Message

    return [issue.message for issue in check_message(Message(msgid, msgstr), "cs", terms)]


# ------------------------------------------------------------ number words


def test_czech_and_japanese_number_words_are_read_with_their_forms() -> None:
    assert target_words("pět, pěti, dvě, dvou, třikrát, devíti, dvacet jedna", "cs") == [
        ("pět", 5),
        ("pěti", 5),
        ("dvě", 2),
        ("dvou", 2),
        ("třikrát", 3),
        ("devíti", 9),
        ("dvacet jedna", 21),
    ]
    # 一 is part of words (一番, 一部), 十分 is "enough": neither is a number
    assert target_words("二人、十二点、一番、十分な影響力、二十一", "ja") == [
        ("二", 2),
        ("十二", 12),
        ("二十一", 21),
    ]
    # a glossary link's target and a placeholder are no words
    assert target_words("[pět](term:dva) {param:tri}", "cs") == [("pět", 5)]


@pytest.mark.parametrize(
    ("msgid", "msgstr", "lang", "want"),
    [
        # the issue's case: a cost of five written "šest"
        (
            "The cost is five Henko.",
            "Cena je šest Henko.",
            "cs",
            [
                ("the number word 'šest' (6) is not in the source", True),
                ("the number word 'five' (5) is not in the translation", False),
            ],
        ),
        # English "five", the translation a digit 6: the digit check names the 6
        (
            "The cost is five Henko.",
            "コストはHenko 6です。",
            "ja",
            [("the number word 'five' (5) is not in the translation", False)],
        ),
        (
            "Two players tie.",
            "二人のプレイヤーが三点で同点です。",
            "ja",
            [("the number word '三' (3) is not in the source", True)],
        ),
        # the same numbers, however written, pass
        ("The cost is five Henko.", "Cena je pět Henko.", "cs", []),
        ("The cost is 5 Henko.", "Cena je pět Henko.", "cs", []),
        ("Score it twice.", "Započítejte ji dvakrát.", "cs", []),
        ("Both of the two winners score.", "Obě vítězné frakce bodují.", "cs", []),
        ("three times the rate", "trojnásobek sazby", "cs", []),
        ("No difference between the two editions.", "両版の間に違いはありません。", "ja", []),
        ("The game lasts three rounds.", "ゲームは三ラウンド続きます。", "ja", []),
    ],
)
def test_number_words_are_compared_by_value(
    msgid: str, msgstr: str, lang: str, want: list[tuple[str, bool]]
) -> None:
    from rulepress.i18n.qa import numbers

    assert word_issues(msgid, msgstr, lang, numbers(msgid, "en"), numbers(msgstr, lang)) == want


def test_any_language_num2words_knows_has_its_number_words_read() -> None:
    """A new language needs no table of its own; one num2words does not know compares digits only."""
    assert word_issues("five points", "sechs Punkte", "de", Counter(), Counter()) == [
        ("the number word 'sechs' (6) is not in the source", True),
        ("the number word 'five' (5) is not in the translation", False),
    ]
    assert word_issues("five points", "fünf Punkte", "de", Counter(), Counter()) == []
    assert target_words("sechs", "xx") == []


# ------------------------------------------------------------ Japanese punctuation


@pytest.mark.parametrize(
    "text",
    [
        "評議会: 3票",
        "投票 (14.1)",
        "投票（14.1)",
        "勝ちます!",
        "勝ちますか?",
        "勝ちます.",
        "投票;集計",
        "派閥,キューブ",
        "ｶｰﾄﾞを引きます",
        "｢評議会｣",
    ],
)
def test_ascii_and_half_width_punctuation_against_japanese_is_found(text: str) -> None:
    assert japanese_punctuation(text) != []


@pytest.mark.parametrize(
    "text",
    [
        "評議会：3票（14.1、14.2）。",
        "1,000点と1.5倍",  # numbers are written with ASCII marks
        "Reassignment Order (rozkaz) の効果",  # inside Latin text
        "Class I (II) の船",
        "U.S. Letter の用紙",
        "…と続きます...",  # an ellipsis, not a full stop
    ],
)
def test_what_japanese_text_legitimately_has_passes(text: str) -> None:
    assert japanese_punctuation(text) == []


def test_qa_reads_a_msgstr_as_its_page_shows_it() -> None:
    """Placeholders stand for what the reader sees (a number), so ``{rule:1.2}`` has no colon."""
    from babel.messages.catalog import Message

    ok = Message("{amount} points ({rule:16.4})", "{amount}点（{rule:16.4}）")
    bad = Message("{amount} points ({rule:16.4})", "{amount}点 ({rule:16.4})")
    assert check_message(ok, "ja", Terms.empty()) == []
    assert [i.message for i in check_message(bad, "ja", Terms.empty())] == [
        "ASCII punctuation in Japanese: '{amount}点 ({rule:16.4})'"
    ]


def test_a_spec_id_where_its_label_belongs_is_found_unless_the_english_has_it() -> None:
    from babel.messages.catalog import Message

    terms = CheckedTerms({}, {}, raw_ids=RawIds(frozenset({"foreign_cubes"})))
    shown = Message("Foreign cubes score.", "Body za foreign_cubes.")
    named = Message("Run --variant foreign_cubes.", "Spusťte --variant foreign_cubes.")
    assert [i.message for i in check_message(shown, "cs", terms)] == [
        "raw id where a label exists: 'foreign_cubes'"
    ]
    assert check_message(named, "cs", terms) == []
