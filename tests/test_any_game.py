"""A designer's game never turns our suite red (issue 31).

The suite's game-parametrized tests are about any game, not about ours: here they
run over games that are not ours, each copied into a project beside ours (a copy of
``rules_spec/`` and ``locales/``, the game's catalog template extracted as its designer
would), in a pytest of its own: ``$RULEPRESS_TEST_PROJECT`` names the copy and
``--only-game`` keeps the cases of the added games (ours ran in the suite itself).

The games: Tidewater Exchange (``tests/data/specs/tidewater``), which uses what ours
do not (English only, no rulings, no sources, no termbase, two sequences), and a game
made by ``rulepress new`` in the test. The tutorial's game goes through the same run
(tests/test_tutorial.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from rulepress.games import load_spec
from tests.conftest import (
    DATA,
    LOCALES,
    ONLY_GAME,
    PROJECT_VARIABLE,
    ROOT,
    SPEC_ROOT,
    run_main,
)

#: the test game that uses what our games do not
FIXTURE = DATA / "specs" / "tidewater"
#: the id of the game ``rulepress new`` makes here
NEW_GAME = "fresh-harvest"

#: the environment of a test process that its own pytest must not inherit: a worker's
#: identity (its folders are the run's), the run's record of main jobs, the current test
_NOT_INHERITED = ("PYTEST_XDIST_", "PYTEST_CURRENT_TEST", "RULEPRESS_TEST_MAIN_JOBS")


def project_beside_ours(work: Path, games: Mapping[Path, Path | None]) -> Path:
    """A project in ``work``: our games and catalogs, and each of ``games`` beside them.

    ``games``: each game's folder to copy, with the catalogs folder its designer keeps
    its ``.po`` files in (or None: it has none). Its template is then extracted, as the
    guide tells a designer to (ours are committed). Copies, not links:
    rulepress follows no link inside a spec root.
    """
    project = work / "project"
    added = {Path(folder).name for folder in games}
    # a game of the same name in the spec root (a designer put the fixture there) gives way
    # to the one added here
    shutil.copytree(
        SPEC_ROOT,
        project / "rules_spec",
        ignore=lambda folder, names: [n for n in names if Path(folder) == SPEC_ROOT and n in added],
    )
    shutil.copytree(LOCALES, project / "locales")
    for folder, locales in games.items():
        name = Path(folder).name
        shutil.copytree(folder, project / "rules_spec" / name)
        if locales is not None:
            for po in Path(locales).rglob(f"{name}.po"):
                target = project / "locales" / po.relative_to(locales)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(po, target)
    domains = [arg for folder in games for arg in ("--domain", Path(folder).name)]
    extracted = run_main("i18n", "extract", *domains, cwd=project)
    assert extracted.code == 0, extracted.err
    return project


def new_game(work: Path) -> Path:
    """A game made by ``rulepress new`` in a project of its own, untouched since."""
    work.mkdir(parents=True)
    made = run_main("new", NEW_GAME, "--spec-root", str(work / "rules_spec"), cwd=work)
    assert made.code == 0, made.err
    return work / "rules_spec" / NEW_GAME


def run_suite(project: Path, games: list[str], marks: str | None, basetemp: Path) -> str:
    """Run the suite's tests of ``games`` (those ``marks`` selects, or all) in ``project``;
    its output.

    In one process (no pytest-xdist): the machine's cores are the outer run's. Fails
    with the run's output unless every selected test passed.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(_NOT_INHERITED)}
    env[PROJECT_VARIABLE] = str(project)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    chosen = [arg for game in games for arg in (ONLY_GAME, game)]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "-q",
            *(["-m", marks] if marks else []),
            *chosen,
            f"--basetemp={basetemp}",
            # these run the suite themselves: not again inside it
            "--ignore=tests/test_any_game.py",
            "--deselect=tests/test_tutorial.py::test_the_tutorial_publishes_as_written",
            "tests",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,  # only a run that hangs: a loaded machine must not fail it
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-12000:]
    return out


def passed(out: str) -> int:
    """How many tests a run's summary line says passed."""
    found = re.search(r"(\d+) passed", out)
    assert found is not None, out[-2000:]
    return int(found.group(1))


# ------------------------------------------------------------------- the test game


def test_the_test_game_uses_what_our_games_do_not() -> None:
    """Tidewater keeps to what makes it worth running: should it gain what ours have, the
    suite's tests would no longer be tried without it."""
    spec = load_spec(FIXTURE).spec
    assert spec.game.languages == ["en"]
    assert spec.rulings == []
    assert spec.sources == []
    assert spec.not_in_source == []
    assert not spec.termbase
    assert not list(FIXTURE.glob("termbase*"))
    sequences = [seq.id for seq in spec.sequences]
    assert len(sequences) >= 2
    # a worked example of every sequence
    assert {e.sequence or spec.scorer.sequence for e in spec.examples} == set(sequences)


def test_the_test_game_validates_and_scores_its_examples(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "rules_spec" / "tidewater")
    checked = run_main("validate", cwd=tmp_path)
    assert checked.code == 0, checked.err
    assert "tidewater: ok (7 examples checked)" in checked.out
    scored = run_main("score", "tidewater", "--example", "debts-and-sets", cwd=tmp_path)
    assert scored.code == 0, scored.err
    assert "Most points: Cy 18, Bo 15, Ada 14. Cy wins." in scored.out


# ------------------------------------------------------- the suite, over games not ours


@pytest.fixture(scope="module")
def designers_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A project with Tidewater and a ``rulepress new`` game beside ours, and their ids."""
    work = tmp_path_factory.mktemp("any-game")
    made = new_game(work / "made")
    project = project_beside_ours(work, {FIXTURE: None, made: work / "made" / "locales"})
    return project, [FIXTURE.name, NEW_GAME]


def test_the_tests_of_any_game_pass_for_a_designers_games(
    designers_project: tuple[Path, list[str]], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The cases this run selects (its ``-m``): the quick ones in a quick run, and in a
    full run all of them, the main job of these games alone (site, print) and what reads
    it among them.

    One pytest for both: each collects the whole suite (five seconds of CPU), and the
    quick cases run while the main job builds in the background.
    """
    project, games = designers_project
    marks = request.config.option.markexpr or None
    out = run_suite(project, games, marks, tmp_path / "run")
    # the game-parametrized cases, not an empty selection: over 40 quick ones, and over
    # 20 slow ones besides in a full run
    assert passed(out) > (40 if marks else 60)
