"""What every renderer needs: the spec in the reader's language and how to word and number things."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulepress.spec.model import Spec


@dataclass(frozen=True)
class RenderContext:
    """A spec already translated into ``lang``, and the interface translation and number format."""

    spec: Spec
    lang: str
    translate: Callable[[str], str]
    number: Callable[[int], str]
    home: str = ""  # the site's home page, relative to a game's pages

    def t(self, text: str) -> str:
        """An interface sentence (marked with ``ui``) in the reader's language."""
        return self.translate(text)
