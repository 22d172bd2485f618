"""The order the test processes take the modules in: the longest first (tests/conftest.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from tests.conftest import MODULE_COSTS, ROOT, module_costs, module_from_file


def _tool() -> Any:
    return module_from_file("module_costs", ROOT / "tools" / "module_costs.py")


def test_the_tool_adds_up_each_modules_setup_call_and_teardown() -> None:
    report = """
============================= slowest durations ==============================
12.50s call     tests/site/test_a.py::test_one[en]
2.00s setup    tests/site/test_a.py::test_one[en]
0.50s call     tests/site/test_a.py::test_two
3.25s teardown tests/test_b.py::TestB::test_three
(1 durations < 0.005s hidden.  Use -vv to show these durations.)
"""
    assert _tool().costs(report) == {
        "tests/site/test_a.py": (15.0, 2),
        "tests/test_b.py": (3.25, 1),
    }


def _items(*nodeids: str) -> list[Any]:
    return [SimpleNamespace(nodeid=n) for n in nodeids]


def test_a_module_counts_the_share_of_its_tests_selected_and_an_unknown_one_a_tenth_each() -> None:
    table = json.loads(MODULE_COSTS.read_text(encoding="utf-8"))
    module, (seconds, tests) = next((m, e) for m, e in table.items() if e[1] >= 2)
    one = module_costs(
        _items(f"{module}::test_x", "tests/not_measured.py::a", "tests/not_measured.py::b")
    )
    assert one[module] == seconds / tests
    assert one["tests/not_measured.py"] == 0.2
    every = module_costs(_items(*(f"{module}::t{i}" for i in range(tests + 3))))
    assert every[module] == seconds  # never more than it measured


def test_every_module_of_the_table_exists() -> None:
    table = json.loads(MODULE_COSTS.read_text(encoding="utf-8"))
    assert table
    assert [m for m in table if not (ROOT / m).is_file()] == []
    assert all(isinstance(s, int) and isinstance(n, int) and n > 0 for s, n in table.values())
