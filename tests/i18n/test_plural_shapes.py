"""Plurals in the game catalogs as translators' tools know them (issue 26, point 3).

A message with one count is a gettext plural entry, one with several is ICU
MessageFormat flagged ``icu-message-format``; the renderers and QA read both
back as spec markup. These tests read the shipped catalogs with the tools
translators use (polib, translate-toolkit's pofilter, pyicumessageformat) and
exercise the conversions and the located errors of what cannot be read back.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from pyicumessageformat import Parser

from rulepress.editions.compare import Messages
from rulepress.i18n.catalog_shapes import Language, catalog_msgid, source_text, spec_view
from rulepress.i18n.catalogs import merge, render
from rulepress.i18n.icu import ICU_FLAG, ShapeError, categories, from_icu, known_categories
from rulepress.i18n.plural import parse_plural_forms
from rulepress.i18n.plural_entries import from_forms, to_forms
from rulepress.i18n.qa import Terms, check_file
from rulepress.i18n.runtime import game_translator, localize
from rulepress.model.text import PlainContext, to_plain
from tests.conftest import GAME_LANGUAGES, LOCALES, TEMPLATED, loaded

CATALOGS = [
    LOCALES / lang / "LC_MESSAGES" / f"{game}.po"
    for game, langs in GAME_LANGUAGES.items()
    for lang in langs
    if lang != "en"
]
#: the templates the project keeps (an English-only game may have none yet)
TEMPLATES = [LOCALES / f"{game}.pot" for game in TEMPLATED]
CZECH_RULE = parse_plural_forms("nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);").rule
CZECH = Language("cs", "Czech", 3, CZECH_RULE.index)
HEADER = (
    'msgid ""\nmsgstr ""\n"Language: cs\\n"\n'
    '"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"\n'
    '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
)


def _plain(text: str, n: int, plural: object = CZECH_RULE.index) -> str:
    names = re.findall(r"\{param:([a-z_0-9]+)", text)
    ctx = PlainContext(dict.fromkeys(names, n), {}, {}, plural=plural)  # type: ignore[arg-type]
    return to_plain(text, ctx, {"wins": n})


# ------------------------------------------------------------------ the shapes


def test_each_message_takes_the_shape_of_its_counts() -> None:
    assert catalog_msgid("Score {rule:16.1}.") == "Score {rule:16.1}."
    assert catalog_msgid("Play {param:rounds|# round|# rounds}.") == (
        "Play {param:rounds} round.",
        "Play {param:rounds} rounds.",
    )
    # a number the English gives no forms to is still a count: Czech needs them
    assert catalog_msgid("Lose {param:penalty}.") == ("Lose {param:penalty}.",) * 2
    # a scorer's value counts only where the English gives it forms
    assert catalog_msgid("{wins|# win|# wins} for {player}") == (
        "{wins} win for {player}",
        "{wins} wins for {player}",
    )
    assert catalog_msgid("{wins} for {player}") == "{wins} for {player}"
    assert catalog_msgid("{param:a|# cube|# cubes} and {param:b}, {player}'s") == (
        "{param:a, plural, one {# cube} other {# cubes}} and {param:b}, {player}'s"
    )


def test_an_apostrophe_before_a_brace_is_escaped_for_icu() -> None:
    icu = catalog_msgid("the players' {param:a} and '{param:b|# x|# xs}'")
    assert isinstance(icu, str)
    tree = Parser().parse(icu)
    assert tree[0] == "the players' "
    assert tree[-1] == "'"  # read back as the apostrophe it was


def test_every_shipped_message_reads_back_exactly() -> None:
    """Each spec message's catalog shape gives back its English, so lookups by it find it."""
    shapes = {"plain": 0, "plural": 0, "icu": 0}
    for game in GAME_LANGUAGES:
        for context, message in Messages(loaded(game).spec).by_context.items():
            msgid = catalog_msgid(message.text)
            entry = Message(msgid, context=context)
            if isinstance(msgid, tuple):
                shapes["plural"] += 1
            elif msgid != message.text or len(re.findall(r"\{param:", msgid)) >= 2:
                entry.flags.add(ICU_FLAG)
                shapes["icu"] += 1
            else:
                shapes["plain"] += 1
            assert source_text(entry) == message.text, context
    assert shapes["plural"] > 0
    assert shapes["icu"] > 0


# ------------------------------------------------------------------ the tools' view


@pytest.mark.parametrize("path", CATALOGS + TEMPLATES, ids=lambda p: p.name)
def test_polib_sees_plural_entries_and_no_python_format(path: Path) -> None:
    po = polib.pofile(str(path))
    nplurals = (
        int(po.metadata["Plural-Forms"].split(";")[0].split("=")[1]) if path.suffix == ".po" else 2
    )
    plurals = [e for e in po if e.msgid_plural]
    assert plurals
    for entry in plurals:
        assert sorted(entry.msgstr_plural) == list(range(nplurals))
    assert not [e for e in po if "python-brace-format" in e.flags]
    assert [e for e in po if ICU_FLAG in e.flags]


