"""Output that loses nothing: folders built aside and swapped in whole, files replaced atomically.

A build never writes into its output folder. It fills a temporary sibling
(``.site.tmp-<pid>-<random>`` beside ``site``) and, only when everything is
there, swaps it in (one ``renameat2(RENAME_EXCHANGE)`` on Linux, two renames
elsewhere). A failure at any point (a full disk, a folder that cannot be
written, a bad input found late, Ctrl-C) removes the temporary folder and
leaves the previous output as it was.

The folders rulepress makes are marked: ``.rulepress-output.json`` names the
kind of output and every file rulepress wrote. A build refuses, unless given
``--force``, a folder that is not empty and not marked, a folder marked for
another kind of output, and a marked folder that now holds something
rulepress did not write there, or a symbolic link where it wrote a file (it
never follows one). With ``--force`` the folder is replaced, and what it held
is kept beside it as ``<name>.replaced-<time>``, said on stderr: a user's own
files are never lost, nor overwritten without a word.

:func:`replace_files` does the same for loose files (compiled catalogs): every
new file is written in full beside its target first, and only then are they
all renamed into place; a failure removes what it wrote and changes nothing.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

# OutputError is defined with the other errors: the user's cache raises it too, and a
# score that reads the cache does not import this module
from rulepress.errors import Location, OutputError, Problem

__all__ = [
    "MARKER",
    "SHOWN",
    "Marker",
    "OutputError",
    "Staged",
    "check",
    "foreign",
    "read_marker",
    "replace_files",
    "replacing",
]

MARKER = ".rulepress-output.json"
#: how many of a refused folder's entries an error names
SHOWN = 5


class Marker(BaseModel):
    """What a marked output folder holds (the marker is read as untrusted data)."""

    # its validator is built when a marker is first read: the user's cache writes its files
    # with this module, and a score that reads the cache reads no marker
    model_config = ConfigDict(extra="forbid", defer_build=True)

    made_by: str = "rulepress"
    kind: str
    #: every file rulepress wrote, relative to the folder, with "/" separators
    files: list[str]


def _os_problem(
    exc: OSError, doing: str, tmp: Path | None = None, out: Path | None = None
) -> Problem:
    """A located problem from an OSError, naming the output path a user knows (not the staging one)."""
    name = str(exc.filename) if exc.filename is not None else str(out or "")
    if tmp is not None and out is not None and name.startswith(str(tmp)):
        name = str(out) + name[len(str(tmp)) :]
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        what = f"{exc.strerror}: the disk is full or the file too large; nothing was changed"
    else:
        what = f"{exc.strerror or exc}; nothing was changed"
    return Problem(Location(name), doing, what)


def read_marker(folder: Path) -> Marker | None:
    """The folder's marker, or None when it has none or it cannot be read as one."""
    path = folder / MARKER
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return Marker.model_validate_json(path.read_bytes())
    except (OSError, ValidationError):
        return None


def _entries(folder: Path) -> Iterator[tuple[str, Path]]:
    """Every entry under ``folder`` (relative name, path), never following a symbolic link."""
    for top, dirs, files in os.walk(folder):  # os.walk does not follow links by default
        here = Path(top)
        for name in sorted(dirs) + sorted(files):
            path = here / name
            yield path.relative_to(folder).as_posix(), path


def foreign(folder: Path, kind: str) -> list[str]:
    """What stops a build of ``kind`` from replacing ``folder`` (empty: it may)."""
    if not folder.exists() and not folder.is_symlink():
        return []
    try:
        entries = list(_entries(folder))
    except OSError as exc:
        return [f"{folder} cannot be read ({exc.strerror})"]
    if not entries:
        return []
    marker = read_marker(folder)
    if marker is None:
        names = [name for name, _ in entries if "/" not in name]
        return [f"it holds files rulepress did not make ({_some(names)})"]
    if marker.kind != kind:
        return [f"it holds rulepress's {marker.kind} output, not its {kind} output"]
    made = set(marker.files)
    problems = []
    for name, path in entries:
        if name == MARKER:
            continue
        if path.is_symlink():
            problems.append(f"{name} is a symbolic link, which rulepress never follows")
        elif path.is_file() and name not in made:
            problems.append(f"{name} was not made by rulepress")
    return problems


