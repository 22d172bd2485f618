"""Output folders and files lose nothing: staged aside, swapped in whole, marked, never followed.

The full-disk cases run on a small tmpfs when this process may mount one (CI runs
as root); elsewhere on a size limit for every file the command writes
(RLIMIT_FSIZE), which fails the same writes with EFBIG instead of ENOSPC.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulepress.errors import ExitCode
from rulepress.output import MARKER, OutputError, check, replace_files, replacing
from tests.conftest import LOCALES, ROOT, SPEC_ROOT, Run, one_game_root, run_cli


def _tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target (links not followed)."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[name] = "-> " + os.readlink(path)
        elif path.is_file():
            out[name] = path.read_bytes()
    return out


def _siblings(folder: Path) -> list[str]:
    """What lies beside ``folder`` apart from it: temporary folders a build left, say."""
    return sorted(p.name for p in folder.parent.iterdir() if p != folder)


def _made(out: Path, files: dict[str, bytes], kind: str = "print") -> None:
    with replacing(out, kind) as staged:
        for name, data in files.items():
            staged.write(name, data)


# ------------------------------------------------------------------ the folder swap


def test_a_build_fills_a_new_folder_and_marks_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _made(out, {"en/a.pdf": b"A", "cs/b.pdf": b"B"})
    marker = json.loads((out / MARKER).read_text())
    assert marker == {"made_by": "rulepress", "kind": "print", "files": ["cs/b.pdf", "en/a.pdf"]}
    assert _tree(out)["en/a.pdf"] == b"A"
    assert _siblings(out) == []  # no staging folder left beside it
    assert oct(out.stat().st_mode & 0o777) != oct(0o700)  # a web server may read it


def test_a_failed_build_leaves_the_previous_output_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _made(out, {"en/a.pdf": b"old"})
    before = _tree(out)

    def build() -> None:
        with replacing(out, "print", keep=True) as staged:
            staged.write("en/a.pdf", b"new")
            raise RuntimeError("a late problem")

    with pytest.raises(RuntimeError):
        build()
    assert _tree(out) == before
    assert _siblings(out) == []


def test_keep_carries_earlier_files_without_writing_through_them(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _made(out, {"en/a.pdf": b"en", "cs/a.pdf": b"cs"})
    kept = out / "cs" / "a.pdf"
    inode = kept.stat().st_ino
    with replacing(out, "print", keep=True) as staged:
        staged.write("cs/a.pdf", b"cs 2")  # the old file is a hard link here: never written
        assert kept.read_bytes() == b"cs"
    assert _tree(out)["en/a.pdf"] == b"en"  # another language's files stay
    assert _tree(out)["cs/a.pdf"] == b"cs 2"
    assert (out / "cs" / "a.pdf").stat().st_ino != inode


def test_a_folder_rulepress_did_not_make_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own page")
    with pytest.raises(OutputError) as err:
        _made(out, {"index.html": b"generated"}, "site")
    assert err.value.exit_code == ExitCode.OUTPUT
    assert "did not make (index.html)" in err.value.render()
    assert (out / "index.html").read_text() == "my own page"
    assert _siblings(out) == []


def test_force_replaces_it_and_keeps_what_it_held_aside(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own page")
    said: list[str] = []
    with replacing(out, "site", force=True, warn=said.append) as staged:
        staged.write("index.html", b"generated")
    assert (out / "index.html").read_bytes() == b"generated"
    (aside,) = [p for p in tmp_path.iterdir() if p.name.startswith("mine.replaced-")]
    assert (aside / "index.html").read_text() == "my own page"
    assert said
    assert str(aside) in said[0]


def test_an_empty_folder_is_taken(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    _made(out, {"x.pdf": b"x"})
    assert (out / "x.pdf").read_bytes() == b"x"


def test_a_users_file_added_to_rulepress_output_is_not_lost(tmp_path: Path) -> None:
    out = tmp_path / "site"
    _made(out, {"index.html": b"generated"}, "site")
    (out / "CNAME").write_text("rules.example.org")
    with pytest.raises(OutputError, match="CNAME was not made by rulepress"):
        _made(out, {"index.html": b"again"}, "site")
    assert (out / "CNAME").is_file()


def test_the_other_kind_of_output_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _made(out, {"index.html": b"generated"}, "site")
    with pytest.raises(OutputError, match="site output, not its print output"):
        check(out, "print")


def test_a_file_given_as_the_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.write_text("a file")
    with pytest.raises(OutputError, match="a file, not a folder"):
        check(out, "print", force=True)


def test_a_forged_marker_counts_as_none(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    (out / MARKER).write_text('{"kind": "print", "files": ["precious.txt"], "run": "x"}')
    with pytest.raises(OutputError, match="did not make"):
        check(out, "print")


# ------------------------------------------------------------------ symbolic links


def test_a_link_inside_the_output_is_never_followed(tmp_path: Path) -> None:
    out = tmp_path / "site"
    _made(out, {"index.html": b"generated"}, "site")
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's file")
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(victim)
    with pytest.raises(OutputError, match=r"index\.html is a symbolic link"):
        _made(out, {"index.html": b"again"}, "site")
    # forced, the link is moved aside with the folder: its target is still not written
    with replacing(out, "site", force=True) as staged:
        staged.write("index.html", b"again")
    assert victim.read_text() == "the user's file"
    assert (out / "index.html").read_bytes() == b"again"
    assert not (out / "index.html").is_symlink()


def test_keep_does_not_carry_a_link_over(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _made(out, {"en/a.pdf": b"en"})
    (out / "en" / "a.pdf").unlink()
    (out / "en" / "a.pdf").symlink_to("/etc/hostname")
    with replacing(out, "print", keep=True, force=True) as staged:
        staged.write("cs/a.pdf", b"cs")
    assert not (out / "en" / "a.pdf").exists()


def test_a_symlinked_out_means_the_folder_it_names(tmp_path: Path) -> None:
    real = tmp_path / "real"
    _made(real, {"a.pdf": b"1"})
    link = tmp_path / "link"
    link.symlink_to(real)
    _made(link, {"a.pdf": b"2"})
    assert link.is_symlink()
    assert (real / "a.pdf").read_bytes() == b"2"


def test_stale_staging_folders_of_dead_builds_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # a process id that is no longer running
    stale = tmp_path / f".out.tmp-{child.pid}-abc"
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"half")
    _made(out, {"a.pdf": b"1"})
    assert not stale.exists()


# ------------------------------------------------------------------ loose files


def test_replace_files_writes_all_or_none(tmp_path: Path) -> None:
    a, b = tmp_path / "a.mo", tmp_path / "sub" / "b.mo"
    a.write_bytes(b"old a")
    blocker = tmp_path / "z-blocked"  # written last: a.mo and sub/b.mo are made first
    blocker.write_text("a file where a folder must go")
    with pytest.raises(OutputError, match="nothing was written"):
        replace_files({a: b"new a", b: b"new b", blocker / "c.mo": b"c"})
    assert a.read_bytes() == b"old a"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.mo", "z-blocked"]


def test_replace_files_replaces_a_link_rather_than_its_target(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    link = tmp_path / "x.mo"
    link.symlink_to(victim)
    assert replace_files({link: b"new"}) == [link]
    assert victim.read_bytes() == b"keep"
    assert link.read_bytes() == b"new"
    assert not link.is_symlink()


# ------------------------------------------------------------------ full disks, from the CLI


Disk = Callable[..., tuple[Path, Callable[[], None] | None]]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Disk]:
    """A folder on a small disk of ``size`` bytes, and what a child process must run first.

    A tmpfs when it can be mounted (the folder's writes then fail with ENOSPC);
    otherwise a plain folder and a limit of ``file_limit`` (default ``size``) bytes
    on any file the child writes (EFBIG), with SIGXFSZ ignored so that the write
    fails instead of killing it.
    """
    mounted: list[Path] = []

    def make(size: int, file_limit: int | None = None) -> tuple[Path, Callable[[], None] | None]:
        folder = tmp_path / f"disk{len(mounted)}"
        folder.mkdir()
        if os.geteuid() == 0 and shutil.which("mount"):
            done = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                capture_output=True,
                check=False,
            )
            if done.returncode == 0:
                mounted.append(folder)
                return folder, None

        most = file_limit or size

        def limit() -> None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (most, most))

        mounted.append(Path())  # numbering only
        return folder, limit

    yield make
    for folder in mounted:
        if folder != Path():
            subprocess.run(["umount", str(folder)], check=False)


def _cli(*args: str, cwd: Path, first: Callable[[], None] | None) -> Run:
    proc = subprocess.run(
        [sys.executable, "-m", "rulepress", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
        timeout=600,
        check=False,
        preexec_fn=first,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def test_i18n_compile_on_a_full_disk_writes_no_catalog(small_disk: Disk) -> None:
    po = sum(p.stat().st_size for p in (LOCALES).rglob("*") if p.is_file())
    # room for the catalogs and the first .mo files, not for all of them (on a tmpfs);
    # or no file larger than the largest catalogs' .mo (a size limit)
    disk, first = small_disk(po + 400_000, file_limit=200_000)
    shutil.copytree(LOCALES, disk / "locales")
    before = _tree(disk)
    run = _cli(
        "i18n", "compile", "--spec-root", str(SPEC_ROOT), "--locales", str(disk / "locales"),
        "--out", str(disk / "build" / "locales"), cwd=ROOT, first=first,
    )  # fmt: skip
    assert run.code == ExitCode.OUTPUT, run.err
    assert "Traceback" not in run.err
    assert "nothing was written" in run.err
    assert _tree(disk) == before  # no .mo, no temporary file


def test_an_unwritable_out_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    run = run_cli("build", "print", "--lang", "en", "--out", str(blocker / "print"))
    assert run.code == ExitCode.OUTPUT, run.err
    assert "Traceback" not in run.err
    assert "output folder" in run.err
    assert "print [" not in run.err  # refused before any layout, not after it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_users_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own page")
    for command in (("build", "site"), ("build", "print")):
        run = run_cli(*command, "--lang", "en", "--out", str(out))
        assert run.code == ExitCode.OUTPUT, run.err
        assert "--force" in run.err
        assert (out / "index.html").read_text() == "my own page"


@pytest.mark.slow
@pytest.mark.print
def test_build_print_on_a_full_disk_keeps_the_earlier_pdfs(
    tmp_path: Path, small_disk: Disk
) -> None:
    # one game's files (about 1.2 MB, none over 250 KB) on a disk of half that, or with no
    # file over 100 KB where no tmpfs can be mounted
    disk, first = small_disk(600_000, file_limit=100_000)
    out = disk / "print"
    _made(out, {"en/stationfall/reference-a5.pdf": b"the earlier card"})
    before = _tree(disk)
    specs = ("--spec-root", str(one_game_root(tmp_path)))
    run = _cli("build", "print", *specs, "--lang", "en", "--out", str(out), cwd=ROOT, first=first)
    assert run.code == ExitCode.OUTPUT, run.err
    assert "Traceback" not in run.err
    assert "disk is full or the file too large" in run.err
    assert _tree(disk) == before  # the earlier PDF, and nothing else: no .tmp, no half folder


@pytest.mark.slow
def test_publishing_the_site_on_a_full_disk_keeps_the_published_one(
    tmp_path: Path, small_disk: Disk
) -> None:
    from rulepress.sphinx_ext.build import SiteBuild

    disk, first = small_disk(3_000_000)
    if first is not None:
        pytest.skip("needs a tmpfs: the site's publish step runs in this process")
    # Sphinx's output (the work folder) on a roomy disk, larger than the room left here
    work = tmp_path / "work"
    site = SiteBuild(ROOT, SPEC_ROOT, LOCALES, disk / "site", ("en",), work_dir=work)
    _made(site.out, {"index.html": b"the published site"}, "site")
    (work / "html" / "en").mkdir(parents=True)
    for n in range(4):
        (work / "html" / "en" / f"page{n}.html").write_bytes(b"x" * 1_000_000)
    before = _tree(disk)
    with pytest.raises(OutputError, match="disk is full"):
        site.publish()
    assert _tree(disk) == before
