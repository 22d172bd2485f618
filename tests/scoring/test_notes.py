"""Notes render when first read: the same text as before, and never from later data."""

from __future__ import annotations

import dataclasses

import pytest

from rulepress.expressions.records import record
from rulepress.model.text import PlainContext, to_plain
from rulepress.scoring.notes import Joined, Nested, NoteRenderer, Template, snapshot
from rulepress.scoring.result import LazyNote, Note

CTX = PlainContext({"limit": 8}, {"armed": "Armed"}, {"grudge_state": "Grudge state"})


@pytest.mark.parametrize(
    "template",
    [
        "plain text",
        "",
        "{rule:16.4} and {param:limit}",
        "{term:armed}, [armed words](term:armed), {ruling:grudge_state}",
        "{player} has {points} points, {missing} stays",
        "stray { brace } and {player}{points}",
    ],
)
def test_split_templates_render_exactly_as_to_plain(template: str) -> None:
    renderer = NoteRenderer("en", CTX)
    args = {"player": "ada", "points": 3}
    expected = to_plain(template, CTX, {"player": "ada", "points": "3"})
    assert renderer.text(template, args) == expected
    assert renderer.text(template, args) == expected  # again, from the cache


def test_a_lazy_note_is_the_note_it_stands_for() -> None:
    renderer = NoteRenderer("en", CTX)
    args = {"label": Template("{term:armed}"), "parts": Joined([1, Nested("{x}!", {"x": 2})])}
    note = renderer.note("{label}: {parts}", args)
    assert isinstance(note, LazyNote)
    eager = Note(
        "{label}: {parts}",
        {"label": "{term:armed}", "parts": [1, {"template": "{x}!", "args": {"x": 2}}]},
        "Armed: 1 and 2!",  # like things listed as English lists them
    )
    assert note == eager
    assert eager == note
    assert repr(note) == repr(eager)
    assert dataclasses.asdict(note) == dataclasses.asdict(eager)


def test_a_note_shows_its_data_as_it_was_when_made() -> None:
    """Rendering is late; the arguments from the table state are copied when the note is made."""
    renderer = NoteRenderer("en", CTX)
    bonus = record({"name": "Pilot", "state": "live"})
    note = renderer.note("{who}", snapshot({"who": bonus}))
    ids = ["ada", "bo"]
    names = renderer.note("{ids}", snapshot({"ids": ids}))
    bonus["state"] = "annihilated"  # a later step updates the table state
    ids.append("cy")
    assert note.args == {"who": {"name": "Pilot", "state": "live"}}
    assert "live" in note.text
    assert names.text == "ada and bo"  # a list from the state, listed as English lists
