"""A game's loaded and checked spec, kept in the user's cache for the next command.

Reading a spec's YAML, validating it and running every check takes most of a
``rulepress score`` that scores one table. What they give depends only on the
files of the game's folder (the spec's YAML and the source documents its
citations are checked against), on rulepress's own code and the operations
installed, and on where the folder is (messages name it as the user would).
So the result is kept under a key of all of these
(``$XDG_CACHE_HOME/rulepress/specs/<game>-<folder>-<key>``, see
:mod:`rulepress.cache_files`) and the next load with the same key reads it back
instead.

What is kept is data only, three lines of JSON (never pickle, nothing that
could run code): which load it keeps (its key, its broken examples, the
operations' entry points it was checked with, see
:func:`rulepress.model.operations.use_recorded`), the
validated spec as :mod:`rulepress.games.spec_data` writes it (each model with
its fields, built back without validating them again: building the
validators took most of a warm ``rulepress score``), and the source
positions, which only messages need and so are read when first asked for.
The file starts with the SHA-256 of the rest and names its own key: a file
cut short, edited, or moved to another key's name is not used; nor is one
that another user owns or others may write (:func:`rulepress.cache_files.read`),
nor one whose spec does not read back as one. A file that cannot be used is
worked out again and replaced; it is never an error.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
import hashlib
import json
import os
import stat
import sys
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from rulepress import cache_files
from rulepress.errors import DataPath, Location, Problem
from rulepress.games import spec_data
from rulepress.games.load import load_spec
from rulepress.model import LoadedSpec, operations
from rulepress.yamlsrc import SourceMap, display_path

#: the cache's folder in the user's cache
KIND = "specs"
#: the layout of a kept file; a new layout is a new key, so old files are never misread
FORMAT: Literal[3] = 3
#: set to anything but "" or "0" to load every spec afresh (as ``score --no-cache``)
NO_CACHE_VARIABLE = "RULEPRESS_NO_CACHE"
#: the most a game's folder may hold for its load to be kept: a larger one is loaded afresh
#: (twice what a spec may be, see rulepress.games.load.MAX_SPEC_BYTES, for its documents)
MAX_FOLDER_BYTES = 16 * 1024 * 1024
#: the most files a game's folder may hold for its load to be kept
MAX_FOLDER_FILES = 1000

#: the lines of a kept file after its digest: what it is, the spec, its source positions
_PARTS = 3


class _Places(BaseModel):
    """The source positions of a kept spec: the files, then one row per position.

    A row is the index of its file, the line, the column, then the data path; one list
    of rows per map (values, keys). A row of numbers and names, not an object each:
    the positions are most of what is kept, and most commands never read them.
    """

    # its validator is built when positions are first read, not when a score imports this
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    files: list[str]
    values: list[list[str | int]]
    keys: list[list[str | int]]


def cache_disabled() -> bool:
    """Whether the environment asks for every spec to be loaded afresh."""
    return os.environ.get(NO_CACHE_VARIABLE, "") not in ("", "0")


def load_spec_cached(
    directory: Path, *, isolate_examples: bool = False, key: str | None = None
) -> LoadedSpec:
    """:func:`~rulepress.games.load.load_spec`, read from the user's cache when it holds it.

    The same LoadedSpec as a fresh load, or the same SpecError: a spec with
    problems is never kept, so they are found (and reported) every time.
    ``key``: the folder's :func:`folder_key`, when the caller has just worked it out.
    """
    if cache_disabled():
        found = None
    else:
        found = key if key is not None else folder_key(directory, isolate_examples)
    if found is None:
        return load_spec(directory, isolate_examples=isolate_examples)
    name = _entry_name(directory)
    kept = _read(name, found, directory, isolate_examples)
    if kept is not None:
        return kept
    loaded = load_spec(directory, isolate_examples=isolate_examples)
    kept_data = _dump(loaded, found)
    if kept_data is not None:
        cache_files.write(KIND, name, found, kept_data)
    return loaded


def _entry_name(directory: Path) -> str:
    """The kept file's name before its key: the game's folder, and which folder it is.

    A new key replaces the file of the same name (rulepress.cache_files.write), so
    two checkouts of one game each keep their own.
    """
    where = hashlib.sha256(os.fsencode(os.path.abspath(directory))).hexdigest()[:12]
    return f"{directory.resolve().name}-{where}"


def folder_key(directory: Path, isolate_examples: bool) -> str | None:
    """The key of a load of ``directory``; None when its folder cannot be read whole.

    Every file below the game's folder counts, by name and content (a link by
    its target too): the spec's YAML and the documents its citations quote.
    """
    parts: list[str | bytes] = [
        str(FORMAT),
        sys.version,
        str(isolate_examples),
        # messages name the folder relative to the working folder; documents are
        # found (and refused outside the folder) by their real place
        str(directory),
        display_path(directory),
        os.path.abspath(directory),
        str(directory.resolve()),
    ]
    # an operation installed or removed changes what a spec's components may be: the key
    # covers the distributions installed (without discovering their entry points, which
    # the kept file records, see rulepress.model.operations.use_recorded) ...
    installed = operations.installed_fingerprint()
    if installed is not None:
        parts.append(f"installed: {installed}")
    else:
        # ... or, where distributions may come from elsewhere, the registry's own discovery
        # (done once per process; each distribution's version is read once: reading it
        # parses the distribution's metadata)
        versions: dict[int, str] = {}
        for point in sorted(operations.registered(), key=lambda p: (p.name, p.value)):
            dist = point.dist
            if dist is not None and id(dist) not in versions:
                versions[id(dist)] = dist.version
            version = versions[id(dist)] if dist is not None else ""
            parts.append(f"{point.name}={point.value} ({version})")
    try:
        files = _folder_files(directory, parts)
    except OSError:
        return None  # a folder that cannot be listed: the load says what is wrong with it
    if not files:
        return None
    return cache_files.key(*parts)


def _folder_files(directory: Path, parts: list[str | bytes]) -> int:
    """Add every file below ``directory`` to ``parts``, by name and content; how many there were.

    OSError when a folder cannot be listed; 0 when the folder holds more than is kept.
    """
    total = 0
    count = 0
    for folder, subfolders, files in os.walk(directory, onerror=_raise):
        subfolders.sort()
        for name in sorted(files) + [d for d in subfolders if os.path.islink(Path(folder, d))]:
            path = Path(folder, name)
            count += 1
            try:
                info = os.lstat(path)
                parts.append(os.fsencode(path.relative_to(directory)))
                if stat.S_ISLNK(info.st_mode):
                    parts.append(b"link:" + os.fsencode(os.readlink(path)))
                    info = os.stat(path)  # what a load reads through it
                if stat.S_ISREG(info.st_mode):
                    total += info.st_size
                    if total > MAX_FOLDER_BYTES or count > MAX_FOLDER_FILES:
                        return 0
                    parts.append(path.read_bytes())
                else:
                    parts.append(f"not a file: {stat.S_IFMT(info.st_mode)}")
            except OSError as exc:
                # a dangling link, a file that cannot be read: the load reports it (or not)
                # the same way every time, so its name and error are the content
                parts.append(f"unreadable: {exc.errno}")
    return count


def _raise(error: OSError) -> None:
    raise error


def _dump(loaded: LoadedSpec, found: str) -> bytes | None:
    """The kept file of ``loaded``: the digest of the lines below it, then those lines.

    None when the spec holds a value :mod:`~rulepress.games.spec_data` cannot write
    (none does; it would then be loaded afresh each time).
    """
    broken = {
        name: [
            [p.location.file, p.location.line, p.location.column, p.where, p.message]
            for p in problems
        ]
        for name, problems in loaded.broken_examples.items()
    }
    points = [list(point) for point in operations.recorded()]
    head = {"format": FORMAT, "key": found, "broken": broken, "operations": points}
    try:
        spec = spec_data.as_data(loaded.spec)
    except ValueError:
        return None
    files: dict[str, int] = {}

    def rows(places: dict[DataPath, Location]) -> list[list[str | int]]:
        return [
            [files.setdefault(loc.file, len(files)), loc.line, loc.column, *path]
            for path, loc in places.items()
        ]

    values, keys = rows(loaded.sources.values), rows(loaded.sources.keys)
    places = _Places(files=list(files), values=values, keys=keys)
    # JSON without indentation has no line break outside its strings, where it writes \n
    body = b"\n".join(
        (
            _json(head),
            _json(spec),
            places.model_dump_json().encode(),
        )
    )
    return hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def _json(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _read(name: str, found: str, directory: Path, isolate: bool) -> LoadedSpec | None:
    """The LoadedSpec kept under ``found``; None when there is none, or it cannot be trusted."""
    data = cache_files.read(KIND, name, found)
    if data is None:
        return None
    digest, _, body = data.partition(b"\n")
    if digest != hashlib.sha256(body).hexdigest().encode():
        return None
    parts = body.split(b"\n")
    if len(parts) != _PARTS:
        return None
    try:
        head = json.loads(parts[0])
        if head.get("format") != FORMAT or head.get("key") != found:
            return None
        broken = {
            example: tuple(_problem(*problem) for problem in problems)
            for example, problems in head["broken"].items()
        }
        # the operations' entry points, before the spec's components need them
        operations.use_recorded(tuple(_point(*point) for point in head["operations"]))
        spec = spec_data.spec_from_data(json.loads(parts[1]))
    except (ValueError, TypeError, LookupError, AttributeError, RecursionError):
        # not JSON, or not what _dump writes (spec_data.UnreadableError is a ValueError)
        return None
    return LoadedSpec(spec, _KeptPlaces(parts[2], directory, isolate), directory, broken)


def _problem(file: object, line: object, column: object, where: object, what: object) -> Problem:
    """A broken example's problem as _dump writes it (ValueError for anything else)."""
    if not (
        isinstance(file, str)
        and type(line) is int
        and type(column) is int
        and isinstance(where, str)
        and isinstance(what, str)
    ):
        raise ValueError("not a problem's file, line, column, where and what")
    return Problem(Location(file, line, column), where, what)


