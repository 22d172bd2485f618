"""The translator's view of a new edition: ``i18n changes`` and ``i18n stats --since``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress.cli import main
from tests.conftest import DATA, edit

EDITIONS = DATA / "editions"


def _edition(side: str, target: Path) -> None:
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(EDITIONS / side / "harbour", target)
    edit(target / "game.yaml", "languages: [en]", "languages: [en, cs]")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The first edition translated in full, then the second merged in (i18n update)."""
    root = tmp_path / "project"
    game = root / "rules_spec" / "harbour"
    _edition("first", game)
    _edition("first", tmp_path / "first" / "harbour")
    where = ["--spec-root", str(root / "rules_spec"), "--locales", str(root / "locales")]
    assert _run(capsys, "i18n", "extract", *where)[0] == 0
    assert _run(capsys, "i18n", "update", *where)[0] == 0
    po = root / "locales" / "cs" / "LC_MESSAGES" / "harbour.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale="cs")
    for message in catalog:
        if message.id:
            message.string = _marked(message.id, catalog.num_plurals)
    with po.open("wb") as f:
        write_po(f, catalog)
    _edition("second", game)
    assert _run(capsys, "i18n", "extract", *where)[0] == 0
    assert _run(capsys, "i18n", "update", *where)[0] == 0
    return root


def _marked(msgid: str | tuple[str, str], nplurals: int) -> object:
    """A translation that shows its English; a plural entry (a message with a count) form by form."""
    if isinstance(msgid, tuple):
        return tuple(f"[cs] {msgid[min(i, 1)]}" for i in range(nplurals))
    return f"[cs] {msgid}"


def _translate_again(project: Path, msgid: str, context: str, string: str) -> None:
    """Give a message that i18n update left fuzzy a new translation, as a translator does."""
    po = project / "locales" / "cs" / "LC_MESSAGES" / "harbour.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale="cs")
    message = catalog.get(msgid, context)
    assert message is not None
    assert message.fuzzy
    # a plural entry (the message has a count) takes the same words in each form
    message.string = (string,) * catalog.num_plurals if message.pluralizable else string
    message.flags.discard("fuzzy")
    with po.open("wb") as f:
        write_po(f, catalog)


def _changes(project: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return _run(
        capsys,
        "i18n",
        "changes",
        "--spec-root",
        str(project / "rules_spec"),
        "--locales",
        str(project / "locales"),
        "harbour",
        str(project.parent / "first"),
        *args,
    )


def test_changed_messages_with_the_translation_marked_fuzzy(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _changes(project, capsys, "--lang", "cs", "--format", "json")
    assert (code, err) == (0, "")
    found = {c["context"]: c for c in json.loads(out)}
    cargo = found["rules/3/text"]
    assert cargo["old"].endswith("Each set scores by its size.")
    assert cargo["new"].endswith("and cargo is scored before the harbours.")
    # i18n update kept the old translation, fuzzy, for the translator to redo
    assert cargo["status"] == "fuzzy"
    assert cargo["translation"] == f"[cs] {cargo['old']}"
    # a message that is gone, and one that is new
    assert found["rules/5/title"]["status"] == "removed"
    assert found["rules/5/title"]["new"] is None
    added = found["game/changelog/no-solo/text"]
    assert (added["old"], added["status"]) == (None, "untranslated")
    # what did not change is not listed
    assert "rules/1/title" not in found


def test_a_message_translated_again_counts_in_stats(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _translate_again(
        project,
        "Group your goods into sets of different kinds (at most {param:cargo_limit} of one"
        " kind). Each set scores by its size, and cargo is scored before the harbours.",
        "rules/3/text",
        "Zboží seskupte do sad různých druhů; náklad se počítá před přístavy.",
    )
    _, out, _ = _changes(project, capsys, "--lang", "cs")
    assert "rules/3/text  [translated]\n" in out
    total = json.loads(_changes(project, capsys, "--lang", "cs", "--format", "json")[1])
    current = [c for c in total if c["status"] != "removed"]
    redone = sum(c["status"] == "translated" for c in current)
    assert redone == 1
    assert out.endswith(
        f"{len(current)} message(s) of the new edition changed: 1 translated again in cs,"
        f" {len(current) - 1} to check; {len(total) - len(current)} removed\n"
    )
    code, out, _ = _run(
        capsys,
        "i18n",
        "stats",
        "--spec-root",
        str(project / "rules_spec"),
        "--locales",
        str(project / "locales"),
        "--since",
        str(project.parent / "first"),
        "--format",
        "json",
    )
    assert code == 0
    row = next(r for r in json.loads(out) if r["domain"] == "harbour")
    assert (row["changed_since"], row["retranslated_since"]) == (len(current), 1)


def test_english_is_no_catalog(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _changes(project, capsys, "--lang", "en")
    assert (code, out) == (2, "")
    assert err == "English is the source language: give the language of a catalog\n"


def test_the_text_shows_no_control_character(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translation is untrusted: it cannot forge a line of the list."""
    _translate_again(
        project, "Empty harbours", "rules/2.2/title", "[cs] \x1b[2J\u202ePrázdné přístavy"
    )
    code, out, _ = _changes(project, capsys, "--lang", "cs")
    assert code == 0
    assert "\x1b" not in out
    assert "\u202e" not in out
    assert "  cs:  [cs] <U+001B>[2J<U+202E>Prázdné přístavy\n" in out
