"""Every catalog rulepress writes reads in translators' own tools, with no error or warning.

The tools (tests/i18n/po_tools.py): GNU msgfmt -c --check-format, msgcat and
msgmerge, polib, and translate-toolkit's PO storage (load, save, read again).
They are run on every shipped catalog, on small fixtures written as gettext
writes them (tests/data/tool_catalogs: a fuzzy multi-line message, a plural
message, obsolete entries with previous msgids), and after each catalog command.
"""

from __future__ import annotations

import hashlib
import io
import subprocess
from pathlib import Path

import polib
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from translate.storage import po

from rulepress.i18n import catalogs
from rulepress.i18n.catalogs import PACKAGE_LOCALES, find_template, parse_po, read_catalog
from rulepress.i18n.content import same_content
from rulepress.i18n.header_fields import kept_header
from tests.conftest import DATA, LOCALES, edit, project_copy, run_main
from tests.i18n.po_tools import tool_problems

#: runs the i18n commands over every catalog, many times (tens of seconds): left out of the
#: quick run (-m 'not slow'), which must stay under three minutes
pytestmark = pytest.mark.slow

FIXTURES = DATA / "tool_catalogs"
SHIPPED = sorted(
    [
        *(LOCALES).glob("*.pot"),
        *(LOCALES).glob("*/LC_MESSAGES/*.po"),
        *PACKAGE_LOCALES.glob("*.pot"),
        *PACKAGE_LOCALES.glob("*/LC_MESSAGES/*.po"),
    ]
)
#: English long enough to span several lines of a catalog, as most rule texts do
LONG = (
    "Before the first round, each player takes a screen, the contracts of their colour "
    "and three cubes from the supply, and places them where everyone can see them."
)


def template_of(path: Path) -> Path | None:
    """The template a catalog (locales/<lang>/LC_MESSAGES/<domain>.po) is merged from."""
    if path.suffix != ".po":
        return None
    return find_template(path.parent.parent.parent, path.stem)  # maybe the package's


def test_every_shipped_catalog_is_found() -> None:
    assert len([p for p in SHIPPED if p.suffix == ".po"]) >= 8
    assert all(t is None or t.is_file() for t in map(template_of, SHIPPED))


def _shown(path: Path) -> str:
    """A catalog's path from its locales folder (the domains' names tell the package's apart)."""
    return "/".join(path.parts[len(path.parts) - 1 - path.parts[::-1].index("locales") :])


@pytest.mark.parametrize("path", SHIPPED, ids=_shown)
def test_shipped_catalogs_read_cleanly_in_every_tool(path: Path) -> None:
    assert tool_problems(path, template_of(path)) == []


def test_the_fixtures_read_cleanly_in_every_tool() -> None:
    assert tool_problems(FIXTURES / "template.pot") == []
    assert tool_problems(FIXTURES / "cs.po", FIXTURES / "template.pot") == []


def _updated(old_text: str, tmp_path: Path, name: str = "cs.po") -> Path:
    """``i18n update``'s merge of the fixture template into a catalog text, written out."""
    old_file = tmp_path / f"old-{name}"
    old_file.write_text(old_text, encoding="utf-8")
    template = parse_po((FIXTURES / "template.pot").read_text(encoding="utf-8"), None)
    merged = catalogs.merge(template, read_catalog(old_file, "cs"), "cs")
    out = tmp_path / name
    out.write_bytes(catalogs.render(merged, kept_header(old_text)))
    return out


def test_an_update_of_fuzzy_plural_and_obsolete_entries_reads_cleanly(tmp_path: Path) -> None:
    """The fixture's changed English, plural and obsolete entries, through update twice."""
    first = _updated((FIXTURES / "cs.po").read_text(encoding="utf-8"), tmp_path)
    assert tool_problems(first, FIXTURES / "template.pot") == []
    header = polib.pofile(str(first)).metadata  # the translator's fields are kept
    assert header["Last-Translator"] == "Jana Nováková <jana@example.org>"
    assert header["X-Generator"] == "Poedit 3.4.2"
    assert header["PO-Revision-Date"] == "2026-05-04 09:12+0200"
    # gettext's reader (polib) and Weblate's (translate-toolkit) see every previous msgid
    entries = {e.msgctxt: e for e in polib.pofile(str(first))}  # obsolete ones too
    text = entries["rules/1/text"]
    assert text.fuzzy
    assert text.previous_msgid is not None
    assert "each contract they fulfilled; the player with the most points" in text.previous_msgid
    plural = entries["winners.places"]
    assert plural.previous_msgid == "{count} player shares the first place"  # the older English
    assert plural.previous_msgid_plural == "{count} players share the first place"
    assert plural.msgstr_plural[2] == "o první místo se dělí {count} hráčů"
    assert entries["rules/9/text"].obsolete
    assert entries["rules/9/text"].fuzzy
    assert entries["glossary/cube/term"].obsolete  # no longer in the template
    toolkit = {u.getcontext(): u for u in po.pofile.parsefile(str(first)).units}
    assert toolkit["rules/1/text"].prev_source == text.previous_msgid
    # polib does not read "#~|"; translate-toolkit and rulepress do
    previous = (
        "Before the first round each player takes a screen and the contracts of their colour."
    )
    assert toolkit["rules/9/text"].isobsolete()
    assert toolkit["rules/9/text"].prev_source == previous
    ours = read_catalog(first, "cs").obsolete.values()
    assert [m.previous_id for m in ours if m.context == "rules/9/text"] == [[previous]]
    # a second update writes the same bytes, and a third
    second = _updated(first.read_text(encoding="utf-8"), tmp_path, "cs-again.po")
    assert second.read_bytes() == first.read_bytes()
    assert same_content(first.read_bytes(), second.read_bytes(), "cs")


