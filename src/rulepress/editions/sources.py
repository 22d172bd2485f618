"""Reading an edition of a game's spec: from a folder, or from a git revision.

A git revision is read with ``git`` itself (``rev-parse``, ``ls-tree`` and
``archive``) into a temporary folder that is removed afterwards: the user's
work tree, index and HEAD are never touched, so a diff can be run in the
middle of an edit. The tar stream ``git archive`` writes is unpacked with
the standard library's ``data`` filter (no links out of the folder, no
absolute paths, no devices), and only the game's own folder is asked for.

Problems in an edition read from a revision are located as
``REV:rules_spec/<game>/file.yaml:line:col``, as ``git show REV:path``
names the file, never by the temporary folder.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from fnmatch import fnmatch
from pathlib import Path

from rulepress.errors import Location, Problem, RulepressError, UsageError
from rulepress.games.load import load_spec
from rulepress.model import LoadedSpec
from rulepress.yamlsrc import GAME_FILE, display_path

#: the longest a git command may take before the diff gives up on it
GIT_TIMEOUT = 120


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise UsageError("git is not installed: give the editions as folders") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git {args[0]} took longer than {GIT_TIMEOUT} s") from None


def game_folder(folder: Path, game: str) -> Path | None:
    """The game's spec in ``folder``: the folder itself, ``<game>/`` or ``rules_spec/<game>/``."""
    for candidate in (folder, folder / game, folder / "rules_spec" / game):
        if (candidate / GAME_FILE).is_file():
            return candidate
    return None


@contextmanager
def read_edition(given: str, game_dir: Path) -> Iterator[tuple[LoadedSpec, str]]:
    """The edition named ``given`` of the game whose current folder is ``game_dir``.

    ``given`` is a folder (the game's own, a spec root holding it, or a
    project with ``rules_spec/``) or, when no such folder exists, a git
    revision of the repository ``game_dir`` lies in. Yields the loaded spec
    (worked examples with problems of their own left out) and how to name
    the edition.
    """
    folder = Path(given)
    if folder.is_dir():
        found = game_folder(folder, game_dir.name)
        if found is None:
            raise UsageError(
                f"{given}: no spec of {game_dir.name} in this folder (looked for {GAME_FILE}"
                f" in it, in {game_dir.name}/ and in rules_spec/{game_dir.name}/)"
            )
        yield load_spec(found, isolate_examples=True), given
        return
    with _from_revision(given, game_dir) as (loaded, label):
        yield loaded, label


