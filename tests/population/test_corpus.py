"""The corpus reader: folders and JSON Lines files, bad records in their place, constant memory."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import StateError, UsageError
from rulepress.expressions import MAX_INT
from rulepress.population.corpus import (
    MAX_RECORD_BYTES,
    BadRecord,
    Record,
    count_records,
    read_corpus,
)
from rulepress.scoring.state import check_state
from rulepress.yamlsrc import display_path
from rulepress.yamlsrc.reader import MAX_DEPTH
from tests.conftest import DATA, loaded

STATE = DATA / "states" / "stationfall-four-players.yaml"


def _read(path: Path) -> list[Record | BadRecord]:
    return list(read_corpus(path))


def _lines(path: Path, *lines: str | bytes) -> Path:
    path.write_bytes(b"".join((ln.encode() if isinstance(ln, str) else ln) + b"\n" for ln in lines))
    return path


def test_a_jsonl_file_with_a_bad_line_in_the_middle_reads_the_rest(tmp_path: Path) -> None:
    corpus = _lines(
        tmp_path / "tables.jsonl",
        '{"players": [1]}',
        "",  # blank lines are no records
        '{"players": [2], }',
        "   ",
        '["not", "a", "mapping"]',
        '{"players": [3]}',
    )
    name = display_path(corpus)
    records = _read(corpus)
    assert records == [
        Record(f"{name}:1", {"players": [1]}),
        BadRecord(
            f"{name}:3",
            f"{name}:3:18: record 2: not JSON: Expecting property name enclosed in double quotes",
        ),
        BadRecord(
            f"{name}:5",
            f"{name}:5:1: record 3: a table state is a mapping of its fields, not a list",
        ),
        Record(f"{name}:6", {"players": [3]}),
    ]
    assert count_records(corpus) == len(records)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param('{"a": 1, "a": 2}', ":1:1: record 1: duplicate key 'a'", id="duplicate"),
        pytest.param('{"a": NaN}', ":1:1: record 1: NaN is not a value", id="nan"),
        pytest.param('{"a": -Infinity}', ":1:1: record 1: -Infinity is not a value", id="inf"),
        pytest.param(
            f'{{"a": [{MAX_INT + 1}]}}',
            f":1:1: record 1: a[0]: an integer is beyond the bound of ±{MAX_INT}",
            id="int",
        ),
        pytest.param(
            '{"a": ' + "9" * 5000 + "}",
            ":1:1: record 1: an integer is beyond the bound",
            id="int-digits",
        ),
        pytest.param(
            '{"name": "ab\\u202ecd"}',
            ":1:1: record 1: name: the text holds the control character U+202E RIGHT-TO-LEFT OVERRIDE",
            id="escaped-control",
        ),
        pytest.param(
            '{"name": "ab\u202ecd"}',
            ":1:1: record 1: name: the text holds the control character U+202E",
            id="raw-control",
        ),
        pytest.param(
            '{"na\\tme": 1}',
            ":1:1: record 1: na<U+0009>me: the key holds the control character U+0009",
            id="key",
        ),
        pytest.param(
            '{"a": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}",
            f": record 1: a{'[0]' * (MAX_DEPTH - 1)}: nested deeper than {MAX_DEPTH} levels",
            id="deep",
        ),
        pytest.param(
            '{"a": ' + "[" * 5000 + "]" * 5000 + "}",
            # the first list too deep: the 66th collection open, after the 6 characters of {"a":
            f":1:{6 + MAX_DEPTH + 1}: record 1: nested deeper than {MAX_DEPTH} levels",
            id="deeper-than-python",
        ),
        pytest.param(
            b'{"a": "caf\xe9"}', ":1:11: record 1: not UTF-8 text (byte 10)", id="latin-1"
        ),
    ],
)
def test_what_a_json_record_may_not_hold(tmp_path: Path, line: str | bytes, expected: str) -> None:
    corpus = _lines(tmp_path / "t.jsonl", line, '{"ok": 1}')
    bad, good = _read(corpus)
    assert isinstance(bad, BadRecord)
    where, what = expected.split(": record", 1)
    assert bad.problem.startswith(display_path(corpus) + where)
    assert f": record{what}" in bad.problem
    assert good == Record(f"{display_path(corpus)}:2", {"ok": 1})


def test_depth_is_the_yaml_readers(tmp_path: Path) -> None:
    """As deep as a YAML state file may nest, a JSON record may too, and no deeper."""
    deepest = "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH
    too_deep = "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1)
    corpus = _lines(tmp_path / "t.jsonl", f'{{"a": {deepest[1:-1]}}}', f'{{"a": {too_deep[1:-1]}}}')
    ok, bad = _read(corpus)
    assert isinstance(ok, Record)
    assert isinstance(bad, BadRecord)
    folder = tmp_path / "yaml"
    folder.mkdir()
    (folder / "ok.yaml").write_text(f"a: {deepest[1:-1]}\n", encoding="utf-8")
    (folder / "too-deep.yaml").write_text(f"a: {too_deep[1:-1]}\n", encoding="utf-8")
    yaml_ok, yaml_bad = _read(folder)
    assert isinstance(yaml_ok, Record)
    assert isinstance(yaml_bad, BadRecord)
    assert yaml_ok.state == ok.state


def test_a_line_too_long_is_refused_unread_and_the_next_is_read(tmp_path: Path) -> None:
    long = '{"a": "' + "x" * MAX_RECORD_BYTES + '"}'
    corpus = _lines(tmp_path / "t.jsonl", long, " " * (MAX_RECORD_BYTES + 10), '{"b": 2}')
    name = display_path(corpus)
    assert _read(corpus) == [
        BadRecord(f"{name}:1", f"{name}:1:1: record 1: the line is longer than 256 KiB"),
        # a line of nothing but spaces, however long, is blank
        Record(f"{name}:3", {"b": 2}),
    ]
    assert count_records(corpus) == 2


def test_crlf_line_ends_a_byte_order_mark_and_no_final_line_end(tmp_path: Path) -> None:
    corpus = tmp_path / "t.jsonl"
    corpus.write_bytes(b'\xef\xbb\xbf{"a": 1}\r\n\r\n{"b": 2}')
    assert [r.state for r in _read(corpus) if isinstance(r, Record)] == [{"a": 1}, {"b": 2}]
    assert count_records(corpus) == 2


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "2026-01").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git" / "x.yaml").write_text("not: read\n", encoding="utf-8")
    (root / "a.yaml").write_text("players: [1]\n", encoding="utf-8")
    (root / "b.json").write_text('{\n  "players": [2],\n  "players": [3]\n}\n', encoding="utf-8")
    (root / "2026-01" / "c.YML").write_text("players: [4]\nplayers: [5]\n", encoding="utf-8")
    (root / "2026-01" / "d.json").write_text('{"players":\n [6]}', encoding="utf-8")
    (root / "2026-01" / "e.yaml").write_bytes(b"players: [\xff]\n")
    (root / "README.md").write_text("# tables from the club\n", encoding="utf-8")
    (root / "z.yaml").write_text("- a list\n", encoding="utf-8")
    return root


def test_a_folder_is_read_in_name_order_with_bad_files_in_their_place(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    records = _read(root)

    def name(*parts: str) -> str:
        return display_path(root.joinpath(*parts))

    c = name("2026-01", "c.YML")
    assert records == [
        BadRecord(c, f"{c}:2:1: record 1: players: duplicate key 'players' (first at line 1)"),
        Record(name("2026-01", "d.json"), {"players": [6]}),
        BadRecord(
            name("2026-01", "e.yaml"),
            f"{name('2026-01', 'e.yaml')}: record 3: not UTF-8 text (byte 10)",
        ),
        Record(name("a.yaml"), {"players": [1]}),
        BadRecord(name("b.json"), f"{name('b.json')}:1:1: record 5: duplicate key 'players'"),
        BadRecord(
            name("z.yaml"),
            f"{name('z.yaml')}:1:1: record 6: a table state is a mapping of its fields, not a list",
        ),
    ]
    assert count_records(root) == len(records)
    # a YAML record keeps where each value was written, for the state check's messages
    first = records[3]
    assert isinstance(first, Record)
    assert str(first.sources.locate(("players", 0))) == f"{name('a.yaml')}:1:11"


def test_a_json_file_reports_a_syntax_error_at_its_line(tmp_path: Path) -> None:
    root = tmp_path / "c"
    root.mkdir()
    (root / "t.json").write_text('{\n  "players": [1,]\n}\n', encoding="utf-8")
    (bad,) = _read(root)
    assert isinstance(bad, BadRecord)
    assert bad.problem.startswith(f"{display_path(root / 't.json')}:2:17: record 1: not JSON:")


def test_links_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "secret.yaml"
    outside.write_text("players: [1]\n", encoding="utf-8")
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "in.yaml").write_text("players: [2]\n", encoding="utf-8")
    (root / "out.yaml").symlink_to(outside)
    (root / "again.yaml").symlink_to(root / "sub" / "in.yaml")
    (root / "loop").symlink_to(root)
    (root / "notes.txt").symlink_to(outside)  # not a state file's name: passed over
    os.mkfifo(root / "pipe.yaml")  # would block a reader that opened it
    records = _read(root)
    link = "a symbolic link: not followed (a corpus holds its files itself)"
    assert [(r.origin, getattr(r, "problem", None)) for r in records] == [
        (display_path(root / n), f"{display_path(root / n)}: record {i}: {link}")
        for i, n in enumerate(("again.yaml", "loop", "out.yaml"), start=1)
    ] + [
        (
            display_path(root / "pipe.yaml"),
            f"{display_path(root / 'pipe.yaml')}: record 4: not a regular file: not read",
        ),
        (display_path(root / "sub" / "in.yaml"), None),
    ]
    assert count_records(root) == 5


def test_neither_folder_nor_jsonl_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "one.yaml").write_text("players: []\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"one\.yaml: a corpus is a folder of state files"):
        read_corpus(tmp_path / "one.yaml")
    with pytest.raises(UsageError, match="no such file or folder"):
        count_records(tmp_path / "none.jsonl")


def test_records_pass_the_state_check_with_their_locations(tmp_path: Path) -> None:
    """A record is what check_state reads: plain data, and its sources for the messages."""
    import yaml

    state: dict[str, Any] = yaml.safe_load(STATE.read_text(encoding="utf-8"))
    wrong = json.loads(json.dumps(state))
    wrong["players"][1]["influence_limit"] = "many"
    corpus = _lines(tmp_path / "t.jsonl", json.dumps(state), json.dumps(wrong))
    good, bad = _read(corpus)
    assert isinstance(good, Record)
    assert isinstance(bad, Record)
    assert check_state(loaded("stationfall"), good.state, good.sources, good.origin)["players"]
    with pytest.raises(
        StateError, match=rf"{display_path(corpus)}:2:1: players\[1\]\.influence_limit"
    ):
        check_state(loaded("stationfall"), bad.state, bad.sources, bad.origin)


def _write_tables(path: Path, count: int) -> None:
    line = json.dumps({"players": [{"id": f"p{i}", "points": list(range(40))} for i in range(9)]})
    with path.open("w", encoding="utf-8") as out:
        for _ in range(count):
            out.write(line + "\n")


def _peak(corpus: Path) -> tuple[int, int]:
    tracemalloc.start()
    try:
        records = sum(1 for _ in read_corpus(corpus))
        return records, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_corpus_is_read_in_constant_memory(tmp_path: Path) -> None:
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    _write_tables(small, 200)
    _write_tables(large, 2000)  # about 4 MB
    small_records, small_peak = _peak(small)
    large_records, large_peak = _peak(large)
    assert (small_records, large_records) == (200, 2000)
    # ten times the records, the same peak (a record and the reader's buffers)
    assert large_peak < small_peak + 64 * 1024, (small_peak, large_peak)
    assert large_peak < large.stat().st_size / 10