def _some(names: list[str]) -> str:
    shown = ", ".join(names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


@functools.cache
def _libc_exchange() -> Callable[[Path, Path], bool] | None:
    """Linux's atomic exchange of two paths (renameat2 with RENAME_EXCHANGE), if there is one.

    Python's os module has no renameat2, so it is called through ctypes: with it a
    reader of the output sees the old folder or the new one, never neither. Looked
    up when a folder is first replaced (once per process), not when this module is
    imported: finding the C library runs ldconfig, and most commands replace nothing.
    """
    import ctypes  # noqa: PLC0415 - only when a folder is replaced
    import ctypes.util  # noqa: PLC0415

    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return None
    at_fdcwd, rename_exchange = -100, 2

    def exchange(a: Path, b: Path) -> bool:
        done = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
        return bool(done == 0)

    return exchange


@dataclass
class Staged:
    """A build's temporary folder, beside its output; :meth:`write` is how files go in."""

    root: Path
    out: Path
    #: relative names of the files the finished folder will hold
    files: set[str] = field(default_factory=set)

    def path(self, relative: str | Path) -> Path:
        return self.root / relative

    def write(self, relative: str | Path, data: bytes) -> Path:
        """Write one file; an earlier one there (perhaps a link to the old output's) is replaced."""
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        # never write through a hard link shared with the output being replaced
        path.unlink(missing_ok=True)
        path.write_bytes(data)
        self.files.add(Path(relative).as_posix())
        return path

    def remove(self, relative: str | Path) -> None:
        """Leave out a folder kept from the previous output (a game no longer published there)."""
        prefix = Path(relative).as_posix() + "/"
        for name in [n for n in self.files if n.startswith(prefix)]:
            (self.root / name).unlink(missing_ok=True)
            self.files.discard(name)
        shutil.rmtree(self.root / relative, ignore_errors=True)

    def copy_from(
        self, folder: Path, into: str = "", keep: Callable[[str], bool] | None = None
    ) -> None:
        """Copy every file under ``folder`` in (a symbolic link there is left out, not followed).

        ``into``: the folder of the output they go in (its top by default).
        ``keep``: which files to copy, by their path relative to ``folder`` (all by default).
        """
        for relative, path in _entries(folder):
            if path.is_symlink() or not path.is_file():
                continue
            if keep is not None and not keep(relative):
                continue
            name = f"{into}/{relative}" if into else relative
            target = self.root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)  # the first failure stops the copy
            self.files.add(name)


def _stale_siblings(out: Path) -> None:
    """Remove temporary folders left beside ``out`` by builds that were killed outright."""
    for path in out.parent.glob(f".{out.name}.tmp-*"):
        pid = path.name[len(f".{out.name}.tmp-") :].split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _target(out: Path) -> Path:
    out = Path(os.path.abspath(out))
    if out.is_symlink():  # the folder it names is the output (links inside it are refused)
        out = out.resolve()
    return out


def check(out: Path, kind: str, *, force: bool = False) -> list[str]:
    """Raise unless a build of ``kind`` may replace ``out``; what ``--force`` overrides.

    Builds call it before their work too, so that a refusal comes at once rather
    than after a minute of layout. Messages name the folder as the user gave it.
    """
    target = _target(out)
    if target.parent == target:
        raise OutputError(f"{out}: refusing to replace a file system's root", [])
    if target.exists() and not target.is_dir():
        raise OutputError(f"{out}: a file, not a folder", [])
    # the folder it would be made in: refused now, not after a minute of layout
    above = next(p for p in target.parents if p.exists())
    if not above.is_dir() or not os.access(above, os.W_OK | os.X_OK):
        what = "is not a folder" if not above.is_dir() else "cannot be written"
        raise OutputError(
            f"{out}: the output folder cannot be made",
            [Problem(Location(str(out)), "output folder", f"{above} {what}")],
        )
    refused = foreign(target, kind)
    if refused and not force:
        raise OutputError(
            f"{out}: not rulepress's {kind} output; choose another --out, empty it,"
            " or give --force (what it holds is then kept aside)",
            [Problem(Location(str(out)), "output folder", what) for what in refused],
        )
    return refused


