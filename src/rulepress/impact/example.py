"""A table that shows a change, written out as a worked example ready to paste.

The example is scored under rule set B (its ruling options become the
example's ``variants``) and states what B gives: each player's total and
the lines that changed, the winners and what decided them. Pasted into the
game's ``examples.yaml`` it passes ``rulepress validate`` as it is; its
title and text are a first draft for the author to rewrite.
"""

from __future__ import annotations

from typing import Any

import yaml

from rulepress.model import LoadedSpec
from rulepress.scoring.result import ScoreResult


def example_entry(
    loaded: LoadedSpec,
    example_id: str,
    raw: dict[str, Any],
    result: ScoreResult,
    variants: list[str],
    changed_steps: list[str],
    summary: str,
) -> dict[str, Any]:
    """The worked example (as YAML data) of ``raw`` scored as ``result``."""
    spec = loaded.spec
    rules: list[str] = []
    for p in result.players:
        for line in p.lines:
            if line.step in changed_steps:
                rules += [r for r in line.rules if r not in rules]
    if not rules and result.winners is not None:
        rules = list(result.winners.rules)
    if not rules:  # nothing cited: the sequence's first step's rules
        rules = [r for p in result.players for line in p.lines for r in line.rules][:1]
    players: dict[str, dict[str, Any]] = {}
    for p in result.players:
        facts: dict[str, Any] = {}
        if p.total is not None:
            facts["total"] = p.total
        for line in p.lines:
            if line.step in changed_steps:
                facts[line.score] = line.points
        players[p.id] = facts
    expect: dict[str, Any] = {"players": players}
    if result.winners is not None:
        expect["winners"] = list(result.winners.winners)
        expect["decided_by"] = result.winners.decided_by
    entry: dict[str, Any] = {
        "id": example_id,
        "title": f"{spec.game.title}: {summary}",
        "rules": rules,
        "text": (
            f"A table found by rulepress impact and shrunk: {summary}. Say here, in the"
            " rules' own words, why each player scores what they do."
        ),
    }
    if result.sequence != spec.scorer.sequence:
        entry["sequence"] = result.sequence
    if variants:
        entry["variants"] = variants
    entry["state"] = raw
    entry["expect"] = expect
    return entry


def example_yaml(entry: dict[str, Any]) -> str:
    """The entry as a list item of ``examples:``, indented as the specs' examples are."""
    text = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, width=100)
    return "".join(f"  {line}" if line.strip() else line for line in text.splitlines(True))
