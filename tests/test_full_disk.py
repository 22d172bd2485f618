"""A full disk exits 9, as the exit-code table says, with one line and no traceback.

Two faithful ways to meet ENOSPC from the kernel itself: ``/dev/full`` as the
command's standard output, and (as root, where a tmpfs can be mounted) a site
build whose output folder lies on a tmpfs of 512 KiB. Before, both exited 1 (the
CLI mapped every OSError to "an error of no more specific kind"), and a full
disk inside Sphinx once gave its crash report and exit 6.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, one_game_root


def _rulepress(
    *args: str, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=ROOT,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=900,
        check=False,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_standard_output_exits_9() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        proc = _rulepress("state-template", "brink", stdout=full.fileno())
    assert proc.returncode == 9, proc.stderr
    assert "No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of 512 KiB (root only): the first site build to fill it meets ENOSPC."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; /dev/full covers the exit code without it")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


@pytest.mark.slow
def test_a_full_disk_during_a_site_build_exits_9(small_disk: Path, tmp_path: Path) -> None:
    out = small_disk / "site"
    # one game, no guides (none beside its spec root): its English site (about 1 MiB)
    # fills the disk as well as every game's did, in a third of the time
    proc = _rulepress(
        "build",
        "site",
        "--spec-root",
        str(one_game_root(tmp_path)),
        "--lang",
        "en",
        "--no-doctest",
        "--out",
        str(out),
    )
    assert proc.returncode == 9, proc.stderr[-3000:]
    assert "No space left on device" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "crash" not in proc.stderr.lower()  # not Sphinx's crash report
    assert not out.exists() or not any(out.iterdir())  # nothing half-written is published
