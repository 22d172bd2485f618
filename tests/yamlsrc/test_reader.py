"""Safe, located YAML reading: positions, and what spec files may not contain."""

from __future__ import annotations

import gc

import pytest
import yaml

from rulepress.yamlsrc.reader import YamlError, load_yaml_text


def messages(text: str) -> list[str]:
    with pytest.raises(YamlError) as info:
        load_yaml_text(text, "f.yaml")
    return [str(p) for p in info.value.problems]


def test_positions_of_keys_and_values() -> None:
    data, smap = load_yaml_text("a:\n  b: [1, 2]\n  c: x\n", "f.yaml")
    assert data == {"a": {"b": [1, 2], "c": "x"}}
    assert str(smap.locate(("a", "b", 1))) == "f.yaml:2:10"
    assert str(smap.locate(("a", "c"), key=True)) == "f.yaml:3:3"
    assert str(smap.locate(("a", "missing"))) == "f.yaml:2:3"


def _live_nodes() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, yaml.Node))


def test_the_yaml_nodes_of_a_file_read_are_not_kept() -> None:
    """A file's nodes (each with its marks) go once its data is made: a process that reads
    specs again and again (a server, the test run, a build of every game) must not grow."""
    text = "a: \"quoted\"\nb: ['x', !!str 1, plain]\n"
    load_yaml_text(text, "f.yaml")  # whatever the first read sets up once
    before = _live_nodes()
    for _ in range(3):
        data, _ = load_yaml_text(text, "f.yaml")
        assert data == {"a": "quoted", "b": ["x", "1", "plain"]}
    assert _live_nodes() == before


def test_malformed_yaml_is_located() -> None:
    assert messages("a: [1, 2\nb: 3\n") == [
        "f.yaml:2:2: malformed YAML: did not find expected ',' or ']'"
    ]


def test_duplicate_keys_are_errors_not_overwrites() -> None:
    assert messages("a: 1\nb: 2\na: 3\n") == ["f.yaml:3:1: a: duplicate key 'a' (first at line 1)"]


def test_aliases_are_refused() -> None:
    text = "a: &x [1, 2]\nb: *x\n"
    assert messages(text) == ["f.yaml:2:1: b: anchors and aliases are not allowed in spec files"]


def test_billion_laughs_is_refused_quickly() -> None:
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev = f"*l{i - 1}"
        lines.append(f"l{i}: &l{i} [{', '.join([prev] * 9)}]")
    found = messages("\n".join(lines) + "\n")
    assert found
    assert all("aliases are not allowed" in m for m in found)


def test_merge_keys_and_non_text_keys_are_refused() -> None:
    found = messages("base: {a: 1}\nother:\n  <<: {a: 1}\n  1: x\n")
    assert found == [
        "f.yaml:3:3: other: merge keys ('<<') are not allowed in spec files",
        "f.yaml:4:3: other: keys must be text; got '1' (quote it)",
    ]


def test_several_documents_are_refused() -> None:
    assert messages("a: 1\n---\nb: 2\n") == ["f.yaml:3:1: only one YAML document per file"]


def test_unsafe_tags_are_refused() -> None:
    found = messages("a: !!python/object/apply:os.system ['true']\n")
    assert found == [
        "f.yaml:1:4: a: the YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed"
    ]


def test_a_text_read_again_is_a_copy_under_its_own_name() -> None:
    """A document read before comes from the read cache: never shared, never stale."""
    text = "rules:\n  - {number: '1', title: First}\n"
    first, smap = load_yaml_text(text, "one.yaml")
    first["rules"][0]["title"] = "changed by the first reader"
    smap.values.clear()
    again, places = load_yaml_text(text, "two.yaml")
    assert again == {"rules": [{"number": "1", "title": "First"}]}
    assert str(places.locate(("rules", 0, "title"))) == "two.yaml:2:26"
    edited, _ = load_yaml_text(text.replace("First", "Second"), "one.yaml")
    assert edited["rules"][0]["title"] == "Second"
    for _ in range(2):  # a document with problems is read (and refused) every time
        assert messages("a: 1\na: 2\n") == ["f.yaml:2:1: a: duplicate key 'a' (first at line 1)"]
