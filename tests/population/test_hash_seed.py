"""A drawn table is the same in every process, whatever its hash seed.

Python orders a set of strings by their hashes, which change from one process
to the next (``PYTHONHASHSEED``); a sampler that walked such a set drew
different tables on different workers, and a report that depends on how the
chunks were spread. Each game's sequences are drawn here in two processes with
different hash seeds.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import PROJECT, SPEC_ROOT

#: two Python processes per run: the slow set
pytestmark = pytest.mark.slow

DRAW = """
import hashlib, json, sys
from pathlib import Path
from rulepress.games import load_spec
from rulepress.population.sampler import draw_states
root = Path(sys.argv[1])
for game in sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file()):
    loaded = load_spec(root / game)
    for seq in loaded.spec.sequences:
        drawn = list(draw_states(loaded, seq.id, seed=9, count=8))
        digest = hashlib.sha256(json.dumps(drawn, sort_keys=True).encode()).hexdigest()
        print(game, seq.id, digest)
"""


def _draws(hash_seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    done = subprocess.run(
        [sys.executable, "-c", DRAW, str(SPEC_ROOT)],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_process_draws_the_same_tables() -> None:
    first = _draws("1")
    assert first.strip()
    assert _draws("2") == first
    assert _draws("3") == first
