"""Regenerate the exact expected messages of the bad-spec, bad-state and bad-catalog cases.

The cases edit a copy of the real Stationfall spec, so line numbers in their
expected output move when the spec is edited. Run this after such an edit and
review the diff (`git diff tests/data`) before committing: every changed line
must still be the message a user should see.

    .venv/bin/python tools/regen_error_expectations.py [--check]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def run(args: list[str], cwd: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stderr


def expectations() -> dict[Path, str]:
    out: dict[Path, str] = {}
    cases = yaml.safe_load((DATA / "bad_specs.yaml").read_text(encoding="utf-8"))["cases"]
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            shutil.copytree(ROOT / "rules_spec", work / "rules_spec")
            game = work / "rules_spec" / "stationfall"
            for change in case.get("replace", []):
                path = game / change["file"]
                text = path.read_text(encoding="utf-8")
                if change["old"] not in text:
                    raise SystemExit(f"{case['id']}: {change['old']!r} not in {change['file']}")
                path.write_text(text.replace(change["old"], change["new"], 1), encoding="utf-8")
            for added in case.get("add", []):
                (game / added["file"]).write_text(added["text"], encoding="utf-8")
            out[DATA / "bad_specs" / f"{case['id']}.expected"] = run(
                ["validate", "rules_spec/stationfall"], work
            )
    for state in sorted((DATA / "bad_states").glob("*/*.yaml")):
        out[state.with_suffix(".expected")] = run(
            ["score", state.parent.name, str(state.relative_to(ROOT))], ROOT
        )
    for po in sorted((DATA / "bad_catalogs").glob("*.po")):
        out[po.with_suffix(".expected")] = run(["i18n", "check", str(po.relative_to(ROOT))], ROOT)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if any file is stale")
    args = parser.parse_args()
    stale = []
    found = expectations()
    crashed = [str(p.relative_to(ROOT)) for p, text in found.items() if "Traceback" in text]
    if crashed:
        raise SystemExit("a traceback is never an expected message: " + ", ".join(crashed))
    for path, text in found.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(text, encoding="utf-8")
    verb = "stale" if args.check else "rewritten"
    for path in stale:
        print(f"{verb}: {path}")
    if args.check and stale:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
