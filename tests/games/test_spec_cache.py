"""The checked spec kept in the user's cache (rulepress.games.spec_cache) is used only when safe.

A score read from the cache gives exactly what a fresh load gives; an edit of
any file of the game's folder is a new key; a kept file that someone else
owns, that others may write, or whose content does not match its digest or
its key is not used (the spec is loaded afresh and the file replaced); and
the cache lives in the user's cache folder, never beside the spec.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulepress.errors import SpecError
from rulepress.games import load_spec, spec_cache
from rulepress.model import LoadedSpec, operations
from tests.conftest import DATA, GAMES, SPEC_ROOT, Run, edit, run_main
from tests.games.test_broken_examples import break_three

STATE = DATA / "states" / "stationfall-four-players.yaml"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own cache folder (RULEPRESS_CACHE_DIR), not yet made."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEPRESS_CACHE_DIR", str(folder))
    monkeypatch.delenv(spec_cache.NO_CACHE_VARIABLE, raising=False)
    return folder


@pytest.fixture
def fresh_loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders the cache loaded afresh (read and checked), in order."""
    loads: list[Path] = []

    def counted(directory: Path, *, isolate_examples: bool = False) -> LoadedSpec:
        loads.append(directory)
        return load_spec(directory, isolate_examples=isolate_examples)

    monkeypatch.setattr(spec_cache, "load_spec", counted)
    return loads


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of Stationfall's folder, named as users name it (rules_spec/stationfall)."""
    target = tmp_path / "project" / "rules_spec" / "stationfall"
    shutil.copytree(SPEC_ROOT / "stationfall", target)
    monkeypatch.chdir(target.parent.parent)
    return Path("rules_spec/stationfall")


def score_here(*args: str) -> Run:
    """``rulepress score`` of the four-player Stationfall state, in the working folder."""
    return run_main("score", "stationfall", str(STATE.resolve()), *args, cwd=Path.cwd())


def kept_files(cache: Path) -> list[Path]:
    return sorted((cache / spec_cache.KIND).iterdir())


@pytest.mark.parametrize("name", GAMES)
def test_a_spec_read_back_from_the_cache_is_the_spec_a_fresh_load_gives(
    name: str, cache: Path, fresh_loads: list[Path]
) -> None:
    directory = SPEC_ROOT / name
    first = spec_cache.load_spec_cached(directory, isolate_examples=True)
    again = spec_cache.load_spec_cached(directory, isolate_examples=True)
    assert fresh_loads == [directory]  # the second one came from the cache
    assert again == first == load_spec(directory, isolate_examples=True)
    # the same fields given, in every model (pydantic's == does not compare them)
    assert again.spec.model_dump(exclude_unset=True) == first.spec.model_dump(exclude_unset=True)
    assert again.sources.values == first.sources.values
    assert again.sources.keys == first.sources.keys


@pytest.mark.parametrize(
    "args",
    [
        ("score", "stationfall", str(STATE)),
        ("score", "stationfall", str(STATE), "--lang", "cs", "--format", "json"),
        ("score", "stationfall", "--example", "offsite-character-gives-no-data", "--lang", "ja"),
    ],
)
def test_a_second_score_prints_what_the_first_and_a_score_without_the_cache_print(
    args: tuple[str, ...], cache: Path, fresh_loads: list[Path]
) -> None:
    first = run_main(*args)
    assert first.code == 0, first.err
    assert len(kept_files(cache)) == 1
    second = run_main(*args)
    assert len(fresh_loads) == 1  # the second score read the spec from the cache
    uncached = run_main(*args, "--no-cache")
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)
    assert (uncached.code, uncached.out, uncached.err) == (first.code, first.out, first.err)


