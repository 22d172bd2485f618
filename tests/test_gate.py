"""The publication gate: each kind of finding is found, located, and honest text passes."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress import gate
from rulepress.games import find_game_dirs, load_spec
from rulepress.gate import (
    English,
    RawIds,
    html_text,
    scan_reports,
    scan_site,
    scan_text,
    translated_vocabulary,
)
from rulepress.i18n.catalogs import PACKAGE_LOCALES
from rulepress.i18n.fallbacks import FallbackRecord, write_record
from tests.conftest import DATA, GAMES, LOCALES, SPEC_ROOT, edit, loaded, run_main

ENGLISH = English.from_templates(LOCALES)


@functools.cache
def raw_ids() -> RawIds:
    """The ids of our specs, read once when a test needs them, not when the module is
    collected: every pytest process collects it (the suites run inside tests among
    them, where its tests are deselected), and most run none of its tests."""
    return RawIds.of(loaded(game).spec for game in GAMES)


@pytest.mark.parametrize(
    ("text", "lang", "finding"),
    [
        ("Over {param:rounds} rounds", "en", "spec markup: '{param:rounds}'"),
        ("viz [pole](term:betrayal-box)", "cs", "spec markup"),
        ("Přeskočit: Skip to content", "cs", "English words: 'Skip to content'"),
        # a phrase with a hyphen or a bracket inside is matched as the page shows it
        ("Nic: No tie-break separates them", "cs", "English words: 'No tie-break separates"),
        ("評議会の投票: 3票", "ja", "ASCII punctuation in Japanese"),
        ("ステップ 1 評議会の投票 (14.1)", "ja", "ASCII punctuation in Japanese"),
        # a sentence put where a label goes, and a hyphen for a minus (the writers set −)
        ("ゲームのラウンド数。：3（1.1）", "ja", "colon after a full stop in Japanese"),
        ("ゲームのラウンド数。:3", "ja", "colon after a full stop in Japanese"),
        ("Magnomi -1、Ventus 3", "ja", "hyphen as a minus in Japanese"),
        ("MagnomiにUA×2（-4票）", "ja", "hyphen as a minus in Japanese"),
        ("個人サプライの増減：-1", "ja", "hyphen as a minus in Japanese"),
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
        ("ゲームのラウンド数。値：3（1.1）", "ja"),
        # a range, an id's number and a minus sign are no hyphen for a minus
        ("Magnomi −1、179-190行目、X-2", "ja"),
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


def test_text_in_another_language_is_read_apart() -> None:
    # a Czech quote of the source on a Japanese page: its ASCII commas are Czech, not ours
    html = (
        '<html lang="ja"><body><p>出典：「<span class="rp-quote" lang="cs">Ztrácíte 1 bod,'
        " za <b>každou</b> kostku</span>」<br>次, 文</p></body></html>"
    )
    text = html_text(html)
    assert "Ztrácíte" not in text
    assert "každou" not in text  # inside the quote's own element, however deep
    assert "次, 文" in text  # the page's own text after it is read again
    assert scan_text(text, "ja") == scan_text("出典：「」次, 文", "ja") != []


def test_a_pdfs_source_quotes_are_taken_out_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = tmp_path / "ja" / "stationfall" / "rulebook.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"")
    # the text pdftotext gives: the quote broken over a line, as a narrow column breaks it
    # (a quote in the page's marks is never next to Japanese; a quote set in a sentence is)
    monkeypatch.setattr(gate, "pdf_text", lambda _: "ルール(pokud není\nřečeno jinak)です")
    assert gate.scan_print(tmp_path, English(()), quotes=["(pokud není řečeno jinak)"]) == []
    found = gate.scan_print(tmp_path, English(()), quotes=[])
    assert found
    assert [p.message for p in found] == ["ASCII punctuation in Japanese: 'ルール(pokud není řeč'"]


def test_the_command_names_the_file_and_fails(tmp_path: Path) -> None:
    page = tmp_path / "site" / "cs" / "game" / "rules.html"
    page.parent.mkdir(parents=True)
    page.write_text("<html><body><p>Skip to content v {rule:16.4}</p></body></html>", "utf-8")
    # the tiny game: the command also reads every worked example's report of the games it
    # is given, which for the real ones test_every_report_in_every_language_passes reads
    specs = tmp_path / "rules_spec"
    shutil.copytree(DATA / "specs" / "tiny", specs / "tiny")
    site, printed = str(tmp_path / "site"), str(tmp_path / "none")
    run = run_main("gate", "--site", site, "--print", printed, "--spec-root", str(specs))
    assert run.code == 8
    assert f"{page}: page (cs): English words: 'Skip to content'" in run.err
    assert f"{page}: page (cs): spec markup: '{{rule:16.4}}'" in run.err
    assert "Traceback" not in run.err


def test_every_report_in_every_language_passes() -> None:
    games = [loaded(game) for game in GAMES]
    english = ENGLISH.with_vocabulary(translated_vocabulary(games, LOCALES))
    assert scan_reports(SPEC_ROOT, LOCALES, english, raw_ids(), games) == []


def test_raw_ids_are_found_where_labels_exist() -> None:
    # ruling options, tie-break criteria, score ids and vote routes of the real specs
    assert {"foreign_cubes", "most-points", "agenda_points", "common-supply"} <= raw_ids().ids
    found = scan_text("Rulings: foreign_cubes; decided by most-points", "", None, raw_ids())
    assert found == [
        "raw id where a label exists: 'foreign_cubes'",
        "raw id where a label exists: 'most-points'",
    ]
    # words and hyphenated English that are no id pass
    assert scan_text("a tie-break, most points, foreign cubes", "en", None, raw_ids()) == []


def test_ids_in_inline_code_are_read_but_guides_may_name_them(tmp_path: Path) -> None:
    page = tmp_path / "cs" / "brink" / "rulings.html"
    guide = tmp_path / "en" / "guide" / "rulings.html"
    for path in (page, guide):
        path.parent.mkdir(parents=True)
        path.write_text("<p>Volby: <code>foreign_cubes</code></p>", "utf-8")
    found = [(p.location.file, p.message) for p in scan_site(tmp_path, ENGLISH, raw_ids())]
    assert found == [(str(page), "raw id where a label exists: 'foreign_cubes'")]


def test_a_phrase_a_language_keeps_in_english_may_show_there_only() -> None:
    # "US Letter" (a paper size) is written the same in Czech, and differently in Japanese
    assert "US Letter" in ENGLISH.phrases
    page = "Karty kroků k vytištění (PDF, US Letter)"
    assert list(ENGLISH.in_text(page, "cs")) == []
    assert list(ENGLISH.in_text(page, "ja")) == ["US Letter"]
    assert scan_text("Kdo vyhrál: Who wins", "cs", ENGLISH) == ["English words: 'Who wins'"]


def test_a_games_own_untranslated_english_may_repeat_an_interface_phrase() -> None:
    # "share the win" is a phrase of the interface's "No tie-break separates them: …"
    page = "Vítěz: Players still tied share the win."
    assert scan_text(page, "cs", ENGLISH) == ["English words: 'share the win'"]
    own = ENGLISH.with_own({"cs": ["Players still tied share the win."]})
    assert scan_text(page, "cs", own) == []
    # only where the game's text is: the interface's sentence beside it is still found
    leak = page + " Nic je nerozliší: No tie-break separates them: Ada and Bo share the win."
    assert scan_text(leak, "cs", own) == [
        "English words: 'No tie-break separates them'",
        "English words: 'share the win'",
    ]
    # and only in the language whose catalog leaves the text untranslated
    assert list(own.in_text(page, "ja")) == ["share the win"]


def test_a_game_word_its_language_translates_is_found_in_english() -> None:
    # the player colours: Japanese writes 緑 and 橙, as the Japanese rulebook does
    games = [load_spec(d) for d in find_game_dirs(SPEC_ROOT)]
    words = translated_vocabulary(games, LOCALES)
    assert {"Green", "Orange", "Blue", "Act of War"} <= words["ja"]
    assert "Komek" not in words["ja"]  # a faction's name is kept as printed: no finding
    gate = ENGLISH.with_vocabulary(words)
    assert scan_text("緑：Orangeの提案を断ります。Komek 2", "ja", gate) == [
        "English words: 'Orange'"
    ]
    assert scan_text("Zelený: 3 body, Act of War", "cs", gate) == ["English words: 'Act of War'"]
    assert scan_text("Green: 3", "en", gate) == []
    # an untranslated game text on the page (its own English) may name the colour
    own = gate.with_own({"ja": ["Orange offers two Sorelia influence for all four favors."]})
    assert scan_text("Orange offers two Sorelia influence for all four favors.", "ja", own) == []


def test_a_games_text_is_matched_as_the_page_shows_it() -> None:
    own = ENGLISH.with_own(
        {"cs": ["If {rule:1.1} leaves them tied, [tied players](term:player) share the win."]}
    )
    # the rule's number is filled in, a glossary link shows the message's own words
    assert scan_text("If 1.1 leaves them tied, tied players share the win.", "cs", own) == []
    # a run ends at a reference: the page's words there are not the game's
    assert scan_text("If 1.1 leaves them tied, hráči share the win.", "cs", own) != []


@pytest.fixture
def shared_win(tmp_path: Path) -> Path:
    """A project: the tiny game in English and Czech (no Czech catalog yet), with a tie."""
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    edit(game / "game.yaml", "languages: [en]", "languages: [en, cs]")
    (game / "examples.yaml").write_text(
        """examples:
  - id: a-shared-win
    title: A shared win
    rules: ["1.1"]
    text: Ada and Bo hold three points each.
    state:
      players:
        - {id: Ada, points: 3, times: 1}
        - {id: Bo, points: 3, times: 1}
    expect:
      winners: [Ada, Bo]