@pytest.mark.parametrize("path", CATALOGS + TEMPLATES, ids=lambda p: p.name)
def test_every_icu_entry_parses_with_the_parser_weblate_uses(path: Path) -> None:
    parser = Parser({"require_other": True})
    checked = 0
    for entry in polib.pofile(str(path)):
        if ICU_FLAG in entry.flags:
            for text in (entry.msgid, entry.msgstr):
                if text:
                    parser.parse(text)  # raises on a syntax error
                    checked += 1
    assert checked


def _pofilter(path: Path, out: Path) -> list[tuple[str, str]]:
    """(check, msgctxt) of each failure pofilter reports on the plural and placeholder checks."""
    tests = ["nplurals", "variables", "printf", "pythonbraceformat"]
    command = [Path(sys.executable).with_name("pofilter"), "--progress=none"]
    command += [arg for test in tests for arg in ("-t", test)]
    subprocess.run([*command, path, out], check=True, capture_output=True, timeout=300)
    found = []
    for entry in polib.pofile(str(out)):
        for comment in entry.tcomment.splitlines():
            if comment.startswith("(pofilter) "):
                found.append((comment.split()[1].rstrip(":"), entry.msgctxt or ""))
    return found


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.parent.name}-{p.name}")
def test_pofilter_reports_no_false_plural_or_placeholder_error(path: Path, tmp_path: Path) -> None:
    """Translate Toolkit's checks find nothing on the plural entries and the rest.

    pofilter has no ICU check, and its python-brace check reads every ``{…}``
    whatever the entry's flags say: on ICU entries it takes ``{# bod}`` for a
    field name. Weblate runs that check only on ``python-brace-format``
    entries and its ICU check on these; the test above parses them with that
    check's parser, and rulepress's QA compares their placeholders.
    """
    icu = {e.msgctxt for e in polib.pofile(str(path)) if ICU_FLAG in e.flags}
    found = _pofilter(path, tmp_path / "out.po")
    assert [
        (check, ctx) for check, ctx in found if not (check == "pythonbraceformat" and ctx in icu)
    ] == []


# ------------------------------------------------------------------ reading back


def test_forms_read_back_as_spec_markup() -> None:
    forms = [
        "Získejte {param:x} bod za {ruling:r}, pak {param:x} bod.",
        "Získejte {param:x} body za {ruling:r}, pak {param:x} body.",
        "Získejte {param:x} bodů za {ruling:r}, pak {param:x} bodů.",
    ]
    text = from_forms(forms, "param:x", explicit=True)
    assert (
        text
        == "Získejte {param:x|# bod|# body|# bodů} za {ruling:r}, pak {param:x|# bod|# body|# bodů}."
    )
    assert to_forms(text, "param:x", 3) == tuple(forms)
    for n, form in ((1, 0), (3, 1), (5, 2), (22, 2)):
        assert _plain(text, n) == _plain(forms[form], n)
    # a word before the number that changes too, a link that changes
    assert (
        from_forms(
            [
                "zbývá {param:x} [kolo](term:r)",
                "zbývají {param:x} [kola](term:r)",
                "zbývá {param:x} [kol](term:r)",
            ],
            "param:x",
            explicit=True,
        )
        == "{param:x|zbývá # [kolo](term:r)|zbývají # [kola](term:r)|zbývá # [kol](term:r)}"
    )


def test_forms_that_cannot_be_read_back_are_refused() -> None:
    with pytest.raises(ShapeError, match="other placeholders"):
        from_forms(
            ["{param:x} bod {rule:1.1}", "{param:x} body {rule:1.2}"], "param:x", explicit=True
        )
    with pytest.raises(ShapeError, match="differ where"):
        from_forms(
            ["{param:x} a {rule:1} Ahoj", "{param:x} b {rule:1} Nazdar"], "param:x", explicit=True
        )
    with pytest.raises(ShapeError, match="'\\|'"):
        from_forms(["{param:x} a|b", "{param:x} c"], "param:x", explicit=True)


def test_icu_reads_back_with_czech_categories() -> None:
    by_category = categories("cs", CZECH_RULE.index)
    assert by_category == {"one": 0, "few": 1, "other": 2}
    text = from_icu(
        "{param:a, plural, one {# bod} few {# body} many {# bodu} other {# bodů}} a {param:b}",
        3,
        by_category,
        known_categories("cs"),
        "Czech",
    )
    assert text == "{param:a|# bod|# body|# bodů} a {param:b}"
    # a category left out takes the other form, as ICU does
    assert (
        from_icu(
            "{wins, plural, one {# výhra} other {# výher}}",
            3,
            by_category,
            known_categories("cs"),
            "Czech",
        )
        == "{wins|# výhra|# výher|# výher}"
    )


