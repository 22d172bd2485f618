"""A worked example's table state as readers see it: each player's facts, in words.

The state is data written for the scorer (ids, booleans, nested records).
On a page it becomes, per player, a list of labelled values; the table's
own facts follow under their own heading. Every word comes from the spec in
the page's language: a field's ``title``, the labels of its choices, the
vocabulary; numbers are the locale's, yes and no are words. Lists of records
(Agenda lines, votes) get one line an item. Nothing of it is markup: values
are text nodes, whatever they hold.

Lists, not a wide table: a state has up to a dozen facts per player, which
a phone could only show by scrolling sideways.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from babel.lists import format_list

from rulepress.model.spec_model import FieldSpec, StateFormat
from rulepress.render.patterns import INTRO, PAIR
from rulepress.render.tree import (
    Block,
    BulletList,
    Inline,
    Paragraph,
    Strong,
    plain_text,
    text,
)
from rulepress.uitext import ui

#: the heading of the facts a state gives about the table rather than a player
ON_THE_TABLE = ui("page.example", "On the table")
#: a fact of the state that is not given (an optional field left out)
NOT_GIVEN = "—"


class Pieces(Protocol):
    """What the state view needs of a page builder (rulepress.render.pages._Page)."""

    def title(self, value: str) -> list[Inline]: ...

    def fill(self, pattern: str, **values: list[Inline]) -> list[Inline]: ...

    def both(self, items: list[list[Inline]]) -> list[Inline]: ...


class StateView:
    """Renders the states of one spec's examples, in one language."""

    def __init__(
        self,
        pieces: Pieces,
        lang: str,
        vocabulary: Mapping[str, str],
        number: Callable[[int], str],
        yes_no: tuple[str, str],
        translate: Callable[[str], str],
    ) -> None:
        self.p = pieces
        self.lang = lang
        self.vocabulary = vocabulary
        self.number = number
        self.yes_no = yes_no
        self.translate = translate

    def blocks(self, state: Mapping[str, Any], fmt: StateFormat) -> list[Block]:
        out: list[Block] = []
        for player in state.get("players") or []:
            if not isinstance(player, Mapping):
                continue
            pid = str(player.get("id", ""))
            # a player named by an id the vocabulary has ("blue") is shown by its word
            shown = self.vocabulary.get(pid, pid)
            out.append(Paragraph(children=[Strong(children=text(shown))]))
            out.append(self._facts(player, fmt.players.fields, skip=("id",)))
        table = state.get("table")
        if isinstance(table, Mapping) and table:
            out.append(Paragraph(children=[Strong(children=text(self.translate(ON_THE_TABLE)))]))
            out.append(self._facts(table, fmt.table.fields))
        return out

    def _facts(
        self, values: Mapping[str, Any], fields: Mapping[str, FieldSpec], skip: tuple[str, ...] = ()
    ) -> BulletList:
        items: list[list[Block]] = []
        for name, value in values.items():
            if name in skip:
                continue
            field = fields.get(name)
            label = self.p.title(self._title(name, field))
            item = field.item if field is not None else None
            if isinstance(value, list) and value and item is not None and item.fields:
                # one line per record of the list (an Agenda line, a vote)
                lines = [[Paragraph(children=self._record(v, item.fields))] for v in value]
                items.append(
                    [
                        Paragraph(children=self.p.fill(INTRO, label=label)),
                        BulletList(items=lines),
                    ]
                )
                continue
            shown = self._value(value, field)
            items.append([Paragraph(children=self.p.fill(PAIR, label=label, value=shown))])
        return BulletList(items=items)

    def _title(self, name: str, field: FieldSpec | None) -> str:
        if field is not None and field.title:
            return field.title
        return self.vocabulary.get(name, name)

    def _record(self, value: Any, fields: Mapping[str, FieldSpec]) -> list[Inline]:
        if not isinstance(value, Mapping):
            return self._value(value, None)
        pairs = [
            self.p.fill(
                PAIR,
                label=self.p.title(self._title(name, fields.get(name))),
                value=self._value(inner, fields.get(name)),
            )
            for name, inner in value.items()
        ]
        return self.p.both(pairs) if pairs else text(NOT_GIVEN)

    def _value(self, value: Any, field: FieldSpec | None) -> list[Inline]:
        if value is None:
            return text(NOT_GIVEN)
        if isinstance(value, bool):
            return text(self.translate(self.yes_no[value]))
        if isinstance(value, int):
            return text(self.number(value))
        if isinstance(value, str):
            return text(self._word(value, field))
        if isinstance(value, Mapping):
            inner = field.fields if field is not None else {}
            return self._record(value, inner)
        if isinstance(value, list):
            item = field.item if field is not None else None
            words = [self._plain(v, item) for v in value]
            return text(format_list(words, locale=self.lang) if words else NOT_GIVEN)
        return text(str(value))

    def _plain(self, value: Any, field: FieldSpec | None) -> str:
        return plain_text(self._value(value, field))

    def _word(self, value: str, field: FieldSpec | None) -> str:
        """A choice by its label (the field's, then the vocabulary's); other text as it is."""
        if field is not None and field.type == "choice":
            return field.labels.get(value) or self.vocabulary.get(value, value)
        if field is not None and field.type == "player":
            return self.vocabulary.get(value, value)
        return value if field is not None else self.vocabulary.get(value, value)
