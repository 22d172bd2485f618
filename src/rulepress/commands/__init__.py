"""The ``rulepress`` commands, one module per family, each imported only when one of its commands runs.

The group, the options the commands share and the mapping of errors to exit codes are
:mod:`rulepress.cli`'s; see :class:`rulepress.cli.LazyGroup`.
"""
