"""The documents a spec ships, read as their citations need them: hash, encoding, lines.

A game that can ship the documents it was made from keeps each in its folder,
as it was received, and names it in ``sources`` with its SHA-256. Then every
citation of it quotes the words it relies on, and the quotes are checked
against the lines they cite (:func:`quote_problems`): a citation is no longer a
pair of line numbers that nothing checks beyond their range.

A document is read once per check, bounded in size (a spec folder is
untrusted), decoded with its own encoding and split into lines the way the
citations count them: ``\\n``, ``\\r\\n`` and ``\\r`` end a line, and a final
line break opens no new line (as ``wc -l`` counts, plus a last line without
one). ``str.splitlines`` is not used because it also breaks at form feeds,
``\\u2028`` and other separators that an editor shows inside a line.
"""

from __future__ import annotations

import codecs
import hashlib
from dataclasses import dataclass
from pathlib import Path

from rulepress.model.provenance import Passage, Provenance, fold
from rulepress.model.spec_model import SourceText

#: the largest source document read, in bytes (a rulebook's text is far smaller)
MAX_BYTES = 4 * 1024 * 1024
#: how much of a passage a message about a missing quote shows
SHOWN = 90


@dataclass(frozen=True)
class Document:
    """A shipped document's text, as lines numbered from 1."""

    lines: tuple[str, ...]

    def passage(self, first: int, last: int) -> str:
        return "\n".join(self.lines[first - 1 : last])


def split_lines(text: str) -> tuple[str, ...]:
    """The lines of ``text`` as citations count them (see the module's docstring)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return tuple(text.split("\n"))


def read_document(
    directory: Path, doc: SourceText
) -> tuple[Document | None, list[tuple[str, str]]]:
    """The document ``doc`` names in the game's folder ``directory``, and its problems.

    Each problem is (the field of the ``sources`` entry it concerns, what is wrong).
    The document is None when it cannot be read, or its hash or encoding is wrong:
    its quotes are then not checked (each would repeat the one problem).
    """
    assert doc.file is not None
    assert doc.sha256 is not None
    path = directory / doc.file
    try:
        inside = path.resolve().is_relative_to(directory.resolve())
    except OSError:
        inside = False
    if not inside or path.is_symlink():
        return None, [("file", f"{doc.file} is not a file in the game's folder")]
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None, [("file", f"no file {doc.file} in the game's folder")]
    except OSError as err:
        return None, [("file", f"{doc.file} cannot be read: {err.strerror or err}")]
    if len(data) > MAX_BYTES:
        return None, [("file", f"{doc.file} is over {MAX_BYTES // 1024 // 1024} MiB")]
    digest = hashlib.sha256(data).hexdigest()
    if digest != doc.sha256:
        return None, [
            (
                "sha256",
                f"{doc.file} has the SHA-256 {digest}: it is not the copy the citations were"
                " checked against. Check every citation of it, then give the new hash",
            )
        ]
    try:
        codecs.lookup(doc.encoding)
    except LookupError:
        return None, [("encoding", f"unknown text encoding {doc.encoding!r}")]
    try:
        text = data.decode(doc.encoding)
    except UnicodeDecodeError as err:
        return None, [
            ("encoding", f"{doc.file} is not {doc.encoding}: byte {err.start + 1} does not decode")
        ]
    lines = split_lines(text)
    problems = []
    if len(lines) != doc.lines:
        problems.append(("lines", f"{doc.file} has {len(lines)} lines, not {doc.lines}"))
    return Document(lines), problems


def _lines(lines: str) -> str:
    return ("lines " if any(mark in lines for mark in "-,") else "line ") + lines


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN else flat[: SHOWN - 1] + "…"


def quote_problems(
    source: Provenance | Passage, doc: Document
) -> list[tuple[tuple[str | int, ...], str]]:
    """What is wrong with ``source``'s quotes of ``doc``: each (path below 'source', message).

    Every quote must occur, after :func:`~rulepress.model.provenance.fold`, in one of
    the cited line ranges, and every range must hold at least one quote: where a
    statement combines several places, each place is quoted.
    """
    assert source.lines is not None
    quotes = source.quotes()
    if not quotes:
        return [
            (
                ("lines",),
                f"quote the words of {_lines(source.lines)} that state it, in the document's"
                " own language (quote: …)",
            )
        ]
    ranges = [r for r in source.ranges() if r[0] <= r[1] <= len(doc.lines)]
    if not ranges:
        return []  # the range check has said why
    passages = [fold(doc.passage(first, last)) for first, last in ranges]
    found: list[tuple[tuple[str | int, ...], str]] = []
    quoted = [False] * len(ranges)
    several = not isinstance(source.quote, str)
    for k, quote in enumerate(quotes):
        where: tuple[str | int, ...] = ("quote", k) if several else ("quote",)
        needle = fold(quote)
        hits = [i for i, passage in enumerate(passages) if needle in passage]
        for i in hits:
            quoted[i] = True
        if not hits:
            first, last = ranges[0]
            found.append(
                (
                    where,
                    f"{quote!r} is not in {_lines(source.lines)}"
                    f" (line {first} reads {_excerpt(doc.lines[first - 1])!r})",
                )
            )
    for (first, last), done in zip(ranges, quoted, strict=True):
        if not done and len(ranges) > 1:
            span = str(first) if first == last else f"{first}-{last}"
            found.append((("lines",), f"lines {span} are cited but no quote is from them"))
    return found
