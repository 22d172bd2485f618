"""Languages come from the specs: ``game.languages`` decides every catalog, page and PDF.

A language is any locale Babel knows; English, the source, is in every game's
list. A game's domain has catalogs for its own languages, the shared domains
(interface, theme) for every language of any game; a language with no rules of
its own in rulepress is set with CLDR's data (names, list separators, numbers,
quotes). Adding a language is adding it to ``game.languages`` and running
``rulepress i18n update``: the last test does that with German, in a copy.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rulepress.i18n.qa import numbers
from rulepress.i18n.runtime import english_name, list_separator, native_name
from rulepress.i18n.typography import NBSP, number_range, typeset
from rulepress.model.languages import game_languages, language_code
from rulepress.render.preview import NOTICE_CLASS
from tests.conftest import (
    DATA,
    GAME_LANGUAGES,
    GAMES,
    LANGUAGES,
    SPEC_ROOT,
    edit,
    loaded,
    project_copy,
    run_cli,
    run_main,
)

GAME_FILE_LANGUAGES = re.compile(r"^(  languages: \[)([^\]]*)\]", re.MULTILINE)


def _set_languages(game_yaml: Path, languages: str) -> None:
    text = game_yaml.read_text(encoding="utf-8")
    new, count = GAME_FILE_LANGUAGES.subn(rf"\g<1>{languages}]", text)
    assert count == 1, f"no languages line in {game_yaml}"
    game_yaml.write_text(new, encoding="utf-8")


def _project_copy(tmp_path: Path, games: tuple[str, ...] | None = None) -> Path:
    # a test of how the commands treat a game's languages needs one real game beside its own
    return project_copy(tmp_path, games)


@pytest.mark.parametrize("code", ["de", "pt_BR", "zh_Hant_TW", "en"])
def test_a_language_is_any_locale_babel_knows(code: str) -> None:
    assert language_code(code) == code


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("xx", "'xx' is not a language Babel knows"),
        ("pt-BR", "write the language 'pt-BR' as 'pt_BR'"),
        ("EN", "write the language 'EN' as 'en'"),
    ],
)
def test_a_language_babel_does_not_know_is_refused(code: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        language_code(code)


@pytest.mark.parametrize(
    ("languages", "where", "message"),
    [
        ("en, cs, xx", "game.languages[2]", "'xx' is not a language Babel knows"),
        ("cs, ja", "game.languages", "must list 'en'"),
        ("en, cs, en", "game.languages", "'en' is listed twice"),
    ],
)
def test_unusable_game_languages_are_located(
    spec_copy: Path, languages: str, where: str, message: str
) -> None:
    game = GAMES[0]
    game_yaml = spec_copy / game / "game.yaml"
    _set_languages(game_yaml, languages)
    line = next(
        n
        for n, text in enumerate(game_yaml.read_text("utf-8").splitlines(), 1)
        if text.startswith("  languages:")
    )
    for args in (("validate", "--no-examples", f"rules_spec/{game}"), ("i18n", "update")):
        result = run_main(*args, cwd=spec_copy.parent)
        assert result.code == 3, result.err
        assert f"rules_spec/{game}/game.yaml:{line}:" in result.err
        assert f": {where}: {message}" in result.err
        assert "Traceback" not in result.err


def test_conftest_languages_are_the_specs() -> None:
    for game in GAMES:
        assert GAME_LANGUAGES[game] == tuple(loaded(game).spec.game.languages)
        assert game_languages(SPEC_ROOT / game) == GAME_LANGUAGES[game]
    assert LANGUAGES[0] == "en"
    assert set(LANGUAGES) == {lang for langs in GAME_LANGUAGES.values() for lang in langs}


def _stats(work: Path) -> dict[tuple[str, str], dict[str, float]]:
    result = run_main("i18n", "stats", "--format", "json", cwd=work)
    assert result.code == 0, result.err
    return {(row["lang"], row["domain"]): row for row in json.loads(result.out)}


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_a_game_in_english_only_has_a_template_and_no_catalog(tmp_path: Path) -> None:
    """The issue's case: a new ``languages: [en]`` game made i18n check report 50 errors."""
    work = _project_copy(tmp_path, ("stationfall",))
    shutil.copytree(DATA / "specs" / "tiny", work / "rules_spec" / "tiny")
    assert game_languages(work / "rules_spec" / "tiny") == ("en",)
    # the new game's domain only: the others' catalogs stay as committed
    assert run_main("i18n", "extract", "--domain", "tiny", cwd=work).code == 0
    updated = run_main("i18n", "update", "--domain", "tiny", cwd=work)
    assert updated.code == 0, updated.err
    assert updated.out == "catalogs: up to date\n"
    assert (work / "locales" / "tiny.pot").is_file()
    assert sorted(work.glob("locales/*/LC_MESSAGES/tiny.po")) == []
    assert run_main("i18n", "update", "--check", "--domain", "tiny", cwd=work).code == 0
    checked = run_main("i18n", "check", cwd=work)
    assert checked.code == 0, checked.err
    # the shipped catalogs may carry warnings of their own (a print budget), never the new game
    assert "0 error(s)" in checked.out
    assert "tiny" not in checked.err
    assert not any(domain == "tiny" for _, domain in _stats(work))


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_shared_domains_cover_every_language_of_any_game(tmp_path: Path) -> None:
    work = _project_copy(tmp_path, ("stationfall",))
    shutil.copytree(DATA / "specs" / "tiny", work / "rules_spec" / "tiny")
    _set_languages(work / "rules_spec" / "tiny" / "game.yaml", "en, de")
    assert run_main("i18n", "extract", cwd=work).code == 0
    assert run_main("i18n", "update", cwd=work).code == 0
    german = {p.stem for p in work.glob("locales/de/LC_MESSAGES/*.po")}
    assert german == {"tiny", "rulepress", "theme"}  # the other games are not in German
    for lang in LANGUAGES[1:]:
        assert not (work / "locales" / lang / "LC_MESSAGES" / "tiny.po").exists()
    stats = _stats(work)
    assert {domain for lang, domain in stats if lang == "de"} == german
    assert stats[("de", "tiny")]["percent"] == 0.0


