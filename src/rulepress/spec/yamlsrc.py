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
* documents larger than :data:`MAX_BYTES`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulepress.errors import Location, Problem

#: A spec file larger than this is refused before parsing.
MAX_BYTES = 4 * 1024 * 1024

DataPath = tuple[str | int, ...]

try:  # the C loader is an order of magnitude faster and equally safe
    _Loader: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader

_scalar_constructor = yaml.constructor.SafeConstructor()

#: the only node tags a spec file needs; anything else (python/*, binary, …) is refused
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")
)


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
        out = SourceMap()
        n = len(old)
        for src, dst in ((self.values, out.values), (self.keys, out.keys)):
            for p, loc in src.items():
                if p[:n] == old:
                    dst[new + p[n:]] = loc
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

    def problem(self, mark: yaml.Mark, path: DataPath, message: str) -> None:
        self.problems.append(Problem(_loc(self.file, mark), format_path(path), message))

    def convert(self, node: yaml.Node, path: DataPath) -> Any:
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
            return _scalar_constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            self.problem(node.start_mark, path, f"cannot read this value: {exc.problem}")
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


def load_yaml_text(text: str, file: str) -> tuple[Any, SourceMap]:
    """Parse one YAML document; raise :class:`YamlError` with located messages."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise YamlError(
            [Problem(Location(file), "", f"file is larger than {MAX_BYTES // 1024 // 1024} MiB")]
        )
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


def load_yaml_file(path: Path, display: str | None = None) -> tuple[Any, SourceMap]:
    """Read and parse ``path``; ``display`` is the name used in messages."""
    name = display or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise YamlError(
                [
                    Problem(
                        Location(name), "", f"file is larger than {MAX_BYTES // 1024 // 1024} MiB"
                    )
                ]
            )
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(
            [Problem(Location(name), "", f"not UTF-8 text (byte {exc.start})")]
        ) from None
    except OSError as exc:
        raise YamlError([Problem(Location(name), "", f"cannot read: {exc.strerror}")]) from None
    return load_yaml_text(text, name)
