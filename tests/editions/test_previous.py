"""``game.previous_edition``: the edition a game follows, and what a build does with it.

A folder is found relative to the game's folder (one that is not there is a located
error); a revision that cannot be read here (no history) leaves the game without its
changes page and says why, where ``--since`` is an error. And ``rulepress diff`` against
real earlier revisions of this repository reports in Czech and Japanese with no English,
template, catalog context or path.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rulepress.editions.previous import Since, previous_edition_of
from rulepress.errors import SpecError
from tests.conftest import ROOT, SPEC_ROOT, edit, run_main

TINY = Path(__file__).resolve().parent.parent / "data" / "specs" / "tiny"


def _tiny(tmp_path: Path, previous: str) -> Path:
    game = tmp_path / "project" / "rules_spec" / "tiny"
    shutil.copytree(TINY, game)
    edit(
        game / "game.yaml", '  version: "1"\n', f'  version: "1"\n  previous_edition: {previous}\n'
    )
    return game


def test_a_folder_is_relative_to_the_game(tmp_path: Path) -> None:
    game = _tiny(tmp_path, "{folder: ../../editions/1}")
    old = tmp_path / "project" / "editions" / "1" / "tiny"
    shutil.copytree(TINY, old)
    found = previous_edition_of(game, None)
    assert found == Since(str((tmp_path / "project" / "editions" / "1").resolve()), True)
    # --since wins over the record
    assert previous_edition_of(game, str(old)) == Since(str(old.resolve()), False)


def test_a_folder_not_there_is_a_located_error(tmp_path: Path) -> None:
    game = _tiny(tmp_path, "{folder: ../../editions/1}")
    run = run_main("validate", str(game.parent), cwd=tmp_path / "project")
    assert run.code == 3
    assert re.search(
        r"^rules_spec/tiny/game\.yaml:\d+:\d+: game\.previous_edition\.folder:"
        r" no folder '\.\./\.\./editions/1' next to the game's folder$",
        run.err,
        re.M,
    ), run.err
    assert "Traceback" not in run.err


@pytest.mark.parametrize(
    ("previous", "message"),
    [
        ("{revision: HEAD~1}", "names no edition"),
        ("{revision: --output=x}", "is not a tag, branch or commit"),
        ("{folder: ../../../elsewhere}", "lies outside the project"),
        ("{folder: /etc}", "is not a folder relative to the game's folder"),
        ("{revision: v1, folder: old}", "give either a revision or a folder"),
    ],
)
def test_a_bad_record_is_a_located_error(tmp_path: Path, previous: str, message: str) -> None:
    game = _tiny(tmp_path, previous)
    run = run_main("validate", str(game.parent), cwd=tmp_path / "project")
    assert run.code == 3, run.err
    assert re.search(
        rf"^rules_spec/tiny/game\.yaml:\d+:\d+: game\.previous_edition.*{message}", run.err, re.M
    ), run.err
    with pytest.raises(SpecError):
        previous_edition_of(game, None)


def test_a_revision_without_history_leaves_the_game_without_the_page(tmp_path: Path) -> None:
    """A tarball (no git repository): the build goes on, and says why in one line."""
    game = _tiny(tmp_path, "{revision: v1}")
    told: list[str] = []
    assert previous_edition_of(game, None, told.append) is None
    (said,) = told
    assert said.startswith("tiny: no page 'Changes in this edition' and no errata sheet:")
    assert "v1" in said
    assert "fetch-depth: 0" in said
    # named on the command line, it is read as given (and refused there if it is not
    # there: --since was asked for, see tests/editions/test_git_editions.py)
    assert previous_edition_of(game, "v1") == Since("v1", False)
    # the spec is right: it validates, without a word (the builds tell of it)
    run = run_main("validate", str(game.parent), cwd=tmp_path / "project")
    assert (run.code, run.err) == (0, "")


# ------------------------------------------------- real earlier revisions of this repository

#: commits of this repository whose specs differ from today's in every way the report
#: has words for: Brink's steps of the cost payment in another order, rulings added, step
#: notes that are templates; Stationfall's worked examples its spec now refuses
REVISIONS = [
    ("brink", "d5004b7269d5640b9401bd6c855ddf6101ad273e"),
    ("stationfall", "f683c6a"),
]


def _have(revision: str) -> bool:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{revision}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return found.returncode == 0


def english_phrases(text: str) -> list[str]:
    """Runs of four English words or more in ``text`` (markup and placeholders left out)."""
    plain = re.sub(r"\{[^{}]*\}|\[[^\]]*\]\([^)]*\)", " ", text)
    out: list[str] = []
    run: list[str] = []
    for token in [*plain.split(), ""]:
        word = token.strip(",.;:()“”\"'’")
        if word and re.fullmatch(r"[A-Za-z]+(?:[’'][A-Za-z]+)?", word):
            run.append(word)
            continue
        if len(run) >= 4:
            out.append(" ".join(run))
        run = []
    return out


def diff_english(game: str, revision: str, *options: str) -> set[str]:
    """Every English text of ``rulepress diff``'s JSON (either edition's), as phrases a
    reader would notice; ``options`` are more of the command's options."""
    run = run_main("diff", game, revision, "--json", *options)
    assert run.code == 0, run.err
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("old", "new", "text") and isinstance(item, str):
                    found.update(english_phrases(item))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(run.out))
    return found


def words_only(text: str) -> str:
    """``text`` with its punctuation as spaces, to look for :func:`english_phrases` in."""
    return " ".join(re.sub(r"[,.;:()“”\"]", " ", text).split())


@pytest.mark.parametrize("lang", ["cs", "ja"])
@pytest.mark.parametrize(("game", "revision"), REVISIONS)
def test_the_diff_report_is_all_in_the_readers_language(
    game: str, revision: str, lang: str
) -> None:
    if not _have(revision):
        pytest.skip(f"this checkout has no commit {revision} (no history)")
    run = run_main("diff", game, revision, "--lang", lang)
    assert run.code == 0, run.err
    text = run.out
    english = diff_english(game, revision)
    assert len(english) > 10
    seen = words_only(text)
    assert [phrase for phrase in english if phrase in seen] == []
    assert "{" not in text
    assert "}" not in text
    assert not re.search(r"\b(rulings|sequences|vocabulary|game|table_states|examples)/", text)
    assert str(ROOT) not in text
    assert "/tmp" not in text
    assert f"{revision}:" not in text
    # no line names nothing: every changed text says what it is
    lines = text.splitlines()
    assert all(
        line.strip() for line in lines[3:] if line.startswith("  ") and not line.startswith("    ")
    ), text
    # no worked example by its id
    ids = {e["id"] for e in json.loads(run_main("diff", game, revision, "--json").out)["examples"]}
    assert not any(f"({i})" in text for i in ids)
    assert (SPEC_ROOT / game).is_dir()
