"""An impact question gives the same report in one process, on a pool and on Dask.

The Dask run uses a local ``dask.distributed`` cluster of two worker
processes (the ``rulepress[scale]`` extra, which the dev install has).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulepress.impact.question import Question, run
from rulepress.impact.report import build_report
from rulepress.impact.rulesets import RuleSet
from rulepress.population.sampler import draw_states
from tests.conftest import GAMES, SPEC_ROOT, loaded

#: process pools and a cluster start in seconds: the slow set
pytestmark = pytest.mark.slow


def _questions(tmp_path: Path) -> list[Question]:
    """A drawn and a recorded question of every game with a ruling that has options."""
    out = []
    for game in GAMES:
        spec = loaded(game).spec
        option = next((o.id for r in spec.rulings for o in r.options if o.id != r.default), None)
        if option is None:
            continue
        game_dir = str((SPEC_ROOT / game).resolve())
        before, after = RuleSet(game_dir), RuleSet(game_dir, None, (option,))
        out.append(Question(before, after, seed=9, tables=24))
        corpus = tmp_path / f"{game}.jsonl"
        lines = [json.dumps(s) for s in draw_states(loaded(game), None, seed=9, count=12)]
        lines.insert(5, "[1, 2")  # a bad record, reported wherever its chunk runs
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(Question(before, after, corpus=str(corpus)))
    return out


def test_a_pool_and_a_dask_cluster_give_the_report_of_one_process(
    dask_scheduler: str, tmp_path: Path
) -> None:
    for question in _questions(tmp_path):
        alone = build_report(question, run(question, workers=1), shrink_budget=50).to_json()
        pooled = build_report(question, run(question, workers=2), shrink_budget=50).to_json()
        spread = run(question, scheduler=dask_scheduler)
        assert pooled == alone
        assert build_report(question, spread, shrink_budget=50).to_json() == alone
