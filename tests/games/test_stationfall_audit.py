"""Stationfall's rulings argue from the card, and its audit record is kept up to date.

The audit (``rules_spec/stationfall/audit.yaml``) read every entry and ruling against
the Czech card; these tests keep the spec honest to it: each ruling quotes what the
card says, names any outside source as one, decides one question, and the audit
command finds nothing due.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

from rulepress.games.load import load_spec
from tests.conftest import SPEC_ROOT, run_main

STATIONFALL = SPEC_ROOT / "stationfall"

#: words that name a source outside the card; a reason using one must say it is outside
OUTSIDE = ("German summary", "community", "summaries", "Reference Manual")


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "rules_spec" / "stationfall"
    shutil.copytree(STATIONFALL, target)
    return target


def _audit(tmp_path: Path) -> tuple[int, str]:
    result = run_main("provenance", "stationfall", "--audit", cwd=tmp_path)
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


#: the four questions winner_places bundled, one ruling each now
SPLIT = ("last_place_tie", "guilty_places", "negative_totals", "unused_cubes")


def test_winner_places_is_split_into_one_ruling_per_question() -> None:
    ids = {r.id for r in load_spec(STATIONFALL).spec.rulings}
    assert "winner_places" not in ids
    assert set(SPLIT) <= ids
    # no rule, step, term or example names the bundle any more (the audit record keeps
    # its history in notes)
    for path in sorted(STATIONFALL.glob("*.yaml")):
        if path.name != "audit.yaml":
            assert "winner_places" not in path.read_text(encoding="utf-8"), path.name


def test_each_split_ruling_offers_distinct_readings_and_says_which_it_scores() -> None:
    spec = load_spec(STATIONFALL).spec
    assert spec.audit is not None
    readings = {r.ruling: r.readings for r in spec.audit.rulings}
    sequence = (STATIONFALL / "sequence.yaml").read_text(encoding="utf-8")
    scored = set()
    for ruling in (r for r in spec.rulings if r.id in SPLIT):
        # an option for each reading the audit found, and no two options alike
        assert len(ruling.options) == len(readings[ruling.id]), ruling.id
        for field in ("id", "title", "description"):
            values = [str(getattr(o, field)) for o in ruling.options]
            assert len(set(values)) == len(values), f"{ruling.id}: two options share a {field}"
        # every other reading is either scored (the sequence reads it, in an expression
        # or as a key of a value per option) or named in the reason as one the scorer
        # cannot score
        for option in ruling.options:
            if option.id == ruling.default:
                continue
            if f"'{option.id}'" in sequence or f" {option.id}:" in sequence:
                scored.add(option.id)
            else:
                assert "cannot score" in str(ruling.reason), f"{ruling.id}: {option.id}"
    # the floor changes a total, and the winners step reports a final tie, leaves the
    # tie-breaks out or counts the places among every player: every reading is scored
    assert scored == {
        "floor_at_zero",
        "no_more_winners_than_places",
        "points_alone_when_several_win",
        "guilty_place_stays_empty",
    }


def _ruling_refs(node: object) -> set[str]:
    """The rulings an expression anywhere under ``node`` reads (``ruling.<id>``)."""
    if isinstance(node, str):
        return set(re.findall(r"\bruling\.([a-z_]+)", node))
    if isinstance(node, dict):
        return set().union(*(_ruling_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_ruling_refs(v) for v in node))
    return set()


def test_every_step_names_the_rulings_its_expressions_read() -> None:
    # a step whose score changes with a ruling is inferred from it: its provenance must
    # say so, or the reader sees a step "from the card" whose points a ruling decides
    # (step 4a counted step 3's Data by data_providers without naming it)
    sequence = yaml.safe_load((STATIONFALL / "sequence.yaml").read_text(encoding="utf-8"))
    checked = 0
    for seq in sequence["sequences"]:
        todo = list(seq["steps"])
        while todo:
            step = todo.pop()
            todo.extend(step.get("steps", []))
            body = {k: v for k, v in step.items() if k not in ("steps", "source")}
            read = _ruling_refs(body)
            named = set(step.get("source", {}).get("rulings", []))
            assert read <= named, f"step {step['number']} reads {sorted(read - named)} unnamed"
            checked += bool(read)
    assert checked >= 5  # steps 3, 4a, 4b, 4c and 4d read rulings
