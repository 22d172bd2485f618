"""Plural-Forms headers, read as data: a bounded parser and evaluator for gettext plural rules.

A catalog's ``Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);``
header comes from a volunteer translator, so it is untrusted input. The usual
readers all turn the expression into Python code: :func:`gettext.c2py`
rewrites it as Python source and ``eval``\\ s it, Python's
``gettext.GNUTranslations`` does the same when it reads a ``.mo``, and
Babel's ``babel.plural.to_python`` compiles CLDR rules (its own, trusted data;
it never sees a catalog's expression, which Babel only stores as a string).
No library parses the C expression without compiling it, so this module has
its own small parser for exactly GNU gettext's grammar (``plural.y``)::

    exp := exp '?' exp ':' exp | exp '||' exp | exp '&&' exp
         | exp ('==' | '!=') exp | exp ('<' | '>' | '<=' | '>=') exp
         | exp ('+' | '-') exp | exp ('*' | '/' | '%') exp
         | '!' exp | 'n' | NUMBER | '(' exp ')'

with bounds on the header's length, on nesting (parentheses, ``!`` and
``?:``) and on literals, and an evaluator that works like gettext's (unsigned
64-bit arithmetic) over a tree of closures — never ``eval`` or ``compile``.
A rule is only accepted after it has been evaluated for every ``n`` in
:data:`SAMPLE` and each result was a valid form index (``0..nplurals-1``), with
no division by zero.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from babel import Locale

#: the longest Plural-Forms value accepted; the longest rule in Babel's table of
#: every language is 472 characters (its whole header: 492)
MAX_LENGTH = 600
#: parentheses, ``!`` and ``?:`` nested deeper than this are refused (real rules stay under 10)
MAX_NESTING = 24
#: the most plural forms any language has (Arabic: zero, one, two, few, many, other)
MAX_PLURALS = 6
#: literals longer than this are refused (gettext's largest, in Babel's table, is 1000000)
MAX_DIGITS = 10
#: every n a rule is tried on before it is used: all small counts and some large ones
SAMPLE: tuple[int, ...] = (
    *range(1001),
    *(10**k for k in range(4, 19)),
    *(10**k + 1 for k in range(4, 19)),
    1_000_002,
    2**31 - 1,
    2**32,
    2**63 - 1,
    2**64 - 1,
)

_MASK = 2**64 - 1  # gettext evaluates in unsigned long int (64 bits on LP64 systems)
_TOKEN = re.compile(r"\d+|n|\|\||&&|==|!=|<=|>=|[?:<>+\-*/%!()]")


class PluralFormsError(ValueError):
    """The header or its expression cannot be used; ``column`` is 0-based in the expression."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


Evaluator = Callable[[int], int]


def _binary(op: str, left: Evaluator, right: Evaluator) -> Evaluator:
    if op == "||":
        return lambda n: 1 if left(n) or right(n) else 0
    if op == "&&":
        return lambda n: 1 if left(n) and right(n) else 0
    if op in ("/", "%"):

        def divide(n: int) -> int:
            divisor = right(n)
            if divisor == 0:
                raise ZeroDivisionError(f"division by zero for n={n}")
            return left(n) // divisor if op == "/" else left(n) % divisor

        return divide
    arithmetic: dict[str, Callable[[int, int], int]] = {
        "==": lambda a, b: int(a == b),
        "!=": lambda a, b: int(a != b),
        "<": lambda a, b: int(a < b),
        ">": lambda a, b: int(a > b),
        "<=": lambda a, b: int(a <= b),
        ">=": lambda a, b: int(a >= b),
        "+": lambda a, b: (a + b) & _MASK,
        "-": lambda a, b: (a - b) & _MASK,
        "*": lambda a, b: (a * b) & _MASK,
    }
    apply = arithmetic[op]
    return lambda n: apply(left(n), right(n))


# binary operators by precedence, loosest first (C's, as gettext's grammar has them)
_LEVELS: tuple[tuple[str, ...], ...] = (
    ("||",),
    ("&&",),
    ("==", "!="),
    ("<", ">", "<=", ">="),
    ("+", "-"),
    ("*", "/", "%"),
)


