"""Which PDFs rulepress wrote into a print folder: a record of their hashes, kept where only we write.

``rulepress build site`` offers each game's PDFs from the print build's folder
(``build/print`` by default). That folder sits in the project, where a
checkout can place anything: a link to a private file, or a file of its own
named ``rulebook-a4.pdf``. Looking at the files cannot tell them apart from
ours (a PDF's producer line or structure is easy to forge), so the print build
records the sha256 of every file it writes, by its path in the folder, in
its private work folder (:func:`rulepress.workdir.work_folder`, owner-only,
outside the project). The site build publishes a PDF only when:

- it is opened without following a link (``O_NOFOLLOW``) and is a regular file;
- its bytes hash to what the last print build into that folder recorded for it.

Anything else is left out, with a word on stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from rulepress import workdir

RECORD = "written.json"


def _record_path(out: Path) -> Path:
    return workdir.work_folder("print", out) / RECORD


def recorded(out: Path) -> dict[str, str]:
    """What the print builds into ``out`` wrote: sha256 by path (``lang/game/name.pdf``)."""
    try:
        data = json.loads(_record_path(out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def record(out: Path, written: Mapping[str, bytes], kept: Iterable[str]) -> None:
    """Record a print build into ``out``: the files it ``written``, and those it ``kept``."""
    before = recorded(out)
    now = {name: before[name] for name in kept if name in before}
    now.update({name: hashlib.sha256(data).hexdigest() for name, data in written.items()})
    path = _record_path(out)
    tmp = path.with_name(f".{RECORD}.{os.getpid()}")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(now, handle, indent=1, sort_keys=True)
    os.replace(tmp, path)


def read_ours(path: Path, expected: str) -> bytes | None:
    """The file's bytes if it is a regular file (no link followed) hashing to ``expected``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:  # a link (ELOOP), or no file
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None  # a pipe or a device: nothing to read, and never block on it
        data = handle.read()
    return data if hashlib.sha256(data).hexdigest() == expected else None


def players_pdfs(
    out: Path, folder: str, kinds: Iterable[str], warn: Callable[[str], None] | None
) -> dict[Path, bytes]:
    """The PDFs of ``kinds`` in ``out/folder`` that the print build wrote, read.

    The player files and the press files (``*-pdfx4.pdf``) both: the site offers
    the first on a game's page, the others on its page for print shops. A file of
    those names that is not what was recorded (or is a link) is left out, and
    ``warn`` is told.
    """
    ours = recorded(out)
    names = {path.name for kind in kinds for path in (out / folder).glob(f"{kind}-*.pdf")}
    found: dict[Path, bytes] = {}
    for name in sorted(names):
        path = out / folder / name
        expected = ours.get(f"{folder}/{name}")
        data = None if expected is None else read_ours(path, expected)
        if data is not None:
            found[path] = data
        elif warn is not None:
            warn(
                f"{path}: not a PDF that rulepress build print wrote there (or a link); not published"
            )
    return found
