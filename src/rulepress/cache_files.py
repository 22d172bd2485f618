"""Files that rulepress works out from its inputs and keeps in the user's cache between commands.

Some steps take a second or more and give the same bytes for the same inputs:
the places of a game's messages (:mod:`rulepress.render.places_cache`), the
interface's template made from rulepress's own source
(:mod:`rulepress.i18n.extract`). Each is kept under a key of all it depends
on, in a private folder of the user's cache beside the builds' work
(:mod:`rulepress.workdir`): ``$XDG_CACHE_HOME/rulepress/<kind>/<name>-<key>``, or
``$RULEPRESS_CACHE_DIR/<kind>/<name>-<key>`` when that variable names a folder.

What is read back is never trusted further than the rest of that folder: it is
read without following a link and no further than a bound, only from a regular
file of the user's that no one else may write, and the caller
checks its content (JSON against a model, a catalog through Babel) and works
it out anew when it does not read back whole. A folder that is not private (a
link, another owner, writable by others) is not used at all, and a cache that
cannot be written (full, read-only) is no error: the work was done all the same.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import stat
from pathlib import Path

from rulepress import __version__
from rulepress.errors import OutputError
from rulepress.workdir import APP, cache_root, private_folder

#: rulepress's own code: every module of the package
PACKAGE = Path(__file__).resolve().parent
#: the largest file read back
MAX_BYTES = 64 * 1024 * 1024
#: names a folder to keep these files in instead of the user's cache (tests, CI, several users)
CACHE_DIR_VARIABLE = "RULEPRESS_CACHE_DIR"


@functools.cache
def code_digest() -> str:
    """A digest of rulepress's version and every module of its source (once per process).

    A module counts by its name, size and modification time, as Python's own bytecode
    cache tells an edited source from the one it compiled: a module edited so that
    neither changes would run stale bytecode anyway. Reading and hashing the whole
    source (1.8 MB) took several ms of every command that reads a kept file, such as a
    warm ``rulepress score``.
    """
    modules: list[tuple[str, os.stat_result]] = []
    # os.walk and plain names rather than Path.rglob: a third of the time, for 200 modules
    for folder, _, files in os.walk(PACKAGE):
        inside = os.path.relpath(folder, PACKAGE).replace(os.sep, "/")
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                modules.append((name if inside == "." else f"{inside}/{name}", os.stat(path)))
    digest = hashlib.sha256(f"{__version__}\0".encode())
    for name, info in sorted(modules, key=lambda module: module[0]):
        digest.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def key(*parts: str | bytes) -> str:
    """A key of rulepress's code and ``parts`` (each part delimited, so that none runs into the next)."""
    digest = hashlib.sha256(code_digest().encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(str(len(data)).encode() + b":" + data)
    return digest.hexdigest()[:32]


def _folder(kind: str) -> Path | None:
    """The cache's folder of ``kind``, made and checked; None when it cannot be used."""
    given = os.environ.get(CACHE_DIR_VARIABLE, "")
    try:
        if given:
            # made private like the default one (its parents are the user's to choose)
            top = Path(os.path.abspath(given))
            top.parent.mkdir(parents=True, exist_ok=True)
        else:
            base = cache_root()
            base.mkdir(parents=True, exist_ok=True)
            top = base / APP
        return private_folder(private_folder(top) / kind)
    except (OSError, OutputError):
        return None


def _usable(fd: int) -> bool:
    """Whether the opened file is a regular file of this user's that no one else may write.

    The folder is checked as well (private_folder), but a file can be given another
    mode or owner inside it (a shared home copied with its modes, root's tools): such a
    file is not read, whatever it holds.
    """
    info = os.fstat(fd)
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_uid == os.getuid()
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def read(kind: str, name: str, found_key: str) -> bytes | None:
    """The bytes kept for ``name`` under ``found_key``; None when there are none to use."""
    folder = _folder(kind)
    if folder is None:
        return None
    try:
        fd = os.open(folder / f"{name}-{found_key}", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not _usable(handle.fileno()):
            return None
        data = handle.read(MAX_BYTES + 1)
    return data if len(data) <= MAX_BYTES else None


def write(kind: str, name: str, found_key: str, data: bytes) -> None:
    """Keep ``data`` for ``name`` under ``found_key`` (whole, or not at all), dropping older keys."""
    folder = _folder(kind)
    if folder is None:
        return
    path = folder / f"{name}-{found_key}"
    import tempfile  # noqa: PLC0415 - only a write needs it, and a warm score only reads

    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    for older in folder.glob(f"{name}-*"):
        if older != path:
            with contextlib.suppress(OSError):
                older.unlink()
