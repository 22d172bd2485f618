"""Figure: how many expressions each game's spec holds, and how many are long.

An expression here is one the spec check reads: every expression field,
``let`` value, note argument and state constraint, and each part of an
expression written as a declaration (a value per ruling option, or cases;
see rulepress.model.declared), counted where it is written. Its length is
counted with runs of white space (YAML's folding) as one space. Long means
over ``--long`` characters (160 by default, issue 14's measure).

    .venv/bin/python benchmarks/expression_sizes.py [GAME_DIR ...] [--long N] [--list]

Without a directory, every game under rules_spec/.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulepress.checks import base as check_base
from rulepress.games import find_game_dirs, load_spec
from rulepress.model.declared import Declared
from rulepress.yamlsrc import DataPath, format_path

ROOT = Path(__file__).resolve().parent.parent


def expressions(game_dir: Path) -> dict[DataPath, str]:
    """Every expression the spec check of ``game_dir`` reads, by its data path."""
    seen: dict[DataPath, str] = {}
    original = check_base.CheckBase.expression

    def recording(
        self: check_base.CheckBase, path: DataPath, source: str, names: frozenset[str]
    ) -> object:
        if not isinstance(source, Declared):  # its parts are counted, each where written
            seen[path] = " ".join(source.split())
        return original(self, path, source, names)

    check_base.CheckBase.expression = recording  # type: ignore[method-assign]
    try:
        load_spec(game_dir)
    finally:
        check_base.CheckBase.expression = original  # type: ignore[method-assign]
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", type=Path)
    parser.add_argument("--long", type=int, default=160)
    parser.add_argument("--list", action="store_true", help="list the long ones")
    args = parser.parse_args()
    games = args.games or find_game_dirs(ROOT / "rules_spec")
    print(f"{'game':<14}{'expressions':>12}{f'over {args.long}':>10}{'longest':>9}")
    for game_dir in games:
        found = expressions(game_dir)
        long = {p: s for p, s in found.items() if len(s) > args.long}
        longest = max((len(s) for s in found.values()), default=0)
        print(f"{game_dir.name:<14}{len(found):>12}{len(long):>10}{longest:>9}")
        if args.list:
            for path, source in sorted(long.items(), key=lambda item: -len(item[1])):
                print(f"  {len(source):>4}  {format_path(path)}")


if __name__ == "__main__":
    main()
