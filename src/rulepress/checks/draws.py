"""The spec check of ``draw`` declarations: the weights, or typical range, of drawn tables.

See :class:`rulepress.model.spec_model.Draw`. A weight names a value the field can take (an integer within its bounds, one
of its choices, a list length within its bounds, a number of players the format
allows), and at least one weight is above 0: otherwise no table could be drawn,
or a weight would silently never count. A typical range lies within the field's
bounds, runs upwards, comes with a share above 0 and at most 1, and leaves some
value out when that share is below 1 (else the share would weigh nothing). A
``draw`` gives weights or a typical range, never both: which would win is not
something a reader of the spec should have to know.
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
#: the kinds whose values are consecutive integers, which a typical range can cover
RANGED_KINDS = ("int", "list", "players")


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
    what = {"choice": "choice", "list": "length", "players": "number of players"}.get(kind, "value")
    given = draw.model_fields_set
    if "weights" in given and draw.typical is not None:
        check.at(here, "give either weights or typical (with share), not both")
    elif "weights" not in given and draw.typical is None and draw.share is None:
        check.at(here, "give weights, or typical with share")
    if draw.typical is not None or draw.share is not None:
        _check_typical(check, here, draw, kind, what, low, high)
    if "weights" in given:
        _check_weights(check, here, draw, kind, what, low, high, choices)


def _check_weights(
    check: CheckBase,
    here: DataPath,
    draw: Draw,
    kind: str,
    what: str,
    low: int | None,
    high: int | None,
    choices: list[str] | None,
) -> None:
    """Each weight names a value the field can take, and one is above 0."""
    weights = (*here, "weights")
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
        elif _outside(number, low, high):
            check.at(at, f"{what} {number} is outside the bounds ({_span(low, high)})", key=True)
    if not any(w > 0 for w in draw.weights.values()):
        check.at(weights, "every weight is 0: no table could be drawn (give one above 0)")


def _check_typical(
    check: CheckBase,
    here: DataPath,
    draw: Draw,
    kind: str,
    what: str,
    low: int | None,
    high: int | None,
) -> None:
    """The typical range lies within the bounds, runs upwards, and has a share in (0, 1]."""
    at, share = (*here, "typical"), draw.share
    if kind not in RANGED_KINDS:
        check.at(
            at,
            f"a {kind} field takes weights, not a typical range (typical is for int"
            " fields, list lengths and players)",
        )
        return
    if draw.typical is None:
        check.at((*here, "share"), "share needs typical (the range it is the share of)")
    elif share is None:
        check.at(here, "typical needs share (how often a drawn value comes from the range)")
    if share is not None and not 0 < share <= 1:
        check.at((*here, "share"), f"share {share} is not above 0 and at most 1")
    if draw.typical is None:
        return
    lo, hi = draw.typical
    for index, end in enumerate((lo, hi)):
        if _outside(end, low, high):
            check.at((*at, index), f"{what} {end} is outside the bounds ({_span(low, high)})")
    if lo > hi:
        check.at(at, f"the range runs backwards: {lo} is above {hi} (write [{hi}, {lo}])")
    elif (
        share is not None
        and share < 1
        and low is not None
        and high is not None
        and lo <= low
        and hi >= high
    ):
        check.at(
            at,
            f"the range covers every {what} the field allows ({_span(low, high)}), so"
            f" share {share} weighs nothing (narrow the range, or leave draw out)",
        )


def _outside(number: int, low: int | None, high: int | None) -> bool:
    return (low is not None and number < low) or (high is not None and number > high)


def _span(low: int | None, high: int | None) -> str:
    return f"{'…' if low is None else low}–{'…' if high is None else high}"
