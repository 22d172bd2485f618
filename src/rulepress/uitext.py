"""Markers for rulepress's own interface sentences (the ``rulepress`` catalog domain).

``ui(context, text)`` returns ``text`` unchanged; it only marks the sentence
for extraction (``pybabel extract -k ui:1c,2 -k ui_plural:1c,2,3``), with a
context that tells translators where it appears. The sentence is translated
when it is shown, by the renderer of the reader's language. ``ui_plural``
marks a sentence whose wording depends on a number (Czech has three forms,
Japanese one).
"""

from __future__ import annotations

from dataclasses import dataclass


def ui(context: str, text: str) -> str:
    """Mark ``text`` as an interface sentence; return it unchanged."""
    del context  # read by the extractor, not at run time
    return text


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
