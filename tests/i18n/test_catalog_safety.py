"""Catalogs are untrusted data: unsafe ones are refused before use, QA-only problems are not.

The bad catalogs of tests/data/bad_catalogs/ are put in place of a real
catalog and given to :func:`localize`, which the site build, the print build
and ``score --lang`` all call: an unsafe one must be refused with exactly the
located problems ``rulepress i18n check`` reports as unsafe (its ``.expected``
file), a QA-only one must be used (the renderers show its text as text).
"""

from __future__ import annotations

import builtins
import gettext
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from babel.messages.plurals import PLURALS

from rulepress.errors import Problem
from rulepress.i18n import plural
from rulepress.i18n.catalogs import CatalogError, inspect_catalog, read_catalog
from rulepress.i18n.plural import (
    MAX_NESTING,
    PluralFormsError,
    cldr_plural_count,
    compile_expression,
    parse_plural_forms,
)
from rulepress.i18n.qa import Terms, check_file
from rulepress.i18n.runtime import localize
from rulepress.i18n.safety import check_safe
from rulepress.uitext import PluralText
from tests.conftest import DATA, GAME_LANGUAGES, LOCALES, ROOT, loaded, run_cli, run_main

BAD = DATA / "bad_catalogs"
CASES = sorted(BAD.glob("*.po"))


def _install(tmp_path: Path, case: Path) -> tuple[Path, str, Path]:
    """A copy of locales/ with ``case`` as its catalog of the case's domain and language."""
    text = case.read_bytes().decode("utf-8")
    lang = re.search(r"Language: (\w+)", text)
    assert lang is not None
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES, locales)
    target = locales / lang.group(1) / "LC_MESSAGES" / f"{case.name.split('.')[0]}.po"
    target.write_bytes(case.read_bytes())
    return locales, lang.group(1), target


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_localize_refuses_exactly_the_unsafe_catalogs(tmp_path: Path, case: Path) -> None:
    """What QA marks unsafe is what localize refuses, no more (QA-only findings are used)."""
    locales, lang, target = _install(tmp_path, case)
    unsafe = sorted((f.line, f.message) for f in check_file(case, None, Terms.empty()) if f.safety)
    if not unsafe:
        local = localize(loaded("stationfall"), lang, locales)
        assert local.renderer.language == lang
        return
    with pytest.raises(CatalogError) as caught:
        localize(loaded("stationfall"), lang, locales)
    error = caught.value
    assert error.exit_code == 5
    assert {p.location.file for p in error.problems} == {str(target)}
    assert sorted((p.location.line, p.message) for p in error.problems) == unsafe


def test_the_cli_reports_the_reading_problems_localize_refuses() -> None:
    """``i18n check FILE`` stops at problems that make a file unreadable: the same lines."""
    for case in CASES:
        printed = case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
        located = [line for line in printed if re.match(r"^[^:]+:\d+:\d+: ", line)]
        found = inspect_catalog(case.relative_to(ROOT)).problems
        reading = [str(p) for p in sorted(found, key=Problem.sort_key)]
        if reading:
            assert located == reading, case.name


def test_score_refuses_an_unusable_plural_forms_header(tmp_path: Path) -> None:
    locales, _, target = _install(tmp_path, BAD / "rulepress.plural-div-zero.po")
    result = run_main(
        "score", "stationfall", "--example", "shared-win", "--lang", "cs", "--locales", str(locales)
    )
    assert result.code == 5
    assert "Traceback" not in result.err
    assert f"{target}:4:35: Plural-Forms: division by zero for n=5" in result.err
    assert result.out == ""  # nothing half-translated was printed


def test_score_refuses_a_catalog_with_a_syntax_error(tmp_path: Path) -> None:
    locales, _, target = _install(tmp_path, BAD / "rulepress.syntax-error.po")
    result = run_main(
        "score", "stationfall", "--example", "shared-win", "--lang", "cs", "--locales", str(locales)
    )
    assert result.code == 5
    assert "Traceback" not in result.err
    assert f"{target}:9:1: malformed line" in result.err


def test_a_missing_catalog_still_falls_back_to_english(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES, locales)
    (locales / "cs" / "LC_MESSAGES" / "stationfall.po").unlink()
    result = run_main(
        "score", "stationfall", "--example", "shared-win", "--lang", "cs", "--locales", str(locales)
    )
    assert result.code == 0
    assert "no usable Czech catalog for stationfall; shown in English" in result.err
    assert "Most points" in result.out


def test_all_unsafe_problems_of_both_catalogs_at_once(tmp_path: Path) -> None:
    locales, _, _ = _install(tmp_path, BAD / "rulepress.headers-all.po")
    shutil.copy(BAD / "stationfall.placeholders.po", locales / "cs/LC_MESSAGES/stationfall.po")
    with pytest.raises(CatalogError) as caught:
        localize(loaded("stationfall"), "cs", locales)
    text = caught.value.render()
    assert "Plural-Forms: plural form 2 for n=0" in text
    assert "charset 'utf-7' is not ASCII-compatible" in text
    assert "placeholder {rule:16.4.8} is not in the source" in text  # read on despite the header
    assert "placeholder {param:penalty} is not in the source" in text  # the other catalog
    assert text.endswith("cannot be used safely (see docs/translators.md): 5 problems")


