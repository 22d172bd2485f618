"""Spec files read once per process: the same text is never parsed twice.

A catalog command reads each spec file several times: Babel's extractor
(:func:`rulepress.i18n.extract.extract_spec`) reads it, and each file's
siblings for the parameters and state formats its messages need, and the
spec's load (for where readers meet each message) reads it again. Reading
(composing the YAML and converting it with every position) took a fifth of an
``i18n update --check``.

What :func:`rulepress.yamlsrc.reader.load_yaml_text` makes depends on the
text, the bound on its size and the name its positions carry, nothing else.
So a document that read without a problem is kept under its text itself
(and the bound): a file whose bytes changed is another key, so a kept entry
is never stale. Read again under another name (the extractor names files by
their absolute path, a load as the user sees them), the positions are given
that name. Every caller gets its own copy of the data and of the positions
(the loader merges files' sections into each other); a document with problems
is never kept, so its problems are found again. At most :data:`MAX_CHARS`
characters of text are kept, the least recently read going first.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from rulepress.errors import DataPath, Location

#: the most text kept, in characters (rulepress's own games' specs: 0.6 million)
MAX_CHARS = 16 * 1024 * 1024

Places = dict[DataPath, Location]


class _Read(NamedTuple):
    """One document as it was read: the name its positions carry, its data and positions."""

    file: str
    data: Any
    values: Places
    keys: Places


class _Kept:
    """The documents kept, the least recently read first, and how much text they hold."""

    def __init__(self) -> None:
        self.reads: OrderedDict[tuple[str, int], _Read] = OrderedDict()
        self.chars = 0
        self.lock = threading.Lock()


_kept = _Kept()


def copy_data(value: Any) -> Any:
    """A copy of read YAML data: its mappings and lists new, its scalars (all immutable) shared."""
    if isinstance(value, dict):
        return {key: copy_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_data(item) for item in value]
    return value


def _places(places: Places, kept: str, file: str) -> Places:
    if kept == file:
        return dict(places)  # Location is frozen: the same objects serve
    return {path: Location(file, loc.line, loc.column) for path, loc in places.items()}


def recall(text: str, file: str, max_bytes: int) -> tuple[Any, Places, Places] | None:
    """The data and positions (values, keys) of ``text`` read as ``file``, if it was read before."""
    key = (text, max_bytes)
    with _kept.lock:
        found = _kept.reads.get(key)
        if found is None:
            return None
        _kept.reads.move_to_end(key)
    return (
        copy_data(found.data),
        _places(found.values, found.file, file),
        _places(found.keys, found.file, file),
    )


def remember(text: str, file: str, max_bytes: int, data: Any, values: Places, keys: Places) -> None:
    """Keep what ``text`` read as (a copy: the caller goes on with its own)."""
    if len(text) > MAX_CHARS:
        return
    key = (text, max_bytes)
    entry = _Read(file, copy_data(data), dict(values), dict(keys))
    with _kept.lock:
        if key in _kept.reads:
            return
        _kept.reads[key] = entry
        _kept.chars += len(text)
        while _kept.chars > MAX_CHARS:
            (old, _), _ = _kept.reads.popitem(last=False)
            _kept.chars -= len(old)


def forget() -> None:
    """Drop every kept document (for tests and benchmarks that time a cold read)."""
    with _kept.lock:
        _kept.reads.clear()
        _kept.chars = 0
