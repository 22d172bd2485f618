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

JSON is read with the bounds of the YAML reader: values nested deeper than
:data:`~rulepress.yamlsrc.reader.MAX_DEPTH` levels, integers beyond
±:data:`~rulepress.expressions.MAX_INT`, duplicate keys, ``NaN`` and
``Infinity``, and control characters in any text or key are refused. A problem
found after parsing is located at the start of its record (``file:line:1``)
with the path inside the record as its ``where``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from rulepress.errors import DataPath, Location, Problem, UsageError
from rulepress.expressions import MAX_INT
from rulepress.scoring.state import MAX_STATE_BYTES
from rulepress.yamlsrc import SourceMap, YamlError, display_path, format_path, load_yaml_file
from rulepress.yamlsrc.reader import CONTROLS, MAX_DEPTH, describe_char

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
#: in a text once escapes are read (the YAML reader's rule: tab and line feed are text)
_TEXT_CONTROL = re.compile(f"[{CONTROLS}\r]")
#: in a key (one line: not even a tab or a line feed)
_KEY_CONTROL = re.compile(f"[{CONTROLS}\r\t\n]")


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


class _RefusedError(Exception):
    """Raised by the JSON decoder's hooks for what a state may not hold."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):  # only then look for the key written twice
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RefusedError(f"duplicate key {key!r}")
            seen.add(key)
    return out


def _constant(name: str) -> Any:
    raise _RefusedError(f"{name} is not a value a table state may hold")


#: one decoder for every record: its hooks refuse duplicate keys, NaN and Infinity
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant)


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


class _Checker:
    """Walks parsed JSON for what the YAML reader refuses after parsing (see the module docstring)."""

    def __init__(self) -> None:
        self.found: list[tuple[DataPath, str]] = []
        self._too_deep = False

    def walk(self, value: Any, path: DataPath) -> None:
        if isinstance(value, dict):
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            self._scalar(value, path)
            return
        if len(path) >= MAX_DEPTH and value:
            # a value below would be deeper than MAX_DEPTH: reported once, and the walk's
            # own recursion never goes past MAX_DEPTH levels
            if not self._too_deep:
                self._too_deep = True
                self.found.append((path, f"nested deeper than {MAX_DEPTH} levels"))
            return
        for key, item in items:
            if isinstance(key, str):
                control = _KEY_CONTROL.search(key)
                if control:
                    self.found.append(
                        (
                            path + (key,),
                            f"the key holds the control character"
                            f" {describe_char(control.group())}; a key is one line",
                        )
                    )
                    continue
            self.walk(item, path + (key,))

    def _scalar(self, value: Any, path: DataPath) -> None:
        if isinstance(value, str):
            control = _TEXT_CONTROL.search(value)
            if control:
                self.found.append(
                    (
                        path,
                        f"the text holds the control character {describe_char(control.group())},"
                        " which is not allowed",
                    )
                )
        elif type(value) is int and abs(value) > MAX_INT:
            self.found.append((path, f"an integer is beyond the bound of ±{MAX_INT}"))


def _where(number: int, path: str = "") -> str:
    return f"record {number}: {path}" if path else f"record {number}"


def _deep_column(text: str) -> tuple[int, int]:
    """The line and column (1-based) where JSON ``text`` opens a collection too deep.

    Only for a record the decoder refused as nested past Python's recursion
    limit: a scan of the characters, strings skipped. (1, 1) if none is found.
    """
    depth, line, start = 0, 1, 0
    in_string = escaped = False
    for pos, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH + 1:
                return line, pos - start + 1
        elif char in "]}":
            depth -= 1
        elif char == "\n":
            line, start = line + 1, pos + 1
    return 1, 1


def _parse_json(text: str, file: str, line: int, number: int) -> tuple[Any, list[Problem]]:
    """Parse one JSON record whose text starts at ``line`` of ``file``; (data, problems)."""
    start = Location(file, line, 1)
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        where = Location(file, line + exc.lineno - 1, exc.colno)
        return None, [Problem(where, _where(number), f"not JSON: {exc.msg}")]
    except _RefusedError as exc:
        return None, [Problem(start, _where(number), str(exc))]
    except RecursionError:
        # the decoder recurses once per level, and stops at Python's recursion limit
        deep_line, column = _deep_column(text)
        where = Location(file, line + deep_line - 1, column)
        return None, [Problem(where, _where(number), f"nested deeper than {MAX_DEPTH} levels")]
    except ValueError:  # int() refuses more than 4,300 digits
        return None, [
            Problem(start, _where(number), f"an integer is beyond the bound of ±{MAX_INT}")
        ]
    checker = _Checker()
    checker.walk(data, ())
    problems = [Problem(start, _where(number, format_path(p)), what) for p, what in checker.found]
    return data, problems


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


def _lines(handle: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes) for each line that is not blank; None for a line too long.

    A line is read at most :data:`MAX_RECORD_BYTES` + 1 bytes at a time: a longer
    one is skipped a piece at a time, never held whole. Blank means only ASCII
    whitespace (:meth:`bytes.strip`), as :func:`count_records` counts.
    """
    number = 0
    while True:
        raw = handle.readline(MAX_RECORD_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) <= MAX_RECORD_BYTES or raw.endswith(b"\n"):
            if raw.strip():
                yield number, raw
            continue
        blank = not raw.strip()
        while not raw.endswith(b"\n"):
            raw = handle.readline(_PIECE)
            if not raw:
                break
            blank = blank and not raw.strip()
        if not blank:
            yield number, None


