"""The terminal report: untrusted text stays on its line and shows its controls; columns line up.

The loader refuses a state whose ids or texts hold controls
(tests/data/bad_states/stationfall/forged-report-lines.yaml); these tests put
such text into a score result directly, to check the renderer's own defence.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from wcwidth import wcswidth, wcwidth

from rulepress.i18n.runtime import localize
from rulepress.render import text_writer
from rulepress.render.score_text import LABELS, render_text, visible
from rulepress.scoring import load_state, score
from rulepress.scoring.result import Note, ScoreResult, to_json
from tests.conftest import DATA, GAME_LANGUAGES, LOCALES, loaded, run_main

STATE = DATA / "states" / "stationfall-four-players.yaml"
# a player id that would forge a report line, a heading, colours and reorder text
HOSTILE_ID = "ada\r\nboris  (forged)\n------\u2028\u2029\x85\x1b[31mred\x00\u202eevil\u2066x\u2069\u200fy\u061c"
HOSTILE_AGENDA = "agenda\nforged line\r  4z    99.9  Forged    999"
# every character that may not reach a terminal from data
FORBIDDEN = [chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)] if chr(c) != "\n"] + [
    "\u061c",
    "\u200e",
    "\u200f",
    "\u2028",
    "\u2029",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]


def _state(tmp_path: Path, player_id: str, agenda: str) -> Path:
    data: dict[str, Any] = yaml.safe_load(STATE.read_text(encoding="utf-8"))
    data["players"][0]["id"] = player_id
    data["players"][0]["agenda"][0]["text"] = agenda
    path = tmp_path / f"state-{len(list(tmp_path.iterdir()))}.yaml"
    # safe_dump writes the controls as YAML escapes ("\r", "\x1b", "\u202e")
    path.write_text(yaml.safe_dump(data, allow_unicode=False), encoding="utf-8")
    return path


def _score(path: Path) -> ScoreResult:
    game = loaded("stationfall")
    return score(game, load_state(game, path))


def _hostile(player_id: str = HOSTILE_ID, agenda: str = HOSTILE_AGENDA) -> ScoreResult:
    """The four-player result with the first player's id and first note replaced."""
    result = _score(STATE)
    player = result.players[0]
    player.id = player_id
    player.lines[0].notes[0] = Note("{text}", {"text": agenda}, agenda)
    return result


def test_a_hostile_player_id_cannot_forge_report_lines() -> None:
    honest = render_text(_hostile("ada", "agenda"), loaded("stationfall").spec)
    report = render_text(_hostile(), loaded("stationfall").spec)
    assert report.count("\n") == honest.count("\n")  # not one line more
    for char in FORBIDDEN:
        assert char not in report, hex(ord(char))
    assert visible(HOSTILE_ID) in report
    assert visible(HOSTILE_AGENDA) in report
    for shown in ("<U+000D><U+000A>", "<U+001B>[31m", "<U+0000>", "<U+202E>evil", "<U+2028>"):
        assert shown in report
    # the player's heading is underlined to its full (visible) width
    lines = report.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(visible(HOSTILE_ID)))
    assert lines[head + 1] == "-" * wcswidth(lines[head])


def test_a_hostile_player_id_round_trips_in_json_as_data() -> None:
    text = to_json(_hostile())
    data = json.loads(text)
    assert data["players"][0]["id"] == HOSTILE_ID
    assert data["players"][0]["lines"][0]["notes"][0]["text"] == HOSTILE_AGENDA
    for char in "\r\x00\x1b":  # JSON escapes every C0 control
        assert char not in text
    honest = to_json(_hostile("ada", "agenda"))
    assert text.count("\n") == honest.count("\n")  # no raw line break inside a string


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_cli_refuses_a_hostile_id_with_located_lines(tmp_path: Path, fmt: str) -> None:
    state = _state(tmp_path, HOSTILE_ID, HOSTILE_AGENDA)
    result = run_main("score", "stationfall", str(state), "--format", fmt)
    assert result.code == 4, result.err
    assert result.out == ""
    assert not set(result.err) & set(FORBIDDEN)
    problems = result.err.splitlines()[:-1]
    # the id and the agenda text, each at its line:col in the state file
    assert len(problems) == 2
    assert all(re.match(rf".*{state.name}:\d+:\d+: players\[0\]", line) for line in problems)
    assert any("players[0].id: the text holds the control character U+000D" in p for p in problems)


def test_a_hostile_label_translation_is_text_not_format_syntax(tmp_path: Path) -> None:
    hostile = "{0.__class__} {game.__class__.__init__} {nope}\r\n{game}"

    def translate(text: str) -> str:
        return hostile if text == LABELS["heading"] else text

    result = _score(STATE)
    report = render_text(result, loaded("stationfall").spec, translate)
    first = report.splitlines()[0]
    assert first.startswith(
        "{0.__class__} {game.__class__.__init__} {nope}<U+000D><U+000A>Stationfall ("
    )


@pytest.mark.parametrize(
    "text",
    [
        "Přehledová karta — Vítězové, žluťoučký kůň",
        "ステーションフォール：得点計算、ｶﾀｶﾅ、１２３",
        "e\u0301 a\u0308 (combining marks)",
        "👩\u200d🚀",  # ZWJ is text
    ],
)
def test_legitimate_text_is_unchanged(text: str) -> None:
    assert visible(text) == text


def _tables(report: str) -> list[list[str]]:
    """The rows of every player's score table (header, lines, total), without the notes."""
    tables: list[list[str]] = []
    lines = report.splitlines()
    for i, line in enumerate(lines):
        if i and set(line) == {"-"} and lines[i - 1] and not lines[i - 1].startswith(" "):
            rows = []
            for row in lines[i + 1 :]:
                if not row.startswith("  ") or "·" in row:
                    if not row.startswith("  "):
                        break
                    continue
                rows.append(row)
            if rows:  # the winners' section has a heading too, and no table
                tables.append(rows[:-1])  # the last row is the player's standing
    return tables


# the state is Stationfall's (tests/data/states), so are the languages
@pytest.mark.parametrize("lang", GAME_LANGUAGES["stationfall"])
def test_columns_line_up_by_display_width(lang: str) -> None:
    local = localize(loaded("stationfall"), lang, LOCALES)
    game = local.loaded
    result = score(game, load_state(game, STATE), renderer=local.renderer)
    report = render_text(result, game.spec, local.renderer.translate)
    tables = _tables(report)
    assert len(tables) == 4
    for rows in tables:
        assert len(rows) > 3
        # every row ends at the same column: the points are right-aligned under their header
        assert len({wcswidth(row) for row in rows}) == 1, rows


def test_text_measured_by_its_length_is_as_wide_as_wcwidth_says() -> None:
    """The writer measures text of text_writer.NARROW by its length, without wcwidth: every
    character the pattern takes is one column by wcwidth, and so is any text of them."""
    narrow = "".join(
        c for c in map(chr, range(0x30000)) if text_writer.NARROW.fullmatch(c) is not None
    )
    assert len(narrow) > 500  # sanity: Latin, Latin-1 and punctuation are there
    assert [c for c in narrow if wcwidth(c) != 1] == []
    assert wcswidth(narrow) == len(narrow)
    # left to wcwidth: full-width, combining, zero-width and tag characters, the soft hyphen
    for text in ("合計：−5", "u\u030a", "a\u200db", "\u00ad", "x\U000e0001"):
        assert text_writer.NARROW.fullmatch(text) is None
        assert text_writer.width(text) == max(wcswidth(text), 0) or wcswidth(text) == -1