def test_utf7_is_never_decoded(tmp_path: Path) -> None:
    """UTF-8 text that QA checked must not turn into <script> when read as UTF-7."""
    with pytest.raises(CatalogError) as caught:
        read_catalog(BAD / "rulepress.charset-utf7.po")
    assert "<script>" not in caught.value.render()


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_the_real_catalogs_are_safe() -> None:
    result = run_cli("i18n", "check")
    assert result.code == 0, result.err
    for game, languages in GAME_LANGUAGES.items():
        for lang in languages:
            localize(loaded(game), lang, LOCALES)


def test_no_catalog_expression_reaches_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a plural expression was compiled or evaluated as Python")

    spec = loaded("stationfall")
    monkeypatch.setattr(gettext, "c2py", forbidden)
    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "compile", forbidden)
    local = localize(spec, "cs", LOCALES)
    text = PluralText(
        "winners.places",
        "{places} winning place {with_players}.",
        "{places} winning places {with_players}.",
        "places",
    )
    shown = [local.renderer.text(text, {"places": n, "with_players": "-"}) for n in (1, 2, 5)]
    assert [s.split()[1] for s in shown] == ["vítězné", "vítězná", "vítězných"]
    parse_plural_forms("nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);")


# ---------------------------------------------------------------- the parser itself


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_every_rule_babel_knows_is_accepted(lang: str) -> None:
    nplurals, expression = PLURALS[lang]
    rule = parse_plural_forms(f"nplurals={nplurals}; plural={expression};").rule
    assert rule.nplurals == nplurals


@pytest.mark.parametrize(
    ("n", "form"), [(0, 2), (1, 0), (2, 1), (4, 1), (5, 2), (22, 2), (1_000_000, 2)]
)
def test_czech_forms(n: int, form: int) -> None:
    rule = parse_plural_forms("nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);").rule
    assert rule.index(n) == form


def test_c_semantics() -> None:
    assert compile_expression("n % 10 == 1 && n % 100 != 11")(21) == 1
    assert compile_expression("!n")(0) == 1
    assert compile_expression("n - 1")(0) == 2**64 - 1  # unsigned, as gettext computes it
    assert compile_expression("n > 1 ? n == 2 ? 1 : 2 : 0")(2) == 1  # right-associative ?:


def test_cldr_counts_agree_with_gettext() -> None:
    for lang, count in {"cs": 3, "ja": 1, "fr": 3, "ar": 6, "pl": 3, "en": 2}.items():
        assert cldr_plural_count(lang) == count == PLURALS[lang][0]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nplurals=2; plural=" + "(" * 500 + "n" + ")" * 500 + ";", "characters long"),
        ("nplurals=2; plural=" + "(" * 30 + "n!=1" + ")" * 30 + ";", "nested more than"),
        ("nplurals=2; plural=" + "!" * 30 + "n;", "nested more than"),
        ("nplurals=2; plural=" + "n ? 0 : " * 30 + "1;", "nested more than"),
        ("nplurals=2; plural=(n > 12345678901);", "too large"),
        ("nplurals=999999; plural=0;", "from 1 to 6"),
        ("nplurals=0; plural=0;", "from 1 to 6"),
        ("nplurals=2; plural=(n/0);", "division by zero for n=0"),
        ("nplurals=2; plural=(n % (n - 7) > 0);", "division by zero for n=7"),
        ("nplurals=2; plural=(n==1?5:0);", "plural form 5 for n=1"),
        ("nplurals=2; plural=(n > 9999 ? 2 : 0);", "plural form 2 for n=10000"),
        ("nplurals=2; plural=__import__('os');", "unexpected '_'"),
        ("nplurals=2; plural=n != 1; nplurals=3;", "expected 'nplurals=N; plural=EXPRESSION;'"),
        ("nplurals=2; plural=;", "empty"),
    ],
)
def test_bad_plural_forms_are_refused(value: str, message: str) -> None:
    with pytest.raises(PluralFormsError, match=re.escape(message)):
        parse_plural_forms(value)


def test_nesting_within_the_bound_is_accepted() -> None:
    depth = MAX_NESTING - 1
    parse_plural_forms("nplurals=2; plural=" + "(" * depth + "n!=1" + ")" * depth + ";")


def test_runtime_index_is_total_outside_the_sample() -> None:
    """A rule checked on the sample may still misbehave elsewhere: the last form, never a crash."""
    rule = plural.PluralRule(2, "n/(n-77777777777)", compile_expression("n/(n-7777777777)"))
    assert rule.index(7777777777) == 1
    assert rule.index(-5) in (0, 1)


def test_a_catalog_checked_again_is_checked_as_it_now_is(tmp_path: Path) -> None:
    """The last catalog checked is kept by its bytes: never stale, its problems never shared."""
    po = tmp_path / "brink.cs.po"
    header = (
        'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n\n'
    )
    po.write_text(header + 'msgctxt "a"\nmsgid "Take {rule:1.2}."\nmsgstr "Vezmi {rule:9.9}."\n')
    first = [str(p) for p in check_safe(po, "cs").problems]
    assert first == [f"{po}:8:1: a: placeholder {{rule:9.9}} is not in the source"]
    assert [str(p) for p in check_safe(po, "cs").problems] == first  # not added to again
    po.write_text(header + 'msgctxt "a"\nmsgid "Take {rule:1.2}."\nmsgstr "Vezmi {rule:1.2}."\n')
    assert check_safe(po, "cs").problems == []
