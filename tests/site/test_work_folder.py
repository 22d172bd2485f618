"""The site build's work folder is ours, checked and never followed; its PDFs are ours too.

- the work folder is a private folder of the user's cache (rulepress.workdir): made
  owner-only, refused when it is a link, another user's or writable by others;
- what an earlier build left there is used only when it matches that build's
  manifest: a planted environment pickle is never loaded, and a page deleted or
  edited there is built again, not published as it is;
- nothing is written through a link;
- only PDFs that ``build print`` recorded are published, read without following links;
- two builds into one ``--out`` take turns (tests/site/test_concurrent_builds.py).
"""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from rulepress import workdir
from rulepress.output import OutputError
from rulepress.print import written
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import DATA, LOCALES, edit


def _tiny(tmp_path: Path) -> Path:
    specs = tmp_path / "rules_spec"
    shutil.copytree(DATA / "specs" / "tiny", specs / "tiny")
    return specs


def _site(tmp_path: Path, specs: Path, **options: object) -> SiteBuild:
    return SiteBuild(tmp_path, specs, LOCALES, tmp_path / "out", ("en",), **options)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the private folder


def test_the_work_folder_is_private_and_keyed_by_the_output(tmp_path: Path) -> None:
    one = workdir.work_folder("site", tmp_path / "a" / "site")
    two = workdir.work_folder("site", tmp_path / "b" / "site")
    assert one != two
    assert one == workdir.work_folder("site", tmp_path / "a" / ".." / "a" / "site")
    assert not one.is_relative_to(tmp_path)  # never beside --out, in the project
    for folder in (one, one.parent, one.parent.parent):
        assert folder.stat().st_mode & 0o777 == 0o700, folder


def test_a_work_folder_that_is_a_link_or_open_to_others_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache.mkdir()
    (cache / "rulepress").symlink_to(elsewhere)
    with pytest.raises(OutputError, match="not private") as info:
        workdir.work_folder("site", tmp_path / "out")
    assert "symbolic link" in info.value.problems[0].message
    assert list(elsewhere.iterdir()) == []  # nothing made through it
    (cache / "rulepress").unlink()
    (cache / "rulepress").mkdir(mode=0o700)
    os.chmod(cache / "rulepress", 0o777)
    with pytest.raises(OutputError, match="not private") as info:
        workdir.work_folder("site", tmp_path / "out")
    assert "others may write" in info.value.problems[0].message


def test_a_work_file_that_is_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    site = _site(tmp_path, _tiny(tmp_path), work_dir=tmp_path / "work")
    victim = tmp_path / "victim.txt"
    victim.write_text("mine", encoding="utf-8")
    link = site.sources / "en" / "conf.py"
    link.parent.mkdir(parents=True)
    link.symlink_to(victim)
    site.write(link, "generated")
    assert victim.read_text(encoding="utf-8") == "mine"
    assert not link.is_symlink()
    assert link.read_text(encoding="utf-8") == "generated"


# ------------------------------------------------------------------------ the PDFs


def test_only_pdfs_that_build_print_recorded_are_offered(tmp_path: Path) -> None:
    pdfs = tmp_path / "print"
    folder = pdfs / "en" / "tiny"
    folder.mkdir(parents=True)
    ours = b"%PDF-1.7 the rulebook rulepress wrote"
    (folder / "rulebook-a4.pdf").write_bytes(ours)
    written.record(pdfs, {"en/tiny/rulebook-a4.pdf": ours, "en/tiny/pnp-a4.pdf": ours}, [])
    # a link with the very bytes recorded for it: still never followed
    (tmp_path / "copy.pdf").write_bytes(ours)
    (folder / "pnp-a4.pdf").symlink_to(tmp_path / "copy.pdf")
    # a file of the same name kind that the print build did not write
    (folder / "reference-a4.pdf").write_bytes(b"%PDF-1.7 someone else's")
    warned: list[str] = []
    site = _site(tmp_path, _tiny(tmp_path), pdfs=pdfs, warn=warned.append)
    assert site.downloads("en", "tiny") == [folder / "rulebook-a4.pdf"]
    assert sorted(Path(w.split(":")[0]).name for w in warned) == ["pnp-a4.pdf", "reference-a4.pdf"]
    # the recorded file, edited afterwards, is not what the print build wrote either
    (folder / "rulebook-a4.pdf").write_bytes(b"%PDF-1.7 edited")
    site.plan()
    assert site.downloads("en", "tiny") == []


# ------------------------------------------------------- what an earlier build left


class _Planted:
    """Unpickling it leaves a file: what a planted environment pickle would do."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (Path.write_text, (self.mark, "unpickled"))  # type: ignore[return-value]


@pytest.mark.slow
def test_an_altered_work_folder_is_built_afresh_never_loaded_or_published(
    tmp_path: Path,
) -> None:
    specs = _tiny(tmp_path)

    def build() -> SiteBuild:
        site = _site(tmp_path, specs)
        site.build(doctest=False)
        return site

    site = build()
    page = site.out / "en" / "tiny" / "index.html"
    built = page.read_bytes()
    staged = site.stage / "en" / "tiny" / "index.html"
    # a page edited in the work folder, with no change to the specs
    staged.write_bytes(b"<p>defaced</p>")
    build()
    assert page.read_bytes() == built
    # a page deleted there
    staged.unlink()
    build()
    assert page.read_bytes() == built
    # a planted environment pickle, and an edit to the rules so that Sphinx runs: the
    # pickle is never loaded (an incremental build would load it first)
    mark = tmp_path / "unpickled.txt"
    environment = site.work / "doctrees" / "en" / "environment.pickle"
    assert environment.is_file()
    environment.write_bytes(pickle.dumps(_Planted(mark)))
    # and a page that Sphinx will write again is a link to a file elsewhere: not written
    # through (it was removed, with the rest of the language's work)
    victim = tmp_path / "victim.html"
    victim.write_text("mine", encoding="utf-8")
    rules = site.stage / "en" / "tiny" / "rules.html"
    rules.unlink()
    rules.symlink_to(victim)
    edit(specs / "tiny" / "rules.yaml", "the most points wins", "the most points is the winner")
    build()
    assert not mark.exists()
    assert victim.read_text(encoding="utf-8") == "mine"
    assert "the most points is the winner" in (site.out / "en" / "tiny" / "rules.html").read_text(
        encoding="utf-8"
    )
    # a file added to the stage is not published either
    (site.stage / "planted.html").write_text("<p>planted</p>", encoding="utf-8")
    (site.stage / "en" / "planted.html").write_text("<p>planted</p>", encoding="utf-8")
    build()
    assert not (site.out / "planted.html").exists()
    assert not (site.out / "en" / "planted.html").exists()
    # and a build with nothing altered is incremental: its manifest matched
    again = _site(tmp_path, specs)
    again.build(doctest=False)
    assert again.skipped == {"en"}
