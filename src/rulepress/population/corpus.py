"""Recorded populations: a folder of state files or a JSON Lines file → a stream of records.

A corpus is read as a stream, one record at a time, in constant memory: a
:func:`read_corpus` generator never holds more than the record it yields (and,
for a folder, the names of the folder it is in). Each record is either a
:class:`Record` (plain data, as a state file gives it) or a :class:`BadRecord`
that says where and what is wrong; the stream goes on after a bad one, and the
caller counts and reports them. Whether a record fits the game's state format
is the caller's to check (:func:`rulepress.scoring.state.check_state`).

The two forms, and what each reads:

* **A folder**: every ``*.yaml``, ``*.yml`` and ``*.json`` file in it and in its
  subfolders (the suffix in any case), in the order of their names, each
  folder's entries sorted by name, a subfolder's files where its name sorts.
  Names starting with a dot (``.git``, editors' files) and files of other
  suffixes (a README) are not records and are passed over. A symbolic link with
  a state file's suffix, or to a folder, is a bad record and is not followed: a
  link could lead out of the corpus (to any file the reader may read) or back
  into it (the same tables twice). Folders nest at most :data:`MAX_FOLDER_DEPTH`
  levels. YAML files are read by :mod:`rulepress.yamlsrc` with the bound of a
  state file, as ``rulepress score STATE`` reads them; JSON files as a JSON
  Lines record is (below).
* **A JSON Lines file** (``.jsonl`` or ``.ndjson``): one state per line, UTF-8;
  blank lines are skipped (they are not records). A line longer than
  :data:`MAX_RECORD_BYTES` is refused unread (the file is read a bounded piece
  at a time, so no line is ever held whole past the bound).

JSON is read with the bounds of the YAML reader (:mod:`.json_record`).

For a job per part of a corpus (on every core, or on Dask),
:func:`corpus_chunks` cuts it into runs of records in one pass that parses
nothing, and :func:`read_chunk` reads one run wherever it is sent; read in turn,
the runs give what :func:`read_corpus` gives, the same origins and messages.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from rulepress.errors import Location, Problem, UsageError
from rulepress.population.json_record import parse_json
from rulepress.scoring.state import MAX_STATE_BYTES
from rulepress.yamlsrc import SourceMap, YamlError, display_path, load_yaml_file

#: A record (a JSON Lines line, a state file) larger than this is refused unread:
#: the bound of a state file that ``rulepress score`` reads.
MAX_RECORD_BYTES = MAX_STATE_BYTES
#: Subfolders of a corpus folder nested deeper than this are not read (a bad record).
MAX_FOLDER_DEPTH = 32
#: The suffixes of state files in a corpus folder, and of JSON Lines files.
STATE_SUFFIXES = frozenset({".yaml", ".yml", ".json"})
JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})

#: a piece of an over-long line, skipped a piece at a time
_PIECE = 64 * 1024


@dataclass(frozen=True)
class Record:
    """One table state as recorded: its plain data and where it came from.

    ``origin`` is ``file:line`` for a JSON Lines record, the file for a state
    file. ``sources`` locates the state's values for
    :func:`~rulepress.scoring.state.check_state`: every value of a YAML file at
    its own line and column, a JSON record's at the start of the record.
    """

    origin: str
    state: dict[str, Any]
    sources: SourceMap = field(default_factory=SourceMap, compare=False, repr=False)


@dataclass(frozen=True)
class BadRecord:
    """A record that cannot be read: where it is and every problem, one ``file:line:col: where: what`` a line."""

    origin: str
    problem: str


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a text"
    if value is None:
        return "empty"
    return (
        "a number" if isinstance(value, int | float) and not isinstance(value, bool) else "a value"
    )


def _where(number: int, path: str = "") -> str:
    return f"record {number}: {path}" if path else f"record {number}"


def _decode(raw: bytes, file: str, line: int, number: int) -> tuple[str | None, list[Problem]]:
    """UTF-8 ``raw`` as text (a byte order mark dropped), or the problem at its line and column."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8")
        bad_line = line + before.count("\n")
        column = len(before) - (before.rfind("\n") + 1) + 1
        where = Location(file, bad_line, column)
        return None, [Problem(where, _where(number), f"not UTF-8 text (byte {exc.start})")]
    return text.removeprefix("\ufeff"), []


def _mapping(
    data: Any, sources: SourceMap, origin: str, number: int, problems: list[Problem]
) -> Record | BadRecord:
    """The record, or a bad one: ``problems`` so far, or a state that is not a mapping."""
    if not problems and not isinstance(data, dict):
        problems = [
            Problem(
                sources.locate(()),
                _where(number),
                f"a table state is a mapping of its fields, not {_kind(data)}",
            )
        ]
    if problems:
        return BadRecord(origin, "\n".join(str(p) for p in problems))
    return Record(origin, data, sources)


