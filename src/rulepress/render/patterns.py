"""How the pieces of a line go together, in the reader's language: one set for every writer.

A label meets its value with a colon in English and Czech and a full-width
colon in Japanese; a detail goes in brackets (（…） in Japanese); cited
rule numbers stand side by side with a comma (、 in Japanese). None of that
is the writers' to decide: each pattern is an interface message, translated
like any other, and :func:`fill` puts a writer's own pieces (strings for the
terminal, nodes for the site, elements for print) into the translated
pattern. Only the named placeholders are replaced; anything else in a
translation stays text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from rulepress.uitext import ui

#: a label and its value: "Decision: …"
PAIR = ui("text", "{label}: {value}")
#: a label that introduces what follows it (a list below): "Tie-breaks, in order:"
INTRO = ui("text", "{label}:")
#: a detail after a text: "walter (Guilt: Suspect)", "16.4.8 Ties (Reference Manual)"
DETAIL = ui("text", "{text} ({detail})")
#: two facts side by side that are not a list of like things: "can win; rank 1"
BOTH = ui("text", "{first}; {second}")
#: cited rule numbers, side by side: "16.4.7, 15.4.2"
RULES = ui("text", "{first}, {second}")
#: a count of units of one kind: "2 × Sorelia" (Japanese writes Sorelia×2)
UNITS = ui("text", "{count} × {unit}")
#: which version of the spec a text comes from: "spec version 2026.11"
SPEC_VERSION = ui("report", "spec version {version}")
#: a document's title in a PDF viewer: "Brink: Rulebook"
DOCUMENT = ui("text", "{game}: {document}")

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")

T = TypeVar("T")


def fill(template: str, values: Mapping[str, Sequence[T]], text: Callable[[str], T]) -> list[T]:
    """The pieces of ``template`` in order: ``text(literal)`` between, ``values[name]`` for each name.

    A placeholder the writer gave no value for is left as text, as written.
    """
    out: list[T] = []
    pos = 0
    for match in _PLACEHOLDER.finditer(template):
        name = match.group(1)
        if name not in values:
            continue
        if match.start() > pos:
            out.append(text(template[pos : match.start()]))
        out.extend(values[name])
        pos = match.end()
    if pos < len(template):
        out.append(text(template[pos:]))
    return out


def fill_text(template: str, **values: object) -> str:
    """:func:`fill` for plain text."""
    return "".join(fill(template, {k: [str(v)] for k, v in values.items()}, str))


class Joined:
    """The patterns above, translated, for the writers of plain text (the terminal reports).

    A label and its value, a text and its detail, rule numbers side by side.
    """

    def __init__(self, translate: Callable[[str], str]) -> None:
        self.translate = translate

    def pair(self, label: str, value: str) -> str:
        return fill_text(self.translate(PAIR), label=label, value=value)

    def detail(self, text: str, detail: str) -> str:
        return fill_text(self.translate(DETAIL), text=text, detail=detail)

    def rules(self, rules: list[str]) -> str:
        """Rule numbers cited side by side: references, not prose, so with no "and"."""
        return "".join(side_by_side(self.translate(RULES), [[n] for n in rules], str))


def side_by_side(template: str, items: Sequence[Sequence[T]], text: Callable[[str], T]) -> list[T]:
    """Items joined pairwise by a two-place pattern (:data:`BOTH`, :data:`RULES`)."""
    out: list[T] = list(items[0]) if items else []
    for item in items[1:]:
        out = fill(template, {"first": out, "second": item}, text)
    return out
