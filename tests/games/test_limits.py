"""Work bounded by the game: oversize states, huge or deep files, linear spec loading.

Each test fails when its protection is removed: the early length checks of
the state models (:mod:`rulepress.states.models`), the state file size bound, the
nesting bound of the YAML reader, the one-pass source-map rebasing of the
loader. No test measures time (benchmarks/bench_limits.py does); they count
work instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import SpecError, StateError
from rulepress.games import load_spec
from rulepress.operations.sets import MAX_SET_KINDS
from rulepress.scoring.state import MAX_STATE_BYTES, load_state
from rulepress.states import quick as state_quick
from rulepress.states.validation import validate_state
from rulepress.yamlsrc.reader import MAX_DEPTH, SourceMap, YamlError, load_yaml_text
from tests.conftest import edit, loaded, run_cli


def player(i: int) -> dict[str, Any]:
    return {
        # not ASCII: an ASCII id is taken by a pattern without a call (see counting)
        "id": f"hráč{i}",
        "identity": "Pilot",
        "influence_limit": 4,
        "bonus_character": {"name": "Boarder", "kind": "friend", "symbols": 1},
        "cubes": {"supply": 8, "on_cards": 0, "betrayal_box": 0},
    }


def counting(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """Count the players whose id the state models look at (one call per player checked).

    The players' ids are not ASCII: the quick path's reading takes an ASCII
    id by a pattern, in pydantic-core, and asks is_state_id of any other.
    """
    original = state_quick.is_state_id
    calls = [0]

    def wrapper(text: str) -> bool:
        calls[0] += 1
        return original(text)

    monkeypatch.setattr(state_quick, "is_state_id", wrapper)
    return lambda: calls[0]


def stationfall_state(data: dict[str, Any]) -> list[str]:
    spec = loaded("stationfall").spec
    fmt = spec.table_states["stationfall-table"]
    _, problems = validate_state(fmt, spec.parameters, data, SourceMap(), game_id="stationfall")
    return [f"{p.where}: {p.message}" for p in problems]


def test_ten_thousand_players_are_one_problem_and_no_player_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded("stationfall")  # its worked examples are checked as it loads
    players = counting(monkeypatch)
    assert stationfall_state({"players": [player(i) for i in range(9)]}) == []
    assert players() == 9  # the counter sees the per-player check
    found = stationfall_state({"players": [player(i) for i in range(10_000)]})
    assert found == ["players: 10000 players; the game allows at most 9"]
    # not one of the 10,000 players was looked at (pydantic's own max_length
    # would have checked the first ten before counting them)
    assert players() == 9


def test_an_oversize_list_field_stops_before_its_items(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded("stationfall")
    players = counting(monkeypatch)
    # every line is wrong too: none of them is reported, only the length
    ada = player(0) | {"agenda": [{"points": "x"}] * 10_000}
    found = stationfall_state({"players": [ada]})
    assert found == ["players[0].agenda: allows at most 12 entries, has 10000"]
    # the one player is read twice: by the state check's quick path, which gives up at
    # the agenda's length, then by the full check, which words the problem
    assert players() == 2


def test_a_huge_state_file_is_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("players: []\n" + "#" * MAX_STATE_BYTES + "\n", encoding="utf-8")

    def no_parsing(*args: Any, **kwargs: Any) -> Iterator[Any]:
        raise AssertionError("the file was parsed")

    monkeypatch.setattr("yaml.compose_all", no_parsing)
    with pytest.raises(StateError) as info:
        load_state(loaded("stationfall"), path)
    assert [p.message for p in info.value.problems] == ["file is larger than 256 KiB"]


def test_a_huge_state_file_exits_with_the_state_error_code(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("players: []\n" + "#" * MAX_STATE_BYTES + "\n", encoding="utf-8")
    result = run_cli("score", "stationfall", str(path))
    assert result.code == 4
    assert result.err.endswith(
        "huge.yaml: file is larger than 256 KiB\n"
        f"{result.err.split(': ', 1)[0]}: cannot be read: 1 problem\n"
    )


def deep_block(levels: int) -> str:
    return "".join(" " * i + "a:\n" for i in range(levels)) + " " * levels + "a: 1\n"


@pytest.mark.parametrize(
    "text",
    [deep_block(500), "- " * 600 + "x\n", "[" * 200 + "]" * 200 + "\n"],
    ids=["block-mappings", "block-sequences", "flow"],
)
def test_deep_nesting_is_one_located_problem(text: str) -> None:
    with pytest.raises(YamlError) as info:
        load_yaml_text(text, "f.yaml")
    (problem,) = info.value.problems
    assert problem.message == f"nested deeper than {MAX_DEPTH} levels"
    assert problem.location.file == "f.yaml"
    assert problem.location.line is not None


def test_nesting_up_to_the_bound_is_read() -> None:
    data, _ = load_yaml_text("- " * MAX_DEPTH + "x\n", "f.yaml")
    for _ in range(MAX_DEPTH):
        data = data[0]
    assert data == "x"


def test_a_deep_spec_file_is_a_located_spec_error(spec_copy: Path) -> None:
    (spec_copy / "stationfall" / "zz-deep.yaml").write_text(
        "publishing:\n" + deep_block(300).replace("\n", "\n  ").rstrip() + "\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as info:
        load_spec(spec_copy / "stationfall")
    (problem,) = info.value.problems
    assert str(problem.location).startswith("rules_spec/stationfall/zz-deep.yaml:")
    assert problem.message == f"nested deeper than {MAX_DEPTH} levels"


def test_a_deep_state_file_is_a_located_state_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("players:\n  - id: ada\n    cubes: " + "[" * 100 + "]" * 100 + "\n")
    with pytest.raises(StateError) as info:
        load_state(loaded("stationfall"), path)
    (problem,) = info.value.problems
    assert problem.message == f"nested deeper than {MAX_DEPTH} levels"
    # the first "[" is depth 3 at column 12; the first too deep is depth MAX_DEPTH + 1
    assert (problem.location.line, problem.location.column) == (3, 12 + MAX_DEPTH + 1 - 3)


def test_an_overlong_number_is_a_located_problem_not_a_crash() -> None:
    with pytest.raises(YamlError) as info:
        load_yaml_text("a: " + "9" * 5000 + "\n", "f.yaml")
    assert [str(p) for p in info.value.problems] == [
        "f.yaml:1:4: a: an integer of 5000 digits is beyond the bound of ±1000000000000000"
    ]


def test_spec_loading_rebases_each_path_once(
    spec_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Merging the files touches every source position a bounded number of times.

    Rebasing once per list item (the old way) passes over a whole file's map for
    each of its rules: with 300 extra rules that is ~300 passes, not one.
    """
    extra = ["rules:"]
    for i in range(300):
        extra += [f'  - number: "{100 + i}"', f"    title: Extra {i}", "    text: An extra rule."]
        extra.append('    source: {document: card, lines: "3", quote: "Vítězem je hráč"}')
    (spec_copy / "stationfall" / "zz-extra.yaml").write_text("\n".join(extra) + "\n")
    visited = [0]
    busy = [False]

    def counted(method: Callable[..., SourceMap]) -> Callable[..., SourceMap]:
        def wrapper(self: SourceMap, *args: Any) -> SourceMap:
            outer = not busy[0]
            if outer:  # rebased may call moved: count one pass per outer call
                visited[0] += len(self.values) + len(self.keys)
                busy[0] = True
            try:
                return method(self, *args)
            finally:
                if outer:
                    busy[0] = False

        return wrapper

    monkeypatch.setattr(SourceMap, "moved", counted(SourceMap.moved))
    monkeypatch.setattr(SourceMap, "rebased", counted(SourceMap.rebased))
    spec = load_spec(spec_copy / "stationfall")
    assert len(spec.spec.rules) > 300
    total = len(spec.sources.values) + len(spec.sources.keys)
    assert 0 < visited[0] <= total + 100  # about one visit per position


def test_a_sets_component_of_many_kinds_is_refused(spec_copy: Path) -> None:
    """The grouping is exponential in the number of kinds: the spec check caps it."""
    edit(
        spec_copy / "brink" / "sequences.yaml",
        "kinds: sets.factions",  # the first is the ambassador sets
        "kinds: {komek: Komek, henko: Henko, magnomi: Magnomi, ventus: Ventus, a: A, b: B, c: C}",
    )
    with pytest.raises(SpecError) as info:
        load_spec(spec_copy / "brink")
    messages = [p.message for p in info.value.problems]
    assert f"7 kinds; a sets component groups at most {MAX_SET_KINDS}" in messages


def test_a_max_below_its_min_is_refused(spec_copy: Path) -> None:
    edit(
        spec_copy / "stationfall" / "state.yaml", "              max: 3\n", "              max: 0\n"
    )
    with pytest.raises(SpecError) as info:
        load_spec(spec_copy / "stationfall")
    where = "table_states.stationfall-table.players.fields.bonus_character.fields.symbols.max"
    assert (where, "max 0 is below min 1") in [(p.where, p.message) for p in info.value.problems]
