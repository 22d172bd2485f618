"""Safe YAML reading that remembers where every value came from.

PyYAML's safe loader builds plain Python data but forgets positions. Here the
document is *composed* into nodes (which carry marks) and then converted by
hand, so that every mapping key and every value can be traced back to
``file:line:col``. The conversion also refuses what a spec file never needs
and what would make loading unsafe or ambiguous:

* anchors/aliases (a few aliases can expand into a huge document, the
  "billion laughs" attack, and they hide where a value was written),
* duplicate mapping keys (PyYAML silently keeps the last one),
* non-string keys and merge keys (``<<``),
* documents larger than :data:`MAX_BYTES` (or the caller's smaller bound),
* collections nested deeper than :data:`MAX_DEPTH` (the conversion recurses
  once per level; libyaml itself stops at 1000, past Python's recursion limit,
  and its refusal is reported with the same bound),
* integers beyond ±:data:`~rulepress.expressions.bounds.MAX_INT`, the one bound of
  every integer rulepress reads or computes (a 31-digit value used to crash
  Babel's Czech number formatting; one of more than 4,300 digits, ``int()``),
* control characters (:data:`CONTROLS`) anywhere in the file or, written as
  escapes, in any text or key: NUL, the other C0 and C1 controls but tab and
  line feed (carriage return only as a line ending), DEL, the line and
  paragraph separators and every bidi control (marks, embeddings, overrides,
  isolates). None belongs in a rules text in the spec's languages, and each can
  forge or reorder a line of a report or a page. A raw one is reported at its
  own line:col (libyaml would refuse some with only a character offset), an
  escaped one at the text that holds it.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulepress.errors import DataPath, Location, Problem
from rulepress.expressions import MAX_INT
from rulepress.lazy_pattern import LazyPattern, deferred
from rulepress.yamlsrc import read_cache

# PyYAML compiles its patterns when it is imported: its pure-Python reader's pattern of
# the printable characters of all of Unicode (most of importing PyYAML, 3 ms of a warm
# `rulepress score`; upstream pull requests 124 and 301 would drop it), and YAML 1.1's
# resolvers. rulepress reads with libyaml's loader and its own core-schema resolvers
# (below), so each of those is compiled when first used (rulepress.lazy_pattern).
with deferred("yaml"):
    import yaml

#: A spec file larger than this is refused before parsing.
MAX_BYTES = 4 * 1024 * 1024

#: Collections nested deeper than this are refused. The deepest real spec
#: file nests 13 levels; 64 leaves room while keeping every recursive walk
#: over the data (conversion, pydantic, the checks) far from the recursion limit.
MAX_DEPTH = 64

#: Characters no text or key of a spec or state file may hold (see the module
#: docstring); tab and line feed are text, carriage return a line ending.
CONTROLS = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 but TAB LF CR, DEL, C1 (NEL included)
    "\u061c\u200e\u200f"  # bidi marks: ALM, LRM, RLM
    "\u2028\u2029"  # line and paragraph separators
    "\u202a-\u202e\u2066-\u2069"  # bidi embeddings, overrides and isolates
)
#: in the file as written (a carriage return ends a line there)
_RAW_CONTROL = re.compile(f"[{CONTROLS}]")
#: in a value, once escapes are read ("\r" is then a control like any other)
_TEXT_CONTROL = re.compile(f"[{CONTROLS}\r]")
#: in a key (one line: not even a tab or a line feed)
_KEY_CONTROL = re.compile(f"[{CONTROLS}\r\t\n]")
#: a line break as editors (and libyaml) read one
_LINE_BREAK = LazyPattern(r"\r\n|\r|\n")
#: how many raw control characters one file reports before it stops counting them
MAX_CONTROL_PROBLEMS = 20
#: longest decimal integer that can lie within ±MAX_INT (longer ones are never converted)
_INT_DIGITS = len(str(MAX_INT))


try:  # the C loader is an order of magnitude faster and equally safe
    _Base: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - libyaml missing
    _Base = yaml.SafeLoader


class _Loader(_Base):  # type: ignore[valid-type,misc]
    """PyYAML's safe loader with YAML 1.2's core schema for plain scalars.

    PyYAML resolves YAML 1.1, where ``no`` is false, ``1:30`` is 90 and ``012``
    is 10. Its resolver is Python even in the C loader, so the core schema's
    resolvers replace 1.1's here (explicit tags still win), and
    :func:`core_scalar` builds the values.
    """


_Loader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    # not YAML 1.2, but kept so that a merge key is refused by name (see _mapping)
    ("merge", r"^(?:<<)$", ["<"]),
):
    _Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), list(_first))

#: the only node tags a spec file needs; anything else (python/*, binary, …) is refused
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")
)


# YAML 1.2's core schema for plain scalars (PyYAML resolves YAML 1.1, where ``no`` is
# false, ``1:30`` is 90 and ``012`` is 10): what a plain scalar is, decided here
_CORE_NULL = re.compile(r"^(~|null|Null|NULL|)$")
_CORE_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False}
_CORE_BOOL["FALSE"] = False
_CORE_INT = re.compile(r"^[-+]?[0-9]+$")
_CORE_OCT = LazyPattern(r"^0o[0-7]+$")
_CORE_HEX = LazyPattern(r"^0x[0-9a-fA-F]+$")
_CORE_FLOAT = LazyPattern(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_CORE_INF = LazyPattern(r"^[-+]?\.(inf|Inf|INF)$")
_CORE_NAN = LazyPattern(r"^\.(nan|NaN|NAN)$")
_CORE_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("bool", "int", "float", "null"))


def core_scalar(text: str) -> Any:
    """A plain (unquoted) scalar's value under YAML 1.2's core schema.

    ValueError for an integer of more than 4,300 digits (Python's own limit).
    """
    if _CORE_NULL.match(text):
        return None
    if text in _CORE_BOOL:
        return _CORE_BOOL[text]
    if _CORE_INT.match(text):
        return int(text, 10)
    if _CORE_OCT.match(text):
        return int(text[2:], 8)
    if _CORE_HEX.match(text):
        return int(text[2:], 16)
    if _CORE_FLOAT.match(text):
        return float(text)
    if _CORE_INF.match(text):
        return float("-inf") if text.startswith("-") else float("inf")
    if _CORE_NAN.match(text):
        return float("nan")
    return text


def describe_char(char: str) -> str:
    """A character as a message names it: ``U+202E RIGHT-TO-LEFT OVERRIDE``, ``U+001B``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def shown_key(key: str) -> str:
    """``key`` with any control (tab and line feed too) shown as ``<U+XXXX>``."""
    return _KEY_CONTROL.sub(lambda m: f"<U+{ord(m.group()):04X}>", key)


def format_path(path: DataPath) -> str:
    """Render a data path the way users read it: ``rules[3].title``.

    A key is shown with its controls made visible: a path is printed in an
    error line, and a key with a line break in it must not start another.
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            key = shown_key(part)
            out += f".{key}" if out else key
    return out


def _control_message(char: str, what: str) -> str:
    if what == "file":
        return (
            f"the control character {describe_char(char)} is not allowed"
            " (only tab and line breaks are)"
        )
    if what == "key":
        return f"the key holds the control character {describe_char(char)}; a key is one line"
    return f"the text holds the control character {describe_char(char)}, which is not allowed"


def _int_message(digits: int = 0) -> str:
    what = f"an integer of {digits} digits" if digits else "an integer"
    return f"{what} is beyond the bound of ±{MAX_INT}"


@dataclass
class SourceMap:
    """Where each value (and each mapping key) of a loaded document was written."""

    values: dict[DataPath, Location] = field(default_factory=dict)
    keys: dict[DataPath, Location] = field(default_factory=dict)

    def locate(self, path: DataPath, *, key: bool = False) -> Location:
        """The location of ``path`` or, if it does not exist, of its nearest ancestor."""
        probe = tuple(path)
        while True:
            if key and probe in self.keys:
                return self.keys[probe]
            if probe in self.values:
                return self.values[probe]
            if not probe:
                return Location("<unknown>")
            probe = probe[:-1]

    def rebased(self, old: DataPath, new: DataPath) -> SourceMap:
        """A copy where every path starting with ``old`` starts with ``new`` instead."""
        return self.moved({old: new})

    def moved(self, moves: Mapping[DataPath, DataPath]) -> SourceMap:
        """A copy of the paths under any key of ``moves``, each moved to its value.

        One pass over this map whatever the number of moves: each path looks
        up its own prefixes (one per distinct prefix length, the longest
        first) instead of every move scanning the whole map. Loading a list
        section of n items used to rebase once per item, n passes over n
        paths; this keeps loading linear in the size of the spec.
        """
        lengths = sorted({len(old) for old in moves}, reverse=True)
        out = SourceMap()
        for src, dst in ((self.values, out.values), (self.keys, out.keys)):
            for p, loc in src.items():
                for n in lengths:
                    new = moves.get(p[:n]) if len(p) >= n else None
                    if new is not None:
                        dst[new + p[n:]] = loc
                        break
        return out

    def update(self, other: SourceMap) -> None:
        self.values.update(other.values)
        self.keys.update(other.keys)


class YamlError(Exception):
    """Raised with every problem found while reading one document."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def _loc(file: str, mark: yaml.Mark) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)


class _Converter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.map = SourceMap()
        self.problems: list[Problem] = []
        self._seen: set[int] = set()
        self._too_deep = False
        # PyYAML's constructor remembers every node it has made a value of (until a whole
        # document is constructed, which this reader never asks of it): one per file, so
        # that the nodes, their marks and values go with the file's converter. One kept in
        # the module held every quoted scalar of every file a process ever read.
        self._constructor = yaml.constructor.SafeConstructor()

    def problem(self, mark: yaml.Mark, path: DataPath, message: str) -> None:
        self.problems.append(Problem(_loc(self.file, mark), format_path(path), message))

    def convert(self, node: yaml.Node, path: DataPath) -> Any:
        if len(path) > MAX_DEPTH:
            # checked before recursing further, and reported once per document:
            # one problem at the first node too deep, not one per level or per
            # sibling below it (nor a RecursionError)
            if not self._too_deep:
                self._too_deep = True
                self.problem(
                    node.start_mark, path[:MAX_DEPTH], f"nested deeper than {MAX_DEPTH} levels"
                )
            return None
        if id(node) in self._seen:
            # an alias yields the anchored node itself: report where it is used
            where = self.map.keys.get(path)
            loc = where if where is not None else _loc(self.file, node.start_mark)
            self.problems.append(
                Problem(loc, format_path(path), "anchors and aliases are not allowed in spec files")
            )
            return None
        self._seen.add(id(node))
        if node.tag not in _PLAIN_TAGS:
            self.problem(node.start_mark, path, f"the YAML tag {node.tag!r} is not allowed")
            return None
        self.map.values[path] = _loc(self.file, node.start_mark)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, path + (i,)) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        return self._scalar(node, path)

    def _scalar(self, node: yaml.ScalarNode, path: DataPath) -> Any:
        text = node.value
        plain = not node.style and node.tag in _CORE_TAGS
        if plain and _CORE_INT.match(text):
            digits = text.lstrip("+-").lstrip("0")
            if len(digits) > _INT_DIGITS:
                # refused unconverted: int() of a long text is slow, and refused past 4,300
                self.problem(node.start_mark, path, _int_message(len(digits)))
                return None
        try:
            if plain:
                value = core_scalar(text)  # plain: YAML 1.2, not PyYAML's 1.1
            else:
                value = self._constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            self.problem(node.start_mark, path, f"cannot read this value: {exc.problem}")
            return None
        except ValueError:  # int() refuses more than 4,300 digits (an explicit !!int)
            self.problem(node.start_mark, path, _int_message())
            return None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            # a hexadecimal one may be too long for str(): its digits are not counted
            decimal = _CORE_INT.match(text) is not None
            self.problem(
                node.start_mark, path, _int_message(len(str(abs(value))) if decimal else 0)
            )
            return None
        if isinstance(value, str):
            found = _TEXT_CONTROL.search(value)
            if found:
                self.problem(node.start_mark, path, _control_message(found.group(), "text"))
                return None
        return value

    def _mapping(self, node: yaml.MappingNode, path: DataPath) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.problem(
                    key_node.start_mark, path, "merge keys ('<<') are not allowed in spec files"
                )
                continue
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a collection"
                self.problem(
                    key_node.start_mark, path, f"keys must be text; got {shown!r} (quote it)"
                )
                continue
            key = str(key_node.value)
            child = path + (key,)
            found = _KEY_CONTROL.search(key)
            if found:
                self.problem(key_node.start_mark, child, _control_message(found.group(), "key"))
                continue
            if key in out:
                first = self.map.keys.get(child)
                where = f" (first at line {first.line})" if first else ""
                self.problem(key_node.start_mark, child, f"duplicate key {key!r}{where}")
                continue
            self.map.keys[child] = _loc(self.file, key_node.start_mark)
            out[key] = self.convert(value_node, child)
        return out


