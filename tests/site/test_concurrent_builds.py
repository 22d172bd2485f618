"""Two builds into one ``--out`` take turns (rulepress.workdir.locked): neither fails halfway.

Two real commands are started together, round after round, on the tiny game in
English; between rounds a rule's words change, so that both have Sphinx work
to do. Both must succeed, and the published site must be whole and current.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA, LOCALES, edit

pytestmark = pytest.mark.slow

#: how many times two builds are started together
ROUNDS = 3


def _start(specs: Path, out: Path, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulepress",
            "build",
            "site",
            "--spec-root",
            str(specs),
            "--locales",
            str(LOCALES),
            "--lang",
            "en",
            "--no-doctest",
            "--out",
            str(out),
            "-q",
        ],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )


#: a word for each round, since a digit in rule text is a spec error
_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def test_two_builds_into_one_output_both_succeed(tmp_path: Path) -> None:
    specs = tmp_path / "rules_spec"
    shutil.copytree(DATA / "specs" / "tiny", specs / "tiny")
    out = tmp_path / "site"
    words = "The player with the most points wins."
    waited = 0
    for round_ in range(ROUNDS):
        # rule text holds no digits (validate refuses them): each round is told by a word
        new = f"The player with the most points wins (round {_WORDS[round_]})."
        edit(specs / "tiny" / "rules.yaml", words, new)
        words = new
        builds = [_start(specs, out, tmp_path) for _ in range(2)]
        results = [build.communicate(timeout=600) for build in builds]
        for build, (_, err) in zip(builds, results, strict=True):
            assert build.returncode == 0, f"round {round_}: {err}"
            assert "Traceback" not in err
        waited += sum("waiting for it to finish" in err for _, err in results)
        rules = (out / "en" / "tiny" / "rules.html").read_text(encoding="utf-8")
        assert words in rules, f"round {round_}"
        assert (out / "index.html").is_file()
        assert (out / "en" / "search.html").is_file()
        # the site, and beside it the record of what it shows in English (rulepress gate)
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "rules_spec",
            "site",
            "site-fallbacks.json",
        ]
    assert waited >= 1  # they did meet: one waited for the other
