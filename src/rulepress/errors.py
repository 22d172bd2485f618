"""The error types rulepress raises, and what each means for a user.

Every problem a user can cause (a malformed spec, a bad table state, a wrong
option) is reported as one or more located :class:`Problem` lines of the form
``file:line:col: where: what``. Errors are collected first and raised once, so
a user sees all of them in one run. Only ``cli.py`` turns an error into an
exit code; nothing else calls ``sys.exit``.

The codes are :class:`ExitCode`'s. Exception tree::

    RulepressError              exit 1   base; carries zero or more Problems
    ├── SpecError               exit 3   rules_spec/ files are malformed or inconsistent
    ├── StateError              exit 4   a table state does not fit the game's spec
    ├── UsageError              exit 2   an unknown game, example, variant or path (as click's usage errors)
    ├── CatalogError            exit 5   a catalog is malformed or unsafe   (rulepress.i18n)
    ├── SiteError               exit 6   Sphinx warned, or a doctest failed (rulepress.sphinx_ext.build)
    ├── PrintError              exit 7   a print file cannot be made        (rulepress.print.build)
    ├── GateError               exit 8   the outputs show what no reader should (rulepress.gate)
    └── OutputError             exit 9   an output cannot be written, or is not rulepress's (here, for
                                         rulepress.output and the user's cache, which a score reads)
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple

#: a place in a document's data: mapping keys and list indexes from the root
DataPath = tuple[str | int, ...]


class Location(NamedTuple):
    """A place in a source file; line and column are 1-based.

    This and :class:`Problem` are NamedTuples (read by attribute, never changed): a
    frozen dataclass's methods were compiled each time a command imported this module.
    """

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


class Problem(NamedTuple):
    """One located complaint: where in the file, where in the data, and what is wrong."""

    location: Location
    where: str
    message: str

    def __str__(self) -> str:
        if self.where:
            return f"{self.location}: {self.where}: {self.message}"
        return f"{self.location}: {self.message}"

    def sort_key(self) -> tuple[str, int, int, str]:
        loc = self.location
        return (loc.file, loc.line, loc.column, self.message)


class ExitCode(IntEnum):
    """rulepress's exit codes: the one table (the README lists it).

    2 is click's code for a bad option or argument, and rulepress's for asking
    for something that does not exist; bad input of each kind has its own.
    """

    OK = 0
    FAILED = 1  #: an error of no more specific kind
    USAGE = 2  #: a bad option or argument; a game, example, variant or file that is not there
    SPEC = 3  #: a rules spec cannot be loaded
    STATE = 4  #: a table state does not fit its game
    CATALOG = 5  #: a catalog is unsafe, stale or fails translator QA
    SITE = 6  #: Sphinx reported a warning or an error, or a doctest failed
    PRINT = 7  #: a print file cannot be made (overflow, a bad profile or icon)
    GATE = 8  #: the publication gate found something a reader should not see
    OUTPUT = 9  #: an output folder or file cannot be written, or is not rulepress's to replace
    ABORTED = 130  #: interrupted (Ctrl-C)


class RulepressError(Exception):
    """Base of every error a user can cause; carries the problems found."""

    exit_code: int = ExitCode.FAILED

    def __init__(self, summary: str, problems: Iterable[Problem] = ()) -> None:
        self.problems: tuple[Problem, ...] = tuple(sorted(set(problems), key=Problem.sort_key))
        self.summary = summary
        super().__init__(self.render())

    def render(self) -> str:
        lines = [str(p) for p in self.problems]
        count = len(self.problems)
        if count:
            noun = "problem" if count == 1 else "problems"
            lines.append(f"{self.summary}: {count} {noun}")
        else:
            lines.append(self.summary)
        return "\n".join(lines)


class SpecError(RulepressError):
    """The rules spec cannot be loaded: bad YAML, wrong shapes, broken references."""

    exit_code = ExitCode.SPEC


class StateError(RulepressError):
    """A table state does not fit the game's declared state format."""

    exit_code = ExitCode.STATE


class UsageError(RulepressError):
    """The user asked for something that does not exist (game, example, variant, file)."""

    exit_code = ExitCode.USAGE


class OutputError(RulepressError):
    """An output folder or file cannot be written, or holds what rulepress did not make."""

    exit_code = ExitCode.OUTPUT


class ProblemCollector:
    """Accumulates problems so that a whole input is checked before failing."""

    def __init__(self) -> None:
        self._problems: list[Problem] = []

    def add(self, location: Location, where: str, message: str) -> None:
        self._problems.append(Problem(location, where, message))

    def extend(self, problems: Sequence[Problem]) -> None:
        self._problems.extend(problems)

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(self._problems)

    def __bool__(self) -> bool:
        return bool(self._problems)

    def raise_if_any(self, error: type[RulepressError], summary: str) -> None:
        if self._problems:
            raise error(summary, self._problems)
