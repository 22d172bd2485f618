"""Numbers and text in specs and states: one integer bound, ids, no controls (issue 13).

The CLI cases are data (tests/data/bad_states/, tests/data/bad_specs.yaml);
these test the pieces directly, where a case would not reach them: a state
given as data (not read from a file), the exact line:col of a control after
CRLF or a lone CR, the cap on reported controls, the id syntax, paths.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
import yaml

from rulepress.expressions.expression import MAX_INT
from rulepress.games.schema import state_schema
from rulepress.model.spec_model import MAX_STATE_ID, is_state_id
from rulepress.render.score_text import visible
from rulepress.states.validation import validate_state
from rulepress.yamlsrc.reader import (
    MAX_CONTROL_PROBLEMS,
    SourceMap,
    YamlError,
    format_path,
    load_yaml_text,
)
from tests.conftest import DATA, loaded


def _problems(text: str) -> list[str]:
    with pytest.raises(YamlError) as info:
        load_yaml_text(text, "f.yaml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (str(MAX_INT), True),
        (str(-MAX_INT), True),
        ("0" * 40 + "7", True),  # leading zeros are not digits of the number
        (str(MAX_INT + 1), False),
        (str(-MAX_INT - 1), False),
        ("9" * 31, False),
        ("9" * 5000, False),
        ("0x" + "f" * 5000, False),
        ("!!int " + "9" * 20, False),
    ],
)
def test_every_integer_read_is_within_the_bound(text: str, ok: bool) -> None:
    if ok:
        assert abs(load_yaml_text(f"v: {text}\n", "f.yaml")[0]["v"]) <= MAX_INT
    else:
        (problem,) = _problems(f"v: {text}\n")
        assert problem.startswith("f.yaml:1:4: v: an integer")
        assert problem.endswith(f"is beyond the bound of ±{MAX_INT}")


def _stationfall(points: Any) -> list[str]:
    spec = loaded("stationfall").spec
    player = {
        "id": "ada",
        "identity": "Pilot",
        "influence_limit": 4,
        "bonus_character": {"name": "Boarder", "kind": "friend", "symbols": 1},
        "agenda": [{"points": points, "met": True}],
        "cubes": {"supply": 8, "on_cards": 0, "betrayal_box": 0},
    }
    fmt = spec.table_states["stationfall-table"]
    _, problems = validate_state(fmt, spec.parameters, {"players": [player]}, SourceMap())
    return [f"{p.where}: {p.message}" for p in problems]


def test_a_state_given_as_data_keeps_the_bound_its_format_leaves_out() -> None:
    """Agenda points have a max but no min: the least is the global bound."""
    assert _stationfall(-MAX_INT) == []
    where = "players[0].agenda[0].points"
    assert _stationfall(-MAX_INT - 1) == [
        f"{where}: an integer of 16 digits is below -{MAX_INT}; the least allowed is -{MAX_INT}"
    ]
    # 5,000 digits: shown without str() (which refuses past 4,300 digits)
    assert _stationfall(-(10**5000)) == [
        f"{where}: an integer of thousands of digits is below -{MAX_INT};"
        f" the least allowed is -{MAX_INT}"
    ]


@pytest.mark.parametrize(
    "text",
    ["ada", "Ada", "p1", "blue", "not-live", "bonus_character", "Tomáš", "たろう", "e\u0301va"],
)
def test_table_state_ids(text: str) -> None:
    assert is_state_id(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1st",
        "-ada",
        "_ada",
        "ada lovelace",
        "ada:",
        "ada\n",
        "ada\u200f",
        "ada\u202e",
        "a" * (MAX_STATE_ID + 1),
    ],
)
def test_not_table_state_ids(text: str) -> None:
    assert not is_state_id(text)


def test_a_raw_control_is_located_after_crlf_and_lone_cr_line_ends() -> None:
    text = "a: 1\r\nb: 2\rc: x\x1by\n# \u202e\n"
    assert _problems(text) == [
        "f.yaml:3:5: the control character U+001B is not allowed (only tab and line breaks are)",
        "f.yaml:4:3: the control character U+202E RIGHT-TO-LEFT OVERRIDE is not allowed"
        " (only tab and line breaks are)",
    ]


def test_a_file_full_of_controls_reports_a_bounded_number() -> None:
    found = _problems("a: '" + "\x01" * 5000 + "'\n")
    assert len(found) == MAX_CONTROL_PROBLEMS + 1
    assert found[-1] == f"f.yaml: and {5000 - MAX_CONTROL_PROBLEMS} more control characters"


def test_tab_and_line_feed_are_text_in_a_spec_but_not_in_a_key() -> None:
    data, _ = load_yaml_text('v: "a\\tb\\nc"\nw: |\n  one\n  two\n', "f.yaml")
    assert data == {"v": "a\tb\nc", "w": "one\ntwo\n"}
    assert _problems('"a\\tb": 1\n') == [
        "f.yaml:1:1: a<U+0009>b: the key holds the control character U+0009; a key is one line"
    ]


def test_a_path_shows_the_controls_of_its_keys() -> None:
    assert format_path(("players", 0, "na\nme\u202e")) == "players[0].na<U+000A>me<U+202E>"


@pytest.mark.parametrize("char", ["\u200e", "\u200f", "\u061c"])
def test_the_report_shows_bidi_marks_as_code_points(char: str) -> None:
    assert visible(f"a{char}b") == f"a<U+{ord(char):04X}>b"


def test_the_state_schema_tells_editors_the_same_rules() -> None:
    schema = state_schema(loaded("stationfall").spec)
    state = yaml.safe_load((DATA / "states" / "stationfall-four-players.yaml").read_text("utf-8"))
    jsonschema.validate(state, schema)

    def refused(edit: Callable[[dict[str, Any]], None]) -> bool:
        bad = copy.deepcopy(state)
        edit(bad["players"][0])
        return not jsonschema.Draft202012Validator(schema).is_valid(bad)

    assert refused(lambda p: p.update(id="a" * (MAX_STATE_ID + 1)))
    assert refused(lambda p: p.update(id="ada\n  → Winner: ada."))
    assert refused(lambda p: p.update(identity="Pilot\u202e"))
    assert refused(lambda p: p["agenda"][0].update(points=-MAX_INT - 1))  # no min of its own
    assert not refused(lambda p: p.update(id="Tomáš", identity="Pilotka Tomáš"))


def test_ascii_state_ids_are_decided_as_the_general_rule_decides_them() -> None:
    """The ASCII shortcut of is_state_id accepts exactly what the per-character rule does."""

    def by_characters(text: str) -> bool:
        if not 0 < len(text) <= MAX_STATE_ID or not text[0].isalpha():
            return False
        return all(c.isalnum() or c in "-_" for c in text[1:])

    ascii_chars = [chr(i) for i in range(128)]
    texts = [a + b for a in ascii_chars for b in ["", *ascii_chars]]
    texts += ["a" * n for n in range(MAX_STATE_ID - 1, MAX_STATE_ID + 3)]
    texts += ["p" + "-" * (MAX_STATE_ID - 1), "p1\n", "Z9_-z", "z" + "\x7f"]
    assert all(t.isascii() for t in texts)
    wrong = [t for t in texts if is_state_id(t) != by_characters(t)]
    assert not wrong, wrong[:10]