def _read_jsonl(path: Path) -> Iterator[Record | BadRecord]:
    name = display_path(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise UsageError(f"{name}: cannot read: {exc.strerror}") from None
    with handle:
        for number, (line, raw) in enumerate(_lines(handle), start=1):
            origin = f"{name}:{line}"
            start = Location(name, line, 1)
            if raw is None:
                problem = f"the line is longer than {_size(MAX_RECORD_BYTES)}"
                yield BadRecord(origin, str(Problem(start, _where(number), problem)))
                continue
            text, problems = _decode(raw, name, line, number)
            data = None
            if text is not None:
                data, problems = _parse_json(text, name, line, number)
            yield _mapping(data, SourceMap({(): start}), origin, number, problems)


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
        data, problems = _parse_json(text, name, 1, number)
    return _mapping(data, SourceMap({(): start}), name, number, problems)


def _read_yaml_file(path: Path, name: str, number: int) -> Record | BadRecord:
    try:
        data, sources = load_yaml_file(path, name, MAX_RECORD_BYTES)
    except YamlError as exc:
        problems = [Problem(p.location, _where(number, p.where), p.message) for p in exc.problems]
        return BadRecord(name, "\n".join(str(p) for p in problems))
    return _mapping(data, sources, name, number, [])


def _read_folder(root: Path) -> Iterator[Record | BadRecord]:
    for number, (path, refused) in enumerate(_entries(root), start=1):
        name = display_path(path)
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


def read_corpus(path: Path) -> Iterator[Record | BadRecord]:
    """Every record of the corpus at ``path``, in order, one at a time.

    UsageError at once if ``path`` is neither a folder nor a JSON Lines file;
    every other problem is a :class:`BadRecord` in its place in the stream.
    """
    if _kind_of_corpus(path) == "folder":
        return _read_folder(path)
    return _read_jsonl(path)


def count_records(path: Path) -> int:
    """How many records :func:`read_corpus` yields for ``path`` (good and bad), none parsed."""
    if _kind_of_corpus(path) == "folder":
        return sum(1 for _ in _entries(path))
    try:
        return _count_lines(path)
    except OSError as exc:
        raise UsageError(f"{display_path(path)}: cannot read: {exc.strerror}") from None
