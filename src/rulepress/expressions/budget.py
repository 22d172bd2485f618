"""The budget of operations every command runs under, whatever its inputs say.

The bounds of the expression language (:mod:`rulepress.expressions.bounds`) hold
for one evaluation, and the state formats bound a table state by numbers that
the spec itself chooses (a parameter such as ``ambassadors_per_colour_limit``).
Neither bounds the *sum* of the work a spec can cause: many evaluations, field
types that expand into each other, a named set of a hundred thousand ids, an
exact grouping over a table the spec allows to be huge. This module is that
bound: one counter per command, charged by the loops whose length an input
decides, with a limit that no spec, catalog or state can raise.

The unit is an *operation*, about a tenth of a microsecond to a microsecond of
work: one field of a field type resolved, one member of a set spelled out,
one step of an expression's evaluation (a loop iteration, a call, an item
built); a size vector of the grouping search costs ``1 + K*K`` (its
feasibility check is quadratic in the K kinds). So the count tracks time:
the budget runs out in seconds (2 s for the grouping, up to about 10 s for
expressions on a loaded machine), and one command on a shipped game uses at
most 0.035 % of :data:`OPERATIONS` (``benchmarks/bench_budget.py`` prints each game's use
per command).

Past the limit, :class:`BudgetError` (an :class:`ExpressionLimitError`, so
that the scorer already turns it into a located state error at the step that
ran out) names what was too large. The loader turns it into a located spec
error.

Memory is budgeted too, where it can be measured cheaply: the growth of the
process's resident memory since the command's budget was opened, read from
``/proc/self/statm`` (one small file read, about ten microseconds) every
:data:`MEMORY_EVERY` operations charged and after each input file is read
(:meth:`Budget.check_memory`). Past :data:`MEMORY`, a :class:`MemoryBudgetError`
names the work that held it. The counted loops keep memory in proportion to
the operations they ran; what they cannot count (files parsed, catalogs read)
is also bounded by size where it is read (4 MiB a spec file, 8 MiB a spec,
16 MiB a catalog). Where ``/proc`` is not there (macOS, Windows), memory is
not measured and those size bounds hold alone. A budget that a library call
opens for itself (:func:`within_budget`) reads the memory first at its first
reading, not when it opens: such calls are made by the thousand.

:func:`command_budget` opens the budget of a command (the CLI opens one per
invocation); library entry points that may run long (:func:`spending`) open a
budget of their own only when no command's is open, so a script that loads a
spec or scores a state is bounded too.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from rulepress.errors import DataPath
from rulepress.expressions.bounds import ExpressionLimitError

#: operations one command may spend (see the module docstring for the unit and the figure)
OPERATIONS = 20_000_000
#: bytes of resident memory one command may add to the process (a shipped game's command
#: adds at most about 200 MiB: benchmarks/bench_budget.py prints each command's growth)
MEMORY = 2 * 1024 * 1024 * 1024
#: operations charged between two readings of the memory
MEMORY_EVERY = 1 << 16
#: where Linux tells a process its size, in pages: "total resident shared ..."
_STATM = "/proc/self/statm"
_MIB = 1024 * 1024


class BudgetError(ExpressionLimitError):
    """A command went past its budget of operations; ``what`` names the work that did."""

    def __init__(self, what: str, limit: int, path: DataPath = (), message: str = "") -> None:
        super().__init__(
            message
            or f"{what} is too large: it needs more than the {limit:,} operations "
            "a command may spend (rulepress's budget, which no spec can raise)"
        )
        self.what = what
        self.limit = limit
        #: where in the spec's data the work was charged, when the charger knows it
        self.path = path


class MemoryBudgetError(BudgetError):
    """A command's memory grew past its budget; ``what`` names the work that held it."""

    def __init__(self, what: str, grown: int, limit: int, path: DataPath = ()) -> None:
        super().__init__(
            what,
            limit,
            path,
            f"{what} is too large: the command's memory grew by {grown // _MIB:,} MiB, past"
            f" the {limit // _MIB:,} MiB a command may add (rulepress's budget, which no"
            " spec can raise)",
        )