def test_without_the_cache_nothing_is_read_or_kept(
    cache: Path, fresh_loads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_main("score", "stationfall", str(STATE), "--no-cache").code == 0
    assert not cache.exists()
    monkeypatch.setenv(spec_cache.NO_CACHE_VARIABLE, "1")
    for _ in range(2):
        assert run_main("score", "stationfall", str(STATE)).code == 0
    assert not cache.exists()
    assert len(fresh_loads) == 2


@pytest.mark.parametrize(
    ("file", "old", "new"),
    [
        # a ruling's wording: what the report cites
        ("rulings.yaml", "title: Everything outside the supply", "title: All cubes but the supply"),
        # a document the citations are checked against (the load then refuses the spec)
        ("sources/stationfall-endgame-card.cs.txt", "", "x"),
    ],
)
def test_an_edited_file_of_the_game_is_loaded_afresh(
    file: str, old: str, new: str, game: Path, cache: Path, fresh_loads: list[Path]
) -> None:
    before = spec_cache.load_spec_cached(game, isolate_examples=True)
    path = game / file
    if old:
        edit(path, old, new)
    else:
        path.write_bytes(path.read_bytes() + new.encode())
    # a spec the edit made wrong must fail as a fresh load of it does
    try:
        after: LoadedSpec | SpecError = spec_cache.load_spec_cached(game, isolate_examples=True)
    except SpecError as exc:
        after = exc
    assert len(fresh_loads) == 2
    try:
        fresh: LoadedSpec | SpecError = load_spec(game, isolate_examples=True)
    except SpecError as exc:
        fresh = exc
    if isinstance(fresh, SpecError):
        assert isinstance(after, SpecError)
        assert (str(after), after.problems) == (str(fresh), fresh.problems)
    else:
        assert after == fresh != before


def test_a_package_installed_removed_or_installed_again_is_a_new_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key covers the distributions installed, whose entry points the kept file records."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    game = SPEC_ROOT / "stationfall"

    def key() -> str | None:
        return spec_cache.folder_key(game, True)

    before = key()
    (folder / "a_module.py").write_text("")
    assert key() == before  # modules are no distribution
    info = folder / "mygame_ops-1.0.dist-info"
    info.mkdir()
    installed = key()
    points = info / "entry_points.txt"
    points.write_text("[rulepress.operations]\nlongest_run = mygame_ops:LongestRun\n")
    registered = key()
    written = points.stat()
    points.write_text("[rulepress.operations]\nlongest_ran = mygame_ops:LongestRun\n")
    os.utime(points, ns=(written.st_atime_ns, written.st_mtime_ns + 1_000_000))
    again = key()  # installed again: its entry points written anew, the same size
    info.rename(folder / "mygame_ops-1.1.dist-info")
    upgraded = key()
    assert len({before, installed, registered, again, upgraded}) == 5
    shutil.rmtree(folder / "mygame_ops-1.1.dist-info")
    assert key() == before


def test_where_distributions_may_come_from_elsewhere_the_key_names_the_entry_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Finder:
        """A finder that may find distributions outside sys.path's folders."""

        def find_spec(self, *args: object) -> None:
            return None

        def find_distributions(self, *args: object) -> list[object]:
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert operations.installed_fingerprint() is None
    assert spec_cache.folder_key(SPEC_ROOT / "stationfall", True) is not None


def test_a_spec_with_problems_is_never_kept(
    game: Path, cache: Path, fresh_loads: list[Path]
) -> None:
    edit(game / "game.yaml", "languages:", "languagez:")
    for _ in range(2):
        shown = score_here()
        assert shown.code == 3
        assert "rules_spec/stationfall/game.yaml" in shown.err
    assert len(fresh_loads) == 2
    assert not (cache / spec_cache.KIND).exists() or not kept_files(cache)


def _group_writable(path: Path) -> None:
    path.chmod(path.stat().st_mode | stat.S_IWGRP)


def _not_ours(path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("only root can give a file to another user")
    os.chown(path, os.getuid() + 4242, -1)


def _tampered(path: Path) -> None:
    # one value changed after the digest line: what a hand edit or a cut write leaves
    data = path.read_bytes()
    assert b'"title":"Everything outside the supply"' in data
    path.write_bytes(
        data.replace(b'"title":"Everything outside the supply"', b'"title":"Free Points!"')
    )


def _other_key(path: Path) -> None:
    # a well-formed file whose digest matches, but kept for another key (renamed into place)
    _, _, body = path.read_bytes().partition(b"\n")
    found = path.name.rsplit("-", 1)[1]
    body = body.replace(found.encode(), b"0" * len(found))
    body = body.replace(b'"title":"Everything outside the supply"', b'"title":"Free Points!"')
    path.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:5000])


