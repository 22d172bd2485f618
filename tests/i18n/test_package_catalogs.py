"""Rulepress's own catalogs (interface, theme) serve a project outside its repository.

They ship inside the package; a game made with ``rulepress new`` anywhere gets
rulepress's words in the languages rulepress is translated into, honest
statistics, and full catalogs of its own for a language rulepress does not ship.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rulepress.i18n.catalogs import (
    INTERFACE,
    PACKAGE_LOCALES,
    THEME,
    catalog_path,
    read_catalog,
    render,
)
from rulepress.i18n.extract import all_templates
from tests.conftest import run_main

GAME = "star-hunt"
EXAMPLE = "fewest-cards-break-a-tie"
#: the head of a player's table in a Czech report, its first column named
HEADING = "\n  {}  "


def _messages(path: Path) -> int:
    return sum(1 for m in read_catalog(path) if m.id)


def _new_game(tmp_path: Path, *langs: str) -> Path:
    args = [arg for lang in langs for arg in ("--lang", lang)]
    made = run_main("new", GAME, *args, cwd=tmp_path)
    assert made.code == 0, made.err
    return tmp_path


def _set_languages(project: Path, *langs: str) -> None:
    game = project / "rules_spec" / GAME / "game.yaml"
    text, count = re.subn(
        r"languages: \[[^\]]*\]",
        "languages: [" + ", ".join(f'"{lang}"' for lang in ("en", *langs)) + "]",
        game.read_text(encoding="utf-8"),
    )
    assert count == 1
    game.write_text(text, encoding="utf-8")


def test_a_project_elsewhere_shows_rulepress_words_in_czech(tmp_path: Path) -> None:
    project = _new_game(tmp_path, "cs")
    # the package's Czech catalogs serve it: the project has none of its own
    assert not (project / "locales" / "cs" / "LC_MESSAGES" / f"{INTERFACE}.po").exists()
    english = run_main("score", GAME, "--example", EXAMPLE, cwd=project)
    czech = run_main("score", GAME, "--example", EXAMPLE, "--lang", "cs", cwd=project)
    assert english.code == czech.code == 0, czech.err
    assert "Step" in english.out
    assert HEADING.format("Krok") in czech.out
    assert "Step" not in czech.out
    assert f"catalog for {INTERFACE}" not in czech.err
    assert f"of {INTERFACE} have no Czech translation" not in czech.err


def test_stats_count_the_packaged_catalogs(tmp_path: Path) -> None:
    project = _new_game(tmp_path, "cs")
    rows = json.loads(run_main("i18n", "stats", "--format", "json", cwd=project).out)
    found = {r["domain"]: r for r in rows if r["lang"] == "cs"}
    for domain in (INTERFACE, THEME):
        total = _messages(catalog_path(PACKAGE_LOCALES, "cs", domain))
        assert total > 10
        assert found[domain]["total"] == found[domain]["translated"] == total


def test_a_language_rulepress_does_not_ship_gets_full_catalogs(tmp_path: Path) -> None:
    project = _new_game(tmp_path)
    _set_languages(project, "de")
    updated = run_main("i18n", "update", cwd=project)
    assert updated.code == 0, updated.err
    templates = all_templates(project, project / "rules_spec")
    rows = json.loads(run_main("i18n", "stats", "--format", "json", cwd=project).out)
    found = {r["domain"]: r for r in rows if r["lang"] == "de"}
    for domain in (INTERFACE, THEME):
        path = catalog_path(project / "locales", "de", domain)
        expected = sum(1 for m in templates[domain] if m.id)
        assert expected > 10
        assert _messages(path) == expected  # every message of the package, for translators
        assert found[domain]["total"] == found[domain]["untranslated"] == expected
    # nothing is written into the package, and no template of rulepress's domains here
    assert not (project / "locales" / f"{INTERFACE}.pot").exists()
    assert run_main("i18n", "update", "--check", cwd=project).code == 0
    assert run_main("i18n", "extract", "--check", cwd=project).code == 0


def test_a_project_catalog_overrides_the_packaged_one(tmp_path: Path) -> None:
    project = _new_game(tmp_path, "cs")
    catalog = read_catalog(catalog_path(PACKAGE_LOCALES, "cs", INTERFACE))
    step = catalog.get("Step", "report.column")  # the score report's column
    assert step is not None
    step.string = "Tah"
    own = catalog_path(project / "locales", "cs", INTERFACE)
    own.write_bytes(render(catalog))
    czech = run_main("score", GAME, "--example", EXAMPLE, "--lang", "cs", cwd=project)
    assert czech.code == 0, czech.err
    assert HEADING.format("Tah") in czech.out
    assert HEADING.format("Krok") not in czech.out
    # the project's own catalog is its to keep current: update merges into it, keeping its words
    assert run_main("i18n", "update", cwd=project).code == 0
    merged = read_catalog(own).get("Step", "report.column")
    assert merged is not None
    assert merged.string == "Tah"
    assert run_main("i18n", "update", "--check", cwd=project).code == 0
