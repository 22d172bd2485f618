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
  once per level; libyaml itself stops at 1000, past Python's recursion limit),
* scalars that cannot be converted (an integer of more than 4300 digits).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulepress.errors import Location, Problem

#: A spec file larger than this is refused before parsing.
MAX_BYTES = 4 * 1024 * 1024

#: Collections nested deeper than this are refused. The deepest real spec
#: file nests 13 levels; 64 leaves room while keeping every recursive walk
#: over the data (conversion, pydantic, the checks) far from the recursion limit.
MAX_DEPTH = 64

DataPath = tuple[str | int, ...]

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

_scalar_constructor = yaml.constructor.SafeConstructor()

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
_CORE_OCT = re.compile(r"^0o[0-7]+$")
_CORE_HEX = re.compile(r"^0x[0-9a-fA-F]+$")
_CORE_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_CORE_INF = re.compile(r"^[-+]?\.(inf|Inf|INF)$")
_CORE_NAN = re.compile(r"^\.(nan|NaN|NAN)$")
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


def format_path(path: DataPath) -> str:
    """Render a data path the way users read it: ``rules[3].title``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


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
        try:
            if not node.style and node.tag in _CORE_TAGS:
                return core_scalar(node.value)  # plain: YAML 1.2, not PyYAML's 1.1
            return _scalar_constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            self.problem(node.start_mark, path, f"cannot read this value: {exc.problem}")
            return None
        except ValueError:  # int() refuses more than 4300 digits
            self.problem(node.start_mark, path, "cannot read this value: the number is too long")
            return None

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


def load_yaml_text(text: str, file: str, max_bytes: int = MAX_BYTES) -> tuple[Any, SourceMap]:
    """Parse one YAML document; raise :class:`YamlError` with located messages."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise _too_large(file, max_bytes)
    try:
        nodes = list(yaml.compose_all(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _loc(file, mark) if mark is not None else Location(file)
        what = exc.problem or exc.context or "malformed YAML"
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
