"""The scorer's result as a terminal report: the report's tree, written as text.

:mod:`rulepress.render.report_tree` decides what the report says,
:mod:`rulepress.render.text_writer` lays it out for a terminal and keeps it
safe there (:func:`visible`). This module joins the two for the commands
that print a report (``rulepress score``, the gate, the reference page).
"""

from __future__ import annotations

from collections.abc import Callable

from rulepress.model import Spec
from rulepress.render import text_writer
from rulepress.render.report_tree import LABELS, report_tree
from rulepress.render.text_writer import visible
from rulepress.scoring.result import ScoreResult

__all__ = ["LABELS", "render_text", "visible"]


def render_text(
    result: ScoreResult, spec: Spec, translate: Callable[[str], str] = lambda text: text
) -> str:
    """The whole report as text, ending with a newline.

    ``spec`` is the spec in the report's language (see :mod:`rulepress.i18n.runtime`);
    ``translate`` translates rulepress's interface labels.
    """
    return text_writer.write(report_tree(result, spec, translate), result.language)