def revision(rev: str, where: Path) -> tuple[Path, str]:
    """The repository ``where`` lies in and the commit ``rev`` names in it (else a usage error)."""
    if rev.startswith("-"):  # never an option to git
        raise UsageError(f"{rev}: not a folder, and not a git revision")
    top = _git(where, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise UsageError(
            f"{rev}: no such folder, and {display_path(where)} is not in a git repository"
            " to read a revision from"
        )
    repo = Path(top.stdout.decode().strip())
    commit = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if commit.returncode != 0:
        raise UsageError(f"{rev}: no such folder, and no such revision in {repo.name}")
    return repo, commit.stdout.decode().strip()


def has_edition(given: str, game_dir: Path) -> bool:
    """Whether the edition ``given`` (a folder or a revision) has the game (a new one has not).

    A revision that is not there is a usage error, as for :func:`read_edition`.
    """
    folder = Path(given)
    if folder.is_dir():
        return game_folder(folder, game_dir.name) is not None
    repo, sha = revision(given, game_dir)
    inside = game_dir.resolve().relative_to(repo.resolve()).as_posix()
    listed = _git(repo, "ls-tree", "--name-only", sha, "--", f"{inside}/{GAME_FILE}")
    return listed.returncode == 0 and bool(listed.stdout.strip())


@contextmanager
def _from_revision(rev: str, game_dir: Path) -> Iterator[tuple[LoadedSpec, str]]:
    repo, sha = revision(rev, game_dir)
    inside = game_dir.resolve().relative_to(repo.resolve()).as_posix()
    listed = _git(repo, "ls-tree", "--name-only", sha, "--", f"{inside}/{GAME_FILE}")
    if listed.returncode != 0 or not listed.stdout.strip():
        raise UsageError(f"{rev}: the revision has no {inside}/{GAME_FILE}")
    with _unpacked(repo, sha, rev, inside, inside, "rulepress-edition-") as tmp:
        folder = tmp / inside
        try:
            loaded = load_spec(folder, isolate_examples=True)
        except RulepressError as exc:
            raise _relocated(exc, Path(tmp), rev) from None
        yield _renamed(loaded, tmp, rev), rev


@contextmanager
def _unpacked(
    repo: Path, sha: str, rev: str, pathspec: str, inside: str, prefix: str
) -> Iterator[Path]:
    """The files of ``sha`` that ``pathspec`` names, unpacked into a temporary folder."""
    archive = _git(repo, "archive", "--format=tar", sha, "--", pathspec)
    if archive.returncode != 0:
        raise UsageError(f"{rev}: git archive failed: {archive.stderr.decode().strip()}")
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        try:
            with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
                tar.extractall(tmp, filter="data")
        except tarfile.FilterError as exc:  # a link out of the folder asked for, a device …
            raise UsageError(f"{rev}: refused to read {inside}/: {exc}") from None
        yield Path(tmp)


def _name(file: str, tmp: Path, rev: str) -> str:
    """``REV:path`` for a file of the temporary copy (as git show names it); others as they are."""
    # locations are written relative to the current folder where they can be
    # ("../rulepress-edition-…/…"): made absolute and normalised, they lie in tmp
    resolved = Path(os.path.abspath(file))
    for base in (Path(os.path.abspath(tmp)), tmp.resolve()):
        if resolved.is_relative_to(base):
            return f"{rev}:{resolved.relative_to(base).as_posix()}"
    return file


def _relocated(exc: RulepressError, tmp: Path, rev: str) -> RulepressError:
    problems = [
        Problem(p.location._replace(file=_name(p.location.file, tmp, rev)), p.where, p.message)
        for p in exc.problems
    ]
    summary = exc.summary
    # the longest form first: "../../tmp/x" holds "/tmp/x", which must not be replaced inside it
    for form in sorted({str(tmp.resolve()), str(tmp), display_path(tmp)}, key=len, reverse=True):
        summary = summary.replace(form + "/", rev + ":").replace(form, rev)
    return type(exc)(summary, problems)


def _renamed(loaded: LoadedSpec, tmp: Path, rev: str) -> LoadedSpec:
    """``loaded`` whose values are located as ``REV:path`` (the temporary folder goes)."""
    sources = loaded.sources
    values = {k: _moved(v, tmp, rev) for k, v in sources.values.items()}
    keys = {k: _moved(v, tmp, rev) for k, v in sources.keys.items()}
    broken = {
        name: tuple(
            Problem(p.location._replace(file=_name(p.location.file, tmp, rev)), p.where, p.message)
            for p in problems
        )
        for name, problems in loaded.broken_examples.items()
    }
    return LoadedSpec(loaded.spec, type(sources)(values, keys), loaded.directory, broken)


def _moved(location: Location, tmp: Path, rev: str) -> Location:
    return location._replace(file=_name(location.file, tmp, rev))


@contextmanager
def read_catalogs(given: str, game_dir: Path, locales: Path) -> Iterator[Path | None]:
    """The catalogs of the game as they stood in the edition ``given``: a locales folder.

    For a git revision, the game's catalogs (``<locales>/*/LC_MESSAGES/<game>.po``
    at that revision, with ``locales`` the project's catalog folder) are read
    with ``git archive`` into a temporary folder, as the spec is; for a folder
    holding a project (``rules_spec/`` and ``locales/``), its ``locales/``.
    None when the edition has no catalogs: its texts are then shown in English.
    """
    folder = Path(given)
    if folder.is_dir():
        own = folder / "locales"
        yield own if own.is_dir() and game_folder(folder, game_dir.name) is not None else None
        return
    top = _git(game_dir, "rev-parse", "--show-toplevel")
    commit = _git(
        game_dir, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{given}^{{commit}}"
    )
    if top.returncode != 0 or commit.returncode != 0 or given.startswith("-"):
        yield None  # read_edition has refused it already, with the reason
        return
    repo = Path(top.stdout.decode().strip()).resolve()
    if not locales.resolve().is_relative_to(repo):
        yield None  # catalogs outside the repository have no history to read
        return
    inside = locales.resolve().relative_to(repo).as_posix()
    wanted = f"{inside}/*/LC_MESSAGES/{game_dir.name}.po"
    listed = _git(
        repo, "ls-tree", "-r", "--name-only", commit.stdout.decode().strip(), "--", inside
    )
    if not any(fnmatch(n, wanted) for n in listed.stdout.decode().splitlines()):
        yield None  # no catalog of the game at that revision
        return
    sha = commit.stdout.decode().strip()
    with _unpacked(repo, sha, given, wanted, inside, "rulepress-catalogs-") as tmp:
        try:
            yield tmp / inside
        except RulepressError as exc:
            # a catalog of that edition that cannot be read is named as it stood there
            # (REV:locales/…), not by the temporary folder, gone once this one returns
            raise _relocated(exc, tmp, given) from None


def edition_files(given: str, game_dir: Path) -> tuple[str, list[Path]]:
    """What names the edition ``given`` for a build's cache: a commit, or a folder's files.

    A revision that moves (``HEAD~1``, a branch) stands for the commit it names
    now, so a build compares again when it moves; a folder for its files.
    """
    folder = Path(given)
    if folder.is_dir():
        return given, sorted(p for p in folder.rglob("*") if p.is_file())
    commit = _git(
        game_dir, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{given}^{{commit}}"
    )
    return (commit.stdout.decode().strip() if commit.returncode == 0 else given), []
