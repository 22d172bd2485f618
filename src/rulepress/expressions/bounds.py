"""The expression language's errors and bounds, shared by its checker and its interpreter.

Every bound is a named constant here, enforced where the value is made, and
reported by an :class:`ExpressionLimitError` (at evaluation) or an
:class:`ExpressionSyntaxError` (when the spec is checked) that names it.
:mod:`rulepress.expressions.expression` documents why each has the value it has.

::

    ValueError
    ├── ExpressionSyntaxError     the source is not in the language, or breaks a bound as written
    └── ExpressionEvalError       evaluating it against a table state failed
        └── ExpressionLimitError  evaluating it went past a bound
"""

from __future__ import annotations

from typing import Final

#: longest expression source, in characters
MAX_LENGTH: Final = 2000
#: deepest nesting of the expression tree
MAX_DEPTH: Final = 40
#: largest magnitude of any integer an expression writes or computes
MAX_INT: Final = 10**15
#: longest text an expression may build, in characters
MAX_TEXT: Final = 10_000
#: most items in any list or tuple an expression builds
MAX_ITEMS: Final = 10_000
#: most evaluation steps (loop iterations, calls, items built) per evaluation
MAX_STEPS: Final = 100_000


class ExpressionSyntaxError(ValueError):
    """An expression is not in the accepted subset; ``column`` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


class ExpressionEvalError(ValueError):
    """An expression failed while being evaluated against a table state.

    ``column`` (1-based, 0 when unknown) is where in the source the failing
    part starts; ``source`` is filled in by :meth:`Expression.evaluate`, and
    ``str()`` gives ``'<source>': column N: <message>``.
    """

    def __init__(self, message: str, column: int = 0, source: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.source = source

    def __str__(self) -> str:
        where = f"column {self.column}: " if self.column else ""
        prefix = f"{self.source!r}: " if self.source is not None else ""
        return f"{prefix}{where}{self.message}"


class ExpressionLimitError(ExpressionEvalError):
    """Evaluating an expression went past one of the bounds of this module."""


def int_limit(column: int = 0) -> ExpressionLimitError:
    return ExpressionLimitError(f"an integer beyond the bound of ±{MAX_INT}", column)


def text_limit(size: int, column: int = 0) -> ExpressionLimitError:
    return ExpressionLimitError(
        f"text of {size} characters is longer than the bound of {MAX_TEXT}", column
    )


def items_limit(size: int, column: int = 0) -> ExpressionLimitError:
    return ExpressionLimitError(
        f"a collection of {size} items is larger than the bound of {MAX_ITEMS}", column
    )


def steps_limit(column: int = 0) -> ExpressionLimitError:
    return ExpressionLimitError(f"more than {MAX_STEPS} evaluation steps", column)