""",
        encoding="utf-8",
    )
    return tmp_path


def test_the_gate_passes_a_games_untranslated_text_on_a_translated_page(shared_win: Path) -> None:
    # the winners step's note, untranslated, is the game's English, not the interface's
    page = shared_win / "site" / "cs" / "tiny" / "scoring.html"
    page.parent.mkdir(parents=True)
    # the record a build writes beside the site: here, nothing shown in English (this
    # test is about the words on the page; tests/i18n/test_fallbacks.py, about the record)
    record = FallbackRecord()
    record.language("cs")  # the record covers the Czech pages, and nothing fell back on them
    write_record(shared_win / "site", record)
    page.write_text("<p>Krok 2</p><p>Players still tied share the win.</p>", "utf-8")
    run = run_main("gate", "--site", "site", "--print", "none", cwd=shared_win)
    assert (run.code, run.out) == (0, "gate: nothing found that a reader should not see\n")
    # the same words that are no text of the game are still reported
    page.write_text("<p>Krok 2</p><p>Ada and Bo share the win.</p>", "utf-8")
    run = run_main("gate", "--site", "site", "--print", "none", cwd=shared_win)
    assert run.code == 8
    assert f"{page.relative_to(shared_win)}: page (cs): English words: 'share the win'" in run.err


def test_the_gate_fails_an_interface_sentence_left_untranslated(shared_win: Path) -> None:
    # the project's own Czech interface catalog, without the sentence of a shared win
    with (PACKAGE_LOCALES / "cs" / "LC_MESSAGES" / "rulepress.po").open("rb") as fh:
        catalog = read_po(fh)
    message = catalog.get(
        "No tie-break separates them: {tied} share the win.", "winners.conclusion"
    )
    assert message is not None
    message.string = ("", "", "")  # its three Czech plural forms
    po = shared_win / "locales" / "cs" / "LC_MESSAGES" / "rulepress.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as fh:
        write_po(fh, catalog)
    run = run_main("gate", "--site", "none", "--print", "none", cwd=shared_win)
    assert run.code == 8, run.err
    where = "score tiny --example a-shared-win --lang cs"
    assert f"rules_spec/tiny: {where}: English words: 'share the win'" in run.err


def test_english_on_a_previews_pages_is_reported_without_failing(tmp_path: Path) -> None:
    """A preview says it is unfinished: its pages' English is a warning, a full language's fails."""
    from rulepress.errors import Location, Problem
    from rulepress.gate import split_previews
    from rulepress.i18n.fallbacks import FallbackRecord, GameRecord

    record = FallbackRecord()
    record.language("de").games["brink"] = GameRecord(12.0, preview=True)
    record.language("cs").games["brink"] = GameRecord(99.9, preview=False)
    found = [
        Problem(Location(str(tmp_path / lang / page)), f"page ({lang})", "English words: 'Rules'")
        for lang, page in (
            ("de", "brink/rules.html"),
            ("de", "index.html"),
            ("cs", "brink/rules.html"),
        )
    ]
    failures, previews = split_previews(tmp_path, record, found)
    assert previews == found[:2]  # the game's pages, and the start page of an all-preview language
    assert failures == found[2:]
    assert split_previews(tmp_path, None, found) == (found, [])  # no record: nothing is a preview


def test_a_preview_is_reported_in_one_line_per_language() -> None:
    from rulepress.errors import Location, Problem
    from rulepress.gate import PREVIEW_SHOWN, preview_lines

    pages = [
        Problem(Location(f"site/de/brink/p{i}.html"), "page (de)", "English words: 'Rules'")
        for i in range(PREVIEW_SHOWN + 2)
    ]
    # a context that names a page is still the record's (the theme's "Previous and next page")
    record = Problem(Location("pl/theme.po", 3, 1), "Next page (site, pl, theme)", "fuzzy")
    report = Problem(Location("rules_spec/brink"), "score brink --example x --lang pl", "'Rules'")
    lines = preview_lines([*pages, record, report])
    assert len(lines) == 2  # de, pl
    assert lines[0].startswith(f"de is a preview: {PREVIEW_SHOWN + 2} text(s) in English")
    assert lines[0].endswith("; and 2 more")
    assert str(pages[0]) in lines[0]
    assert str(pages[-1]) not in lines[0]
    assert lines[1].startswith("pl is a preview: 2 text(s) in English")


def test_the_gate_translates_each_game_once_per_language(
    shared_win: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games' English and the examples' reports read one translation: making it is the
    costliest step of the gate's set-up, which ``rulepress build`` runs after every build."""
    from rulepress.i18n import runtime

    made: list[tuple[str, str]] = []
    real = runtime.localize

    def counted(loaded: Any, lang: str, locales: Path) -> Any:
        made.append((loaded.spec.game.id, lang))
        return real(loaded, lang, locales)

    monkeypatch.setattr(runtime, "localize", counted)
    run = run_main("gate", "--site", "none", "--print", "none", cwd=shared_win)
    assert run.code == 0, run.err
    assert sorted(made) == [("tiny", "cs"), ("tiny", "en")]