def _not_json(path: Path) -> None:
    body = b"\x80\x81 not json at all"
    path.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def _a_link(path: Path) -> None:
    # a link to a file elsewhere that would pass every other check (the user's own, 0600,
    # its digest and key right): a kept file is never read through a link
    elsewhere = path.parent.parent / "elsewhere"
    shutil.copyfile(path, elsewhere)
    _, _, body = elsewhere.read_bytes().partition(b"\n")
    body = body.replace(b'"title":"Everything outside the supply"', b'"title":"Free Points!"')
    elsewhere.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    elsewhere.chmod(0o600)
    path.unlink()
    path.symlink_to(elsewhere)


def _rewritten(old: bytes, new: bytes) -> Callable[[Path], None]:
    """A well-formed file whose digest matches, with ``old`` in its spec replaced by ``new``."""

    def spoil(path: Path) -> None:
        _, _, body = path.read_bytes().partition(b"\n")
        assert old in body
        body = body.replace(old, new, 1)
        body = body.replace(b'"title":"Everything outside the supply"', b'"title":"Free Points!"')
        path.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)

    return spoil


# a class that is not one of a spec's models: never looked up, let alone imported
_other_class = _rewritten(b'"m":"rulepress.model.spec_model:Ruling"', b'"m":"subprocess:Popen"')
# a field the model does not have
_other_field = _rewritten(b'"f":{"id":"excess_scope"', b'"f":{"args":"excess_scope"')
# a mapping written as something the reader does not know
_other_shape = _rewritten(b'{"d":{', b'{"dd":{')
# an operation of rulepress's that is no class of its operations' modules: never imported
_other_operation = _rewritten(b'"rulepress.operations.sum:Sum"', b'"subprocess:Popen"')


@pytest.mark.parametrize(
    "spoil",
    [
        _group_writable,
        _not_ours,
        _tampered,
        _other_key,
        _truncated,
        _not_json,
        _a_link,
        _other_class,
        _other_field,
        _other_shape,
        _other_operation,
    ],
)
def test_a_kept_file_that_cannot_be_trusted_is_not_used_and_is_replaced(
    spoil: Callable[[Path], None], game: Path, cache: Path, fresh_loads: list[Path]
) -> None:
    first = score_here()
    assert first.code == 0, first.err
    (kept,) = kept_files(cache)
    spoil(kept)
    again = score_here()
    assert len(fresh_loads) == 2  # loaded afresh, not read from the file
    assert (again.code, again.out, again.err) == (first.code, first.out, first.err)
    assert "Free Points!" not in again.out
    # the file is replaced by one of the user's that only they may read and write
    (kept,) = kept_files(cache)
    info = os.lstat(kept)
    assert stat.S_ISREG(info.st_mode)
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (os.getuid(), 0o600)
    score_here()
    assert len(fresh_loads) == 2  # and used from then on


def test_a_cache_folder_others_may_write_into_is_not_used(
    game: Path, cache: Path, fresh_loads: list[Path]
) -> None:
    assert score_here().code == 0
    folder = cache / spec_cache.KIND
    folder.chmod(0o777)
    for _ in range(2):
        assert score_here().code == 0
    assert len(fresh_loads) == 3


def test_the_cache_is_kept_in_the_users_cache_folder_and_never_beside_the_spec(
    game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RULEPRESS_CACHE_DIR", raising=False)
    monkeypatch.delenv(spec_cache.NO_CACHE_VARIABLE, raising=False)
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME")
    project = Path.cwd()
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    assert score_here().code == 0
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before
    folders = [home / ".cache", home / ".cache" / "rulepress", home / ".cache/rulepress/specs"]
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o700 for f in folders[1:])
    (kept,) = (home / ".cache" / "rulepress" / "specs").iterdir()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert kept.name.startswith("stationfall-")
    # $XDG_CACHE_HOME, when set, is the user's cache folder
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert score_here().code == 0
    assert len(list((tmp_path / "xdg" / "rulepress" / "specs").iterdir())) == 1


