"""Brink writes each list once: the named sets and declarations that replaced the copies.

Before named sets the faction list was written out 17 times and the
faction-to-label map 16 times; the longest expressions were nested
conditionals over ruling variants (18 over 160 characters, the longest 470;
now 10, the longest 365).
"""

from __future__ import annotations

import re

from tests.conftest import ROOT, SPEC_ROOT, module_from_file

BRINK = SPEC_ROOT / "brink"
#: the spec's files but its worked examples (whose states name factions, as players do)
TEXTS = {
    p.name: p.read_text(encoding="utf-8")
    for p in BRINK.glob("*.yaml")
    if "examples" not in p.name and "termbase" not in p.name
}


def test_the_faction_list_is_written_once() -> None:
    lists = re.compile(r"komek\W+henko\W+magnomi\W+ventus")
    found = {name: len(lists.findall(text)) for name, text in TEXTS.items()}
    assert sum(found.values()) == 1, found
    assert lists.search(TEXTS["game.yaml"].split("sets:", 1)[1])


def test_the_faction_labels_are_written_once() -> None:
    # the faction's own word, not another label that starts with it ("Komek power")
    found = {
        name: len(re.findall(r"\bkomek: Komek$", text, re.MULTILINE))
        for name, text in TEXTS.items()
    }
    assert sum(found.values()) == 1, found  # the vocabulary's word


def test_fewer_long_expressions() -> None:
    sizes = module_from_file("sizes", ROOT / "benchmarks" / "expression_sizes.py")
    found = sizes.expressions(BRINK)
    long = [path for path, source in found.items() if len(source) > 160]
    assert len(long) <= 10
    # what is left long is state-format checks and two counts, no ruling conditional
    assert not any("ruling." in found[path] for path in long)
    assert max(len(s) for s in found.values()) <= 365