def _too_large(file: str, max_bytes: int) -> YamlError:
    size = (
        f"{max_bytes // 1024 // 1024} MiB"
        if max_bytes >= 1024 * 1024
        else f"{max_bytes // 1024} KiB"
    )
    return YamlError([Problem(Location(file), "", f"file is larger than {size}")])


def _raw_controls(text: str, file: str) -> list[Problem]:
    """Every control character written in ``text`` itself, each at its line:col.

    Lines end at LF, CRLF or a lone CR, as in an editor; columns count
    characters from 1, as libyaml's marks do. A byte order mark opening the
    file is no control. Past :data:`MAX_CONTROL_PROBLEMS` (a binary file has
    thousands), one more problem says how many there are.
    """
    matches = _RAW_CONTROL.finditer(text)
    found = [m.start() for m in itertools.islice(matches, MAX_CONTROL_PROBLEMS)]
    if not found:
        return []
    more = sum(1 for _ in matches)  # counted, not kept: a 4 MiB file may be all controls
    # where each line starts, in one pass (only a file with controls pays for it)
    starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
    problems = []
    for pos in found:
        line = bisect.bisect_right(starts, pos)
        loc = Location(file, line, pos - starts[line - 1] + 1)
        problems.append(Problem(loc, "", _control_message(text[pos], "file")))
    if more:
        problems.append(Problem(Location(file), "", f"and {more} more control characters"))
    return problems


_TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"


def _first_too_deep(text: str, file: str) -> Problem | None:
    """The first value nested deeper than :data:`MAX_DEPTH`, as the converter reports it.

    For a document libyaml refused as nested past its own bound. PyYAML's
    Python parser yields events one at a time from a state stack, without
    recursion and without building nodes, so this stops at the first value
    too deep, with the path to it. Only this error's path pays for the
    slower parser. None if the document has a collection as a key (refused
    anyway; its path is not worth the bookkeeping) or does not parse.
    """
    # per open collection: [is a mapping, its next node is a key, that key or the next index]
    frames: list[list[Any]] = []

    def done() -> None:  # the node in the innermost open collection is complete
        if frames:
            top = frames[-1]
            if top[0]:
                top[1] = True
            else:
                top[2] += 1

    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionEndEvent):
                frames.pop()
                done()
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue  # the stream's and documents' own events
            if frames and frames[-1][0] and frames[-1][1]:
                if not isinstance(event, yaml.ScalarEvent):
                    return None
                frames[-1][1:] = [False, event.value]
                continue
            if len(frames) > MAX_DEPTH:
                where = format_path(tuple(f[2] for f in frames[:MAX_DEPTH]))
                mark = event.start_mark  # the Python parser's marks: same line and column
                loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
                return Problem(loc, where, _TOO_DEEP)
            if isinstance(event, yaml.CollectionStartEvent):
                frames.append([isinstance(event, yaml.MappingStartEvent), True, 0])
            else:
                done()
    except yaml.YAMLError:
        return None
    return None