def _previous_catalog() -> Catalog:
    catalog = Catalog(locale="cs", charset="utf-8")
    catalog.last_translator = catalog.language_team = "rulepress translators"
    catalog.add(
        "Before the first round, each player takes one screen.",
        "Před prvním kolem si každý hráč vezme zástěnu.",
        context="rules/9/text",
        flags={"fuzzy"},
        previous_id=[LONG],
    )
    return catalog


def test_a_long_previous_msgid_is_written_as_gettext_writes_it(tmp_path: Path) -> None:
    """Babel's own ``include_previous`` breaks this file (see rulepress.i18n.po_writer)."""
    path = tmp_path / "cs.po"
    path.write_bytes(catalogs.render(_previous_catalog()))
    assert tool_problems(path) == []
    (entry,) = polib.pofile(str(path))
    assert entry.previous_msgid == LONG
    assert read_catalog(path, "cs").get(entry.msgid, "rules/9/text").previous_id == [LONG]


def test_babel_still_miswrites_long_previous_msgids(tmp_path: Path) -> None:
    """Why the workaround exists: when this fails, Babel is fixed and po_writer can use it."""
    buf = io.BytesIO()
    write_po(buf, _previous_catalog(), width=79, include_previous=True)
    path = tmp_path / "babel.po"
    path.write_bytes(buf.getvalue())
    proc = subprocess.run(
        ["msgfmt", "-o", "/dev/null", str(path)], capture_output=True, check=False
    )
    assert proc.returncode != 0


def _project_copy(tmp_path: Path) -> Path:
    # Stationfall's catalogs, which the steps change (every shipped catalog is read by
    # every tool as committed: test_shipped_catalogs_read_cleanly_in_every_tool)
    return project_copy(tmp_path, ("stationfall",), src=False)


def _catalog_files(work: Path) -> dict[Path, str]:
    return {
        path: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted((work / "locales").rglob("*.po*"))
    }


class _Checked:
    """The project's catalogs, each checked with every tool once per content."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.seen: dict[Path, str] = {}

    def step(self, *args: str) -> set[Path]:
        """Run one command, then every tool on each catalog it wrote or made."""
        result = run_main(*args, cwd=self.work)
        assert result.code == 0, (args, result.err)
        now = _catalog_files(self.work)
        written = {p for p, digest in now.items() if self.seen.get(p) != digest}
        problems = [
            problem
            for path in sorted(written)
            if path.suffix in (".po", ".pot")
            for problem in tool_problems(path, template_of(path))
        ]
        assert problems == [], args
        self.seen = now
        return written


def test_every_catalog_command_writes_what_every_tool_reads(tmp_path: Path) -> None:
    work = _project_copy(tmp_path)
    checked = _Checked(work)
    checked.seen = {}  # the first step checks every catalog the copy starts with
    assert checked.step("i18n", "extract") != set()
    # new English in a text of several lines, and in a title; then the title's entry goes
    rules = work / "rules_spec/stationfall/rules.yaml"
    edit(
        rules,
        "procedure that follows it. Once it happens, resolve",
        "procedure that follows it. Once it happens, carry out",
    )
    examples = work / "rules_spec/stationfall/examples.yaml"
    edit(
        examples,
        'title: A "+" line falls with its base line',
        'title: A "+" line falls with the line it adds to',
    )
    checked.step("i18n", "extract")
    changed = checked.step("i18n", "update")
    assert work / "locales/cs/LC_MESSAGES/stationfall.po" in changed
    edit(examples, "id: plus-line-voided", "id: plus-line-gone")
    checked.step("i18n", "extract")
    checked.step("i18n", "update")
    cs = (work / "locales/cs/LC_MESSAGES/stationfall.po").read_text(encoding="utf-8")
    assert '#~| msgid "A \\"+\\" line falls with its base line"' in cs  # obsolete, was fuzzy
    assert '#| msgid ""\n#| "[Stationfall](term:stationfall)' in cs
    # idempotent: a second update changes no byte, and --check agrees right after
    assert checked.step("i18n", "update") == set()
    assert checked.step("i18n", "update", "--check") == set()
    assert checked.step("i18n", "compile") == set()  # compiling changes no catalog
    compiled = list(work.joinpath("build", "locales").rglob("*.mo"))
    assert len(compiled) == len(list(work.rglob("*.po")))
    assert list(work.joinpath("locales").rglob("*.mo")) == []  # none beside the catalogs
    # a new game, and a new language for an existing game, make catalogs every tool reads
    made = checked.step("new", "harbour", "--lang", "cs", "--lang", "ja")
    assert work / "locales/cs/LC_MESSAGES/harbour.po" in made
    edit(work / "rules_spec/harbour/game.yaml", '"cs", "ja"]', '"cs", "ja", "de"]')
    made = checked.step("i18n", "update")
    assert work / "locales/de/LC_MESSAGES/harbour.po" in made
    assert work / "locales/de/LC_MESSAGES/rulepress.po" in made
