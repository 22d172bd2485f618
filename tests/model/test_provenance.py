"""Provenance: every statement of a spec made from documents says where it comes from.

Every ruling is the provenance of something (our games' rule that every entry
names its source is in tests/test_our_games.py); a copy of a real spec with one source removed, or
naming what is not there, is refused with a located problem; `rulepress
provenance` lists it all and filters for what is ruled.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from rulepress.checks.sources import entries
from rulepress.games.load import load_spec
from rulepress.model.provenance import Provenance
from tests.conftest import SPEC_ROOT, edit, game_dirs, run_main


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_every_ruling_is_the_provenance_of_something(game_dir: Path) -> None:
    # a ruling no entry names would be a decision that no rule says it follows
    spec = load_spec(game_dir).spec
    named = {r for _, _, source in entries(spec) if source for r in source.rulings}
    assert {r.id for r in spec.rulings} - named == set()


def _brink_copy(tmp_path: Path) -> Path:
    target = tmp_path / "rules_spec" / "brink"
    shutil.copytree(SPEC_ROOT / "brink", target)
    return target


def _validate(tmp_path: Path) -> tuple[int, list[str]]:
    result = run_main("validate", "--no-examples", "rules_spec/brink", cwd=tmp_path)
    return result.code, result.err.splitlines()


def test_an_entry_without_a_source_is_a_located_error(tmp_path: Path) -> None:
    game = _brink_copy(tmp_path)
    rules = game / "rules.yaml"
    edit(
        rules,
        '\n        source: {document: rulebook, lines: "74", quote: "Brink は3ラウンドで構成されています",'
        " rulings: [first_player_order]}",
        "",
    )
    # the first source of line 126 in the glossary is the revolt's, whatever its quote says
    glossary = game / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    revolt = re.compile(r'\n    source: \{document: rulebook, lines: "126",[^\n]*')
    assert revolt.search(text)
    glossary.write_text(revolt.sub("", text, count=1), encoding="utf-8")
    code, err = _validate(tmp_path)
    assert code == 3
    assert "Traceback" not in "\n".join(err)
    located = [line for line in err if "has no source" in line]
    assert len(located) == 2, err
    # the rule's own line in its file: file:line:col: where: what
    line = next(i for i, t in enumerate(rules.read_text().splitlines(), 1) if '"5.1"' in t)
    assert any(
        x.startswith(f"rules_spec/brink/rules.yaml:{line}:") and "rule 5.1 has no source" in x
        for x in located
    )
    assert any("glossary term revolt has no source" in x for x in located)


def test_a_source_naming_what_is_not_there_is_a_located_error(tmp_path: Path) -> None:
    game = _brink_copy(tmp_path)
    edit(game / "rules.yaml", "rulings: [first_player_order]", "rulings: [first_player_ordr]")
    edit(
        game / "parameters.yaml",
        'source: {document: rulebook, lines: "46"',
        'source: {document: rulebok, lines: "46"',
    )
    edit(
        game / "glossary.yaml",
        'source: {document: rulebook, lines: "232"',
        'source: {document: rulebook, lines: "999"',
    )
    edit(
        game / "sequences.yaml",
        "table_state: [table.council_track]",
        "table_state: [table.council_trak]",
    )
    code, err = _validate(tmp_path)
    text = "\n".join(err)
    assert code == 3
    assert "rules.yaml:" in text
    assert "unknown ruling 'first_player_ordr'" in text
    assert "parameters.yaml:" in text
    assert "unknown document 'rulebok' (rulebook)" in text
    assert "lines 999-999 are not lines of rulebook (it has 304)" in text
    assert "no table-state field 'table.council_trak'" in text


def test_a_spec_without_documents_demands_no_source(tmp_path: Path) -> None:
    # a game written straight into its spec (rulepress new, the fixtures) is its own source
    run_main("new", "mygame", "--spec-root", str(tmp_path / "rules_spec"), cwd=tmp_path)
    assert run_main("validate", "rules_spec/mygame", cwd=tmp_path).code == 0


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({}, "a source names a document, a ruling, components or table-state fields"),
        ({"lines": "3"}, "lines are lines of a document"),
        ({"document": "card"}, "name the passage of the document"),
        ({"document": "card", "lines": "3-"}, "not line numbers"),
        ({"table_state": ["council_track"]}, "not a field"),
    ],
)
def test_a_provenance_says_something_checkable(given: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Provenance.model_validate(given)


def test_kind_and_ranges() -> None:
    ruled = Provenance(document="card", lines="151, 179-190", rulings=["x"])
    assert ruled.kind == "inferred"
    assert ruled.ranges() == [(151, 151), (179, 190)]
    assert Provenance(table_state=["table.council_track"]).kind == "table-state"
    assert Provenance(document="card", lines="3").kind == "stated"


def test_the_provenance_command_filters_what_is_ruled() -> None:
    result = run_main("provenance", "brink", "--kind", "inferred", "--json", cwd=SPEC_ROOT.parent)
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["documents"][0]["id"] == "rulebook"
    rows = {r["entry"]: r for r in report["entries"]}
    assert {r["kind"] for r in rows.values()} == {"inferred"}
    assert rows["rule 11.6.2"]["rulings"] == ["rider_slot"]
    assert rows["rule 11.6.2"]["lines"] == "151, 181"
    assert "rule 14.2.1" not in rows  # stated plainly by the rulebook
    text = run_main("provenance", "brink", cwd=SPEC_ROOT.parent).out.splitlines()
    assert text[0].startswith("rulebook: ")
    line = next(t for t in text if t.startswith("rule 14.2.1 "))
    assert line.split()[:6] == ["rule", "14.2.1", "stated", "rulebook", "line", "258;"]
    assert line.endswith(
        "“大使（Ambassador）カードやライダーカードで特に指定がない限り、影響力のキューブは同じタイプの派閥にのみ投票できます”"
    )
