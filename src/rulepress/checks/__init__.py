"""The spec check: what only the whole spec can tell, after each value has its shape.

A validated :class:`~rulepress.model.Spec` → located problems: references, rule
numbers, expressions in scope (:mod:`.checker`, :mod:`.base`), procedures
(:mod:`.sequences`), state constraints (:mod:`.constraints`) and provenance
(:mod:`.sources`).
"""

from rulepress.checks.checker import check_spec

__all__ = ["check_spec"]
