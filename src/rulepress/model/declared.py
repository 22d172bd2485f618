"""Expressions written as declarations: a value per ruling option, or cases in order.

A long nested conditional is hard to read and easy to get wrong; two shapes
cover most of them, and any expression field may be written in either:

- **a value per ruling option**: the ruling, then one expression for each of
  its options (every option, checked)::

    wild_value:
      by_ruling: sorelia_cubes_at_end
      sorelia_wild: max(get(multipliers, k) for k in sets.factions)
      sorelia_not_wild: "0"

- **cases**: the first whose ``when`` holds gives the value; the last case
  has no ``when`` (otherwise)::

    weight:
      - {when: vote.cube == 'ua', value: param.ua_vote}
      - {value: param.faction_vote}

Each is turned into one conditional expression here, while the spec is
validated, so the scorer (which folds the choice of rulings in as a
constant, see :mod:`rulepress.scoring.engine`) runs it like any other. The
result remembers its parts (:class:`Declared`), so the spec check reads each
one where it is written and reports a missing or unknown option there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulepress.yamlsrc import DataPath

#: the key that makes a mapping a value per ruling option
BY_RULING = "by_ruling"


class Declared(str):
    """A conditional expression made from a declaration, with where each part was written.

    ``parts``: (path inside the field, expression) of every leaf expression;
    ``rulings``: (path inside the field, ruling id, options given) of every
    value-per-option in it, for the spec check to compare with the ruling.
    """

    __slots__ = ("parts", "rulings")

    parts: tuple[tuple[DataPath, str], ...]
    rulings: tuple[tuple[DataPath, str, tuple[str, ...]], ...]

    def __new__(
        cls,
        source: str,
        parts: tuple[tuple[DataPath, str], ...],
        rulings: tuple[tuple[DataPath, str, tuple[str, ...]], ...],
    ) -> Declared:
        made = super().__new__(cls, source)
        made.parts, made.rulings = parts, rulings
        return made


def _leaf(value: Any, handler: Callable[[Any], Any], where: DataPath) -> Declared:
    if isinstance(value, dict | list):
        inner = _declared(value, handler)
        parts = tuple((where + sub, src) for sub, src in inner.parts)
        rulings = tuple((where + sub, r, o) for sub, r, o in inner.rulings)
        return Declared(str(inner), parts, rulings)
    source = str(handler(value))
    return Declared(source, ((where, source),), ())


def _declared(value: Any, handler: Callable[[Any], Any]) -> Declared:
    if isinstance(value, dict):
        ruling = value.get(BY_RULING)
        if not isinstance(ruling, str) or len(value) < 2:
            raise ValueError(
                f"a mapping here is a value per ruling option: {BY_RULING}: <ruling id>,"
                " then an expression for each of its options"
            )
        options = [k for k in value if k != BY_RULING]
        leaves = [_leaf(value[o], handler, (o,)) for o in options]
        *tested, last = list(zip(options, leaves, strict=True))
        source = "".join(f"({leaf}) if ruling.{ruling} == {o!r} else " for o, leaf in tested)
        source += f"({last[1]})"
        parts = tuple(p for leaf in leaves for p in leaf.parts)
        rulings = (((), ruling, tuple(options)), *(r for leaf in leaves for r in leaf.rulings))
        return Declared(source, parts, rulings)
    cases = value
    if not cases or not all(isinstance(c, dict) and "value" in c for c in cases):
        raise ValueError("cases are a list of {when: <test>, value: <expression>}, in order")
    shapes = [set(c) - {"when", "value"} for c in cases]
    extra = next((s for s in shapes if s), None)
    if extra:
        raise ValueError(f"a case has only 'when' and 'value', not {', '.join(sorted(extra))}")
    if "when" in cases[-1] or any("when" not in c for c in cases[:-1]):
        raise ValueError(
            "every case but the last has a 'when'; the last has none (the value otherwise)"
        )
    leaves_of = [
        (
            _leaf(c["when"], handler, (i, "when")) if "when" in c else None,
            _leaf(c["value"], handler, (i, "value")),
        )
        for i, c in enumerate(cases)
    ]
    source = "".join(f"({v}) if ({w}) else " for w, v in leaves_of if w is not None)
    source += f"({leaves_of[-1][1]})"
    parts = tuple(p for w, v in leaves_of for leaf in (w, v) if leaf for p in leaf.parts)
    rulings = tuple(r for w, v in leaves_of for leaf in (w, v) if leaf for r in leaf.rulings)
    return Declared(source, parts, rulings)


def declared_expression(value: Any, handler: Callable[[Any], Any]) -> Any:
    """Pydantic wrap validator of an expression field: text, or a declaration of one."""
    if isinstance(value, dict | list):
        return _declared(value, handler)
    return handler(value)
