"""rulepress's own scoring operations: one module each, registered as plugins are.

Each module holds one operation whole: its model (the fields a spec writes
under ``op``), its checks, its evaluation, the sentences its notes use, and
its reference example (a data file in ``examples/``). rulepress's
``pyproject.toml`` registers every one under the ``rulepress.operations``
entry point group, the group plugins use (:mod:`rulepress.model.operations`),
so the model, the spec check, the scorer, the author's reference, the JSON
Schema and the catalogs find them through that registry, and adding one is
adding a module and its entry point.

What several operations share stays out of them: the parts of ``sum``,
``first`` and ``weighted_counts`` (:mod:`rulepress.operations.parts`), the
evaluation's types and number checks (:mod:`rulepress.scoring.components`),
the optimal grouping (:mod:`rulepress.scoring.grouping`).
"""
