"""What the scorer keeps between runs: a few specs' worked-out data, never every spec.

The scorer works out once per spec what every run reads (tables, records, the English
renderer). A process that loads specs again and again (the test run, a build of every
game in every language, a server) must not keep each of them, whole, for ever.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from rulepress.games import load_spec
from rulepress.model import LoadedSpec
from rulepress.scoring import engine

TINY = Path(__file__).resolve().parent.parent / "data" / "specs" / "tiny"


def _scored(loaded: LoadedSpec) -> None:
    """What a run of the scorer works out once per spec."""
    engine._spec_data(loaded.spec)
    engine.english(loaded.spec)


def test_a_spec_scored_long_ago_is_let_go() -> None:
    first = load_spec(TINY)
    _scored(first)
    gone = weakref.ref(first.spec)
    del first
    for _ in range(engine._MAX_SPECS):
        _scored(load_spec(TINY))
    gc.collect()  # a spec's checks leave reference cycles behind
    assert gone() is None


def test_a_spec_scored_again_is_worked_out_once() -> None:
    loaded = load_spec(TINY)
    data = engine._spec_data(loaded.spec)
    renderer = engine.english(loaded.spec)
    _scored(load_spec(TINY))  # another spec in between
    assert engine._spec_data(loaded.spec) is data
    assert engine.english(loaded.spec) is renderer
