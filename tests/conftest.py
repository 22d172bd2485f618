"""Shared fixtures: the real specs, copies to mutate, and CLI runners."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from rulepress.i18n.usage import Usage, recording
from rulepress.spec import LoadedSpec, find_game_dirs, load_spec

# Property tests (tests/properties/): a bounded, reproducible run by default, and a
# longer random one for occasional runs: HYPOTHESIS_PROFILE=thorough (see the README).
# No example database: it would be written into the repository, and a CI run must not
# depend on what an earlier run found. A failure prints the example and a reproduce blob.
settings.register_profile(
    "ci", max_examples=25, derandomize=True, database=None, deadline=None, print_blob=True
)
settings.register_profile(
    "thorough", max_examples=1000, database=None, deadline=None, print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
SPEC_ROOT = ROOT / "rules_spec"
DATA = Path(__file__).resolve().parent / "data"


def game_dirs() -> list[Path]:
    return find_game_dirs(SPEC_ROOT)


#: the games found in rules_spec/ (tests parametrize over these, never over a list of names)
GAMES = tuple(d.name for d in game_dirs())

_cache: dict[str, LoadedSpec] = {}


def loaded(game: str) -> LoadedSpec:
    """The real spec of ``game``, loaded once per test session."""
    if game not in _cache:
        _cache[game] = load_spec(SPEC_ROOT / game)
    return _cache[game]


@pytest.fixture
def spec_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of rules_spec/, with the working directory set beside it.

    Messages then name files as ``rules_spec/<game>/<file>``, as users see them.
    """
    target = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT, target)
    monkeypatch.chdir(tmp_path)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in a spec file; fail loudly if ``old`` is not there."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not found in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(
    *args: str, cwd: Path | None = None, timeout: float = 120, env: dict[str, str] | None = None
) -> Run:
    """Run the real ``rulepress`` command in a subprocess (``env``: variables to add)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    proc = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def catalog_copy(tmp_path: Path, lang: str, domain: str) -> tuple[Path, Path, Any]:
    """A private copy of locales/, the path of one catalog in it, and that catalog read."""
    from babel.messages.pofile import read_po

    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / lang / "LC_MESSAGES" / f"{domain}.po"
    with po.open("rb") as fp:
        return locales, po, read_po(fp)


#: the address the session's site is built for (its sitemap and canonical links)
BASE_URL = "https://rules.example.org/"


@pytest.fixture(scope="session")
def built_site(
    tmp_path_factory: pytest.TempPathFactory, built_print: tuple[Path, Usage]
) -> tuple[Any, Usage]:
    """The real site build (Sphinx, every language, doctests, the PDFs linked), once per session.

    The catalog lookups it makes are recorded (tests/i18n/test_catalog_usage.py).
    """
    from rulepress.sphinx_ext.build import SiteBuild  # Sphinx: slow tests only

    out = tmp_path_factory.mktemp("site")
    pdfs = built_print[0]
    build = SiteBuild(
        ROOT, SPEC_ROOT, ROOT / "locales", out, docs=ROOT / "docs", pdfs=pdfs, base_url=BASE_URL
    )
    with recording() as usage:
        build.build(doctest=True)
    return build, usage


@pytest.fixture(scope="session")
def built_print(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Usage]:
    """Every print file of every game and language (WeasyPrint), once per session, recorded."""
    from rulepress.print.build import PrintBuild  # WeasyPrint: slow tests only

    out = tmp_path_factory.mktemp("print")
    with recording() as usage:
        PrintBuild(ROOT, SPEC_ROOT, ROOT / "locales", out).build()
    return out, usage
