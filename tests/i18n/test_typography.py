"""Locale typography: Czech no-break spaces and minus signs, quotation marks, alphabetical order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulepress.i18n.reader_text import czech_spacing, japanese_minus
from rulepress.i18n.typography import MINUS, NBSP, quote, sort_key, typeset
from rulepress.render.html_tree import document, el
from tests.conftest import LOCALES, ROOT, module_from_file


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("a v kole", f"a{NBSP}v{NBSP}kole"),
        ("Hráč s nejvíce body", f"Hráč s{NBSP}nejvíce body"),
        ("K tomu i zrada", f"K{NBSP}tomu i{NBSP}zrada"),
        ("získá 3 body", f"získá 3{NBSP}body"),
        ("16.4.8 Remíza", f"16.4.8{NBSP}Remíza"),
        ("ztrácí -2 body (-1)", f"ztrácí {MINUS}2{NBSP}body ({MINUS}1)"),
        ("1-9 hráčů", f"1-9{NBSP}hráčů"),  # a range keeps its hyphen (an en dash is the catalog's)
        ("e-mail, x-1, 3.5", "e-mail, x-1, 3.5"),
        # a number before the element that follows the text (a glossary link) holds to it
        ("Vezměte 1 ", f"Vezměte 1{NBSP}"),
    ],
)
def test_czech(text: str, want: str) -> None:
    assert typeset(text, "cs") == want


#: Czech text made of what the one-letter rule looks at: one-letter words, longer words,
#: digits, the punctuation its lookbehind names, brackets, quotes and link markup
_CZECH_BITS = st.lists(
    st.sampled_from(
        ["a", "V", "z", "i", "k", "slovo", "3", ".", ",", "-", "(", "„", "[", "]", "x"]
    ),
    max_size=12,
).map(" ".join)


@given(_CZECH_BITS)
def test_czech_text_as_typeset_passes_the_gate(text: str) -> None:
    """The rule is written once: what the writers set, the gate and QA never report."""
    assert czech_spacing(typeset(text, "cs")) == []


def test_other_languages_are_left_as_written() -> None:
    assert typeset("a v kole -2", "en") == "a v kole -2"
    assert typeset("3 人プレイ", "ja") == "3 人プレイ"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Magnomi -1、Ventus 3", f"Magnomi {MINUS}1、Ventus 3"),
        ("個人サプライの増減：-1", f"個人サプライの増減：{MINUS}1"),
        ("MagnomiにUA×2（-4票）", f"MagnomiにUA×2（{MINUS}4票）"),
        ("派閥にも-2票", f"派閥にも{MINUS}2票"),
        ("-5", f"{MINUS}5"),
        # a range, an id's number and a date keep their hyphen
        ("179-190行目、X-2、2026-11-30", "179-190行目、X-2、2026-11-30"),
    ],
)
def test_japanese_sets_a_minus_sign(text: str, want: str) -> None:
    # CLDR gives Japanese numbers the ASCII hyphen; Japanese type sets U+2212
    assert typeset(text, "ja") == want
    assert japanese_minus(typeset(text, "ja")) == []


def test_quotes_are_the_locales_own_and_nest() -> None:
    assert quote("Co antihmota anihiluje", "cs") == "„Co antihmota anihiluje“"
    assert quote("「Soreliaの発見」が得点するもの", "ja") == "「『Soreliaの発見』が得点するもの」"
    assert quote("What “counts”", "en") == "“What ‘counts’”"
    # an English source's typewriter quotes, quoted in English and Czech
    assert quote('What "foreign" pieces score', "en") == "“What ‘foreign’ pieces score”"
    assert quote('When a "+" line counts', "cs") == "„When a ‚+‘ line counts“"
    assert quote("x", "xx") == "“x”"  # a language docutils does not know


def test_czech_alphabetical_order() -> None:
    key = sort_key("cs")
    words = [
        "Zrada",
        "Úplatek",
        "chodba",
        "hrad",
        "Čas",
        "cena",
        "Žeton",
        "ízba",
        "ihned",
        "Agenda",
    ]
    assert sorted(words, key=lambda w: key(w, "")) == [
        "Agenda",
        "cena",
        "Čas",
        "hrad",
        "chodba",  # ch is a letter of its own, after h
        "ihned",
        "ízba",  # í sorts with i
        "Úplatek",
        "Zrada",
        "Žeton",
    ]


def test_czech_order_puts_a_word_before_its_longer_words() -> None:
    key = sort_key("cs")
    words = ["Hexová akce", "Hex Sorelia", "Hexový dílek"]
    assert sorted(words, key=lambda w: key(w, "")) == ["Hex Sorelia", "Hexová akce", "Hexový dílek"]


def test_japanese_order_follows_the_reading() -> None:
    key = sort_key("ja")
    terms = [
        ("反物質", "はんぶっしつ"),
        ("アジェンダ", "あじぇんだ"),
        ("キューブ", ""),
        ("議会", "ぎかい"),
    ]
    ordered = sorted(terms, key=lambda t: key(*t))
    assert [t[0] for t in ordered] == ["アジェンダ", "議会", "キューブ", "反物質"]


def test_print_sets_its_text_in_the_documents_language() -> None:
    body = el("body", el("p", "a v kole -2 body"))
    cs = document(el("html", body, lang="cs"))
    assert f"a{NBSP}v{NBSP}kole {MINUS}2{NBSP}body" in cs
    assert "a v kole -2 body" in document(el("html", body, lang="en"))


def test_print_sets_adjacent_strings_as_one_text() -> None:
    # a parameter's number is a string of its own between the words around it
    body = el("body", el("p", "ztratíte ", "1", " bod a ", el("span", "kostku", cls="term")))
    assert f"ztratíte 1{NBSP}bod a{NBSP}<span" in document(el("html", body, lang="cs"))


def test_the_japanese_glossaries_are_in_reading_order() -> None:
    from rulepress.i18n.runtime import localize
    from rulepress.render.context import RenderContext
    from tests.conftest import GAMES, loaded

    key = sort_key("ja")
    for game in GAMES:
        if "ja" not in loaded(game).spec.game.languages:
            continue  # a game not published in Japanese has no Japanese glossary
        spec = localize(loaded(game), "ja", LOCALES).loaded.spec
        if "ja" not in spec.termbase:
            continue
        terms = spec.termbase["ja"].terms
        ordered = RenderContext(spec, "ja", str, str).glossary()
        readings = [terms[t.id].reading or t.term for t in ordered if t.id in terms]
        assert readings == sorted(readings, key=lambda r: key(r, r))
        # a term written with kanji or Latin letters cannot be sorted without its reading
        for term_id, rendering in terms.items():
            if any(not ("\u3041" <= c <= "\u30ff") for c in rendering.term):
                assert rendering.reading, (game, term_id)


def test_number_ranges_follow_the_locale() -> None:
    from rulepress.i18n.typography import number_range

    assert [number_range("1", "5", lang) for lang in ("en", "cs", "ja")] == ["1–5", "1–5", "1～5"]


def test_range_tables_write_ranges_as_the_reader_does() -> None:
    from rulepress.render.context import RenderContext
    from tests.conftest import loaded

    spec = loaded("stationfall").spec
    table = spec.tables[0]
    keys = [key for key, _ in RenderContext(spec, "ja", str, str).table_rows(table)]
    assert any("～" in key for key in keys), keys
    assert not any("–" in key for key in keys)


def test_the_quotation_marks_are_docutils_table() -> None:
    """The package's table of marks is docutils' own (tools/quotation_marks.py writes it)."""
    tool = module_from_file("quotation_marks", ROOT / "tools" / "quotation_marks.py")
    assert tool.TARGET.read_text(encoding="utf-8") == tool.table()
    assert quote("x", "cs-CZ") == "„x“"  # a language's region falls back on the language