def _size(limit: int) -> str:
    return f"{limit // 1024} KiB"


# --- JSON Lines -----------------------------------------------------------------------------


def _lines(handle: BinaryIO, line: int = 1) -> Iterator[tuple[int, int, bytes | None]]:
    """(line number, byte offset, bytes) for each line that is not blank; None for one too long.

    From where ``handle`` stands, whose line is number ``line``; the offset is
    where the line starts, counted from there. A line is read at most
    :data:`MAX_RECORD_BYTES` + 1 bytes at a time: a longer one is skipped a piece
    at a time, never held whole. Blank means only ASCII whitespace
    (:meth:`bytes.strip`), as :func:`count_records` counts.
    """
    number, offset = line - 1, 0
    while True:
        raw = handle.readline(MAX_RECORD_BYTES + 1)
        if not raw:
            return
        number += 1
        start, offset = offset, offset + len(raw)
        if len(raw) <= MAX_RECORD_BYTES or raw.endswith(b"\n"):
            if raw.strip():
                yield number, start, raw
            continue
        blank = not raw.strip()
        while not raw.endswith(b"\n"):
            raw = handle.readline(_PIECE)
            if not raw:
                break
            offset += len(raw)
            blank = blank and not raw.strip()
        if not blank:
            yield number, start, None


def _read_jsonl(chunk: CorpusChunk) -> Iterator[Record | BadRecord]:
    name = chunk.name
    try:
        handle = chunk.path.open("rb")
    except OSError as exc:
        raise UsageError(f"{name}: cannot read: {exc.strerror}") from None
    with handle:
        handle.seek(chunk.offset)
        lines = itertools.islice(_lines(handle, chunk.line), chunk.count)
        for number, (line, _, raw) in enumerate(lines, start=chunk.first):
            origin = f"{name}:{line}"
            start = Location(name, line, 1)
            if raw is None:
                problem = f"the line is longer than {_size(MAX_RECORD_BYTES)}"
                yield BadRecord(origin, str(Problem(start, _where(number), problem)))
                continue
            text, problems = _decode(raw, name, line, number)
            data = None
            if text is not None:
                data, problems = parse_json(text, name, line, _where(number))
            yield _mapping(data, SourceMap({(): start}), origin, number, problems)


def _jsonl_chunks(path: Path, name: str, size: int) -> Iterator[CorpusChunk]:
    """One pass over the lines, none parsed: where each run of ``size`` records starts."""
    with path.open("rb") as handle:
        first = count = offset = line = 0
        for number, (at_line, at_offset, _) in enumerate(_lines(handle), start=1):
            if count == 0:
                first, offset, line = number, at_offset, at_line
            count += 1
            if count == size:
                yield CorpusChunk(path, name, first, count, offset, line)
                count = 0
        if count:
            yield CorpusChunk(path, name, first, count, offset, line)


def _count_lines(path: Path) -> int:
    count = 0
    with path.open("rb") as handle:
        filled = False  # the line being read has more than whitespace so far
        while piece := handle.readline(_PIECE):
            filled = filled or bool(piece.strip())
            if piece.endswith(b"\n"):
                count += filled
                filled = False
        count += filled
    return count


# --- folders --------------------------------------------------------------------------------


def _entries(folder: Path, depth: int = 0) -> Iterator[tuple[Path, str | None]]:
    """(path, None) for each state file below ``folder``; (path, why) for each one refused."""
    if depth > MAX_FOLDER_DEPTH:
        yield folder, f"folders nested deeper than {MAX_FOLDER_DEPTH} levels: not read"
        return
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda e: e.name)
    except OSError as exc:
        yield folder, f"cannot read the folder: {exc.strerror}"
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith("."):
            continue
        suffix = path.suffix.lower()
        if entry.is_symlink():
            if suffix in STATE_SUFFIXES or entry.is_dir():
                yield path, "a symbolic link: not followed (a corpus holds its files itself)"
        elif entry.is_dir(follow_symlinks=False):
            yield from _entries(path, depth + 1)
        elif suffix in STATE_SUFFIXES:
            regular = entry.is_file(follow_symlinks=False)
            yield path, None if regular else "not a regular file: not read"


