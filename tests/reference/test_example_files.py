"""The reference's examples are data files, read with the spec's YAML loader.

A file is data, not code: what the loader refuses in a spec (aliases, a
duplicate key, a control character) it refuses here too, located in the
example's file, and a section must be YAML nested under its key, which is
what the page shows as written.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from rulepress.model import operations
from rulepress.reference import examples
from rulepress.yamlsrc.reader import YamlError


def test_every_example_file_is_read() -> None:
    """No file of the examples' folders is left out of the reference (nor missing)."""
    shipped = {
        f.name.removesuffix(".yaml")
        for folder in (examples.STEP_EXAMPLES, files("rulepress.operations") / "examples")
        for f in folder.iterdir()
        if f.name.endswith(".yaml")
    }
    assert {e.name for e in examples.all_examples()} == shipped
    assert set(operations.built_in()) <= shipped


def test_a_section_is_the_text_under_its_key(tmp_path: Path) -> None:
    source = tmp_path / "demo.yaml"
    source.write_text(
        'title: "A demo."\nsteps:\n  # kept as written\n  - number: "1"\n'
        "    title: One\nstate:\n  players: []\nfields:\n  cards: {type: int}\n"
        "expect:\n  players: {}\n",
        encoding="utf-8",
    )
    example = examples.read_example("demo", source)
    assert example.title == "A demo."
    assert example.steps == '# kept as written\n- number: "1"\n  title: One\n'
    assert example.state == "players: []\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("title: t\nsteps: &s\n  - a\nstate: *s\n", "anchors and aliases are not allowed"),
        ("title: t\nsteps:\n  - a\nsteps:\n  - b\n", "duplicate key 'steps'"),
    ],
    ids=["alias", "duplicate"],
)
def test_the_spec_loaders_refusals_hold(tmp_path: Path, text: str, message: str) -> None:
    source = tmp_path / "demo.yaml"
    source.write_text(text, encoding="utf-8")
    with pytest.raises(YamlError) as caught:
        examples.read_example("demo", source)
    assert any(message in p.message for p in caught.value.problems), caught.value.problems
    assert all(str(p.location).startswith("demo.yaml:") for p in caught.value.problems)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("steps:\n  - a\n", "a mapping with a 'title'"),
        ("title: t\nstep:\n  - a\n", "unknown sections step"),
        ("title: t\nsteps:\n  - a\n", "no fields, state, expect"),
        (
            "title: t\nsteps: [a]\nfields:\n  a: 1\nstate:\n  a: 1\nexpect:\n  a: 1\n",
            "steps is written as a block",
        ),
    ],
    ids=["no-title", "unknown", "missing", "inline"],
)
def test_an_example_file_of_the_wrong_shape_is_refused(
    tmp_path: Path, text: str, message: str
) -> None:
    source = tmp_path / "demo.yaml"
    source.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        examples.read_example("demo", source)