def load_yaml_text(text: str, file: str, max_bytes: int = MAX_BYTES) -> tuple[Any, SourceMap]:
    """Parse one YAML document; raise :class:`YamlError` with located messages."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise _too_large(file, max_bytes)
    kept = read_cache.recall(text, file, max_bytes)
    if kept is not None:  # the same text read before, without a problem
        data, values, keys = kept
        return data, SourceMap(values, keys)
    controls = _raw_controls(text, file)
    if controls:
        # before parsing: libyaml refuses some of them with a character offset only
        raise YamlError(controls)
    try:
        nodes = list(yaml.compose_all(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _loc(file, mark) if mark is not None else Location(file)
        what = exc.problem or exc.context or "malformed YAML"
        if "maximum nesting depth" in what:
            # libyaml's own bound (1000 levels) was met before ours: report ours,
            # where the converter would have (see _first_too_deep)
            raise YamlError([_first_too_deep(text, file) or Problem(loc, "", _TOO_DEEP)]) from None
        raise YamlError([Problem(loc, "", f"malformed YAML: {what}")]) from None
    except yaml.YAMLError as exc:
        raise YamlError([Problem(Location(file), "", f"malformed YAML: {exc}")]) from None
    if len(nodes) > 1:
        raise YamlError(
            [Problem(_loc(file, nodes[1].start_mark), "", "only one YAML document per file")]
        )
    if not nodes:
        return None, SourceMap({(): Location(file, 1, 1)})
    conv = _Converter(file)
    data = conv.convert(nodes[0], ())
    if conv.problems:
        raise YamlError(conv.problems)
    read_cache.remember(text, file, max_bytes, data, conv.map.values, conv.map.keys)
    return data, conv.map


def load_yaml_file(
    path: Path, display: str | None = None, max_bytes: int = MAX_BYTES
) -> tuple[Any, SourceMap]:
    """Read and parse ``path``; ``display`` is the name used in messages.

    The size is checked before reading, and the read itself stops one byte past
    ``max_bytes``: a file that grows (or a FIFO, whose size reads as 0) is
    never read whole.
    """
    name = display or str(path)
    try:
        if path.stat().st_size > max_bytes:
            raise _too_large(name, max_bytes)
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise _too_large(name, max_bytes)
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(
            [Problem(Location(name), "", f"not UTF-8 text (byte {exc.start})")]
        ) from None
    except OSError as exc:
        raise YamlError([Problem(Location(name), "", f"cannot read: {exc.strerror}")]) from None
    return load_yaml_text(text, name)