@pytest.mark.parametrize(
    ("icu", "message"),
    [
        ("{param:a, plural, one {#} two {#} other {#}}", "Czech has no plural category 'two'"),
        ("{param:a, plural, =0 {nic} other {#}}", "exact-number selectors"),
        ("{param:a, plural, one {#}}", "not valid ICU"),
        ("{param:a, select, x {a} other {b}}", "only plural"),
        ("{param:a, plural, offset:1 one {#} other {#}}", "offset"),
        ("{param:a, plural, one {# {rule:1}} other {#}}", "only words and #"),
        ("{param:a, plural, one {'#'} other {#}}", "quoted '#'"),
        ("{param:a, plural, one {x|y} other {#}}", "quoted '|'"),
        ("{param:a, plural, one {" * 20 + "}" * 20, "not valid ICU"),
        ("x" * 30_000, "characters long"),
    ],
)
def test_icu_that_cannot_be_read_back_is_refused(icu: str, message: str) -> None:
    with pytest.raises(ShapeError, match=re.escape(message)):
        from_icu(icu, 3, categories("cs", CZECH_RULE.index), known_categories("cs"), "Czech")


def _catalog(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "brink.po"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def _line(path: Path, context: str) -> int:
    """The line of the msgid of the entry with ``context`` (where QA locates it)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index(f'msgctxt "{context}"')
    return at + 2


def test_qa_locates_what_cannot_be_read_back_and_the_page_shows_english(tmp_path: Path) -> None:
    path = _catalog(
        tmp_path,
        'msgctxt "a"\nmsgid "Lose {param:p} cube {rule:1}."\nmsgid_plural "Lose {param:p} cubes {rule:1}."\n'
        'msgstr[0] "Ztraťte {param:p} kostku {rule:1}."\nmsgstr[1] "Ztraťte {param:p} kostky {rule:2}."\n'
        'msgstr[2] "Ztraťte {param:p} kostek {rule:1}."\n\n'
        '#, icu-message-format\nmsgctxt "b"\nmsgid "{param:p} and {param:q}"\n'
        'msgstr "{param:p, plural, one {#} two {#} other {#}} a {param:q}"\n\n'
        'msgctxt "c"\nmsgid "Gain {param:p} point."\nmsgid_plural "Gain {param:p} points."\n'
        'msgstr[0] "Získejte {param:p} bod."\nmsgstr[1] ""\nmsgstr[2] "Získejte {param:p} bodů."\n',
    )
    findings = [str(f) for f in check_file(path, "cs", Terms.empty())]
    assert (
        f"{path}:{_line(path, 'a')}: a: form 1 has other placeholders than form 0 ({{rule:2}} against {{rule:1}}): only the words next to the number may change"
        in findings
    )
    assert (
        f"{path}:{_line(path, 'b')}: b: {{param:p, plural}}: Czech has no plural category 'two' (it has few, many, one, other)"
        in findings
    )
    assert f"{path}:{_line(path, 'c')}: c: msgstr[1] is empty: give every plural form" in findings
    assert not [f for f in findings if "untranslated" in f]  # said why, not merely untranslated
    assert not [f for f in findings if "unsafe" in f]  # the page shows the English instead


def test_qa_checks_placeholders_and_agreement_on_both_shapes(tmp_path: Path) -> None:
    path = _catalog(
        tmp_path,
        'msgctxt "a"\nmsgid "Lose {param:p} cube."\nmsgid_plural "Lose {param:p} cubes."\n'
        'msgstr[0] "Ztraťte {param:p} kostku {rule:9}."\n'
        'msgstr[1] "Ztraťte {param:p} kostky {rule:9}."\n'
        'msgstr[2] "Ztraťte {param:p} kostek {rule:9}."\n\n'
        '#, icu-message-format\nmsgctxt "b"\n'
        'msgid "{param:p, plural, one {# cube} other {# cubes}} and {param:q}"\n'
        'msgstr "{param:p} kostek a {param:q} {rule:9}"\n',
    )
    findings = [str(f) for f in check_file(path, "cs", Terms.empty())]
    # an added placeholder is unsafe in either shape
    assert (
        f"{path}:{_line(path, 'a')}: a: unsafe: placeholder {{rule:9}} is not in the source"
        in findings
    )
    assert (
        f"{path}:{_line(path, 'b')}: b: unsafe: placeholder {{rule:9}} is not in the source"
        in findings
    )
    # the English changes with the number, the ICU translation does not
    assert any(
        f.startswith(f"{path}:{_line(path, 'b')}: b: {{param:p}}: the source's words change")
        for f in findings
    )


def test_a_czech_plural_entry_renders_each_form(tmp_path: Path) -> None:
    view = spec_view(
        _read(
            _catalog(
                tmp_path,
                'msgctxt "a"\nmsgid "Lose {param:p} cube."\nmsgid_plural "Lose {param:p} cubes."\n'
                'msgstr[0] "Ztraťte {param:p} kostku."\nmsgstr[1] "Ztraťte {param:p} kostky."\n'
                'msgstr[2] "Ztraťte {param:p} kostek."\n',
            )
        ),
        CZECH,
        "brink.po",
    )
    entry = view.catalog.get("Lose {param:p|# cube|# cubes}.", "a")
    assert entry is not None
    assert view.problems == []
    assert [_plain(entry.string, n) for n in (1, 2, 5)] == [
        "Ztraťte 1 kostku.",
        "Ztraťte 2 kostky.",
        "Ztraťte 5 kostek.",
    ]


def _read(path: Path) -> Catalog:
    from rulepress.i18n.catalogs import read_catalog

    return read_catalog(path, "cs")


def test_the_shipped_czech_catalog_reaches_the_renderers_as_spec_markup() -> None:
    """The migrated catalog: a count in Czech agrees with its value, on every page."""
    english = Messages(loaded("stationfall").spec).by_context["rules/16.4.7/text"].text
    czech = game_translator(LOCALES, "cs", "stationfall")("rules/16.4.7/text", english)
    assert "{param:cubes_per_player|# [kostku vlivu](term:influence-cube)|" in czech
    assert _plain(czech, 5).startswith("Každý hráč má 5 kostek vlivu.")
    local = localize(loaded("stationfall"), "cs", LOCALES)
    assert local.missing.get("stationfall", 0) == 0


# ------------------------------------------------------------------ update carries translations


def _template(*texts: tuple[str, str]) -> Catalog:
    template = Catalog(project="t", version="1", fuzzy=False)
    for context, text in texts:
        message = template.add(catalog_msgid(text), context=context)
        message.flags.discard("python-brace-format")
        if isinstance(message.id, str) and message.id != text:
            message.flags.add(ICU_FLAG)
    return template


def test_update_carries_a_singular_into_a_plural_entry_exactly() -> None:
    old = Catalog(locale=Locale.parse("cs"), fuzzy=False)
    old.add(
        "Lose {param:p|# cube|# cubes}.",
        "Ztraťte {param:p|# kostku|# kostky|# kostek}.",
        context="a",
    )
    old.add(
        "Lose {param:p|# cube|# cubes} and {param:q}.",
        "Ztraťte {param:p|# kostku|# kostky|# kostek} a {param:q|# bod|# body|# bodů}.",
        context="b",
    )
    old.add(
        "Lose {param:p|# cube|# cubes} now.",
        "Ztraťte {param:p|# kostku|# kostky|# kostek} hned.",
        context="c",
    )
    template = _template(
        ("a", "Lose {param:p|# cube|# cubes}."),
        ("b", "Lose {param:p|# cube|# cubes} and {param:q}."),
        ("c", "Lose {param:p|# cube|# cubes} at once."),
    )
    new = merge(template, old, "cs", spec_text=True)
    a = new.get(("Lose {param:p} cube."), "a")
    assert a is not None
    assert not a.fuzzy
    assert a.string == (
        "Ztraťte {param:p} kostku.",
        "Ztraťte {param:p} kostky.",
        "Ztraťte {param:p} kostek.",
    )
    b = next(m for m in new if m.context == "b")
    assert not b.fuzzy
    assert ICU_FLAG in b.flags
    assert "python-brace-format" not in b.flags
    assert b.string == (
        "Ztraťte {param:p, plural, one {# kostku} few {# kostky} other {# kostek}}"
        " a {param:q, plural, one {# bod} few {# body} other {# bodů}}."
    )
    # the English changed: the old translation, in the new shape, for review
    c = next(m for m in new if m.context == "c")
    assert c.fuzzy
    assert c.previous_id == ["Lose {param:p|# cube|# cubes} now."]
    assert c.string[2] == "Ztraťte {param:p} kostek hned."
    # and back: the count is gone from the English, the forms come back as one text, fuzzy
    again = merge(_template(("a", "Lose a cube.")), new, "cs", spec_text=True)
    back = next(m for m in again if m.context == "a")
    assert back.fuzzy
    assert back.string == "Ztraťte {param:p|# kostku|# kostky|# kostek}."
    # a second update changes nothing
    assert render(merge(template, new, "cs", spec_text=True)) == render(new)