def _point(name: object, value: object, own: object) -> operations.Recorded:
    """An entry point as _dump writes it (ValueError for anything else).

    One of rulepress's own names a class of its operations' modules: what a discovery
    found, and all that :func:`~rulepress.model.operations.use_recorded` loads.
    """
    if not (isinstance(name, str) and isinstance(value, str) and isinstance(own, bool)):
        raise ValueError("not an entry point's name, object and whether it is rulepress's")
    if own and operations.OWN_VALUE.fullmatch(value) is None:
        raise ValueError(f"not one of rulepress's operations: {value!r}")
    return name, value, own


class _KeptPlaces(SourceMap):
    """The source positions of a kept spec, read from its file the first time they are asked for.

    A score that goes well never locates anything in the spec: these are for its
    messages when something goes wrong. Should the kept positions not read back (the
    file's digest matched, so only a bug of rulepress's would do it), they are found
    by loading the spec afresh.
    """

    def __init__(self, raw: bytes, directory: Path, isolate: bool) -> None:
        # SourceMap's fields (values, keys) are set by __getattr__, when first read
        self._raw = raw
        self._directory = directory
        self._isolate = isolate

    def __getattr__(self, name: str) -> dict[DataPath, Location]:
        if name not in ("values", "keys"):
            raise AttributeError(name)
        places = _places(self._raw)
        if places is None:
            places = load_spec(self._directory, isolate_examples=self._isolate).sources
        self.values, self.keys = places.values, places.keys
        return places.values if name == "values" else places.keys

    def __eq__(self, other: object) -> bool:
        # equal to a SourceMap of the same positions, as the map a fresh load gives is
        # (SourceMap's own comparison wants the same class, and then asks this one)
        if not isinstance(other, SourceMap):
            return NotImplemented
        return (self.values, self.keys) == (other.values, other.keys)

    __hash__ = None  # type: ignore[assignment]  # as SourceMap's: it is not frozen


def _places(raw: bytes) -> SourceMap | None:
    """The SourceMap kept as ``raw`` (see :class:`_Places`); None if it does not read back."""
    try:
        kept = _Places.model_validate_json(raw)
    except ValidationError:
        return None
    count = len(kept.files)
    maps: list[dict[DataPath, Location]] = []
    for rows in (kept.values, kept.keys):
        found: dict[DataPath, Location] = {}
        for row in rows:
            match row:
                case [int(index), int(line), int(column), *path] if 0 <= index < count:
                    found[tuple(path)] = Location(kept.files[index], line, column)
                case _:
                    return None
        maps.append(found)
    return SourceMap(maps[0], maps[1])
