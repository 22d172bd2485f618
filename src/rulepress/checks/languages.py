"""The check of a loaded spec's languages against what Babel (CLDR) knows.

Loading checks only the form of each code (:mod:`rulepress.model.languages`), so
that a spec loads without Babel; ``rulepress validate`` asks Babel here.
"""

from __future__ import annotations

from rulepress.errors import Problem
from rulepress.model.languages import language_code
from rulepress.model.loaded import LoadedSpec


def language_problems(loaded: LoadedSpec) -> list[Problem]:
    """A loaded spec's languages that Babel does not know, each located (``rulepress validate``)."""
    game = loaded.spec.game
    found: list[tuple[tuple[str | int, ...], str, str]] = [
        (("game", "languages", i), f"game.languages[{i}]", lang)
        for i, lang in enumerate(game.languages)
    ]
    found.append((("game", "source", "language"), "game.source.language", game.source.language))
    problems = []
    for path, where, lang in found:
        try:
            language_code(lang)
        except ValueError as exc:
            problems.append(Problem(loaded.locate(path), where, str(exc)))
    return problems
