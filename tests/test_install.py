"""Installing without root: the core wheel scores and validates; building is an extra.

The quick tests hide one optional package at a time from the development install and
check that the command needing it stops with one line naming the extra. The slow test
builds the wheel from a copy of the repository, installs it with only its core
dependencies into a fresh virtual environment, and runs it from a folder outside any
project.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import DATA, GAMES, ROOT, SPEC_ROOT, run_cli

STATE = DATA / "states" / "stationfall-four-players.yaml"


def _cli_without(
    hide: str, args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a process where ``hide`` cannot be imported, as in a core install.

    ``hide`` is a module name (set to None in sys.modules, so ``import`` fails and
    ``importlib.util.find_spec`` finds nothing), or ``pango``: WeasyPrint is there but
    raises OSError on import, as it does when the system has no Pango.
    """
    code = (
        "import sys, importlib.abc, importlib.util\n"
        "class NoPango(importlib.abc.Loader):\n"
        "    def create_module(self, spec): return None\n"
        "    def exec_module(self, module):\n"
        "        raise OSError(\"cannot load library 'libpango-1.0-0'\")\n"
        "class Finder(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'weasyprint':\n"
        "            return importlib.util.spec_from_loader(name, NoPango())\n"
        "        return None\n"
        f"if {hide!r} == 'pango':\n"
        "    sys.meta_path.insert(0, Finder())\n"
        "else:\n"
        f"    sys.modules[{hide!r}] = None\n"
        "from rulepress.cli import main\n"
        f"sys.exit(main({args!r}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, **(env or {})),
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize(
    ("hide", "args", "expected"),
    [
        pytest.param(
            "sphinx",
            ["build", "site"],
            "needs sphinx, not installed here: pip install 'rulepress[site]'",
            id="site",
        ),
        pytest.param(
            "sphinx_design", ["build", "site", "--no-doctest"], "needs sphinx_design", id="design"
        ),
        pytest.param(
            "weasyprint",
            ["build", "print"],
            "pip install 'rulepress[print]', and from the system Pango",
            id="print",
        ),
        pytest.param(
            "pango", ["build", "print"], "build print needs Pango, not installed here", id="pango"
        ),
        pytest.param(
            "PIL", ["build", "print", "--icc-profile", "x.icc"], "rulepress[print]", id="profile"
        ),
        pytest.param("weasyprint", ["build"], "build print needs weasyprint", id="main-job"),
    ],
)
def test_a_build_without_its_extra_says_which_to_install(
    tmp_path: Path, hide: str, args: list[str], expected: str
) -> None:
    proc = _cli_without(hide, [*args, "--spec-root", str(SPEC_ROOT)], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert expected in proc.stderr.splitlines()[-1], proc.stderr
    assert not (tmp_path / "build").exists()  # stopped before any output
    assert ": ok" not in proc.stdout  # and before any work (the main job's validation)


def test_the_gate_without_pdftotext_names_poppler(tmp_path: Path) -> None:
    printed = tmp_path / "print"
    (printed / "en" / "brink").mkdir(parents=True)
    (printed / "en" / "brink" / "rulebook-a4.pdf").write_bytes(b"%PDF-1.7\n")
    args = ["gate", "--print", str(printed), "--site", str(tmp_path / "none")]
    # no PATH: pdftotext cannot be found (the interpreter is named by its full path)
    proc = _cli_without("sphinx", [*args, "--spec-root", str(SPEC_ROOT)], tmp_path, {"PATH": ""})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"rulepress gate reads the PDFs in {printed} with pdftotext, which is not installed:"
        " install the system package poppler-utils"
    ]


def _copy_of_the_repository(target: Path) -> Path:
    """The working tree (uncommitted files included, as a wheel built here would see it)."""
    top = {".git", ".venv", "build", "dist", "test-artifacts"}

    def ignore(folder: str, names: list[str]) -> set[str]:
        skip = {n for n in names if n.endswith(".egg-info") or n == "__pycache__"}
        skip |= {n for n in names if n.startswith(".") and n.endswith("cache")}
        skip |= {".hypothesis"} & set(names)
        return skip | (top & set(names) if Path(folder) == ROOT else set())

    shutil.copytree(ROOT, target, ignore=ignore)
    # a developer's tree holds build output: none of it may reach the wheel
    (target / "build" / "site").mkdir(parents=True)
    (target / "build" / "site" / "index.html").write_text("<p>built</p>", encoding="utf-8")
    return target


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, f"{args}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.mark.slow
def test_the_core_wheel_scores_and_validates_from_any_folder(tmp_path: Path) -> None:
    # nothing of the calling interpreter's (PYTHONPATH and the like) reaches pip or the venv
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    source = _copy_of_the_repository(tmp_path / "source")
    # build isolation, as a user's `pip wheel .` does (setuptools comes from the index)
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-q",
        "-w",
        tmp_path / "dist",
        source,
        cwd=tmp_path,
        env=env,
    )
    (wheel,) = (tmp_path / "dist").glob("rulepress-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n in names if not n.startswith(("rulepress/", "rulepress-"))] == []
    assert not [n for n in names if "tests/" in n or "build/" in n or "rules_spec/" in n]
    # pure Python: an isolated build has no mypy, so setup.py compiles nothing, and a
    # developer's compiled modules in src/ (tools/setup.sh) are not package files
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert "rulepress/sphinx_ext/theme/rulepress/theme.toml" in names  # package data is in
    # rulepress's own catalogs, which every project reads
    assert "rulepress/locales/rulepress.pot" in names
    assert "rulepress/locales/cs/LC_MESSAGES/theme.po" in names
    # the author reference's examples, which are data files, and the entry points that
    # register rulepress's own operations (the scorer finds them only through those)
    assert "rulepress/operations/examples/sum.yaml" in names
    assert "rulepress/reference/step_examples/updates.yaml" in names
    points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "sum = rulepress.operations.sum:Sum" in zipfile.ZipFile(wheel).read(points).decode()

    # a fresh venv that sees no other site-packages, so a missing dependency shows;
    # its packages pinned to the versions the rest of the suite runs with
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path, env=env)
    python = venv / "bin" / "python"
    pins = tmp_path / "pins.txt"
    pins.write_text(
        "".join(
            f"{d.metadata['Name']}=={d.version}\n"
            for d in importlib.metadata.distributions()
            if d.metadata["Name"].lower() != "rulepress"
        ),
        encoding="utf-8",
    )
    pip = (sys.executable, "-m", "pip", "--python", python, "install", "-q", "-c", pins)
    _run(*pip, wheel, cwd=tmp_path, env=env)

    # nor the scale extra (dask.distributed): the core stays light
    for heavy in ("sphinx", "weasyprint", "myst_parser", "dask", "distributed"):
        probe = subprocess.run(
            [python, "-c", f"import {heavy}"], capture_output=True, text=True, env=env, check=False
        )
        assert probe.returncode == 1, f"{heavy} is installed with the core wheel"
        assert "ModuleNotFoundError" in probe.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    rulepress = venv / "bin" / "rulepress"
    spec = source / "rules_spec"
    env["RULEPRESS_SPEC_ROOT"] = str(spec)
    report = _run(rulepress, "score", "stationfall", STATE, cwd=elsewhere, env=env)
    assert report == run_cli("score", "stationfall", str(STATE)).out
    assert "Winner: boris" in report
    checked = _run(rulepress, "validate", spec, cwd=elsewhere, env=env)
    assert [line.split(": ok (")[0] for line in checked.splitlines()] == [
        str(spec / game) for game in GAMES
    ]
    assert _run(rulepress, "games", cwd=elsewhere, env=env).split("\t")[0] == GAMES[0]
    # the catalogs' commands too, run in the copy (they need the project's folder)
    _run(rulepress, "i18n", "stats", cwd=source, env=env)

    # building says which extra it needs, in one line, without a traceback
    for kind, extra in (("site", "rulepress[site]"), ("print", "rulepress[print]")):
        proc = subprocess.run(
            [rulepress, "build", kind, "--out", tmp_path / kind],
            capture_output=True,
            text=True,
            cwd=elsewhere,
            env=env,
            check=False,
        )
        assert proc.returncode == 2
        assert len(proc.stderr.splitlines()) == 1
        assert f"pip install '{extra}'" in proc.stderr
