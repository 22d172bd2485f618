"""The build in use: the scorer's hot path compiled by mypyc, or pure Python (setup.py).

Both score the same (the rest of the suite runs on whichever is installed); these
tests say which one ran, and catch an install that is half compiled or older than
its sources, which would test code other than the sources.
"""

from __future__ import annotations

import importlib.machinery
import weakref
from pathlib import Path

import pytest

from rulepress import compiled
from rulepress.expressions.records import Record

BUILD = compiled.build()


@pytest.mark.parametrize("build", [BUILD])  # the test's id says which build ran
def test_the_hot_path_is_compiled_whole_or_not_at_all(build: str) -> None:
    done = compiled.compiled_modules()
    assert build in ("compiled", "pure"), f"only some modules are compiled: {done}"
    assert done in ((), compiled.HOT_MODULES)


@pytest.mark.skipif(BUILD == "pure", reason="pure Python: nothing compiled to go stale")
def test_the_compiled_modules_are_of_these_sources() -> None:
    assert compiled.stale() == [], (
        "compiled from older sources: run tools/setup.sh again (or set RULEPRESS_PURE=1"
        " and reinstall for pure Python)"
    )


def test_a_module_compiled_before_and_no_longer_listed_is_found(tmp_path: Path) -> None:
    """An extension file left by an earlier build shadows its source as a stale one would."""
    package = tmp_path / "rulepress"
    (package / "expressions").mkdir(parents=True)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / "expressions" / f"records{suffix}").touch()
    (package / f"compiled{suffix}").touch()
    assert compiled._extension_modules(package) == {
        "rulepress.expressions.records",
        "rulepress.compiled",
    }


def test_a_record_takes_no_weak_reference_in_either_build() -> None:
    # As written (``__slots__ = ()``) a record has no slot for one; the class mypyc made
    # of it had one that its deallocation left set, so that a weak reference outlived
    # its record and crashed the garbage collector (under hypothesis, which keeps some)
    with pytest.raises(TypeError):
        weakref.ref(Record(a=1))
