"""Regular expressions compiled when first used, not when their module is imported.

A warm ``rulepress score`` imports the model, the YAML reader and the
typography of every language, and with them some thirty module-level patterns
that only a spec check, a Czech page or a YAML file of another kind ever uses:
compiling them at import took a few milliseconds of a command whose budget is
200 (issue 32). :class:`LazyPattern` is written where ``re.compile`` was, and
compiles on its first match; the calls the project makes keep their
signatures. A pattern that is used anyway gains nothing from it, so the hot
patterns stay plain ``re.compile``.

Written here because no library offers it: ``re``'s own cache, which the
module-level ``re.match(source, …)`` uses, also compiles on first use, but
looks the pattern up on every call and forgets it past 512 patterns.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class LazyPattern:
    """``re.compile(source, flags)``, compiled by the first call that needs it."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (made once)."""
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._source

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string)

    def findall(self, string: str) -> list[str]:
        return self.compiled.findall(string)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def __repr__(self) -> str:
        return f"LazyPattern({self._source!r}, {self._flags!r})"


@contextmanager
def deferred(package: str) -> Iterator[None]:
    """While the block runs, the patterns ``package``'s own modules compile are LazyPatterns.

    For a library that compiles, when it is imported, patterns that rulepress seldom or
    never makes it use: the block imports it, and each pattern its modules compile then
    (as ``re.compile(source, flags)``, from their own code) is left as a LazyPattern,
    compiled by its first match or search. Any other caller's pattern is compiled as
    ever. Python holds the import lock while the block imports, and ``re.compile`` is
    put back however the block ends.
    """
    compile_pattern = re.compile
    prefix = f"{package}."

    def compile_or_defer(source: Any, flags: int = 0) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if isinstance(source, str) and (caller == package or caller.startswith(prefix)):
            return LazyPattern(source, flags)
        return compile_pattern(source, flags)

    re.compile = compile_or_defer  # type: ignore[assignment]
    try:
        yield
    finally:
        re.compile = compile_pattern