class _Parser:
    """Recursive descent over the tokens; ``nesting`` bounds the recursion itself."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, int]] = []  # (token, column)
        pos = 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos == len(text):
                break
            match = _TOKEN.match(text, pos)
            if match is None:
                raise PluralFormsError(f"unexpected {text[pos]!r} in the expression", pos)
            token = match.group(0)
            if token.isdigit() and len(token) > MAX_DIGITS:
                raise PluralFormsError(f"number {token[:12]}... is too large", pos)
            self.tokens.append((token, pos))
            pos = match.end()
        self.pos = 0
        self.nesting = 0
        self.end = len(text)

    def peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def column(self) -> int:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else self.end

    def expect(self, token: str) -> None:
        if self.peek() != token:
            found = self.peek()
            what = f"{found!r}" if found is not None else "the end"
            raise PluralFormsError(f"expected {token!r}, found {what}", self.column())
        self.pos += 1

    def nested(self, parse: Callable[[], Evaluator]) -> Evaluator:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise PluralFormsError(
                f"the expression is nested more than {MAX_NESTING} levels deep", self.column()
            )
        try:
            return parse()
        finally:
            self.nesting -= 1

    def expression(self) -> Evaluator:
        condition = self.binary(0)
        if self.peek() != "?":
            return condition
        self.pos += 1
        then = self.nested(self.expression)
        self.expect(":")
        otherwise = self.nested(self.expression)
        return lambda n: then(n) if condition(n) else otherwise(n)

    def binary(self, level: int) -> Evaluator:
        if level == len(_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while (op := self.peek()) in _LEVELS[level]:
            assert op is not None
            self.pos += 1
            left = _binary(op, left, self.binary(level + 1))
        return left

    def unary(self) -> Evaluator:
        tok = self.peek()
        if tok == "!":
            self.pos += 1
            operand = self.nested(self.unary)
            return lambda n: 0 if operand(n) else 1
        if tok == "(":
            self.pos += 1
            inner = self.nested(self.expression)
            self.expect(")")
            return inner
        if tok == "n":
            self.pos += 1
            return lambda n: n
        if tok is not None and tok.isdigit():
            self.pos += 1
            value = int(tok)
            return lambda n: value
        what = f"{tok!r}" if tok is not None else "the end"
        raise PluralFormsError(f"expected n, a number or '(', found {what}", self.column())


@dataclass(frozen=True)
class PluralRule:
    """A checked plural rule: ``index(n)`` is always a form number in ``0..nplurals-1``."""

    nplurals: int
    expression: str
    _evaluate: Evaluator

    def index(self, n: int) -> int:
        """The form for ``n``; outside :data:`SAMPLE` a failing rule falls back to the last form."""
        try:
            value = self._evaluate(abs(n) & _MASK)
        except ZeroDivisionError:
            return self.nplurals - 1
        return value if 0 <= value < self.nplurals else self.nplurals - 1


def compile_expression(expression: str) -> Evaluator:
    """The evaluator of a C plural expression (bounded; raises :class:`PluralFormsError`)."""
    if len(expression) > MAX_LENGTH:
        raise PluralFormsError(f"{len(expression)} characters long (at most {MAX_LENGTH})")
    if not expression.strip():
        raise PluralFormsError("the plural expression is empty")
    parser = _Parser(expression)
    evaluate = parser.expression()
    if parser.peek() is not None:
        raise PluralFormsError(
            f"unexpected {parser.peek()!r} after the expression", parser.column()
        )
    return evaluate


_HEADER = re.compile(r"\s*nplurals\s*=\s*(?P<n>[^;]*);\s*plural\s*=(?P<expr>[^;]*)(?:;\s*)?")


@dataclass(frozen=True)
class ParsedHeader:
    """Where each part of a Plural-Forms value starts (0-based), for located messages."""

    rule: PluralRule
    nplurals_at: int
    expression_at: int


def parse_plural_forms(value: str) -> ParsedHeader:
    """Parse and check a whole ``Plural-Forms`` value; raise :class:`PluralFormsError`.

    Only the plain form ``nplurals=N; plural=EXPR;`` is accepted, so that
    Babel (which splits the header its own way) cannot read it differently.
    """
    if len(value) > MAX_LENGTH:
        raise PluralFormsError(f"{len(value)} characters long (at most {MAX_LENGTH})")
    match = _HEADER.fullmatch(value)
    if match is None:
        raise PluralFormsError("expected 'nplurals=N; plural=EXPRESSION;'")
    raw_n, at_n = match.group("n").strip(), match.start("n")
    if not re.fullmatch(r"\d{1,12}", raw_n):
        raise PluralFormsError(
            f"nplurals must be a number from 1 to {MAX_PLURALS}, got {raw_n!r}", at_n
        )
    nplurals = int(raw_n)
    if not 1 <= nplurals <= MAX_PLURALS:
        raise PluralFormsError(
            f"nplurals={nplurals}: a language has from 1 to {MAX_PLURALS} plural forms", at_n
        )
    expression, at_expr = match.group("expr"), match.start("expr")
    try:
        evaluate = compile_expression(expression)
    except PluralFormsError as exc:
        raise PluralFormsError(exc.message, at_expr + exc.column) from None
    for n in SAMPLE:
        try:
            value_n = evaluate(n)
        except ZeroDivisionError as exc:
            raise PluralFormsError(str(exc), at_expr) from None
        if not 0 <= value_n < nplurals:
            raise PluralFormsError(
                f"plural form {value_n} for n={n}, but nplurals={nplurals} (forms 0 to {nplurals - 1})",
                at_expr,
            )
    return ParsedHeader(PluralRule(nplurals, expression.strip(), evaluate), at_n, at_expr)


@cache  # each catalog of a language asks (the game's and the interface's)
def cldr_plural_count(lang: str) -> int:
    """How many plural forms whole numbers need in ``lang``, from Babel's CLDR rules.

    CLDR categories that only decimals reach (Czech ``many``: 1,5 kusu) are not
    counted, since gettext selects forms for whole numbers; French ``many``
    (1 000 000 de points) is, which is why :data:`SAMPLE` has large values.
    Raises ``ValueError`` (Babel's ``UnknownLocaleError``) for an unknown language.
    """
    rule = Locale.parse(lang).plural_form
    return len({rule(n) for n in SAMPLE})
