"""Nothing runs from the current folder or a spec folder (rulepress.isolation, spec.contents).

Modules named like those a build imports (Sphinx, docutils, MyST, click) are
planted in the folder a user builds from and in a game's spec folder; each one
that runs leaves its name in a file. The real console script builds and
validates from there: none may run, and ``validate`` names each planted file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.errors import ExitCode
from rulepress.isolation import untrusted_entries
from tests.conftest import DATA, run_cli

#: modules the command or its Sphinx processes import (docutils as a package)
PLANTED = ("sphinx", "myst_parser", "click", "pydantic", "snowballstemmer")
SCRIPT = Path(sys.executable).parent / "rulepress"


def _plant(folder: Path, ran: Path) -> None:
    """Modules in ``folder`` that, if imported, write their name into ``ran``."""
    for name in PLANTED:
        (folder / f"{name}.py").write_text(
            f"open({str(ran)!r}, 'a').write({name!r} + '\\n')\n", encoding="utf-8"
        )
    (folder / "docutils").mkdir()
    (folder / "docutils" / "__init__.py").write_text(
        f"open({str(ran)!r}, 'a').write('docutils\\n')\n", encoding="utf-8"
    )


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A project (the tiny game) with modules planted at its top and in its spec folder."""
    project = tmp_path / "project"
    game = project / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    ran = tmp_path / "ran.txt"
    _plant(project, ran)
    _plant(game, ran)
    return game, ran


def _script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.is_file():
        pytest.skip("the rulepress console script is not installed beside this Python")
    return subprocess.run(
        [str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


def test_validate_reports_code_in_a_spec_folder_and_runs_none(planted: tuple[Path, Path]) -> None:
    game, ran = planted
    for cwd in (game, game.parent.parent):  # from the game's folder and the project's top
        run = _script("validate", cwd=cwd)
        assert run.returncode == ExitCode.SPEC, run.stderr
        assert "Traceback" not in run.stderr
        for name in (*PLANTED, "docutils/__init__"):
            assert f"tiny/{name}.py:1:1: spec folder: Python code" in run.stderr, run.stderr
        # the project's top is no spec folder: what is there is not rulepress's to judge
        assert f"{game.parent.parent}/click.py" not in run.stderr
    assert not ran.exists(), ran.read_text()


def test_python_m_rulepress_imports_nothing_from_the_current_folder(
    planted: tuple[Path, Path],
) -> None:
    game, ran = planted
    run = run_cli("validate", "--no-examples", cwd=game)  # python -m rulepress
    assert run.code == ExitCode.SPEC, run.err
    assert not ran.exists(), ran.read_text()


def test_a_spec_folder_holds_data_only(tmp_path: Path) -> None:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    (game / "icons").mkdir()
    (game / "icons" / "bribe.svg").write_text("<svg/>", encoding="utf-8")
    (game / "sources").mkdir()
    (game / "sources" / "rulebook.md").write_text("# Rules\n", encoding="utf-8")
    (game / "notes.yml").write_text("a: 1\n", encoding="utf-8")
    (game / "run.sh").write_text("echo\n", encoding="utf-8")
    (game / "site.pth").write_text("import os\n", encoding="utf-8")
    (game / "elsewhere.md").symlink_to(tmp_path / "secret.md")
    run = run_cli("validate", str(game.parent), cwd=tmp_path)
    assert run.code == ExitCode.SPEC, run.err
    found = sorted(line.split(":")[0] for line in run.err.splitlines() if "spec folder:" in line)
    names = ["elsewhere.md", "notes.yml", "run.sh", "site.pth"]
    assert found == [f"{game.parent.name}/tiny/{name}" for name in names] or found == [
        str(game / name) for name in names
    ], run.err
    assert "a symbolic link" in run.err
    assert "rename it to .yaml" in run.err


def test_the_current_folder_and_relative_entries_are_untrusted(tmp_path: Path) -> None:
    here = str(tmp_path)
    path = ["", ".", "lib", here, "/usr/lib/python3.11"]
    assert untrusted_entries(path, here) == ["", ".", "lib", here]


@pytest.mark.slow
def test_a_site_build_runs_nothing_from_the_current_or_spec_folder(
    planted: tuple[Path, Path], tmp_path: Path
) -> None:
    game, ran = planted
    out = tmp_path / "site"
    for cwd in (game.parent.parent, game):
        run = _script(
            "build", "site", "--spec-root", str(game.parent), "--lang", "en", "--no-doctest",
            "--out", str(out), "-q", cwd=cwd,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert not ran.exists(), ran.read_text()
    assert (out / "en" / "tiny" / "index.html").is_file()
