"""One JSON record (a JSON Lines line, a ``.json`` state file) → plain data, with the YAML reader's bounds.

:func:`parse_json` refuses what :mod:`rulepress.yamlsrc` refuses in a state
file: values nested deeper than :data:`~rulepress.yamlsrc.reader.MAX_DEPTH`
levels, integers beyond ±:data:`~rulepress.expressions.MAX_INT`, duplicate keys,
control characters in any text or key; and JSON's own ``NaN`` and
``Infinity``, which YAML's core schema reads as floats but no state holds. A
problem found after parsing is located at the start of the record, with the
path inside it.

Parsing is the C decoder's; a walk over every value in Python would cost
several times as much, so a scan of the text in C (:func:`may_refuse`) first
tells whether a record may hold anything refused, and only such a record is
walked (:class:`Checker`), to say what and where.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rulepress.errors import DataPath, Location, Problem
from rulepress.expressions import MAX_INT
from rulepress.yamlsrc import format_path
from rulepress.yamlsrc.reader import CONTROLS, MAX_DEPTH, describe_char

#: in a text once escapes are read (the YAML reader's rule: tab and line feed are text)
_TEXT_CONTROL = re.compile(f"[{CONTROLS}\r]")
#: in a key (one line: not even a tab or a line feed)
_KEY_CONTROL = re.compile(f"[{CONTROLS}\r\t\n]")


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


class Checker:
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


#: every character the checker refuses in a key (those of a text, and tab and line feed)
_KEY_CONTROLS = frozenset(
    chr(c) for c in range(max(map(ord, CONTROLS)) + 1) if _KEY_CONTROL.match(chr(c))
)
#: the JSON escapes that write one of them: ``\\uXXXX`` (its hex in lower case), the short ones
_CONTROL_HEX = frozenset(f"{ord(c):04x}" for c in _KEY_CONTROLS)
_SHORT_ESCAPES = ("\\b", "\\f", "\\n", "\\r", "\\t")
#: bytes.translate tables: digits kept as "9", the rest blank; what is no part of the shape
_DIGITS = bytes(0x39 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG = b"9" * len(str(MAX_INT))  # as many digits as MAX_INT, or more: maybe beyond it
_NOT_SHAPE = bytes(b for b in range(256) if b not in b'"[]{}')
_BRACES = bytes.maketrans(b"{}", b"[]")


def _escapes_a_control(text: str) -> bool:
    """Whether ``text`` has an escape that may write a control character (or looks like one)."""
    if any(short in text for short in _SHORT_ESCAPES):
        return True
    at = text.find("\\u")
    while at >= 0:
        if text[at + 2 : at + 6].lower() in _CONTROL_HEX:
            return True
        at = text.find("\\u", at + 2)
    return False


def _depth(data: bytes) -> int:
    """How deep JSON ``data`` nests (the root collection is 1), counted to MAX_DEPTH + 1.

    The escapes that write a quote or a backslash go first; then everything but
    quotes and brackets, then what lies between quotes (the brackets inside
    strings). Braces are read as brackets (the JSON parsed, so they pair up
    whatever their kind), and each pass removes the innermost pairs: one level.
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    # two quotes side by side close a string and open the next (or open and close one)
    # with no bracket between: they go, and only texts that hold brackets are left
    shape = data.translate(_BRACES, _NOT_SHAPE).replace(b'""', b"")
    if b'"' in shape:
        shape = b"".join(shape.split(b'"')[::2])
    depth = 0
    while shape and depth <= MAX_DEPTH:
        shape = shape.replace(b"[]", b"")
        depth += 1
    return depth


def may_refuse(text: str) -> bool:
    """Whether parsed JSON ``text`` may hold what :class:`Checker` refuses.

    Scans of the text in C, so that only a record that may be refused pays for
    the walk over its values, which is several times the parse: a control
    character written or escaped, a run of as many digits as MAX_INT, or a
    nesting deeper than MAX_DEPTH. A false alarm costs a walk; a miss would
    let a value through, so the tests give each kind a case.
    """
    if "\\" in text and _escapes_a_control(text):
        return True
    if text.isascii():
        if "\x7f" in text:  # the only ASCII control strict JSON lets into a string
            return True
    elif _TEXT_CONTROL.search(text):
        return True
    data = text.encode("utf-8", "surrogatepass")
    return _LONG in data.translate(_DIGITS) or _depth(data) > MAX_DEPTH


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


def parse_json(text: str, file: str, line: int, where: str) -> tuple[Any, list[Problem]]:
    """Parse one JSON record whose text starts at ``line`` of ``file``: (data, problems).

    ``where`` names the record in each problem (``record 12``), followed by the
    path inside it where the walk found one.
    """
    start = Location(file, line, 1)
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        at = Location(file, line + exc.lineno - 1, exc.colno)
        return None, [Problem(at, where, f"not JSON: {exc.msg}")]
    except _RefusedError as exc:
        return None, [Problem(start, where, str(exc))]
    except RecursionError:
        # the decoder recurses once per level, and stops at Python's recursion limit
        deep_line, column = _deep_column(text)
        at = Location(file, line + deep_line - 1, column)
        return None, [Problem(at, where, f"nested deeper than {MAX_DEPTH} levels")]
    except ValueError:  # int() refuses more than 4,300 digits
        return None, [Problem(start, where, f"an integer is beyond the bound of ±{MAX_INT}")]
    if not may_refuse(text):
        return data, []
    checker = Checker()
    checker.walk(data, ())
    problems = [
        Problem(start, f"{where}: {format_path(p)}" if p else where, what)
        for p, what in checker.found
    ]
    return data, problems
