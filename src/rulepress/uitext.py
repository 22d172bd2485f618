"""Markers for rulepress's own interface sentences (the ``rulepress`` catalog domain).

``ui(context, text)`` returns ``text`` (a ``str`` that also knows its
context) and marks the sentence for extraction (``pybabel extract -k
ui:1c,2 -k ui_plural:1c,2,3``), with a context that tells translators where
it appears and that the lookup uses. The sentence is translated
when it is shown, by the renderer of the reader's language. ``ui_plural``
marks a sentence whose wording depends on a number (Czech has three forms,
Japanese one).
"""

from __future__ import annotations

from dataclasses import dataclass


class UiText(str):
    """An interface sentence: the English text, which also knows its catalog context.

    It is the text itself (compared, formatted and stored as a ``str``); the
    context lets a translation be found by (context, msgid), since two
    places may use the same English words differently ("Who wins" as a
    rule's heading, and over a finished game's result).
    """

    __slots__ = ("context",)
    context: str

    def __new__(cls, context: str, text: str) -> UiText:
        made = super().__new__(cls, text)
        made.context = context
        return made

    def __reduce__(self) -> tuple[type[UiText], tuple[str, str]]:
        return UiText, (self.context, str(self))


def ui(context: str, text: str) -> str:
    """Mark ``text`` as an interface sentence; return it (as a :class:`UiText`)."""
    return UiText(context, text)


@dataclass(frozen=True, slots=True)
class PluralText:
    """An interface sentence in two English forms, chosen by the argument ``count``."""

    context: str
    singular: str
    plural: str
    count: str


def ui_plural(context: str, singular: str, plural: str, count: str) -> PluralText:
    """Mark a sentence with a singular and a plural form; ``count`` names the deciding argument."""
    return PluralText(context, singular, plural, count)


def english_form(text: PluralText, n: int) -> str:
    """The English form of ``text`` for ``n`` (what a language without its catalog shows)."""
    return text.singular if n == 1 else text.plural
