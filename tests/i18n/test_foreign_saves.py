"""Catalogs saved by translators' tools are current, keep their header, and read the same.

``i18n update --check`` compares catalogs by content (rulepress.i18n.content),
so a file rewrapped or re-headed by Poedit, Weblate (translate-toolkit), polib
or msgcat is not stale, and ``update`` leaves it as it is.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import polib
import pytest
from translate.storage import po

from rulepress.i18n.catalogs import PACKAGE_DOMAINS, PACKAGE_LOCALES, catalog_path
from rulepress.i18n.content import same_content
from rulepress.i18n.runtime import LocaleNumbers, localize
from rulepress.render.context import RenderContext
from rulepress.render.pages import game_pages
from tests.conftest import (
    DATA,
    LOCALES,
    ROOT,
    TRANSLATED,
    TRANSLATIONS,
    edit,
    loaded,
    run_cli,
    run_main,
)

#: runs the i18n commands over every catalog, many times (tens of seconds): left out of the
#: quick run (-m 'not slow'), which must stay under three minutes
pytestmark = pytest.mark.slow

FIXTURE = (DATA / "tool_catalogs" / "cs.po").read_text(encoding="utf-8")

#: (what a tool or a translator did, the text before, after): the same content
SAME = [
    ("X-Generator changed", '"X-Generator: Poedit 3.4.2\\n"', '"X-Generator: Weblate 5.8\\n"'),
    ("X-Generator dropped", '"X-Generator: Poedit 3.4.2\\n"\n', ""),
    (
        "another translator",
        "Jana Nováková <jana@example.org>\\n",
        "Petr Malý <petr@example.org>\\n",
    ),
    ("revision date", "2026-05-04 09:12+0200", "2026-06-30 17:45+0200"),
    ("team", "Czech <cs@example.org>", "Čeština <>"),
    ("new X- field", '"X-Generator:', '"X-Poedit-Basepath: ..\\n"\n"X-Generator:'),
    ("charset spelled", "charset=UTF-8", "charset=utf-8"),
    (
        "plural rule spelled as Babel does",
        "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
        "nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);",
    ),
    ("header comment", "# Jana Nováková <jana@example.org>, 2026.\n", ""),
    ("rewrapped msgstr", '"Příprava"', '""\n"Pří"\n"prava"'),
    (
        "rewrapped previous msgid",
        '#| msgid "{count} player shares the first place"',
        '#| msgid ""\n#| "{count} player shares "\n#| "the first place"',
    ),
    (
        "comment rewrapped",
        "# checked against the printed rulebook",
        "# checked against the\n# printed rulebook",
    ),
    ("flags in another order", "#, fuzzy\n#| msgid", "#, python-brace-format, fuzzy\n#| msgid"),
]
#: (what changed, before, after): content that differs, so the catalog is stale
DIFFERENT = [
    ("translation", '"Příprava"', '"Rozestavění"'),
    ("fuzzy flag", "#, fuzzy\n#| msgid", "#| msgid"),
    ("previous msgid", '#| msgid "{count} player shares the first place"', '#| msgid "x"'),
    (
        "previous plural",
        '#| msgid_plural "{count} players share',
        '#| msgid_plural "{count} people share',
    ),
    ("obsolete previous", '#~| "Before the first round each', '#~| "After the first round each'),
    ("obsolete entry", '#~ msgstr ""\n#~ "Před', '#~ msgstr ""\n#~ "Po'),
    ("context", 'msgctxt "rules/2/title"', 'msgctxt "rules/3/title"'),
    ("plural form", 'msgstr[2] "o první', 'msgstr[2] "O první'),
    ("extracted comment", "#. the places of the winners", "#. the winners"),
    ("reference", "rules.yaml:9", "rules.yaml:10"),
    ("translator comment", "# checked against the printed rulebook", "# not checked"),
    ("language", '"Language: cs\\n"', '"Language: sk\\n"'),
    (
        "plural rule",
        "plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
        "plural=(n==1) ? 0 : (n>=2 && n<=5) ? 1 : 2;",
    ),
    ("project", "rulepress fixture 0.1.0", "rulepress fixture 0.2.0"),
]


@pytest.mark.parametrize(("what", "old", "new"), SAME, ids=[s[0] for s in SAME])
def test_a_layout_or_translators_header_change_is_the_same_content(
    what: str, old: str, new: str
) -> None:
    assert old in FIXTURE
    changed = FIXTURE.replace(old, new, 1)
    assert same_content(FIXTURE.encode(), changed.encode(), "cs"), what


@pytest.mark.parametrize(("what", "old", "new"), DIFFERENT, ids=[d[0] for d in DIFFERENT])
def test_a_change_of_content_is_seen(what: str, old: str, new: str) -> None:
    assert old in FIXTURE
    changed = FIXTURE.replace(old, new, 1)
    assert not same_content(FIXTURE.encode(), changed.encode(), "cs"), what


def test_an_unreadable_file_is_never_the_same() -> None:
    broken = FIXTURE.replace('msgstr "Příprava"', 'msgstr "Příprava')
    assert not same_content(FIXTURE.encode(), broken.encode(), "cs")
    assert not same_content(b"\xff" + FIXTURE.encode(), FIXTURE.encode(), "cs")


def _copy(tmp_path: Path, *names: str) -> Path:
    for name in ("rules_spec", "locales", *names):
        shutil.copytree(ROOT / name, tmp_path / name)
    return tmp_path


POEDIT = {
    "Last-Translator": "Jana Nováková <jana@example.org>",
    "Language-Team": "Czech <cs@example.org>",
    "PO-Revision-Date": "2026-05-04 09:12+0200",
    "X-Generator": "Poedit 3.4.2",
}


def _poedit_header(text: str) -> str:
    """The header as Poedit saves it: the translator's fields, its own, its plural spelling."""
    for name, value in POEDIT.items():
        text, count = re.subn(rf'"{name}: [^"]*\\n"', f'"{name}: {value}\\\\n"', text, count=1)
        if not count:
            text = text.replace('"Generated-By:', f'"{name}: {value}\\n"\n"Generated-By:', 1)
    text = text.replace("charset=utf-8", "charset=UTF-8", 1)
    return text.replace(
        "plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);",
        "plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
        1,
    )


