"""The translator's view of a new edition: which messages' English changed, and their state.

Compares the messages of two editions of a game's spec by context (the
catalog's ``msgctxt``) and, for each whose English is new, changed or gone,
reads the current catalog of a language: the translation it holds and
whether it is fuzzy (``i18n update`` marks an entry fuzzy when its English
changed, keeping the old English as the previous msgid). ``i18n stats
--since`` counts the same messages: how many of them are translated again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from babel.messages.catalog import Catalog

from rulepress.editions.compare import Messages, text_changes
from rulepress.model import Spec

Status = Literal["translated", "fuzzy", "untranslated", "removed"]


@dataclass(frozen=True)
class MessageChange:
    """One message whose English differs between the editions, and its translation now."""

    context: str
    old: str | None
    new: str | None
    translation: str | None
    status: Status
    """``translated``: translated again (not fuzzy); ``fuzzy``: the catalog holds a
    translation marked fuzzy; ``untranslated``: none; ``removed``: the message is gone."""


def message_changes(old: Spec, new: Spec, catalog: Catalog | None) -> list[MessageChange]:
    """Every message whose English changed from ``old`` to ``new``, with ``catalog``'s entry."""
    before = {c: m.text for c, m in Messages(old).by_context.items()}
    after = {c: m.text for c, m in Messages(new).by_context.items()}
    out = []
    for change in text_changes(before, after):
        translation: str | None = None
        status: Status = "removed"
        if change.new is not None:
            entry = catalog.get(change.new, change.context) if catalog is not None else None
            string = entry.string if entry is not None else None
            translation = string if isinstance(string, str) and string else None
            if translation is None:
                status = "untranslated"
            else:
                status = "fuzzy" if entry is not None and entry.fuzzy else "translated"
        out.append(MessageChange(change.context, change.old, change.new, translation, status))
    return out


def retranslated(changes: list[MessageChange]) -> tuple[int, int]:
    """(messages of the new edition whose English changed, how many are translated again)."""
    current = [c for c in changes if c.status != "removed"]
    return len(current), sum(1 for c in current if c.status == "translated")
