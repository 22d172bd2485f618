"""Reader text in worked examples' table states: extracted, translated, and nothing else."""

from __future__ import annotations

import copy
from typing import Any

from rulepress.games.messages import messages_in, translate_data
from rulepress.states.texts import example_texts

FORMAT: dict[str, Any] = {
    "description": "d",
    "players": {
        "max": 4,
        "fields": {
            "agenda": {
                "type": "list",
                "description": "d",
                "item": {
                    "type": "record",
                    "description": "d",
                    "fields": {
                        "text": {"type": "text", "translate": True, "description": "d"},
                        "note": {"type": "text", "description": "d"},
                    },
                },
            },
            "motto": {"use": "saying", "description": "d"},
            "room": {"type": "text", "description": "d"},
        },
    },
    "table": {"fields": {"event": {"type": "text", "translate": True, "description": "d"}}},
}


def game() -> dict[str, Any]:
    return {
        "scorer": {"sequence": "end"},
        "sequences": [{"id": "end", "state": "table", "steps": []}, {"id": "other", "state": "x"}],
        "field_types": {"saying": {"type": "text", "translate": True, "description": "d"}},
        "table_states": {"table": FORMAT, "x": {"players": {"fields": {}}}},
        "examples": [
            {
                "id": "first",
                "state": {
                    "players": [
                        {
                            "id": "Ada",
                            "agenda": [{"text": "3 if you Escaped", "note": "kept"}, {}],
                            "motto": "Never give up",
                            "room": "Bridge",
                        }
                    ],
                    "table": {"event": "The reactor melts"},
                },
            },
            # a sequence whose format translates nothing
            {"id": "second", "sequence": "other", "state": {"players": [{"id": "Bo"}]}},
        ],
    }


def test_only_fields_marked_translate_are_messages() -> None:
    found = {(c, t) for c, _, t in example_texts(game())}
    assert found == {
        ("examples/first/state/players/Ada/agenda/0/text", "3 if you Escaped"),
        ("examples/first/state/players/Ada/motto", "Never give up"),  # through `use`
        ("examples/first/state/table/event", "The reactor melts"),
    }


def test_messages_of_one_file_use_the_formats_of_its_siblings() -> None:
    data = game()
    examples_file = {"examples": data.pop("examples")}
    alone = [m.context for m, _ in messages_in(examples_file) if "/state/" in m.context]
    with_game = [m for m, _ in messages_in(examples_file, game=data) if "/state/" in m.context]
    assert alone == []  # without the formats nothing can be told translated
    assert len(with_game) == 3
    assert all("quoted in the example's score breakdown" in m.comments[-1] for m in with_game)


def test_translation_replaces_the_values_and_leaves_the_input_alone() -> None:
    data = game()
    before = copy.deepcopy(data)
    out = translate_data(data, lambda context, text: text.upper() if "/state/" in context else None)
    assert data == before
    player = out["examples"][0]["state"]["players"][0]
    assert player["agenda"][0] == {"text": "3 IF YOU ESCAPED", "note": "kept"}
    assert player["motto"] == "NEVER GIVE UP"
    assert player["room"] == "Bridge"
    assert out["examples"][0]["state"]["table"]["event"] == "THE REACTOR MELTS"
    assert out["examples"][1] == before["examples"][1]
