"""What a translation shows in English is noted, located, recorded, and judged by the gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress.errors import Location
from rulepress.gate import English, scan_record, scan_text
from rulepress.i18n.fallbacks import (
    Fallback,
    FallbackRecord,
    GameRecord,
    LanguageRecord,
    record_path,
    write_record,
)
from rulepress.i18n.runtime import interface_translator, localize
from rulepress.i18n.visible import as_seen, disguised
from rulepress.sphinx_ext.theme import compile_theme
from rulepress.uitext import ui
from tests.conftest import LOCALES, ROOT, catalog_copy, loaded

ZWSP = "\u200b"


def _zwsp(text: str) -> str:
    """Each word of ``text`` with a zero-width space after its first letter."""
    return " ".join(word[:1] + ZWSP + word[1:] for word in text.split(" "))


def _lines(po: Path) -> dict[str | None, int]:
    with po.open("rb") as fh:
        return {m.context: m.lineno for m in read_po(fh) if m.id}


def test_each_message_shown_in_english_is_noted_with_its_po_line(tmp_path: Path) -> None:
    locales, po, catalog = catalog_copy(tmp_path, "cs", "stationfall")
    rules = [m for m in catalog if m.id and (m.context or "").startswith("rules/")][:3]
    fuzzy, emptied, disguised_msg = rules
    fuzzy.flags.add("fuzzy")
    emptied.string = ""
    disguised_msg.string = _zwsp(str(disguised_msg.id))
    with po.open("wb") as fh:
        write_po(fh, catalog)
    lines = _lines(po)

    local = localize(loaded("stationfall"), "cs", locales)

    found = {(f.context, f.reason, f.file, f.line) for f in local.fallbacks}
    assert found == {
        (fuzzy.context, "fuzzy", str(po), lines[fuzzy.context]),
        (emptied.context, "untranslated", str(po), lines[emptied.context]),
        (disguised_msg.context, "disguised", str(po), lines[disguised_msg.context]),
    }
    assert {f.domain for f in local.fallbacks} == {"stationfall"}
    # the reader gets the English, not the disguise
    titles = {r.title for r in local.loaded.spec.rules}
    assert not any(ZWSP in str(t) for t in titles)


def test_an_interface_sentence_shown_in_english_is_noted_as_it_is_looked_up(
    tmp_path: Path,
) -> None:
    source = ROOT / "src" / "rulepress" / "locales" / "cs" / "LC_MESSAGES" / "rulepress.po"
    with source.open("rb") as fh:
        catalog = read_po(fh)
    # a sentence no other context shares (a lookup by msgid alone would find that one)
    message = catalog.get("Scoring tables and tie-breaks", "page.title")
    assert message is not None
    message.string = ""
    po = tmp_path / "locales" / "cs" / "LC_MESSAGES" / "rulepress.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as fh:
        write_po(fh, catalog)
    shown: set[Fallback] = set()
    translate = interface_translator(tmp_path / "locales", "cs", shown)
    assert translate(ui("page.title", "Glossary")) != "Glossary"
    assert shown == set()  # a translated sentence is no fallback
    sentence = ui("page.title", "Scoring tables and tie-breaks")
    assert translate(sentence) == sentence
    [found] = shown
    assert (found.domain, found.context, found.reason) == (
        "rulepress",
        "page.title",
        "untranslated",
    )
    with po.open("rb") as fh:
        entry = read_po(fh).get(sentence, "page.title")
    assert entry is not None
    assert (found.file, found.line) == (str(po), entry.lineno)


@pytest.mark.parametrize(
    "hidden",
    ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u202e", "\u2066", "\ufe0f"],
    ids=["zwsp", "zwnj", "zwj", "word-joiner", "soft-hyphen", "bom", "rlo", "lri", "vs16"],
)
def test_invisible_characters_do_not_hide_english_from_the_gate(hidden: str) -> None:
    english = English.from_templates(LOCALES)
    text = "Přeskočit: " + hidden.join("Skip to content")
    assert as_seen(text) == "Přeskočit: Skip to content"
    assert "English words: 'Skip to content'" in scan_text(text, "cs", english)


def test_text_is_compared_in_nfkc_form() -> None:
    english = English.from_templates(LOCALES)
    # full-width Latin letters read as the same words
    assert "English words: 'Skip to content'" in scan_text(
        "Ｓｋｉｐ ｔｏ ｃｏｎｔｅｎｔ", "cs", english
    )
    # the Japanese checks still see the page as written (NFKC would fold （ into ()
    assert scan_text("評議会の投票（14.1）", "ja", english) == []


def test_english_in_disguise_is_told_from_english_kept_on_purpose() -> None:
    assert disguised("US Letter", "US\u200b Letter")
    assert not disguised("US Letter", "US Letter")  # a translator's choice
    assert not disguised("Rules", "Pravidla")
    # full-width letters and digits are English too, full-width punctuation is not
    assert disguised("Score 3", "Ｓｃｏｒｅ\u2060 ３")
    assert not disguised("{label}:", "{label}：")
    # a letter with its accent composed or combining differs from the letter without
    assert not disguised("Cesta", "Čes\u200bta")
    assert not disguised("Cesta", "C\u030ces\u200bta")
    assert disguised("C\u030cesta", "C\u030ces\u200bta")


def _record(preview: bool) -> FallbackRecord:
    record = FallbackRecord()
    lang = record.language("cs")
    lang.games["tiny"] = GameRecord(40.0, preview)
    lang.add(
        [
            Fallback("tiny", "tiny", "rules/1/title", "Winning", "fuzzy", "loc/tiny.po", 12),
            Fallback("tiny", "rulepress", "page.title", "Rules", "untranslated", "ui.po", 0),
            Fallback("tiny", "tiny", "rules/2/title", "Ties", "fuzzy", "loc/tiny.po", 20),
            Fallback("tiny", "tiny", "rules/3/title", "End", "fuzzy", "loc/tiny.po", 28),
        ]
    )
    return record


def test_the_record_reads_back_and_warns_once_per_language() -> None:
    record = _record(preview=False)
    assert FallbackRecord.from_json(record.to_json()) == record
    assert record.warnings("site") == [
        "site (cs): 4 message(s) shown in English: page.title, rules/1/title, rules/2/title, …"
    ]
    assert _record(preview=True).warnings("print")[0].startswith("print (cs) (a preview): 4 ")
    assert FallbackRecord().warnings("site") == []
    for bad in ("[]", '{"version": 99, "languages": {}}', '{"version": 1, "languages": {"cs": 3}}'):
        with pytest.raises(ValueError, match="fallback record"):
            FallbackRecord.from_json(bad)


def test_the_gate_fails_on_a_fallback_naming_its_context_and_po_line(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    assert record_path(out) == tmp_path / "site-fallbacks.json"  # beside the site, not in it
    write_record(out, _record(preview=False))
    failures, warnings = scan_record(out, "site")
    assert warnings == []
    found = [str(p) for p in failures]
    assert len(found) == 4
    assert (
        "loc/tiny.po:12:1: rules/1/title (site, cs, tiny): fuzzy, shown in English: 'Winning'"
        in found
    )
    assert (
        "ui.po: page.title (site, cs, rulepress): not translated, shown in English: 'Rules'"
        in found
    )
    # a preview reports the same as warnings
    write_record(out, _record(preview=True))
    failures, warnings = scan_record(out, "site")
    assert (len(failures), len(warnings)) == (0, 4)


def test_a_site_without_its_record_fails_the_gate(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    failures, _ = scan_record(tmp_path / "site", "site")
    assert [p.location for p in failures] == [Location(str(tmp_path / "site-fallbacks.json"))]
    assert "no record of the messages site shows in English" in str(failures[0])


def test_a_shared_pages_fallback_is_a_preview_only_when_every_game_is() -> None:
    lang = LanguageRecord({"a": GameRecord(50, True), "b": GameRecord(100, False)})
    shared = Fallback("", "rulepress", "site", "Board-game rules", "untranslated", "ui.po")
    assert not lang.in_preview(shared)
    lang.games["b"] = GameRecord(50, True)
    assert lang.in_preview(shared)


def test_a_theme_word_left_out_of_the_compiled_catalog_is_noted(tmp_path: Path) -> None:
    source = ROOT / "src" / "rulepress" / "locales" / "cs" / "LC_MESSAGES" / "theme.po"
    with source.open("rb") as fh:
        catalog = read_po(fh)
    message = catalog.get("Skip to content")
    assert message is not None
    message.flags.add("fuzzy")
    po = tmp_path / "locales" / "cs" / "LC_MESSAGES" / "theme.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as fh:
        write_po(fh, catalog)
    shown: set[Fallback] = set()
    assert compile_theme(tmp_path / "locales", "cs", shown) is not None
    [found] = shown
    assert (found.domain, found.msgid, found.reason, found.file) == (
        "theme",
        "Skip to content",
        "fuzzy",
        str(po),
    )
    assert found.line > 0
    shown.clear()
    compile_theme(LOCALES, "cs", shown)  # the shipped catalog: nothing left out
    assert shown == set()


def test_a_build_of_some_languages_keeps_the_records_of_the_others(tmp_path: Path) -> None:
    out = tmp_path / "site"
    for lang in ("cs", "ja"):
        (out / lang).mkdir(parents=True)
    first = _record(preview=False)
    first.language("ja").games["tiny"] = GameRecord()
    write_record(out, first, ["cs", "ja"])
    # then cs alone, with nothing in English: ja's files and its entry stay as they were
    again = FallbackRecord()
    again.language("cs").games["tiny"] = GameRecord()
    write_record(out, again, ["cs"])
    read = FallbackRecord.from_json(record_path(out).read_text("utf-8"))
    assert read.language("cs").fallbacks == []
    assert read.language("ja") == first.language("ja")
    # a language folder the record does not cover fails the gate
    (out / "de").mkdir()
    failures, _ = scan_record(out, "site")
    assert [p.message for p in failures] == [
        "the record does not cover de: build that language again"
    ]


def test_full_width_punctuation_is_a_translation_not_english_in_disguise() -> None:
    """Japanese writes "{label}:" as "{label}：": that is a translation, not a fallback."""
    from rulepress.i18n.visible import disguised

    assert not disguised("{label}:", "{label}：")
    assert not disguised("Score", "Score")  # written as its English: the translator's choice
    assert disguised("Score", "Sc\u200bore")
    assert disguised("Score", "Ｓｃｏｒｅ")  # full-width letters are still English