def test_source_positions_that_do_not_read_back_are_found_by_loading_afresh(
    game: Path, cache: Path, fresh_loads: list[Path]
) -> None:
    """Only messages read the positions, after the spec was used: they cannot fail then."""
    first = spec_cache.load_spec_cached(game, isolate_examples=True)
    (kept,) = kept_files(cache)
    _, _, body = kept.read_bytes().partition(b"\n")
    head, spec, _ = body.split(b"\n")
    body = b"\n".join((head, spec, b'{"files": [], "values": [[0, 1, 1, "game"]], "keys": []}'))
    kept.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    again = spec_cache.load_spec_cached(game, isolate_examples=True)
    assert len(fresh_loads) == 1  # the spec came from the file
    assert again.locate(("rules", 3, "title")) == first.locate(("rules", 3, "title"))
    assert again.sources == first.sources
    assert len(fresh_loads) == 2  # the positions did not


def test_a_folder_larger_than_the_cache_keeps_is_loaded_afresh_each_time(
    game: Path, cache: Path, fresh_loads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(spec_cache, "MAX_FOLDER_BYTES", 1000)
    for _ in range(2):
        assert score_here().code == 0
    assert len(fresh_loads) == 2
    assert not cache.exists()


#: what a warm English score of Stationfall never imports: the spec check (the spec comes
#: checked), the catalogs' reader, wcwidth (an English report's text is narrow),
#: pydantic's lookup of plugins among the installed distributions, which building any
#: pydantic validator does first (the state is read with a validator built from the
#: state format's core schema, see rulepress.states.models.strict_schema), docutils
#: (the quotation marks are read as data, see rulepress.i18n.typography), importlib.resources
#: and tempfile (the operations' examples are found when read, a kept file is only read: see
#: rulepress.model.operations.OwnExample, rulepress.cache_files), the output folders' module
#: (and its pydantic model), the starter states' (rulepress.states imports on demand), the
#: spec check's base (the names expressions read are the expressions') and the record of
#: fallbacks (an English report has none), Babel's numbers (an English report's are plain),
#: and the other commands' modules (the command line imports a command's module when it
#: runs, rulepress.cli.LazyGroup)
NOT_IMPORTED = (
    "rulepress.checks.checker",
    "babel.messages.pofile",
    "rulepress.i18n.catalogs",
    "rulepress.games.messages",
    "wcwidth",
    "pydantic.plugin._loader",
    "importlib.metadata",
    "docutils",
    "importlib.resources",
    "tempfile",
    "rulepress.output",
    "rulepress.states.template",
    "difflib",
    "rulepress.checks.base",
    "rulepress.i18n.fallbacks",
    "babel.numbers",
    "rulepress.commands.specs",
    "rulepress.commands.build",
    "rulepress.commands.i18n",
)


def test_a_warm_english_score_builds_no_spec_validator_and_reads_no_catalog(cache: Path) -> None:
    """What makes a warm score fast, kept so: the spec comes back without pydantic building
    its models' validators, the operations' entry points come with it (none is discovered),
    the report's tree is made without its nodes' validators, no validator of the spec check
    or of an output folder's marker is built, an English report reads no catalog (Babel's PO
    reader, the walk that translates a spec), and the command runs without Python's cycle
    collector to its end (no collection walks what it made), ends without tearing the interpreter down
    (its exit handlers run, its objects are never freed one by one), and compiles none of the
    regular expressions it does not use."""
    assert score_here().code == 0  # fills the cache
    code = (
        "import atexit, gc, json, sys\n"
        "import rulepress.scoring\n"
        "collecting = []\n"
        "def score(*args, __score=rulepress.scoring.score, **kwargs):\n"
        "    collecting.append(gc.isenabled())\n"
        "    return __score(*args, **kwargs)\n"
        "rulepress.scoring.score = score\n"
        "def report():\n"
        "    modules = sorted(sys.modules)\n"
        "    collecting.append(gc.isenabled())\n"
        "    from rulepress.model.field_docs import spec_models\n"
        "    from pydantic import BaseModel\n"
        "    from rulepress.render import tree\n"
        "    from rulepress.checks import base\n"
        "    from rulepress.output import Marker\n"
        "    nodes = [m for m in vars(tree).values() if isinstance(m, type) and issubclass(m, BaseModel)]\n"
        "    built = sorted(n for n, m in spec_models().items() if m.__pydantic_complete__)\n"
        "    built += sorted(m.__name__ for m in [*nodes, Marker] if m.__pydantic_complete__)\n"
        "    built += ['tally shapes'] * base.tally_shape.cache_info().currsize\n"
        "    from rulepress.model import operations\n"
        "    discovered = operations._points.cache_info().currsize\n"
        "    from rulepress.lazy_pattern import LazyPattern\n"
        "    lazy = [(f'{n}.{k}', v._compiled is not None) for n, m in list(sys.modules.items())\n"
        "            if n.startswith('rulepress') for k, v in vars(m).items() if isinstance(v, LazyPattern)]\n"
        "    import yaml\n"
        "    pyyaml = [yaml.reader.Reader.NON_PRINTABLE, yaml.constructor.SafeConstructor.timestamp_regexp]\n"
        "    pyyaml += [r for rs in yaml.resolver.Resolver.yaml_implicit_resolvers.values() for _, r in rs]\n"
        "    lazy += [(f'yaml: {p.pattern[:20]}', not isinstance(p, LazyPattern) or p._compiled is not None)\n"
        "             for p in pyyaml]\n"
        "    print(json.dumps([built, modules, discovered, collecting, lazy, collections]))\n"
        "atexit.register(report)\n"
        "class Late:\n"
        "    def __del__(self, write=__import__('os').write):\n"
        "        write(1, b'\\ntorn down\\n')\n"
        "late = Late()\n"
        f"sys.argv = ['rulepress', 'score', 'stationfall', {str(STATE.resolve())!r}]\n"
        "from rulepress.__main__ import run\n"
        "collections = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and collections.append(info))\n"
        "run()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path.cwd(), check=False
    )
    assert proc.returncode == 0, proc.stderr
    reported = next(line for line in proc.stdout.splitlines() if line.startswith("[["))
    built, modules, discovered, collecting, lazy, collections = json.loads(reported)
    assert built == []
    # the patterns only a spec check, a Czech or Japanese text or another YAML file needs
    # are there, and none was compiled (rulepress.lazy_pattern); nor were PyYAML's own,
    # which rulepress's loader does not use (see rulepress.yamlsrc.reader)
    assert len(lazy) > 20
    assert [name for name, compiled in lazy if compiled] == []
    # the operations came with the kept spec: no entry point was discovered
    assert discovered == 0
    assert set(NOT_IMPORTED).isdisjoint(modules)
    # scored without the collector, which stayed off to the end: no collection ran from the
    # command line's import on (one after the command walked all it had made, for nothing);
    # and the process ended once its exit handlers (the report above) had run, without
    # tearing the interpreter down: the object left in a module was never freed
    assert collecting == [False, False]
    assert collections == []
    assert "torn down" not in proc.stdout


def test_broken_examples_read_back_from_the_cache_as_a_fresh_load_finds_them(
    spec_copy: Path, cache: Path, fresh_loads: list[Path]
) -> None:
    brink = spec_copy / "brink"
    break_three(brink)
    first = spec_cache.load_spec_cached(brink, isolate_examples=True)
    again = spec_cache.load_spec_cached(brink, isolate_examples=True)
    assert fresh_loads == [brink]  # the second one came from the cache
    assert len(again.broken_examples) == 3
    assert again.broken_examples == first.broken_examples
    assert again == first
