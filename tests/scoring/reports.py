"""A worked example scored in one language, as the ``score`` command's report reads it."""

from __future__ import annotations

from rulepress.i18n.runtime import Localized, localize
from rulepress.render.score_text import render_text
from rulepress.scoring.examples import find_example, run_example
from rulepress.scoring.result import ScoreResult
from tests.conftest import LOCALES, loaded


def example_result(lang: str, example: str, game: str = "brink") -> tuple[Localized, ScoreResult]:
    """The game in ``lang`` (its renderer and spec) and the example's result."""
    local = localize(loaded(game), lang, LOCALES)
    index, _ = find_example(local.loaded, example)
    return local, run_example(local.loaded, index, renderer=local.renderer)


def example_report(lang: str, example: str, game: str = "brink") -> str:
    """The example's text report in ``lang``."""
    local, result = example_result(lang, example, game)
    return render_text(result, local.loaded.spec, local.renderer.translate)
