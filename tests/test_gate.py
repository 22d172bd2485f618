"""The publication gate: each kind of finding is found, located, and honest text passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.gate import English, RawIds, html_text, scan_reports, scan_site, scan_text
from tests.conftest import ROOT, SPEC_ROOT, run_cli

ENGLISH = English.from_templates(ROOT / "locales")
RAW = RawIds.from_specs(SPEC_ROOT)


@pytest.mark.parametrize(
    ("text", "lang", "finding"),
    [
        ("Over {param:rounds} rounds", "en", "spec markup: '{param:rounds}'"),
        ("viz [pole](term:betrayal-box)", "cs", "spec markup"),
        ("Přeskočit: Skip to content", "cs", "English words: 'Skip to content'"),
        ("評議会の投票: 3票", "ja", "ASCII punctuation in Japanese"),
        ("ステップ 1 評議会の投票 (14.1)", "ja", "ASCII punctuation in Japanese"),
        ("hráč v kole", "cs", "breaking space after 'v'"),
        ("A to je vše", "cs", "breaking space after 'A'"),
    ],
)
def test_each_kind_of_finding(text: str, lang: str, finding: str) -> None:
    found = scan_text(text, lang, ENGLISH)
    assert any(f.startswith(finding) for f in found), found


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("hráč v\u00a0kole a\u00a0vítěz", "cs"),
        ("評議会の投票：3票（14.1、14.2）", "ja"),
        ("Skip to content", "en"),  # English pages may speak English
        ("16.4.8 a 16.4.7", "ja"),  # rule numbers and Latin text are not Japanese text
    ],
)
def test_honest_text_passes(text: str, lang: str) -> None:
    assert scan_text(text, lang, ENGLISH) == []


def test_a_page_is_read_as_its_reader_sees_it() -> None:
    html = (
        "<html><head><title>a v</title><link rel='prev' title='a v'></head><body>"
        "<p aria-label='Skip to content'>text</p><code>{param:x}</code>"
        "<script>var a = '{rule:1}';</script></body></html>"
    )
    text = html_text(html)
    assert "Skip to content" in text  # what a screen reader reads is text too
    assert "{param:x}" not in text
    assert "{rule:1}" not in text
    assert "a v" not in text


def test_the_command_names_the_file_and_fails(tmp_path: Path) -> None:
    page = tmp_path / "site" / "cs" / "game" / "rules.html"
    page.parent.mkdir(parents=True)
    page.write_text("<html><body><p>Skip to content v {rule:16.4}</p></body></html>", "utf-8")
    run = run_cli("gate", "--site", str(tmp_path / "site"), "--print", str(tmp_path / "none"))
    assert run.code == 8
    assert f"{page}: page (cs): English words: 'Skip to content'" in run.err
    assert f"{page}: page (cs): spec markup: '{{rule:16.4}}'" in run.err
    assert "Traceback" not in run.err


def test_every_report_in_every_language_passes() -> None:
    assert scan_reports(SPEC_ROOT, ROOT / "locales", ENGLISH, RAW) == []


def test_raw_ids_are_found_where_labels_exist() -> None:
    # ruling options, tie-break criteria, score ids and vote routes of the real specs
    assert {"foreign_cubes", "most-points", "agenda_points", "common-supply"} <= RAW.ids
    found = scan_text("Rulings: foreign_cubes; decided by most-points", "", None, RAW)
    assert found == [
        "raw id where a label exists: 'foreign_cubes'",
        "raw id where a label exists: 'most-points'",
    ]
    # words and hyphenated English that are no id pass
    assert scan_text("a tie-break, most points, foreign cubes", "en", None, RAW) == []


def test_ids_in_inline_code_are_read_but_guides_may_name_them(tmp_path: Path) -> None:
    page = tmp_path / "cs" / "brink" / "rulings.html"
    guide = tmp_path / "en" / "guide" / "rulings.html"
    for path in (page, guide):
        path.parent.mkdir(parents=True)
        path.write_text("<p>Volby: <code>foreign_cubes</code></p>", "utf-8")
    found = [(p.location.file, p.message) for p in scan_site(tmp_path, ENGLISH, RAW)]
    assert found == [(str(page), "raw id where a label exists: 'foreign_cubes'")]


def test_a_phrase_a_language_keeps_in_english_may_show_there_only() -> None:
    # "US Letter" (a paper size) is written the same in Czech, and differently in Japanese
    assert "US Letter" in ENGLISH.phrases
    page = "Karty kroků k vytištění (PDF, US Letter)"
    assert list(ENGLISH.in_text(page, "cs")) == []
    assert list(ENGLISH.in_text(page, "ja")) == ["US Letter"]
    assert scan_text("Kdo vyhrál: Who wins", "cs", ENGLISH) == ["English words: 'Who wins'"]