def resident_memory() -> int | None:
    """The process's resident memory in bytes now; None where it cannot be read cheaply.

    Read from ``/proc`` rather than ``resource.getrusage``, which gives the peak:
    that never comes down, so a long-lived process (a test run, a notebook) would
    charge each command with the peaks of the ones before it.
    """
    try:
        with open(_STATM, "rb") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


class Budget:
    """A count of operations spent and the limit it may reach, and the memory it may add."""

    __slots__ = ("grown", "limit", "memory", "reading_at", "start", "started", "used")

    def __init__(
        self, limit: int = OPERATIONS, memory: int = MEMORY, *, read_now: bool = True
    ) -> None:
        self.limit = limit
        self.used = 0
        self.memory = memory
        #: the resident memory when the budget opened (None: not measured here) …
        self.start = resident_memory() if read_now else None
        #: … or, without ``read_now``, at its first reading (see :func:`within_budget`)
        self.started = read_now
        #: the most the memory had grown at a reading (what benchmarks/bench_budget.py prints)
        self.grown = 0
        #: the count of operations at which the memory is read next
        self.reading_at = MEMORY_EVERY

    def charge(self, operations: int, what: str, path: DataPath = ()) -> None:
        """Spend ``operations`` on ``what`` (a phrase such as ``"the named set 'ids'"``).

        ``path``: where in a spec's data that work comes from, for a located error.
        """
        self.used += operations
        if self.used > self.limit:
            raise BudgetError(what, self.limit, path)
        if self.used >= self.reading_at:
            self.reading_at = self.used + MEMORY_EVERY
            self.check_memory(what, path)

    def check_memory(self, what: str, path: DataPath = ()) -> None:
        """Raise :class:`MemoryBudgetError` if the memory grew past the budget since it opened."""
        if not self.started:
            self.started = True
            self.start = resident_memory()
            return
        if self.start is None:
            return
        now = resident_memory()
        if now is None:
            return
        self.grown = max(self.grown, now - self.start)
        if now - self.start > self.memory:
            raise MemoryBudgetError(what, now - self.start, self.memory, path)


#: the budget of the command being run (None: none is open)
_CURRENT: ContextVar[Budget | None] = ContextVar("rulepress_budget", default=None)


@contextmanager
def command_budget(limit: int = OPERATIONS, memory: int = MEMORY) -> Iterator[Budget]:
    """A fresh budget for the work inside the ``with`` block (a whole command)."""
    budget = Budget(limit, memory)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


@contextmanager
def item_budget() -> Iterator[Budget]:
    """A fresh budget for one item of a batch the user sized (a table of ``rulepress impact``).

    Each item is bounded alone, as one ``rulepress score`` of it would be; the
    batch is bounded by its size, which the command's own options bound. Its
    memory is first read at its first reading, as :func:`within_budget`'s.
    """
    budget = Budget(read_now=False)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


@contextmanager
def spending() -> Iterator[Budget]:
    """The command's budget if one is open, else a fresh one for this block."""
    current = _CURRENT.get()
    if current is not None:
        yield current
        return
    with command_budget() as budget:
        yield budget


_P = ParamSpec("_P")
_R = TypeVar("_R")


def within_budget(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` in the command's budget, or in a fresh one when no command's is open.

    For a library call that may be made once per table state (``score``), in a
    loop of thousands: so the fresh budget's memory is first read at its first
    reading (after :data:`MEMORY_EVERY` operations, or an input file read),
    not when it opens. Reading ``/proc`` was a twentieth of scoring a state, and
    a call that spends fewer operations than that holds no more memory than
    those operations build, which their own bounds limit.
    """

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if _CURRENT.get() is not None:
            return fn(*args, **kwargs)
        token = _CURRENT.set(Budget(read_now=False))
        try:
            return fn(*args, **kwargs)
        finally:
            _CURRENT.reset(token)

    return wrapper


#: the open budget or None: the C method itself, for the hottest charger (an
#: expression's evaluation, a few dozen per table state), which adds to
#: :attr:`Budget.used` in place and calls :meth:`Budget.charge` only past the limit
#: or at a memory reading
opened = _CURRENT.get


def current() -> Budget:
    """The open budget; a fresh one (charged by nobody else) when none is open.

    A caller that charges in a loop takes the budget once, before the loop.
    """
    budget = _CURRENT.get()
    return budget if budget is not None else Budget()
