"""Each game's places, kept in the user's cache from one command to the next.

Where readers meet each message (:mod:`rulepress.render.places`) is found by
rendering the whole game with every message marked, its site pages and its
print documents: about a second for Brink, asked for by every ``i18n extract``,
``update`` and ``check``. The places depend on two things only, the spec as
loaded and rulepress's own code; so they are kept under a key made of both, in
the private cache folder the builds use for their work (:mod:`rulepress.workdir`),
and found again as long as neither changes. An edited spec, or another version
of rulepress, has another key and renders anew.

What is read back is never trusted further than the rest of that folder: it is
JSON (no pickle), read without following a link, checked against its model, and
anything that does not read back whole is worked out anew and written over. A
cache folder that is not private (a link, another owner, writable by others) is
not used at all: the places are then worked out each time, as with no cache.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile
from dataclasses import asdict
from pathlib import Path

from pydantic import BaseModel, TypeAdapter, ValidationError

from rulepress import __version__
from rulepress.output import OutputError
from rulepress.render.places import Marked, Place, message_places
from rulepress.spec.loaded import LoadedSpec
from rulepress.workdir import APP, cache_root, private_folder

#: bumped when what is stored changes shape (the key holds it: older files are not read)
FORMAT = 1
#: rulepress's own code: every module of the package (the places come from its writers)
PACKAGE = Path(__file__).resolve().parent.parent
#: the largest file read back (Brink's places take about 1 MiB)
MAX_BYTES = 64 * 1024 * 1024


class _Place(BaseModel, extra="forbid"):
    medium: str
    file: str
    part: str
    chain: tuple[str, ...]
    prefix: str
    block: int


_STORED = TypeAdapter(dict[str, list[_Place]])


@functools.cache
def _code_digest() -> str:
    """A digest of the package's source, once per process (a few milliseconds)."""
    digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _key(loaded: LoadedSpec) -> str:
    digest = hashlib.sha256(_code_digest().encode())
    digest.update(loaded.spec.model_dump_json().encode())
    return digest.hexdigest()[:32]


def _folder() -> Path | None:
    """The cache's folder of places, made and checked; None when it cannot be used."""
    try:
        base = cache_root()
        base.mkdir(parents=True, exist_ok=True)
        return private_folder(private_folder(base / APP) / "places")
    except (OSError, OutputError):
        return None


def _read(path: Path) -> dict[str, list[Place]] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        return None
    try:
        stored = _STORED.validate_json(data)
    except ValidationError:
        return None
    return {
        context: [Place(**p.model_dump()) for p in places] for context, places in stored.items()
    }


def _write(folder: Path, game: str, path: Path, places: dict[str, list[Place]]) -> None:
    """Write ``path`` whole (a temporary file renamed), and drop the game's older entries."""
    data = {context: [asdict(p) for p in found] for context, found in places.items()}
    payload = _STORED.dump_json(_STORED.validate_python(data))
    # a full or read-only cache is no error: the places were worked out all the same
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".places-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    for older in folder.glob(f"{game}-*.json"):
        if older != path:
            with contextlib.suppress(OSError):
                older.unlink()


def cached_places(loaded: LoadedSpec, marked: Marked) -> dict[str, list[Place]]:
    """:func:`~rulepress.render.places.message_places`, from the cache when it has them."""
    folder = _folder()
    if folder is None:
        return message_places(loaded, marked)
    game = loaded.spec.game.id
    path = folder / f"{game}-{_key(loaded)}.json"
    found = _read(path)
    if found is not None and found.keys() == marked.markers.keys():
        return found
    places = message_places(loaded, marked)
    _write(folder, game, path, places)
    return places