@contextlib.contextmanager
def replacing(
    out: Path,
    kind: str,
    *,
    force: bool = False,
    keep: bool = False,
    warn: Callable[[str], None] | None = None,
) -> Iterator[Staged]:
    """A staging folder for ``out``'s next content, swapped in when the block ends without error.

    ``keep``: the staging folder starts with the files of the previous output
    (hard links, so nothing is copied; :meth:`Staged.write` never writes through
    them), for builds that replace only some of its files.
    """
    refused = check(out, kind, force=force)
    given, out = out, _target(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _stale_siblings(out)
        root = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{os.getpid()}-", dir=out.parent))
    except OSError as exc:
        raise OutputError(
            f"{given}: the output folder cannot be made", [_os_problem(exc, "output folder")]
        ) from None
    staged = Staged(root, out)
    try:
        try:
            if keep and not refused and out.is_dir():
                marker = read_marker(out)
                for name in marker.files if marker else []:
                    source = out / name
                    if source.is_file() and not source.is_symlink():
                        target = root / name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        try:
                            os.link(source, target)
                        except OSError:
                            shutil.copy2(source, target)
                        staged.files.add(name)
            yield staged
            manifest = Marker(kind=kind, files=sorted(staged.files))
            (root / MARKER).write_text(manifest.model_dump_json(indent=1) + "\n", encoding="utf-8")
            os.chmod(root, 0o777 & ~_umask())  # mkdtemp's 0700 would hide the site from a server
            _swap(root, out, refused, warn)
        except OSError as exc:
            raise OutputError(
                f"{given}: could not be written", [_os_problem(exc, "writing", root, given)]
            ) from None
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _swap(root: Path, out: Path, refused: list[str], warn: Callable[[str], None] | None) -> None:
    """Put ``root`` at ``out``; what ``out`` held goes (or, if not rulepress's, is kept aside)."""
    if not out.exists() and not out.is_symlink():
        os.rename(root, out)
        return
    if refused:  # --force over a folder that is not (all) rulepress's: its content is kept
        aside = out.with_name(f"{out.name}.replaced-{time.strftime('%Y%m%dT%H%M%S')}")
        os.rename(out, aside)
        os.rename(root, out)
        if warn is not None:
            warn(f"--force: what {out} held is now in {aside}")
        return
    exchange = _libc_exchange() if out.is_dir() and not out.is_symlink() else None
    if exchange is not None and exchange(root, out):
        return  # root now holds the old output, which the caller removes
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    shutil.rmtree(old, ignore_errors=True)
    os.rename(out, old)
    try:
        os.rename(root, out)
    except OSError:
        os.rename(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def replace_files(files: Mapping[Path, bytes]) -> list[Path]:
    """Write every file, all or none: each in full beside its target, then all renamed in.

    Files that already hold their bytes are left alone; the changed ones are returned.
    """
    changed = {
        path: data
        for path, data in files.items()
        if path.is_symlink() or not path.is_file() or path.read_bytes() != data
    }
    written: list[tuple[Path, Path]] = []
    made: list[Path] = []  # the folders this call creates, removed again on failure
    try:
        for path, data in sorted(changed.items()):
            made += [p for p in reversed(path.parents) if not p.exists()]
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            written.append((Path(name), path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(name, 0o666 & ~_umask())
    except OSError as exc:
        for tmp, _ in written:
            tmp.unlink(missing_ok=True)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        target = written[-1][1] if written else None
        if target is not None and exc.filename is not None:
            exc.filename = str(target)
        raise OutputError("nothing was written", [_os_problem(exc, "writing")]) from None
    for tmp, path in written:
        os.replace(tmp, path)  # a link at ``path`` is replaced, never followed
    return [path for _, path in written]
