"""The spec check: what only the whole spec can tell, after each value has its shape.

A validated :class:`~rulepress.model.Spec` → located problems: references, rule
numbers, expressions in scope (:mod:`.checker`, :mod:`.base`), procedures
(:mod:`.sequences`), state constraints (:mod:`.constraints`) and provenance
(:mod:`.sources`).

:func:`check_spec` is imported from :mod:`.checker` when first asked for (PEP 562):
a score whose spec comes from the cache runs no check, and imports none of this
package's modules (the names every expression can read are
:data:`rulepress.expressions.expression.BASE_NAMES`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulepress.checks.checker import check_spec

__all__ = ["check_spec"]


def __getattr__(name: str) -> Any:
    if name != "check_spec":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from rulepress.checks.checker import check_spec  # noqa: PLC0415 - see the docstring

    globals()[name] = check_spec
    return check_spec
