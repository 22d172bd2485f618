"""The audit record: ``rulepress provenance --audit`` compares a spec with its last audit.

A copy of Stationfall's spec gets an ``audit.yaml`` written from what the spec
says now; the comparison is then clean. Each thing the next audit must look at
is reported, one at a time: an entry whose quote changed since, an entry the
audit never read, an entry the record names that the spec lost, and a ruling
that offers one option where the audit found two readings of the sources (what
no check of the spec alone can see).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from tests.conftest import SPEC_ROOT, edit, run_main


def _copy_with_audit(tmp_path: Path) -> Path:
    game = tmp_path / "rules_spec" / "stationfall"
    shutil.copytree(SPEC_ROOT / "stationfall", game)
    (game / "audit.yaml").unlink(missing_ok=True)
    report = json.loads(run_main("provenance", "stationfall", "--json", cwd=tmp_path).out)
    spec_rulings = yaml.safe_load((game / "rulings.yaml").read_text(encoding="utf-8"))["rulings"]
    audit = {
        "date": "2026-12-05",
        "readers": [{"name": "a test", "language": "cs"}],
        "entries": [
            {"entry": r["entry"], "kind": r["kind"], "quotes": r["quotes"], "verdict": "stated"}
            for r in report["entries"]
        ],
        "rulings": [
            {"ruling": r["id"], "readings": [o["title"] for o in r["options"]]}
            for r in spec_rulings
        ],
    }
    (game / "audit.yaml").write_text(
        yaml.safe_dump({"audit": audit}, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return game


def _audit(tmp_path: Path) -> tuple[int, list[str]]:
    run = run_main("provenance", "stationfall", "--audit", cwd=tmp_path)
    assert "Traceback" not in run.err
    return run.code, [line for line in run.out.splitlines() if line.startswith("finding: ")]


def test_a_spec_read_as_it_is_has_nothing_due(tmp_path: Path) -> None:
    _copy_with_audit(tmp_path)
    assert _audit(tmp_path) == (0, [])


def test_a_quote_changed_since_the_audit_is_due(tmp_path: Path) -> None:
    game = _copy_with_audit(tmp_path)
    edit(
        game / "parameters.yaml",
        'quote: "(3 hráči při 9 hráčích)"',
        'quote: "3 hráči při 9 hráčích"',
    )
    code, found = _audit(tmp_path)
    assert code == 1
    assert found == [
        "finding: parameter max_players: changed since the audit (then stated, 1 quote(s);"
        " now stated)"
    ]


def test_an_entry_never_audited_and_one_gone_are_due(tmp_path: Path) -> None:
    game = _copy_with_audit(tmp_path)
    edit(game / "audit.yaml", "entry: parameter max_players", "entry: parameter most_players")
    code, found = _audit(tmp_path)
    assert code == 1
    assert "finding: parameter max_players: not audited" in found
    assert "finding: parameter most_players: audited, but the spec has no such entry" in found


def test_a_ruling_with_fewer_options_than_the_readings_found_is_reported(
    tmp_path: Path,
) -> None:
    # the audit found one more reading of the card than annihilated_state has options
    game = _copy_with_audit(tmp_path)
    audit = yaml.safe_load((game / "audit.yaml").read_text(encoding="utf-8"))
    ruling = next(r for r in audit["audit"]["rulings"] if r["ruling"] == "annihilated_state")
    options = len(ruling["readings"])
    ruling["readings"].append("only the characters that are Live in its location")
    (game / "audit.yaml").write_text(
        yaml.safe_dump(audit, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    # the spec check cannot see it: the spec is valid
    assert run_main("validate", "--no-examples", "rules_spec/stationfall", cwd=tmp_path).code == 0
    code, found = _audit(tmp_path)
    assert code == 1
    assert found == [
        f"finding: ruling annihilated_state: the audit found {options + 1} readings of the"
        f" sources, the ruling offers {options} option(s): give each reading an option"
    ]


def test_the_audit_record_is_checked_as_spec_data(tmp_path: Path) -> None:
    game = _copy_with_audit(tmp_path)
    edit(game / "audit.yaml", "verdict: stated", "verdict: plausible")
    run = run_main("validate", "--no-examples", "rules_spec/stationfall", cwd=tmp_path)
    assert run.code == 3
    assert "rules_spec/stationfall/audit.yaml:" in run.err
    assert "verdict" in run.err
