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

What is kept is data only: the spec as JSON and the source positions, read
back through the same pydantic model with ``model_validate_json`` (never
pickle, nothing that could run code). The file starts with the SHA-256 of the
rest and names its own key: a file cut short, edited, or moved to another
key's name is not used; nor is one that another user owns or others may
write (:func:`rulepress.cache_files.read`). A file that cannot be used is
worked out again and replaced; it is never an error.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from rulepress import cache_files
from rulepress.errors import Location, Problem
from rulepress.games.load import load_spec
from rulepress.model import LoadedSpec, Spec
from rulepress.model.operations import GROUP
from rulepress.yamlsrc import SourceMap, display_path

#: the cache's folder in the user's cache
KIND = "specs"
#: the layout of a kept file; a new layout is a new key, so old files are never misread
FORMAT: Literal[1] = 1
#: set to anything but "" or "0" to load every spec afresh (as ``score --no-cache``)
NO_CACHE_VARIABLE = "RULEPRESS_NO_CACHE"
#: the most a game's folder may hold for its load to be kept: a larger one is loaded afresh
#: (twice what a spec may be, see rulepress.games.load.MAX_SPEC_BYTES, for its documents)
MAX_FOLDER_BYTES = 16 * 1024 * 1024
#: the most files a game's folder may hold for its load to be kept
MAX_FOLDER_FILES = 1000

#: a source position as kept: the data path, then file, line and column
_Place = tuple[list[str | int], str, int, int]
#: a problem of a broken example as kept: file, line, column, where and what
_Problem = tuple[str, int, int, str, str]


class _Kept(BaseModel):
    """What a kept file holds after its digest line."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    format: Literal[1]
    key: str
    spec: Spec
    values: list[_Place]
    keys: list[_Place]
    broken: dict[str, list[_Problem]]


def cache_disabled() -> bool:
    """Whether the environment asks for every spec to be loaded afresh."""
    return os.environ.get(NO_CACHE_VARIABLE, "") not in ("", "0")


def load_spec_cached(directory: Path, *, isolate_examples: bool = False) -> LoadedSpec:
    """:func:`~rulepress.games.load.load_spec`, read from the user's cache when it holds it.

    The same LoadedSpec as a fresh load, or the same SpecError: a spec with
    problems is never kept, so they are found (and reported) every time.
    """
    found = None if cache_disabled() else folder_key(directory, isolate_examples)
    if found is None:
        return load_spec(directory, isolate_examples=isolate_examples)
    name = _entry_name(directory)
    kept = _read(name, found, directory)
    if kept is not None:
        return kept
    loaded = load_spec(directory, isolate_examples=isolate_examples)
    cache_files.write(KIND, name, found, _dump(loaded, found))
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
    # an operation installed or removed changes what a spec's components may be
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        version = point.dist.version if point.dist is not None else ""
        parts.append(f"{point.name}={point.value} ({version})")
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
                        return None
                    parts.append(path.read_bytes())
                else:
                    parts.append(f"not a file: {stat.S_IFMT(info.st_mode)}")
            except OSError as exc:
                # a dangling link, a file that cannot be read: the load reports it (or not)
                # the same way every time, so its name and error are the content
                parts.append(f"unreadable: {exc.errno}")
    if count == 0:
        return None
    return cache_files.key(*parts)


def _raise(error: OSError) -> None:
    raise error


def _dump(loaded: LoadedSpec, found: str) -> bytes:
    """The kept file of ``loaded``: the digest of the JSON below it, then that JSON."""
    kept = _Kept(
        format=FORMAT,
        key=found,
        spec=loaded.spec,
        values=[
            (list(p), loc.file, loc.line, loc.column) for p, loc in loaded.sources.values.items()
        ],
        keys=[(list(p), loc.file, loc.line, loc.column) for p, loc in loaded.sources.keys.items()],
        broken={
            name: [
                (p.location.file, p.location.line, p.location.column, p.where, p.message)
                for p in problems
            ]
            for name, problems in loaded.broken_examples.items()
        },
    )
    body = kept.model_dump_json().encode()
    return hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def _read(name: str, found: str, directory: Path) -> LoadedSpec | None:
    """The LoadedSpec kept under ``found``; None when there is none, or it cannot be trusted."""
    data = cache_files.read(KIND, name, found)
    if data is None:
        return None
    digest, _, body = data.partition(b"\n")
    if digest != hashlib.sha256(body).hexdigest().encode():
        return None
    try:
        kept = _Kept.model_validate_json(body)
    except ValidationError:
        return None
    if kept.key != found:
        return None
    sources = SourceMap(
        {tuple(p): Location(file, line, column) for p, file, line, column in kept.values},
        {tuple(p): Location(file, line, column) for p, file, line, column in kept.keys},
    )
    broken = {
        example: tuple(
            Problem(Location(file, line, column), where, message)
            for file, line, column, where, message in problems
        )
        for example, problems in kept.broken.items()
    }
    return LoadedSpec(kept.spec, sources, directory, broken)
