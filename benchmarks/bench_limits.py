"""Benchmark: the work an untrusted spec or table state can cause stays bounded.

Prints, each against a baseline measured in the same run:

1. validating a Stationfall state of 10,000 players (refused on the count,
   no player checked) against a real 9-player state, and reading such a state
   file (refused on its size, unparsed);
2. loading a copy of the Stationfall spec with 1,000 / 2,000 / 4,000 extra
   rules, and the ratio per doubling (about 2 when loading is linear);
3. Brink's ambassador grouping at the most ambassadors the state format
   allows, against a typical hand: size vectors enumerated and time;
4. refusing a YAML file nested 500 levels deep.

    .venv/bin/python benchmarks/bench_limits.py [--rules 1000 2000 4000] [--repeat R]

Times are the best of R runs. The budgets (0.5 s for the 10,000 players, 2 s
for 4,000 rules) are printed beside the figures; nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from rulepress.errors import StateError
from rulepress.games import load_spec
from rulepress.scoring import grouping
from rulepress.scoring.state import load_state
from rulepress.states import validate_state
from rulepress.yamlsrc import SourceMap, YamlError, load_yaml_text
from timing import best_of  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
BRINK_SETS = {1: 2, 2: 5, 3: 10, 4: 18}


def player(i: int) -> dict[str, Any]:
    return {
        "id": f"p{i}",
        "identity": "Pilot",
        "influence_limit": 4,
        "bonus_character": {"name": "Boarder", "kind": "friend", "symbols": 1},
        "agenda": [{"points": 2, "met": True}, {"points": 1, "plus": True, "met": True}],
        "cubes": {"supply": 6, "on_cards": 2, "betrayal_box": 0},
    }


def bench_players(repeat: int) -> None:
    loaded = load_spec(ROOT / "rules_spec" / "stationfall")
    spec = loaded.spec
    fmt = spec.table_states["stationfall-table"]

    # the states are built once, outside the timing: only validation is measured
    states = {n: {"players": [player(i) for i in range(n)]} for n in (9, 10_000)}

    def validate(n: int) -> list[Any]:
        return validate_state(fmt, spec.parameters, states[n], SourceMap())[1]

    assert validate(9) == []
    assert len(validate(10_000)) == 1
    base = best_of(repeat, lambda: validate(9))
    huge = best_of(repeat, lambda: validate(10_000))
    print("1. table states (Stationfall)")
    print(f"   validate 9 players (baseline)      {base * 1000:9.3f} ms")
    print(
        f"   validate 10,000 players (refused)  {huge * 1000:9.3f} ms"
        f"   ratio {huge / base:6.2f}   budget 500 ms: {'ok' if huge < 0.5 else 'OVER'}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "huge.yaml"
        lines = ["players:"]
        for i in range(10_000):
            lines += [f"  - id: p{i}", "    identity: Pilot", "    influence_limit: 4"]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

        def read() -> None:
            try:
                load_state(loaded, path)
            except StateError:
                return
            raise AssertionError("a 10,000-player state file was accepted")

        size = path.stat().st_size
        read_time = best_of(repeat, read)
        print(
            f"   read a {size // 1024} KiB state file (refused)  {read_time * 1000:6.3f} ms"
            f"   ratio {read_time / base:6.2f}"
        )


def spec_copy(tmp: Path, rules: int) -> Path:
    target = tmp / f"stationfall-{rules}"
    shutil.copytree(ROOT / "rules_spec" / "stationfall", target)
    lines = ["rules:"]
    for i in range(rules):
        lines += [
            f'  - number: "{100 + i}"',
            f"    title: Generated rule {i}",
            "    text: Generated text, citing {rule:16.1}.",
            # every rule names its source (issue 17) and quotes it (issue 30): the card's
            # lines and words, as the real ones do
            '    source: {document: card, lines: "3", quote: "Závěrečná sekvence hry"}',
        ]
    (target / "zz-generated.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def bench_spec(sizes: list[int], repeat: int) -> None:
    print("2. spec loading (Stationfall + generated rules)")
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = spec_copy(Path(tmp), 0)
        (base_dir / "zz-generated.yaml").unlink()
        base = best_of(repeat, lambda: load_spec(base_dir))
        print(f"   the real spec (baseline)   {base:7.3f} s")
        previous: tuple[int, float] | None = None
        for n in sizes:
            directory = spec_copy(Path(tmp), n)
            took = best_of(repeat, lambda d=directory: load_spec(d))  # type: ignore[misc]
            extra = took - base
            line = f"   + {n:5d} rules             {took:7.3f} s  (rules alone {extra:6.3f} s)"
            if previous is not None and previous[1] > 0:
                line += f"   x{n / previous[0]:.0f} rules -> x{extra / previous[1]:.2f} time"
            if n == 4000:
                line += f"   budget 2 s: {'ok' if took < 2 else 'OVER'}"
            print(line)
            previous = (n, extra)


def bench_grouping(repeat: int) -> None:
    loaded = load_spec(ROOT / "rules_spec" / "brink")
    limit = loaded.spec.parameters["ambassadors_per_colour_limit"].value
    print("3. Brink ambassador grouping (4 kinds + Sorelia wilds)")
    for label, each in (("typical hand, 2 of each", 2), (f"state maximum, {limit} of each", limit)):
        counts = dict.fromkeys(("komek", "henko", "magnomi", "ventus"), each)
        units = 5 * each
        vectors = sum(1 for _ in grouping._size_vectors(units, 4))
        took = best_of(repeat, lambda c=counts, w=each: grouping.best_grouping(c, w, BRINK_SETS))  # type: ignore[misc]
        print(f"   {label:28s} {units:4d} units  {vectors:6d} size vectors  {took * 1000:8.3f} ms")


def bench_depth(repeat: int) -> None:
    text = "".join(" " * i + "a:\n" for i in range(500)) + " " * 500 + "a: 1\n"

    def refuse() -> None:
        try:
            load_yaml_text(text, "deep.yaml")
        except YamlError:
            return
        raise AssertionError("500 levels were accepted")

    shallow = "".join(" " * i + "a:\n" for i in range(10)) + " " * 10 + "a: 1\n"
    base = best_of(repeat, lambda: load_yaml_text(shallow, "shallow.yaml"))
    took = best_of(repeat, refuse)
    print("4. YAML nesting")
    print(f"   read 10 levels (baseline)      {base * 1000:8.3f} ms")
    print(f"   refuse 500 levels              {took * 1000:8.3f} ms   ratio {took / base:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # a shared machine's load changes the times, never the ratios: print it
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    bench_players(args.repeat)
    bench_spec(args.rules, args.repeat)
    bench_grouping(args.repeat)
    bench_depth(args.repeat)


if __name__ == "__main__":
    main()
