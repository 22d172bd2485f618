"""Stationfall's rulings argue from the card, and its audit record is kept up to date.

The audit (``rules_spec/stationfall/audit.yaml``) read every entry and ruling against
the Czech card; these tests keep the spec honest to it: each ruling quotes what the
card says, names any outside source as one, decides one question, and the audit
command finds nothing due.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rulepress.games.load import load_spec
from tests.conftest import SPEC_ROOT, run_cli

STATIONFALL = SPEC_ROOT / "stationfall"

#: words that name a source outside the card; a reason using one must say it is outside
OUTSIDE = ("German summary", "community", "summaries", "Reference Manual")


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "rules_spec" / "stationfall"
    shutil.copytree(STATIONFALL, target)
    return target


def _audit(tmp_path: Path) -> tuple[int, str]:
    result = run_cli("provenance", "stationfall", "--audit", cwd=tmp_path)
    return result.code, result.out + result.err


def test_every_ruling_quotes_the_card_and_names_outside_sources() -> None:
    rulings = load_spec(STATIONFALL).spec.rulings
    for ruling in rulings:
        assert ruling.says, f"{ruling.id} quotes nothing of the card"
        reason = str(ruling.reason)
        if any(word in reason for word in OUTSIDE):
            assert "outside source" in reason, f"{ruling.id} leans on an unnamed outside source"
    # the bundle of eight lost words is gone: one ruling per step's lost words
    ids = {r.id for r in rulings}
    assert "icon_words" not in ids
    assert {"reveal_words", "data_words", "bribe_words", "guilty_word"} <= ids


def test_the_audit_finds_nothing_due(tmp_path: Path) -> None:
    _copy(tmp_path)
    code, out = _audit(tmp_path)
    assert code == 0, out
