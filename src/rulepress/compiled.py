"""Which build of the scorer's hot path is in use: compiled by mypyc, or pure Python.

The development install compiles :data:`HOT_MODULES` with mypyc when it can
(``setup.py``: mypy importable while building, a C compiler found); an install
without those is pure Python. Both behave the same, every score identical: the
compiled modules are these same sources, whose type hints mypyc checks when a
compiled function is called (hence hints such as ``object`` where an expression
may pass any value). A compiled module shadows its ``.py`` file, so an edited
source needs the build again; :func:`stale` says which.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
from pathlib import Path

#: the modules a lean score spends its time in (profile of bench_stationfall_scoring.py);
#: of the operations, only what they run per player (runs, parts): a module that defines
#: pydantic models cannot be compiled (the models' annotations are gone); nor can bounds,
#: whose source the author reference reads (reference.page.limits). The state check's quick
#: path (states.quick, its pairwise tallies, validation) too: callgrind, per validate_state of
#: the benchmark's first 200 nine-player Stationfall states, 1.165 M instructions to 0.997 M
#: (the walk's closures moved out of states.models to be compiled too: 0.996 M, not kept).
#: Not compiled: scoring.notes (it compiles, but a lean score runs little of it: 994,706
#: to 993,647 instructions per state), and scoring.result, whose dataclasses are the
#: documented JSON and its schema: mypyc fails on LazyNote's object.__setattr__ of a
#: field Note declares; with both classes left to Python it compiles, but it replaces
#: the other dataclasses' annotations by their runtime classes (a ``WinnerResult |
#: None`` field becomes ``type``), from which pydantic cannot make the schema
#: Beside the scorer, games.spec_data: it builds a warm `rulepress score`'s spec back from
#: the user's cache (some 7,000 values and 500 models for Stationfall), 9 ms to under 4;
#: callgrind of the whole warm score, 1,088 M instructions to 1,067 M
HOT_MODULES = (
    "rulepress.expressions.budget",
    "rulepress.expressions.compiler",
    "rulepress.expressions.expression",
    "rulepress.expressions.nodes",
    "rulepress.expressions.records",
    "rulepress.expressions.runtime",
    "rulepress.games.spec_data",
    "rulepress.operations.parts",
    "rulepress.operations.runs",
    "rulepress.scoring.components",
    "rulepress.scoring.engine",
    "rulepress.scoring.plan",
    "rulepress.scoring.tally",
    "rulepress.scoring.winners",
    "rulepress.states.pairs",
    "rulepress.states.quick",
    "rulepress.states.reader",
    "rulepress.states.validation",
)
#: written by setup.py beside the package when it compiles: each hot module's source hash
SOURCES_FILE = "compiled-sources.json"


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_modules() -> tuple[str, ...]:
    """The hot modules imported from a compiled extension rather than from Python."""
    out = []
    for name in HOT_MODULES:
        origin = getattr(importlib.import_module(name), "__file__", None) or ""
        if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            out.append(name)
    return tuple(out)


def build() -> str:
    """``compiled`` (every hot module), ``pure`` (none), or ``mixed``, which is a broken install."""
    done = compiled_modules()
    return "pure" if not done else "compiled" if len(done) == len(HOT_MODULES) else "mixed"


def _extension_modules(package: Path) -> set[str]:
    """Our modules that an extension file in the package provides (a compiled build's)."""
    out = set()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in package.rglob(f"*{suffix}"):
            folders = path.relative_to(package.parent).parts[:-1]
            out.add(".".join((*folders, path.name.split(".")[0])))
    return out


def stale() -> list[str]:
    """The compiled hot modules whose source changed since they were compiled.

    Known only where the build left its record of the sources (an editable
    install); a module compiled without one counts as stale.
    """
    package = Path(__file__).resolve().parent
    record = package / SOURCES_FILE
    hashes: dict[str, str] = json.loads(record.read_text("utf-8")) if record.is_file() else {}
    # a module compiled by an earlier build and no longer listed shadows its source too
    out = sorted(_extension_modules(package).difference(HOT_MODULES))
    for name in compiled_modules():
        source = package.parent.joinpath(*name.split(".")).with_suffix(".py")
        if not source.is_file() or hashes.get(name) != source_hash(source):
            out.append(name)
    return out
