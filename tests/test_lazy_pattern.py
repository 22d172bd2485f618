"""Patterns compiled when first used (rulepress.lazy_pattern), a library's own among them."""

from __future__ import annotations

import re

import pytest

from rulepress.lazy_pattern import LazyPattern, deferred
from rulepress.yamlsrc.reader import yaml


def test_while_deferred_only_the_packages_patterns_wait_and_compile_is_given_back() -> None:
    compile_pattern = re.compile
    package = {"__name__": "somelib.reader", "re": re}
    made: list[object] = []

    def import_like() -> None:
        with deferred("somelib"):
            # as the package's own module compiles them, then as anyone else does
            made.extend(eval('[re.compile("[^a-z]"), re.compile("[a-z]", re.I)]', package))
            made.append(re.compile("[^a-z]"))
            raise RuntimeError("the block fails: compile is given back all the same")

    with pytest.raises(RuntimeError):
        import_like()
    assert re.compile is compile_pattern
    waiting, flagged, other = made
    assert isinstance(waiting, LazyPattern)
    assert isinstance(flagged, LazyPattern)
    assert (waiting._compiled, flagged._compiled) == (None, None)
    assert isinstance(other, re.Pattern)
    found = waiting.search("ab1c")
    assert found is not None
    assert found.start() == 2
    assert flagged.match("B") is not None


def test_pyyamls_python_reader_still_refuses_what_is_not_printable() -> None:
    """rulepress.yamlsrc.reader imports PyYAML with its patterns deferred; they still work."""
    with pytest.raises(yaml.reader.ReaderError, match="special characters"):
        yaml.load("a: \x07", Loader=yaml.SafeLoader)
    # YAML 1.1's resolvers and timestamps, as PyYAML's own loader reads them
    assert yaml.load(
        "a: b\u00e9\nb: yes\nc: 0x1F\nd: 2026-12-07\ne: ~", Loader=yaml.SafeLoader
    ) == {
        "a": "bé",
        "b": True,
        "c": 31,
        "d": __import__("datetime").date(2026, 12, 7),
        "e": None,
    }
