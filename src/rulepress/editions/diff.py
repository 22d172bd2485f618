"""``diff_specs``: the whole comparison of two editions, as one :class:`~.model.Diff`."""

from __future__ import annotations

from rulepress.editions.compare import (
    Messages,
    compare_changelog,
    compare_examples,
    compare_orders,
    compare_parameters,
    compare_rules,
    compare_rulings,
    compare_tables,
    compare_texts,
    edition,
)
from rulepress.editions.consequences import rescore
from rulepress.editions.model import Diff
from rulepress.model import LoadedSpec


def diff_specs(old: LoadedSpec, new: LoadedSpec, old_source: str, new_source: str) -> Diff:
    """Everything that changed from ``old`` to ``new`` (two editions of one game)."""
    om, nm = Messages(old.spec), Messages(new.spec)
    a, b = old.spec, new.spec
    consequences, rescored = rescore(old, new, om, nm)
    examples = compare_examples(a, b, om, nm)
    rulings = compare_rulings(a, b, om, nm)
    # the texts of what came or went whole are told by its id, not message by message
    apart = tuple(
        [f"examples/{e.id}/" for e in examples if e.kind != "stated"]
        + [f"rulings/{r.id}/" for r in rulings if r.kind != "default"]
    )
    return Diff(
        game=b.game.id,
        old=edition(a, old_source),
        new=edition(b, new_source),
        changelog=compare_changelog(a, b, nm),
        rules=compare_rules(a, b, om, nm),
        parameters=compare_parameters(a, b, om, nm),
        tables=compare_tables(a, b, om, nm),
        orders=compare_orders(a, b, om, nm),
        rulings=rulings,
        examples=examples,
        texts=compare_texts(om, nm, apart),
        consequences=consequences,
        rescored=rescored,
        left_out=sorted(old.broken_examples),
    )
