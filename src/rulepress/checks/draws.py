"""The spec check of ``draw`` declarations, the weights of drawn tables.

See :class:`rulepress.model.spec_model.Draw`. A weight names a value the field can take (an integer within its bounds, one
of its choices, a list length within its bounds, a number of players the format
allows), and at least one weight is above 0: otherwise no table could be drawn,
or a weight would silently never count.
"""

from __future__ import annotations

import re

from rulepress.checks.base import CheckBase
from rulepress.model.spec_model import Draw
from rulepress.yamlsrc import DataPath

#: a whole number as a key writes it (no sign but a minus, no leading zero)
_INTEGER = re.compile(r"^-?(0|[1-9][0-9]*)$")
#: the field types whose values can be weighted (a list: its length)
WEIGHTED_TYPES = ("int", "choice", "list")


def check_draw(
    check: CheckBase,
    path: DataPath,
    draw: Draw | None,
    kind: str | None,
    *,
    low: int | None = None,
    high: int | None = None,
    choices: list[str] | None = None,
) -> None:
    """Report what is wrong with ``draw`` (at ``path`` + ``draw``) for a field of ``kind``.

    ``kind`` is a field type or ``players``; ``low``/``high``: the bounds the values
    (or lengths, or numbers of players) keep; ``choices``: a choice field's ids.
    """
    if draw is None:
        return
    here = (*path, "draw")
    if kind not in (*WEIGHTED_TYPES, "players"):
        check.at(
            here,
            f"a {kind} field takes no draw weights (only int, choice and list fields, and players)",
        )
        return
    weights = (*here, "weights")
    what = {"choice": "choice", "list": "length", "players": "number of players"}.get(kind, "value")
    for value in draw.weights:
        at = (*weights, value)
        if kind == "choice":
            if value not in (choices or []):
                allowed = ", ".join(choices or [])
                check.at(at, f"{value!r} is not one of the choices ({allowed})", key=True)
            continue
        number = int(value) if _INTEGER.match(value) else None
        if number is None or str(number) != value:
            check.at(at, f"expected a {what} (a whole number), got {value!r}", key=True)
        elif (low is not None and number < low) or (high is not None and number > high):
            span = f"{'…' if low is None else low}–{'…' if high is None else high}"
            check.at(at, f"{what} {number} is outside the bounds ({span})", key=True)
    if not any(w > 0 for w in draw.weights.values()):
        check.at(weights, "every weight is 0: no table could be drawn (give one above 0)")
