"""Write tests/module_costs.json: each test module's seconds, from a pytest durations report.

    .venv/bin/pytest -n auto --dist loadscope --durations=0 -vv > run.log
    .venv/bin/python tools/module_costs.py run.log

Each module's entry is its seconds and its tests (those the report names). The
suite's conftest hands the modules to the test processes longest first (``--dist
loadscope`` gives each process whole modules), so that a long module does not start
last and keep one core busy while the other idles; a run that selects some of a
module's tests counts that share of its seconds. Only the order depends on these
figures: a stale or missing one costs time, never a result. A module the table does
not list counts a tenth of a second per test.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

#: one line of pytest's durations report: "12.34s call     tests/site/test_x.py::test_y[a]"
LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(?:setup|call|teardown)\s+((tests/\S+?\.py)::\S+)")
TABLE = Path(__file__).resolve().parent.parent / "tests" / "module_costs.json"


def costs(report: str) -> dict[str, tuple[float, int]]:
    """Per module: the sum of its tests' setup, call and teardown seconds, and its tests."""
    seconds: dict[str, float] = defaultdict(float)
    tests: dict[str, set[str]] = defaultdict(set)
    for line in report.splitlines():
        match = LINE.match(line)
        if match:
            seconds[match.group(3)] += float(match.group(1))
            tests[match.group(3)].add(match.group(2))
    return {module: (seconds[module], len(tests[module])) for module in seconds}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    found = costs(Path(argv[0]).read_text(encoding="utf-8"))
    if not found:
        print(
            f"{argv[0]}: no durations report (run pytest with --durations=0 -vv)", file=sys.stderr
        )
        return 1
    # whole seconds, the longest first: enough to order by, and a readable diff
    longest = sorted(found.items(), key=lambda kv: -kv[1][0])
    table = {m: [round(s), n] for m, (s, n) in longest if s >= 1}
    rows = [f" {json.dumps(module)}: {json.dumps(entry)}" for module, entry in table.items()]
    TABLE.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")
    print(f"{TABLE.name}: {len(table)} modules of {len(found)} (the rest under a second)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
