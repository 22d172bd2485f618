"""Where a build keeps its work: a private folder in the user's cache, checked before each use.

Sphinx's work (its environment pickle above all: loading it runs code) must sit
where a contribution cannot place files. Beside ``--out`` it sat inside the
project, which a checkout fills. So a build's work goes to the user's cache:
``$XDG_CACHE_HOME/rulepress/`` (``~/.cache/rulepress/`` by default), in a folder
named for the kind of build and keyed by the absolute output path, so that two
projects, or two ``--out`` folders of one project, never share it.

``rulepress/`` and every folder below it that rulepress makes are created
owner-only (0700). Before each use they are checked with ``lstat``: a real
folder (not a link), owned by this user, writable by no one else; one that is
not is refused with a located error (it is the user's to inspect). The cache
folder itself (``~/.cache``) is the user's own setting, and trusted.

:func:`locked` keeps two builds into one output folder apart (fcntl.flock).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from rulepress.errors import Location, OutputError, Problem

APP = "rulepress"


def cache_root() -> Path:
    """The user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), as the XDG spec says."""
    given = os.environ.get("XDG_CACHE_HOME", "")
    # a relative value is invalid by the spec: it would name a folder under the current one
    if given and os.path.isabs(given):
        return Path(given)
    return Path.home() / ".cache"


def _refuse(path: Path, what: str) -> OutputError:
    return OutputError(
        f"{path}: rulepress's work folder is not private; remove it, or set XDG_CACHE_HOME",
        [Problem(Location(str(path)), "work folder", what)],
    )


def private_folder(path: Path) -> Path:
    """Make ``path`` (0700) if need be, and check that it is ours alone; return it."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise _refuse(path, f"cannot be made ({exc.strerror})") from None
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(path, "is a symbolic link, which rulepress never follows")
    if not stat.S_ISDIR(info.st_mode):
        raise _refuse(path, "is not a folder")
    if info.st_uid != os.getuid():
        raise _refuse(path, "belongs to another user")
    if info.st_mode & 0o022:
        raise _refuse(path, "others may write into it")
    return path


def work_folder(kind: str, out: Path) -> Path:
    """The private work folder of a ``kind`` build into ``out`` (made, and checked)."""
    target = Path(os.path.abspath(out))
    if target.is_symlink():  # the folder it names is the output, as in rulepress.output
        target = target.resolve()
    key = hashlib.sha256(os.fsencode(target)).hexdigest()[:16]
    # the output folder's name too, so that a user looking into the cache can tell them apart
    name = re.sub(r"[^A-Za-z0-9._-]", "_", target.name)[:40] or "root"
    base = cache_root()
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _refuse(base, f"cannot be made ({exc.strerror})") from None
    top = private_folder(base / APP)
    return private_folder(private_folder(top / kind) / f"{name}-{key}")


@contextlib.contextmanager
def locked(folder: Path, out: Path, warn: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the lock of a build's work folder: a second build into ``out`` waits for the first.

    The lock is an exclusive ``flock`` on ``<folder>/lock``, released by the kernel
    when the process ends, however it ends: a killed build leaves no stale lock.
    Waiting rather than refusing: the second build then finds the first one's work
    and publishes a complete site too; it says on stderr that it waits.
    """
    path = folder / "lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            if warn is not None:
                warn(f"another rulepress build into {out} is running: waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


#: what a manifest records for an entry that is not a regular file (never matches a record)
_NOT_A_FILE = "!"


def manifest(base: Path, folders: list[str]) -> dict[str, str]:
    """Each file under ``base``'s ``folders``: its path (relative to ``base``) and its sha256.

    Links are not followed; one is recorded as something no check accepts.
    """
    found: dict[str, str] = {}
    for folder in folders:
        if (base / folder).is_symlink():
            found[folder] = _NOT_A_FILE
        elif (base / folder).is_file():
            found[folder] = _file_digest(base / folder)
        for top, dirs, files in os.walk(base / folder):
            here = Path(top)
            for name in [*dirs, *files]:
                path = here / name
                relative = path.relative_to(base).as_posix()
                if path.is_symlink():
                    found[relative] = _NOT_A_FILE
                elif name in files:
                    found[relative] = _file_digest(path)
    return found


def _file_digest(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return _NOT_A_FILE
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return _NOT_A_FILE
        return hashlib.file_digest(handle, "sha256").hexdigest()


def unchanged(base: Path, folders: list[str], recorded: object) -> bool:
    """Whether ``folders`` hold exactly what ``recorded`` (a manifest read back) says."""
    if not isinstance(recorded, dict) or _NOT_A_FILE in recorded.values():
        return False
    return manifest(base, folders) == recorded
