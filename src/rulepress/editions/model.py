"""What changed between two editions of a spec: plain, typed, JSON-serialisable data.

:func:`rulepress.editions.compare.diff_specs` makes a :class:`Diff`; the
terminal report (:mod:`rulepress.render.diff_text`) and ``rulepress diff
--json`` read it, and so can a renderer of a changes page. Every text a
reader sees is the spec's English with its catalog context (:class:`Text`),
so a writer can show it in the reader's language from the game's catalog.
The JSON form is versioned (``format``), as the score result is.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

#: bumped when a field is removed or changes meaning
DIFF_FORMAT = 1


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(_Data):
    """A text of a spec in English, and the catalog context it is translated under."""

    context: str
    text: str


class Edition(_Data):
    """One side of the comparison: where it was read from, and what it calls itself."""

    source: str
    """The folder or the git revision given on the command line."""
    version: str
    edition: str
    date: str | None


class ChangelogEntry(_Data):
    """A line of the new edition's changelog that the old one does not have."""

    id: str
    version: str
    text: Text
    rules: list[str]
    numbers: list[str] = []
    """The same rules by their numbers in the new edition (a rule's id stands for its number)."""


class Owner(_Data):
    """An item a changed text belongs to: its title, and its number if it has one (a step)."""

    title: Text
    number: str = ""


class TextChange(_Data):
    """One message whose English changed: old and new side by side (None: not there)."""

    context: str
    old: str | None
    new: str | None
    owner: list[Owner] = []
    """What the text belongs to, outermost first, by its titles: a ruling and its option,
    a sequence and its step, a term, an example (none for a rule's own texts, which the
    rule's row names, and for texts that belong to no titled item)."""


class RuleChange(_Data):
    """A rule added, removed, renumbered or changed; a renumbered rule may be changed too.

    Rules are matched by their ``id`` where both editions give one, else by number.
    """

    kind: Literal["added", "removed", "renumbered", "changed"]
    id: str | None
    old_number: str | None
    new_number: str | None
    title: Text
    texts: list[TextChange]
    """The rule's own messages (title, paragraphs of its text) whose English changed."""


class ParameterChange(_Data):
    name: str
    description: Text
    rule: str
    old: int | None
    new: int | None


class CellChange(_Data):
    """A run of keys of a lookup table whose value changed (None: no row for the key)."""

    table: str
    title: Text
    rule: str | None = None
    """The number of the rule the table belongs to (its ``rule``), in the new edition."""
    key_label: Text
    value_label: Text
    keys: tuple[int, int] | tuple[str, str]
    """The first and the last key of the run (the same number for one key; the same
    member for a table keyed by a named set)."""
    old: int | None
    new: int | None


class OrderItem(_Data):
    """A step (``key``: its number) or a tie-break criterion (``key``: its id)."""

    key: str
    title: Text


class OrderChange(_Data):
    """Steps of a sequence, or tie-break criteria, in another order (or with others)."""

    kind: Literal["steps", "criteria"]
    sequence: str
    title: Text
    """The sequence's title (steps), or the winners step's (criteria)."""
    old: list[OrderItem]
    new: list[OrderItem]


class RulingChange(_Data):
    kind: Literal["added", "removed", "default"]
    id: str
    title: Text
    old_default: Text | None
    new_default: Text | None


class ValueChange(_Data):
    """One fact that differs: a stated or scored result (``Ada.total``, ``winners``).

    ``key`` names it for programs; a writer shows ``player`` (whose fact it is),
    then ``title`` (the score line's or the vote's title) and ``part`` (a part of
    the line, such as one kind it counts), or the interface's word for ``fact`` (``total``,
    ``rank``, ``eligible``, ``winners``, ``decided_by``, ``totals``; ``points`` for a
    score line). ``words`` are the spec's words for the ids among the values and for the player (the
    criterion that decided, a vote's candidates).
    """

    key: str
    old: Any
    new: Any
    player: str | None = None
    fact: str = ""
    title: Text | None = None
    part: Text | None = None
    words: dict[str, Text] = {}


class ExampleChange(_Data):
    """A worked example added, removed, or whose text states other results."""

    kind: Literal["added", "removed", "stated"]
    id: str
    title: Text
    stated: list[ValueChange]


class Consequence(_Data):
    """An old worked example scored under the new spec, whose result is not the old one.

    ``unscorable``: its table state no longer fits the new spec (or names a
    ruling option it lost); ``problems`` says why, located in the old files.
    """

    kind: Literal["changed", "unscorable"]
    id: str
    title: Text
    changes: list[ValueChange]
    problems: list[str]


class Diff(_Data):
    """Everything that changed from ``old`` to ``new``, in the order a reader wants it."""

    format: int = DIFF_FORMAT
    game: str
    old: Edition
    new: Edition
    changelog: list[ChangelogEntry]
    rules: list[RuleChange]
    parameters: list[ParameterChange]
    tables: list[CellChange]
    orders: list[OrderChange]
    rulings: list[RulingChange]
    examples: list[ExampleChange]
    texts: list[TextChange]
    """Every other message whose English changed (steps, glossary, rulings' texts …)."""
    consequences: list[Consequence]
    rescored: int
    """How many old worked examples were scored under the new spec."""
    left_out: list[str] = []
    """Old worked examples not scored: the old edition's own check refuses them
    (``rulepress validate`` on that edition says why)."""

    @property
    def changed(self) -> bool:
        """Whether anything at all differs (the changelog aside)."""
        return any(
            (
                self.rules,
                self.parameters,
                self.tables,
                self.orders,
                self.rulings,
                self.examples,
                self.texts,
                self.consequences,
            )
        )


def to_json(diff: Diff) -> str:
    """The diff as indented JSON, with ``changed`` spelled out for programs."""
    data = diff.model_dump(mode="json")
    data["changed"] = diff.changed
    return json.dumps(data, ensure_ascii=False, indent=2)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`to_json`'s output (``rulepress schema --diff``)."""
    schema = Diff.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "rulepress diff"
    schema["properties"]["changed"] = {
        "type": "boolean",
        "description": "Whether anything differs between the editions (the changelog aside).",
    }
    schema["required"] = [*schema.get("required", []), "changed"]
    return schema