def _read_json_file(path: Path, name: str, number: int) -> Record | BadRecord:
    start = Location(name, 1, 1)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        return BadRecord(name, str(Problem(start, _where(number), f"cannot read: {exc.strerror}")))
    if len(raw) > MAX_RECORD_BYTES:
        problem = f"file is larger than {_size(MAX_RECORD_BYTES)}"
        return BadRecord(name, str(Problem(Location(name), _where(number), problem)))
    text, problems = _decode(raw, name, 1, number)
    data = None
    if text is not None:
        data, problems = parse_json(text, name, 1, _where(number))
    return _mapping(data, SourceMap({(): start}), name, number, problems)


def _read_yaml_file(path: Path, name: str, number: int) -> Record | BadRecord:
    try:
        data, sources = load_yaml_file(path, name, MAX_RECORD_BYTES)
    except YamlError as exc:
        problems = [Problem(p.location, _where(number, p.where), p.message) for p in exc.problems]
        return BadRecord(name, "\n".join(str(p) for p in problems))
    return _mapping(data, sources, name, number, [])


def _read_folder(chunk: CorpusChunk) -> Iterator[Record | BadRecord]:
    root = chunk.path
    entries = itertools.islice(_entries(root), chunk.first - 1, chunk.first - 1 + chunk.count)
    for number, (path, refused) in enumerate(entries, start=chunk.first):
        name = os.path.normpath(os.path.join(chunk.name, os.path.relpath(path, root)))
        if refused is not None:
            yield BadRecord(name, str(Problem(Location(name), _where(number), refused)))
        elif path.suffix.lower() == ".json":
            yield _read_json_file(path, name, number)
        else:
            yield _read_yaml_file(path, name, number)


# --- the corpus -----------------------------------------------------------------------------


def _kind_of_corpus(path: Path) -> str:
    """``folder`` or ``jsonl``; UsageError for anything else."""
    name = display_path(path)
    if path.is_dir():
        return "folder"
    if path.is_file() and path.suffix.lower() in JSONL_SUFFIXES:
        return "jsonl"
    if not path.exists():
        raise UsageError(f"{name}: no such file or folder")
    raise UsageError(
        f"{name}: a corpus is a folder of state files (.yaml, .yml, .json)"
        " or a JSON Lines file (.jsonl, .ndjson)"
    )


@dataclass(frozen=True)
class CorpusChunk:
    """A run of consecutive records of a corpus: what one job reads (:func:`read_chunk`).

    ``path`` is absolute, so that a worker elsewhere (a Dask worker, in another
    folder) opens the same file; ``name`` is the corpus as the user named it,
    which every origin and problem starts with wherever the chunk is read.
    ``first`` is the number of its first record; a JSON Lines chunk starts at
    byte ``offset``, on line ``line``.
    """

    path: Path
    name: str
    first: int
    count: int
    offset: int = 0
    line: int = 1


def read_corpus(path: Path) -> Iterator[Record | BadRecord]:
    """Every record of the corpus at ``path``, in order, one at a time.

    UsageError at once if ``path`` is neither a folder nor a JSON Lines file;
    every other problem is a :class:`BadRecord` in its place in the stream.
    """
    whole = CorpusChunk(path.absolute(), display_path(path), 1, sys.maxsize)
    return read_chunk(whole, _kind_of_corpus(path))


def read_chunk(chunk: CorpusChunk, kind: str | None = None) -> Iterator[Record | BadRecord]:
    """The records of ``chunk``, as :func:`read_corpus` yields them there."""
    if (kind or _kind_of_corpus(chunk.path)) == "folder":
        return _read_folder(chunk)
    return _read_jsonl(chunk)


def corpus_chunks(path: Path, size: int) -> list[CorpusChunk]:
    """The corpus cut into runs of ``size`` records (the last one shorter), in order.

    For a job per chunk (:func:`~rulepress.population.executor.run_chunks`):
    read in turn, the chunks give what :func:`read_corpus` gives. One pass over
    the corpus, no record parsed (a folder is listed, a JSON Lines file read a
    line at a time).
    """
    if size < 1:
        raise ValueError(f"a chunk holds at least one record, not {size}")
    kind, name, whole = _kind_of_corpus(path), display_path(path), path.absolute()
    if kind == "folder":
        total = count_records(path)
        return [
            CorpusChunk(whole, name, first, min(size, total - first + 1))
            for first in range(1, total + 1, size)
        ]
    try:
        return list(_jsonl_chunks(whole, name, size))
    except OSError as exc:
        raise UsageError(f"{name}: cannot read: {exc.strerror}") from None


def count_records(path: Path) -> int:
    """How many records :func:`read_corpus` yields for ``path`` (good and bad), none parsed."""
    if _kind_of_corpus(path) == "folder":
        return sum(1 for _ in _entries(path))
    try:
        return _count_lines(path)
    except OSError as exc:
        raise UsageError(f"{display_path(path)}: cannot read: {exc.strerror}") from None
