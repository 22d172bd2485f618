"""The expression language of specs, and the budget every command runs under.

Expression source (text) → checked tree (:mod:`.syntax`) → closures
(:mod:`.compiler`, :mod:`.nodes`, :mod:`.runtime`) → a value, read from
records (:mod:`.records`) within the bounds of :mod:`.bounds` and the
command's budget (:mod:`.budget`). The lowest stage: it imports no other
stage package.
"""

from rulepress.expressions.bounds import (
    MAX_INT,
    ExpressionEvalError,
    ExpressionLimitError,
    ExpressionSyntaxError,
)
from rulepress.expressions.budget import (
    BudgetError,
    MemoryBudgetError,
    command_budget,
    current,
    spending,
    within_budget,
)
from rulepress.expressions.expression import Evaluate, Expression, parse
from rulepress.expressions.records import Record, record

__all__ = [
    "MAX_INT",
    "BudgetError",
    "Evaluate",
    "Expression",
    "ExpressionEvalError",
    "ExpressionLimitError",
    "ExpressionSyntaxError",
    "MemoryBudgetError",
    "Record",
    "command_budget",
    "current",
    "parse",
    "record",
    "spending",
    "within_budget",
]