def test_lang_is_checked_against_the_specs_languages(tmp_path: Path) -> None:
    listed = ", ".join(LANGUAGES)
    out = ("--out", str(tmp_path / "out"))  # were the check gone, nothing lands in build/
    for command in (("build", "site", *out), ("build", "print", *out), ("i18n", "check")):
        result = run_main(*command, "--lang", "xx")
        assert result.code == 2, result.err
        assert f"'xx' is no language of the specs (languages: {listed})" in result.err
    game = GAMES[0]
    example = loaded(game).spec.examples[0].id
    result = run_main("score", game, "--example", example, "--lang", "xx")
    assert result.code == 2
    languages = ", ".join(GAME_LANGUAGES[game])
    assert f"{game} is not published in 'xx' (its languages: {languages})" in result.err


def test_language_names_and_separators_come_from_cldr() -> None:
    # a language's own name, capitalised as a menu starts it (CLDR writes "čeština")
    assert native_name("cs") == "Čeština"
    assert native_name("ja") == "日本語"
    assert native_name("de") == "Deutsch"
    assert english_name("ja") == "Japanese"
    assert list_separator("ja") == "、"
    assert list_separator("en") == list_separator("de") == ", "


def test_numbers_and_typography_fall_back_on_cldr() -> None:
    # Czech and Japanese keep their own rules; German has none, and gets CLDR's
    assert numbers("1 234,5 a 2", "cs") == numbers("1.234,5 und 2", "de")
    assert numbers("1,234.5 and 2", "en") == numbers("1.234,5 und 2", "de")
    assert numbers("１２ と 3,000", "ja") == numbers("12 and 3,000", "en")
    assert typeset('"Sieg" v 3 Runden', "de") == "„Sieg“ v 3 Runden"
    assert typeset("v 3 kolech", "cs") == f"v{NBSP}3{NBSP}kolech"
    assert number_range("1", "5", "de") == "1–5"
    assert number_range("1", "5", "ja") == "1～5"