def test_update_keeps_the_translators_header_and_layout(tmp_path: Path) -> None:
    work = _copy(tmp_path)
    path = work / "locales/cs/LC_MESSAGES/stationfall.po"
    saved = _poedit_header(path.read_text(encoding="utf-8"))
    assert saved.count("X-Generator") == 1
    assert "n>=2 && n<=4" in saved
    path.write_text(saved, encoding="utf-8")
    assert run_main("i18n", "update", "--check", cwd=work).code == 0
    # its domain alone: a game published in English only beside it (a designer's) may
    # have no template yet, which update writes
    updated = run_main("i18n", "update", "--domain", "stationfall", cwd=work)
    assert updated.out == "catalogs: up to date\n"
    assert path.read_text(encoding="utf-8") == saved  # not rewritten: Poedit's layout stays
    edit(work / "rules_spec/stationfall/rules.yaml", "title: Winning", "title: Winning the Game")
    assert run_main("i18n", "extract", cwd=work).code == 0
    assert run_main("i18n", "update", cwd=work).code == 0
    header = path.read_text(encoding="utf-8").split("\n\n")[0]
    for name, value in POEDIT.items():
        assert f'"{name}: {value}\\n"' in header
    # ours again: the catalog's language, its plural rule and charset as rulepress writes them
    assert (
        '"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"' in header
    )
    assert '"Content-Type: text/plain; charset=utf-8\\n"' in header
    assert '"Language: cs\\n"' in header


def _msgcat(source: Path, target: Path) -> None:
    subprocess.run(["msgcat", "-w", "60", "-o", str(target), str(source)], check=True)


def _polib(source: Path, target: Path) -> None:
    polib.pofile(str(source)).save(str(target))


def _toolkit(source: Path, target: Path) -> None:
    """What Weblate does when it saves a translation: parse, then serialize the store."""
    store = po.pofile.parsefile(str(source))
    store.savefile(str(target))


SAVERS: dict[str, Callable[[Path, Path], None]] = {
    "msgcat -w 60": _msgcat,
    "polib": _polib,
    "translate-toolkit": _toolkit,
}


def _shipped(work: Path) -> dict[Path, Path]:
    """Every shipped catalog and template → its place in the copy, where it is re-saved."""
    found = [*(LOCALES).glob("**/*.po*"), *PACKAGE_LOCALES.glob("**/*.po*")]
    return {path: work / path.relative_to(ROOT) for path in found}


def _reading_folder(work: Path) -> Path:
    """The copy's catalogs where the site reads them: a game's and the interface's, side by side.

    Rulepress's own catalogs are the package's; a project's own copy of one
    overrides it (find_catalog), so the pages read the re-saved interface too.
    """
    folder = work / "read"
    shutil.copytree(work / "locales", folder)
    for lang in TRANSLATIONS:
        for domain in PACKAGE_DOMAINS:
            shutil.copy(
                catalog_path(work / PACKAGE_LOCALES.relative_to(ROOT), lang, domain),
                catalog_path(folder, lang, domain),
            )
    return folder


def _page_trees(locales: Path, game: str, lang: str) -> dict[str, str]:
    """Every page of a game in ``lang`` as readers get it (the document trees the site writes)."""
    local = localize(loaded(game), lang, locales)
    ctx = RenderContext(
        local.loaded.spec,
        lang,
        local.renderer.translate,
        LocaleNumbers(lang),
        local.renderer.plain.plural,
    )
    return {name: page.to_json() for name, page in game_pages(ctx).items()}


_ORIGINAL: dict[tuple[str, str], dict[str, str]] = {}


@pytest.mark.parametrize("tool", list(SAVERS))
def test_a_catalog_saved_by_another_tool_is_current_and_reads_the_same(
    tool: str, tmp_path: Path
) -> None:
    work = _copy(tmp_path, "src")
    saved = _shipped(work)
    for source, target in saved.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        SAVERS[tool](source, target)
    # the tool really re-laid the catalogs (a small one, all short lines, may come out
    # byte for byte as we write it: translate-toolkit's theme.po does)
    relaid = [s for s, t in saved.items() if t.suffix == ".po" and t.read_bytes() != s.read_bytes()]
    assert len(relaid) >= len([t for t in saved.values() if t.suffix == ".po"]) // 2, tool
    before = {p: p.read_bytes() for p in saved.values()}
    # the copy's src/ is the rulepress that runs: its own catalogs are checked too
    own = {"PYTHONPATH": str(work / "src")}
    checked = run_cli("i18n", "update", "--check", cwd=work, env=own)
    assert checked.code == 0, checked.err
    checked = run_cli("i18n", "extract", "--check", cwd=work, env=own)
    assert checked.code == 0, checked.err
    assert {p: p.read_bytes() for p in saved.values()} == before
    read = _reading_folder(work)
    for game, lang in TRANSLATED:
        if (game, lang) not in _ORIGINAL:
            _ORIGINAL[game, lang] = _page_trees(LOCALES, game, lang)
        assert _page_trees(read, game, lang) == _ORIGINAL[game, lang], (game, lang)
