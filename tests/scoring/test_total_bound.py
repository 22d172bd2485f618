"""A total past ±10^15 (MAX_INT) stops scoring with a located state error, exit 4.

Every step's points lie within the bound (each is an expression's result), but
their sum need not: the tiny game scored twice at the bound went past it.
Goes red without the check in ``rulepress.scoring.engine`` (the total was printed).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import DATA, edit, run_main

SECOND_STEP = """      - number: "2"
        title: Points again
        text: Score your points again.
        rules: ["1"]
        score:
          id: again
          title: Points again
          component:
            op: sum
            parts:
              - when: "True"
                value: points
                note: "points held: {points}"
                args: {points: points}
      - number: "3"
        title: Winner
"""


def test_a_total_past_the_bound_is_refused_located(tmp_path: Path) -> None:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    edit(game / "sequence.yaml", '      - number: "2"\n        title: Winner\n', SECOND_STEP)
    state = tmp_path / "state.yaml"
    state.write_text(
        "players:\n  - {id: ada, colour: red, points: 1000000000000000, times: 1}\n",
        encoding="utf-8",
    )
    run = run_main("score", "tiny", str(state), "--spec-root", str(game.parent))
    assert run.code == 4, (run.out, run.err)
    assert "Traceback" not in run.err
    assert "sequence.yaml:" in run.err
    assert "step 2 (Points again): player ada:" in run.err
    assert (
        "the total 2000000000000000 after step 2 is beyond the bound of ±1000000000000000"
        in run.err
    )
    assert run.out == ""
