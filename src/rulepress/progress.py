"""Progress of long work: what the builds report, and how a terminal or a log shows it.

A build calls its ``report`` with a :class:`Step` each time a piece of work
completes (a PDF laid out, a game's pages generated, a Sphinx build finished).
:class:`Display` shows the steps: on a terminal as one status line rewritten in
place, and otherwise (a pipe, CI's log) as one plain line per step, which a
reader can follow and grep. ``--quiet`` shows none.

This module imports neither click nor the builds, so every layer may report.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from wcwidth import wcswidth


@dataclass(frozen=True, slots=True)
class Step:
    """One completed piece of a stage: ``done`` of ``total`` (0: not known in advance)."""

    stage: str
    done: int
    total: int
    item: str
    seconds: float | None = None


Report = Callable[[Step], None]


def silent(step: Step) -> None:
    """A report that shows nothing (a build's default, and ``--quiet``)."""


@dataclass
class Counter:
    """Counts a stage's steps for a build and reports each one as it completes."""

    report: Report
    stage: str
    total: int
    done: int = 0
    _since: float = field(default_factory=time.perf_counter)

    def __call__(self, item: str, seconds: float | None = None) -> None:
        self.done += 1
        if seconds is None:
            now = time.perf_counter()
            seconds, self._since = now - self._since, now
        self.report(Step(self.stage, self.done, self.total, item, seconds))


class Display:
    """Shows steps on ``stream``: a live status line on a terminal, plain lines elsewhere."""

    def __init__(self, stream: TextIO, *, live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self._shown = False

    def __call__(self, step: Step) -> None:
        count = f"{step.done}/{step.total}" if step.total else str(step.done)
        line = f"{step.stage} [{count}] {step.item}"
        if not self.live:
            spent = f" ({step.seconds:.1f} s)" if step.seconds is not None else ""
            self.stream.write(line + spent + "\n")
        else:
            # one line, rewritten: cut to the terminal's width (East Asian text counts double)
            width = shutil.get_terminal_size().columns - 1
            while line and wcswidth(line) > width:
                line = line[:-1]
            self.stream.write("\r\x1b[K" + line)
            self._shown = True
        self.stream.flush()

    def close(self) -> None:
        """Clear the status line, so that the command's own output starts on a clean line."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
