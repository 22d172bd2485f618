"""Spec and state files are read with YAML 1.2's core schema, not PyYAML's YAML 1.1."""

from __future__ import annotations

import math

import pytest

from rulepress.yamlsrc.reader import load_yaml_text


def _value(text: str) -> object:
    data, _ = load_yaml_text(f"v: {text}\n", "t.yaml")
    assert isinstance(data, dict)
    return data["v"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1:30", "1:30"),  # YAML 1.1: 90 (sexagesimal)
        ("no", "no"),  # YAML 1.1: false
        ("yes", "yes"),
        ("on", "on"),
        ("off", "off"),
        ("Y", "Y"),
        ("012", 12),  # YAML 1.1: 10 (octal)
        ("0o17", 15),
        ("0x1F", 31),
        ("1_000", "1_000"),  # YAML 1.1: 1000
        ("0b101", "0b101"),  # YAML 1.1: 5
        ("true", True),
        ("False", False),
        ("~", None),
        ("null", None),
        ("-3", -3),
        ("2.5", 2.5),
        ("'no'", "no"),
        ('"1:30"', "1:30"),
    ],
)
def test_plain_scalars_follow_yaml_1_2(text: str, value: object) -> None:
    assert _value(text) == value
    assert type(_value(text)) is type(value)


def test_infinities_and_nan() -> None:
    assert _value(".inf") == math.inf
    assert _value("-.Inf") == -math.inf
    assert math.isnan(_value(".nan"))  # type: ignore[arg-type]


def test_a_key_that_yaml_1_1_reads_as_false_is_text() -> None:
    data, _ = load_yaml_text("no: 1\nyes: 2\n", "t.yaml")
    assert data == {"no": 1, "yes": 2}