@pytest.mark.slow
@pytest.mark.print
def test_german_added_to_a_copy_builds_in_english_where_untranslated(tmp_path: Path) -> None:
    """Adding a language: list it in game.yaml, run i18n update, build: nothing else."""
    work = _project_copy(tmp_path / "project")
    # of the games that make an unfinished language a preview (ours set the bar at 90 %),
    # the one with the fewest worked examples, so that its site builds fastest
    previewed = [g for g in GAMES if loaded(g).spec.game.translation.complete_at]
    game = min(previewed, key=lambda g: len(loaded(g).spec.examples))
    others = [g for g in GAMES if g != game]
    edit(
        work / "rules_spec" / game / "game.yaml",
        "  languages: [",
        "  languages: [de, ",
    )
    updated = run_main("i18n", "update", cwd=work)
    assert updated.code == 0, updated.err
    german = {p.stem for p in work.glob("locales/de/LC_MESSAGES/*.po")}
    assert german == {game, "rulepress", "theme"}
    stats = _stats(work)
    for domain in german:
        assert stats[("de", domain)]["percent"] == 0.0
        assert stats[("de", domain)]["total"] > 0
    assert not any((("de", other) in stats) for other in others)

    # a new language is a preview (the game sets a bar above 0 %): no print
    # files, which a printer would take as final
    printed = tmp_path / "print"
    made = run_cli("build", "print", "--lang", "de", "--out", str(printed), cwd=work, timeout=900)
    assert made.code == 0, made.err
    assert f"print (de): no files for {game}, a preview in this language" in made.err
    assert not (printed / "de" / game).exists()
    first_rule = loaded(game).spec.rules[0].title

    site = tmp_path / "site"
    args = ("--lang", "en", "--lang", "de", "--no-doctest", "--pdfs", str(printed))
    built = run_cli("build", "site", *args, "--out", str(site), cwd=work, timeout=900)
    assert built.code == 0, built.err
    assert (site / "de" / game / "index.html").is_file()
    for other in others:
        assert not (site / "de" / other).exists()
        assert (site / "en" / other / "index.html").is_file()
    page = (site / "de" / game / "index.html").read_text(encoding="utf-8")
    assert '<html lang="de"' in page
    assert first_rule in page or loaded(game).spec.game.title in page
    # its pages link the same page in its languages built here (en, de)
    assert 'hreflang="en"' in page
    assert 'hreflang="de"' in (site / "en" / game / "index.html").read_text(encoding="utf-8")
    landing = (site / "de" / "index.html").read_text(encoding="utf-8")
    assert f'href="{game}/index.html"' in landing
    for other in others:
        assert f'href="{other}/index.html"' not in landing
        # a game not in German links no German page
        other_page = (site / "en" / other / "index.html").read_text(encoding="utf-8")
        assert 'hreflang="de"' not in other_page
    root = (site / "index.html").read_text(encoding="utf-8")
    # listed, marked as a preview, and never where the root page sends a reader
    assert ">Deutsch <small>preview</small></a>" in root
    sites = re.search(r"var sites=(.*?);\n", root)
    assert sites is not None
    assert all("de" not in pair for pair in json.loads(sites.group(1)))
    # a preview: it says so, search engines leave it out, and the gate reports its
    # English without failing, while it fails on the same English in a published language
    assert '<meta name="robots" content="noindex" />' in page
    assert f'class="{NOTICE_CLASS}"' in page
    gate = run_main("gate", "--site", str(site), "--print", "none", cwd=work)
    assert gate.code == 0, gate.err
    # one line for the language, not one per message: i18n check lists what is left
    [line] = [line for line in gate.err.splitlines() if "is a preview" in line]
    assert line.startswith("warning: de is a preview: ")
    assert "rulepress i18n check --lang de" in line
    assert re.search(r"; and \d+ more$", line)
