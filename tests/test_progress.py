"""Long work shows progress: a live line on a terminal, plain lines in a log, none with --quiet."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.progress import Counter, Display, Step
from tests.conftest import ROOT, one_game_root, run_cli


def test_plain_lines_name_the_stage_the_count_and_the_item() -> None:
    stream = io.StringIO()
    Display(stream, live=False)(Step("print", 2, 6, "stationfall (cs): 7 PDF file(s)", 1.25))
    assert stream.getvalue() == "print [2/6] stationfall (cs): 7 PDF file(s) (1.2 s)\n"


def test_a_live_line_is_rewritten_in_place_and_cleared_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "21")
    stream = io.StringIO()
    display = Display(stream, live=True)
    display(Step("site: pages", 1, 2, "ブリンク (ja)"))
    display(Step("site: pages", 2, 2, "stationfall (cs)"))
    display.close()
    shown = stream.getvalue().split("\r\x1b[K")
    assert shown == ["", "site: pages [1/2] ブ", "site: pages [2/2] st", ""]
    assert "\n" not in stream.getvalue()


def test_a_counter_counts_its_stage() -> None:
    seen: list[Step] = []
    count = Counter(seen.append, "print", 2)
    count("a")
    count("b", seconds=3.0)
    assert [(s.done, s.total, s.item) for s in seen] == [(1, 2, "a"), (2, 2, "b")]
    assert seen[1].seconds == 3.0


@pytest.mark.slow
def test_build_site_reports_each_stage_and_quiet_silences_it(tmp_path: Path) -> None:
    out = tmp_path / "site"
    # one game, and no guides (none beside its spec root): the stages are the same for any
    # number of games, and every game's site with the guides took twice as long
    args = (
        *("build", "site", "--spec-root", str(one_game_root(tmp_path)), "--lang", "en"),
        *("--no-doctest", "--out", str(out), "--pdfs", "none"),
    )
    run = run_cli(*args, cwd=ROOT, timeout=300)
    assert run.code == 0, run.err
    lines = run.err.splitlines()
    assert any(line.startswith("site: pages [1/") for line in lines), run.err
    assert any(line.startswith("site: sphinx [1/1] html (en)") for line in lines), run.err
    assert lines[-1].startswith("site: publish [1/1]"), run.err
    quiet = run_cli(*args, "--quiet", cwd=ROOT)
    assert quiet.code == 0
    assert quiet.err == ""
    assert quiet.out.startswith("site: ")

    # on a terminal: one status line, rewritten, and cleared before the command's own output
    leader, follower = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=ROOT,
        stderr=follower,
        stdout=subprocess.PIPE,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
        timeout=300,
        check=False,
    )
    os.close(follower)
    shown = os.read(leader, 65536).decode()
    os.close(leader)
    assert proc.returncode == 0
    assert "\r\x1b[Ksite: publish [1/1]" in shown
    assert shown.endswith("\r\x1b[K")
    assert "\n" not in shown
