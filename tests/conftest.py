"""Shared fixtures: the real specs, copies to mutate, and CLI runners."""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

from rulepress.games import LoadedSpec, find_game_dirs, load_spec
from rulepress.i18n.usage import Usage, recording
from rulepress.model.languages import spec_languages, translations, union

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
# The quick run (-m "not slow", while one works) draws fewer examples of each property;
# the full run, which CI runs, keeps the ci profile's count (see pytest_configure).
settings.register_profile("quick", settings.get_profile("ci"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """The quick profile for a run that leaves the slow tests out, unless a profile is named.

    And pytest-xdist hands out whole modules (``--dist loadscope``) in the order the
    tests were collected (:func:`pytest_collection_finish` sorts them), not in its own
    order of most tests first: that put the print modules, which wait for the main job,
    first, and both test processes waited over a minute at the start of a full run.
    """
    if "HYPOTHESIS_PROFILE" not in os.environ and "not slow" in (config.option.markexpr or ""):
        settings.load_profile("quick")
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist 3.6+, in its controller
        config.option.loadscopereorder = False


ROOT = Path(__file__).resolve().parent.parent
#: the variable that names another project folder for the games the tests are about
PROJECT_VARIABLE = "RULEPRESS_TEST_PROJECT"
#: the project whose games (rules_spec/) and catalogs (locales/) the tests are about: this
#: repository, or a copy named by $RULEPRESS_TEST_PROJECT where a designer's game sits
#: beside ours (tests/test_any_game.py runs the suite there); the interface, the guides
#: and the source are always this repository's
PROJECT = Path(os.environ.get(PROJECT_VARIABLE) or ROOT).resolve()
SPEC_ROOT = PROJECT / "rules_spec"
LOCALES = PROJECT / "locales"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Builds keep their work in the user's cache (rulepress.workdir): here, the session's own.

    So that no test writes into the cache of the person running the tests, and the
    commands the tests start find the same work as the builds made in this process.
    One for all of pytest-xdist's processes, as a user's cache is one for all their
    commands: the main job is built by one of them (:func:`main_job`), and the record
    of the PDFs it printed, kept there, is what lets another's site build publish them.
    """
    base = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        base = base.parent  # the run's folder, above each process's own
    cache = base / "cache"
    cache.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache))
        yield


def game_dirs() -> list[Path]:
    return find_game_dirs(SPEC_ROOT)


#: the games found in rules_spec/ (tests parametrize over these, never over a list of names)
GAMES = tuple(d.name for d in game_dirs())
#: each game's languages (its game.yaml), English, the source language, among them
GAME_LANGUAGES = spec_languages(SPEC_ROOT)
#: every language of those games, English first (tests parametrize over these, never
#: over a list of codes); TRANSLATIONS: all but English, the languages with catalogs
LANGUAGES = union(GAME_LANGUAGES.values())
TRANSLATIONS = translations(LANGUAGES)
#: (game, language) for every language of every game, and for every translation
PUBLISHED = [(game, lang) for game, langs in GAME_LANGUAGES.items() for lang in langs]
TRANSLATED = [
    (game, lang) for game, langs in GAME_LANGUAGES.items() for lang in translations(langs)
]
#: the games whose catalog template (locales/<game>.pot) the project keeps: every game
#: with catalogs must have one, and a game published in English only has one once someone
#: extracts it (rulepress.i18n.workflow.Project.needs_template)
TEMPLATED = tuple(
    game
    for game, langs in GAME_LANGUAGES.items()
    if translations(langs) or (LOCALES / f"{game}.pot").is_file()
)

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


def tiny_game_with_vote(tmp_path: Path, vote: str, examples: str) -> Path:
    """A copy of the tiny test game whose winners step is followed by ``vote`` (a tally
    step's YAML), with the named set ``colours`` (red, blue) and ``examples`` as its only
    worked examples."""
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    edit(
        game / "sequence.yaml",
        "          final_tie_note: Players still tied share the win.\n",
        vote,
    )
    edit(game / "game.yaml", "vocabulary:", "sets:\n  colours: [red, blue]\n\nvocabulary:")
    (game / "examples.yaml").write_text(examples, encoding="utf-8")
    return game


def project_copy(work: Path, games: tuple[str, ...] | None = None, src: bool = True) -> Path:
    """A copy of the project in ``work``: the specs and catalogs of ``games`` (all by
    default), and rulepress's source (whose interface and theme domains the i18n
    commands extract) unless ``src`` is false.

    Every i18n command reads and renders every game of a project: a test of how the
    workflow treats one game copies that one (Brink alone has 1,200 messages).
    """
    chosen = GAMES if games is None else games
    for game in chosen:
        shutil.copytree(SPEC_ROOT / game, work / "rules_spec" / game)
    shutil.copytree(
        LOCALES,
        work / "locales",
        ignore=lambda folder, names: [
            n for n in names if n.endswith((".po", ".pot")) and n.split(".")[0] not in chosen
        ],
    )
    if src:
        shutil.copytree(ROOT / "src", work / "src")
    return work


def one_game_root(tmp_path: Path, game: str = "stationfall") -> Path:
    """A spec root holding only ``game`` (a link to the real one), for a build of one game.

    A test about how a build behaves, not about every game's content, builds one game:
    a print build of both takes twice as long.
    """
    root = tmp_path / f"only-{game}"
    root.mkdir()
    (root / game).symlink_to(SPEC_ROOT / game)
    return root


def module_from_file(name: str, path: Path) -> ModuleType:
    """The module in ``path`` (a script of benchmarks/ or tools/, not a package), imported."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    *args: str, cwd: Path | None = None, timeout: float = 900, env: dict[str, str] | None = None
) -> Run:
    """Run the real ``rulepress`` command in a subprocess (``env``: variables to add).

    The timeout only stops a command that hangs: a print build took over 120 s on a
    loaded CI machine, and a slow machine must not fail a test.
    """
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    proc = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=cwd or PROJECT,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def run_main(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """The command run in this process (:func:`rulepress.cli.main`, as the console script
    runs it), its output captured (``env``: variables to set for the call).

    For tests of what a command does: starting a Python for each call cost more than most
    calls (about 1 s of imports each). ``run_cli`` runs the real process, for the tests of
    what only a process shows (the console script, its ``sys.path``, its exit status).
    """
    from rulepress.cli import main

    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd or PROJECT)
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    return Run(code, out.getvalue(), err.getvalue())


def catalog_copy(tmp_path: Path, lang: str, domain: str) -> tuple[Path, Path, Any]:
    """A private copy of locales/, the path of one catalog in it, and that catalog read."""
    from babel.messages.pofile import read_po

    locales = tmp_path / "locales"
    shutil.copytree(LOCALES, locales)
    po = locales / lang / "LC_MESSAGES" / f"{domain}.po"
    with po.open("rb") as fp:
        return locales, po, read_po(fp)


#: the address the session's site is built for (its sitemap and canonical links)
BASE_URL = "https://rules.example.org/"


#: the row of Stationfall's winners table that the session's previous edition changes
WINNERS_ROW = (
    '      - {min: 6, max: 8, value: 2, source: {document: card, lines: "58",'
    ' quote: "Ve hře s 6+ hráči mohou zvítězit 2 hráči s nejvíce body (3 hráči při 9'
    ' hráčích)"}}\n'
)


#: rule 16.4.8's title in the previous edition, in English and in each catalog as it was
OLD_TITLE = {"en": "Who wins", "cs": "Kdo vyhrává", "ja": "勝者の決め方"}


@pytest.fixture(scope="session")
def previous_specs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session builds' previous edition (``--since``): a project folder as it was.

    Its specs and catalogs as they are, but for Stationfall's winners table,
    which gave three winners from six players up, and the title of its rule
    16.4.8 (``OLD_TITLE``, translated in that edition's catalogs): its changes
    page has a changed rule, a table cell and consequences; Brink's (unchanged)
    says that nothing changed. A folder, not a revision, so that a clone with
    no history builds it too.
    """
    return make_previous_edition(tmp_path_factory.mktemp("previous"))


def make_previous_edition(project: Path) -> Path:
    """Write the session's previous edition (see :func:`previous_specs`) into ``project``."""
    folder = project / "rules_spec"
    shutil.copytree(SPEC_ROOT, folder)
    shutil.copytree(LOCALES, project / "locales")
    if not (folder / "stationfall").is_dir():
        return project  # a project of other games (tests/test_any_game.py): as they are
    edit(
        folder / "stationfall" / "tables.yaml",
        WINNERS_ROW,
        WINNERS_ROW.replace("value: 2", "value: 3"),
    )
    edit(folder / "stationfall" / "rules.yaml", "title: Winning\n", f"title: {OLD_TITLE['en']}\n")
    for lang, now in (("cs", "Vítězství"), ("ja", "勝利")):
        edit(
            project / "locales" / lang / "LC_MESSAGES" / "stationfall.po",
            f'msgctxt "rules/16.4.8/title"\nmsgid "Winning"\nmsgstr "{now}"\n',
            f'msgctxt "rules/16.4.8/title"\nmsgid "{OLD_TITLE["en"]}"\nmsgstr "{OLD_TITLE[lang]}"\n',
        )
    return project


@dataclass
class MainJob:
    """The README's main job as the test run ran it: its project folder, exit code and output,
    the catalog lookups it made, and the previous edition it was built against."""

    project: Path
    code: int
    out: str
    err: str
    usage: Usage
    previous: Path

    def to_json(self) -> str:
        def listed(found: dict[tuple[str, str], set[str]]) -> list[object]:
            return [[lang, domain, sorted(ids)] for (lang, domain), ids in found.items()]

        return json.dumps(
            {
                "project": str(self.project),
                "code": self.code,
                "out": self.out,
                "err": self.err,
                "used": listed(self.usage.used),
                "missing": listed(self.usage.missing),
                "previous": str(self.previous),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> MainJob:
        data = json.loads(text)

        def keyed(rows: list[list[Any]]) -> dict[tuple[str, str], set[str]]:
            return {(lang, domain): set(ids) for lang, domain, ids in rows}

        usage = Usage(keyed(data["used"]), keyed(data["missing"]))
        return cls(
            Path(data["project"]),
            data["code"],
            data["out"],
            data["err"],
            usage,
            Path(data["previous"]),
        )

    @property
    def print_out(self) -> Path:
        return self.project / "build" / "print"

    @property
    def site_out(self) -> Path:
        return self.project / "build" / "site"


@pytest.fixture(scope="session")
def main_job(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, previous_specs: Path
) -> MainJob:
    """``rulepress build`` (validate, every print file, every site, the gate), once per test run.

    The README's first command runs it; here in a project folder of its own (its
    specs, catalogs and guides linked to the repository's), so that its ``build/``
    is not the repository's, against the session's previous edition and with a
    base URL, in this process so that the catalog lookups of every output are
    recorded (tests/i18n/test_catalog_usage.py). Its print files and sites are
    the ones the print, site and browser tests read.

    Made once for all of pytest-xdist's processes: the first to need it builds it
    in the folder they share, under a lock, and leaves its outcome there (exit code,
    output, the lookups as JSON); the others wait for the lock and read that.

    A run of ``--only-game`` builds those games alone, without the guides: its tests
    read nothing else.
    """
    folder = _main_job_folder(tmp_path_factory)
    build_main_job_at(folder, previous_specs, tuple(request.config.getoption(ONLY_GAME)))
    return MainJob.from_json((folder / "outcome.json").read_text(encoding="utf-8"))


def _main_job_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the run's main job is made and its outcome left, shared by all its processes."""
    shared = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        shared = shared.parent  # the run's folder, above each process's own
    folder = shared / "main-job"
    folder.mkdir(exist_ok=True)
    return folder


def build_main_job_at(
    folder: Path, previous: Path | None = None, games: tuple[str, ...] = ()
) -> None:
    """Make the main job in ``folder`` unless it is made, under its lock (see :func:`main_job`);
    of ``games`` alone if any are named, else of every game.

    ``python -m tests.main_job FOLDER`` runs this in the background from the start of a
    run (:func:`pytest_collection_modifyitems`); without ``previous``, it writes a
    previous edition of its own beside the build.
    """
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = folder / "outcome.json"
        if done.is_file():
            return
        _count_main_job()
        if previous is None:
            previous = folder / "previous"
            shutil.rmtree(previous, ignore_errors=True)  # a run killed half-way
            previous.mkdir()
            make_previous_edition(previous)
        _build_main_job(folder / "project", previous, done, games)


def _build_main_job(project: Path, previous: Path, done: Path, games: tuple[str, ...]) -> None:
    shutil.rmtree(project, ignore_errors=True)  # a build killed half-way
    project.mkdir()
    if games:
        for game in games:  # copies: rulepress follows no link inside a spec root
            shutil.copytree(SPEC_ROOT / game, project / "rules_spec" / game)
    else:
        (project / "rules_spec").symlink_to(SPEC_ROOT)
    (project / "locales").symlink_to(LOCALES)
    if not games:  # the guides are no game's: a run of some games' tests reads none of them
        (project / "docs").symlink_to(ROOT / "docs")
    options = ["--since", str(previous), "--base-url", BASE_URL, "--quiet"]
    with recording() as usage:
        run = run_main("build", "--spec-root", str(project / "rules_spec"), *options)
    job = MainJob(project, run.code, run.out, run.err, usage, previous)
    partial = done.with_suffix(".part")
    partial.write_text(job.to_json(), encoding="utf-8")
    partial.rename(done)


def _succeeded(job: MainJob) -> MainJob:
    assert job.code == 0, job.err[-5000:]
    return job


@pytest.fixture(scope="session")
def built_site(main_job: MainJob) -> tuple[Any, Usage]:
    """The main job's sites (Sphinx, every language, doctests, the PDFs linked), as a SiteBuild.

    The build as the command made it: the same folders and options, so that its
    work folder (``site.work``) and languages are the ones the command used.
    """
    from rulepress.model.languages import all_languages
    from rulepress.sphinx_ext.build import SiteBuild  # Sphinx: slow tests only

    job = _succeeded(main_job)
    specs = job.project / "rules_spec"
    build = SiteBuild(
        job.project,
        specs,
        job.project / "locales",
        job.site_out,
        all_languages(specs),
        docs=job.project / "docs",
        pdfs=job.print_out,
        base_url=BASE_URL,
        since=str(job.previous),
    )
    return build, job.usage


@pytest.fixture(scope="session")
def built_print(main_job: MainJob) -> tuple[Path, Usage]:
    """The main job's print files: every game and language, and the errata sheets."""
    job = _succeeded(main_job)
    return job.print_out, job.usage


# --------------------------------------------------------- the repository stays as it was

#: folders that tools keep in the repository by design (all git-ignored); the guard looks
#: past them: Python's bytecode, the venv, pytest's, mypy's and ruff's caches, and
#: hypothesis' example database should a developer's profile turn it on
_TOOL_FOLDERS = frozenset(
    {".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
)

#: (git status, mtime in ns) of every path that is not clean, by its path in the repository
RepoState = dict[str, tuple[str, int]]

_BEFORE = pytest.StashKey[RepoState]()


def _looked_past(path: Path) -> bool:
    # screenshots a person asked for ($RULEPRESS_TEST_ARTIFACTS, see tests/site/test_browser.py)
    chosen = os.environ.get("RULEPRESS_TEST_ARTIFACTS")
    return bool(_TOOL_FOLDERS & set(path.relative_to(ROOT).parts)) or (
        chosen is not None and path.is_relative_to(Path(chosen).resolve())
    )


def _files(top: Path) -> Iterator[Path]:
    """``top``, or the files under it if it is a folder, tool folders left out."""
    if _looked_past(top):
        return
    if not top.is_dir() or top.is_symlink():
        yield top
        return
    for folder, subfolders, files in os.walk(top):
        subfolders[:] = [s for s in subfolders if not _looked_past(Path(folder, s))]
        yield from (Path(folder, f) for f in files)


def repository_state() -> RepoState:
    """Every file git does not call clean (changed, new or ignored), with its mtime.

    git lists an untracked or ignored folder as one entry; its files are walked here, so
    a file written into build/ or a changed one in it is seen too. Empty outside a git
    work tree (an unpacked sdist), where there is nothing to compare.
    """
    proc = subprocess.run(
        ["git", "status", "--porcelain=v1", "-z", "--ignored"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        return {}
    fields = iter(os.fsdecode(proc.stdout).split("\0"))
    state: RepoState = {}
    for entry in fields:
        if not entry:
            continue
        status, name = entry[:2], entry[3:]
        if status[0] in "RC":
            next(fields, None)  # a rename's or copy's source path follows
        for path in _files(ROOT / name):
            try:
                mtime = path.lstat().st_mtime_ns
            except FileNotFoundError:
                mtime = -1  # deleted
            state[path.relative_to(ROOT).as_posix()] = (status, mtime)
    return state


def changed_paths(before: RepoState, after: RepoState) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that uses the run's main job renders PDFs (its print and site builds do).

    Marked so whatever its module says: ``-m 'not slow'`` never waits for a build, and
    ``-m 'not print'`` leaves out every test that needs WeasyPrint. (pytest-xdist runs
    each module in one process, ``--dist loadscope`` in tools/test.sh, so a module's own
    builds are made once; the main job is made once for all, see :func:`main_job`.)
    Runs first, so that ``-m`` deselects by these marks.
    """
    for item in items:
        if "main_job" in getattr(item, "fixturenames", ()):  # built_site and built_print use it
            item.add_marker(pytest.mark.print)
            item.add_marker(pytest.mark.slow)
    _keep_only_games(config, items)


# ------------------------------------------------- the tests of one game, for any game

#: the option that keeps only the tests parametrized over a game (tests/test_any_game.py)
ONLY_GAME = "--only-game"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        ONLY_GAME,
        action="append",
        default=[],
        metavar="GAME",
        help="run only the tests parametrized over GAME, a game of the spec root (repeatable)",
    )


def _games_named(value: object) -> set[str]:
    """The names a test's parameter may give a game by: itself, a game folder, or a tuple."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Path):
        return {value.name}
    if isinstance(value, tuple | list):
        return set().union(*(_games_named(v) for v in value))
    return set()


def _keep_only_games(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With ``--only-game``, deselect every test that is not parametrized over one of them.

    A designer's game is tried beside ours by running the suite's tests for that game
    alone: the tests of every other game (and those of no game) ran in the suite itself.
    """
    chosen = set(config.getoption(ONLY_GAME))
    if not chosen:
        return
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        named = set().union(*(_games_named(v) for v in params)) if params else set()
        (kept if named & chosen else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


#: each module's seconds and tests in a measured run (tools/module_costs.py writes it)
MODULE_COSTS = Path(__file__).with_name("module_costs.json")


def module_costs(items: list[pytest.Item]) -> dict[str, float]:
    """The seconds each module of ``items`` is expected to take, for ordering only.

    A module of the table counts the share of its measured seconds that its selected
    tests are (a quick run leaves out its slow ones); any other, a tenth of a second
    per test.
    """
    try:
        table = json.loads(MODULE_COSTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        table = {}
    selected = Counter(item.nodeid.split("::")[0] for item in items)
    costs = {}
    for module, count in selected.items():
        seconds, tests = table.get(module, (0.1 * count, count))
        costs[module] = seconds * min(1.0, count / max(tests, 1))
    return costs


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's sends the order to the controller
def pytest_collection_finish(session: pytest.Session) -> None:
    """Run the longest modules first, and those reading the main job last, starting it early.

    After ``-m`` and ``-k`` have deselected (collection is finished): a quick run
    (``-m 'not slow'``) selects no test that reads the main job, so it must not spend
    a core on the build that nothing reads.
    """
    items = session.items
    needing = {
        item.nodeid.split("::")[0]
        for item in items
        if "main_job" in getattr(item, "fixturenames", ())
    }
    # The main job takes minutes: it starts now, in a process of its own, and the modules
    # that read it run last (whole modules, as --dist loadscope hands them out), so the
    # test processes run everything else meanwhile instead of waiting for it. Within
    # each part, the longest modules go first (pytest_configure turns pytest-xdist's own
    # order, by number of tests, off): the short ones even out the end, where a long
    # one would keep one process busy while the others have nothing left.
    costs = module_costs(items)

    def order(item: pytest.Item) -> tuple[bool, float]:
        module = item.nodeid.split("::")[0]
        return module in needing, -costs[module]

    items.sort(key=order)  # stable: a module's tests keep their order
    if needing:
        _start_main_job(session.config)


#: the background main job this process started (see :func:`_start_main_job`)
_EARLY: list[subprocess.Popen[bytes]] = []


def _start_main_job(config: pytest.Config) -> None:
    """Start ``python -m tests.main_job`` once per run, in the background.

    Every test process collects the same tests: the first to create the start mark
    starts it. It takes the main job's lock at once, so a test that needs the main job
    waits for it there (and, should it fail to start, the test builds it itself).
    """
    # pytest's own factory, set at configure: there is no public handle before fixtures run
    folder = _main_job_folder(config._tmp_path_factory)  # type: ignore[attr-defined]
    try:
        (folder / "started").touch(exist_ok=False)
    except FileExistsError:
        return
    cache = folder.parent / "cache"  # the run's cache, as _private_cache sets it
    cache.mkdir(exist_ok=True)
    with (folder / "log").open("wb") as log:  # the child keeps its own copy of the file
        _EARLY.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.main_job",
                    str(folder),
                    *config.getoption(ONLY_GAME),
                ],
                cwd=ROOT,
                env=dict(os.environ, XDG_CACHE_HOME=str(cache)),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )


def pytest_sessionstart(session: pytest.Session) -> None:
    """Record the repository before any test module is imported."""
    session.config.stash[_BEFORE] = repository_state()
    if not hasattr(session.config, "workerinput"):  # the controller, or a run without xdist
        # the processes started below inherit it: each one that runs the main job says so
        os.environ[_MAIN_JOBS] = tempfile.mkdtemp(prefix="rulepress-main-jobs-")


# ------------------------------------------------- the main job runs once per test run

#: the folder where each test process that runs the main job leaves a file
_MAIN_JOBS = "RULEPRESS_TEST_MAIN_JOBS"


def _count_main_job() -> None:
    folder = os.environ.get(_MAIN_JOBS)
    if folder:
        Path(folder, os.environ.get("PYTEST_XDIST_WORKER", "main")).touch()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail a run in which more than one process ran the main job.

    Each run of it takes minutes: the first process to need it builds it for all
    (:func:`main_job`). When that sharing silently stops working (as pytest-xdist's
    groups did with pytest 9.2), every process builds it and the suite outgrows its
    time in CI.
    """
    for early in _EARLY:  # a run stopped before its tests read the main job
        if early.poll() is None:
            early.terminate()
        early.wait()
    if hasattr(session.config, "workerinput") or _MAIN_JOBS not in os.environ:
        return
    folder = Path(os.environ.pop(_MAIN_JOBS))
    ran = sorted(p.name for p in folder.iterdir())
    shutil.rmtree(folder, ignore_errors=True)
    if len(ran) > 1:
        session.config.get_terminal_writer().line(
            f"the main job ran in {len(ran)} test processes ({', '.join(ran)}), not once"
            " for all of them",
            red=True,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session", autouse=True)
def _repository_untouched(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the session if a test created, changed or deleted a file in the repository.

    Tests write into tmp_path. Checked when the session's last fixture is torn down, so
    a file written during collection is caught as well as one written by a test.
    Note: an edit made by hand in the repository while the tests run is reported too.
    """
    before = request.config.stash.get(_BEFORE, None)
    if before is None:
        before = repository_state()
    yield
    changed = changed_paths(before, repository_state())
    if changed:
        shown = ", ".join(changed[:20]) + (
            f" and {len(changed) - 20} more" if len(changed) > 20 else ""
        )
        pytest.fail(
            "tests wrote into the repository (use tmp_path), unless someone edited these"
            f" files while the tests ran: {shown}",
            pytrace=False,
        )


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """A Dask local cluster of two worker processes, on this machine only.

    One per module, closed with it: its threads allocate as they run, and a module
    that measures this process's memory (the corpus reader's test) must not count them.
    """
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",  # no network here, and nothing for other machines to reach
        dashboard_address=None,  # no web server (and no bokeh)
        silence_logs=True,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()
