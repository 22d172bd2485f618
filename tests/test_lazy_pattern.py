"""Patterns compiled when first used (rulepress.lazy_pattern), a library's own among them."""

from __future__ import annotations

import re

import pytest

from rulepress.lazy_pattern import LazyPattern, deferred
from rulepress.yamlsrc.reader import yaml


def test_while_deferred_only_the_named_patterns_wait_and_compile_is_given_back() -> None:
    compile_pattern = re.compile
    made: list[object] = []

    def import_like() -> None:
        with deferred("[^a-z]"):
            made.extend(
                [re.compile("[^a-z]"), re.compile("[^a-y]"), re.compile("[^a-z]", re.IGNORECASE)]
            )
            raise RuntimeError("the block fails: compile is given back all the same")

    with pytest.raises(RuntimeError):
        import_like()
    assert re.compile is compile_pattern
    waiting, other, flagged = made
    assert isinstance(waiting, LazyPattern)
    assert waiting._compiled is None
    assert isinstance(other, re.Pattern)
    assert isinstance(flagged, re.Pattern)
    found = waiting.search("ab1c")
    assert found is not None
    assert found.start() == 2


def test_pyyamls_python_reader_still_refuses_what_is_not_printable() -> None:
    """rulepress.yamlsrc.reader imports PyYAML with that reader's pattern deferred."""
    with pytest.raises(yaml.reader.ReaderError, match="special characters"):
        yaml.load("a: \x07", Loader=yaml.SafeLoader)
    assert yaml.load("a: b\u00e9", Loader=yaml.SafeLoader) == {"a": "bé"}
