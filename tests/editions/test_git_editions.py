"""Editions read from git revisions: with ``git archive``, never touching the work tree."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from rulepress.cli import main
from tests.conftest import DATA, edit

EDITIONS = DATA / "editions"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project whose two commits are the two editions of harbour."""
    project = tmp_path / "project"
    game = project / "rules_spec" / "harbour"
    shutil.copytree(EDITIONS / "first" / "harbour", game)
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "first edition")
    _git(project, "tag", "v1")
    shutil.rmtree(game)
    # new files, new times: a file of the same size and time (and a reused inode) is one
    # git add takes for unchanged
    shutil.copytree(EDITIONS / "second" / "harbour", game, copy_function=shutil.copy)
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "second edition")
    return project


def _state(repo: Path) -> tuple[str, str, bytes]:
    return (
        _git(repo, "rev-parse", "HEAD"),
        _git(repo, "status", "--porcelain", "--untracked-files=all"),
        (repo / ".git" / "index").read_bytes(),
    )


def _diff(repo: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["diff", "--spec-root", str(repo / "rules_spec"), "harbour", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_two_revisions_give_the_diff_of_the_two_folders(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    # an edit in progress, which the diff must leave as it is
    edit(
        repo / "rules_spec" / "harbour" / "rules.yaml", "title: Overview", "title: Overview (draft)"
    )
    before = _state(repo)
    code, out, err = _diff(repo, "v1", "HEAD", "--json", capsys=capsys)
    assert (code, err) == (0, "")
    from_git = json.loads(out)
    assert (from_git["old"]["source"], from_git["new"]["source"]) == ("v1", "HEAD")
    code, out, _ = _diff(
        repo, str(EDITIONS / "first"), str(EDITIONS / "second"), "--json", capsys=capsys
    )
    from_folders = json.loads(out)
    for data in (from_git, from_folders):
        del data["old"]["source"], data["new"]["source"]
    # the problems of the example that no longer fits name the file as git show does
    hold = next(c for c in from_git["consequences"] if c["id"] == "full-hold")
    assert hold["problems"] == [
        "v1:rules_spec/harbour/examples.yaml:183:25: examples[6].state.players[0].goods.fish:"
        " 9 is more than the most allowed, 8"
    ]
    for data in (from_git, from_folders):
        data["consequences"] = [c for c in data["consequences"] if c["id"] != "full-hold"]
    assert from_git == from_folders
    # nothing of the user's repository changed, and the temporary copies are gone
    assert _state(repo) == before
    assert list(scratch.iterdir()) == []


def test_the_new_edition_defaults_to_the_work_tree(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(repo / "rules_spec" / "harbour" / "game.yaml", "value: 12", "value: 13")
    code, out, _ = _diff(repo, "HEAD", "--json", capsys=capsys)
    assert code == 0
    data = json.loads(out)
    assert [(p["name"], p["old"], p["new"]) for p in data["parameters"]] == [("fleet_size", 12, 13)]


def test_a_broken_spec_at_a_revision_is_located_there(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(repo / "rules_spec" / "harbour" / "game.yaml", 'date: "2026-12-01"', 'date: "2026-13-01"')
    _git(repo, "commit", "-q", "-am", "a bad date")
    code, out, err = _diff(repo, "HEAD~1", "HEAD", capsys=capsys)
    assert code == 3
    assert out == ""
    assert err.startswith(
        "HEAD:rules_spec/harbour/game.yaml:13:9: game.date: '2026-13-01' is not a date"
        " written YYYY-MM-DD (e.g. 2026-12-01)\n"
        "HEAD:rules_spec/harbour: the spec is malformed: 1 problem\n"
    )
    assert "rulepress-edition" not in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("rev", "message"),
    [
        ("no-such-rev", "no-such-rev: no such folder, and no such revision in project"),
        ("HEAD~5", "HEAD~5: no such folder, and no such revision in project"),
    ],
)
def test_a_bad_revision_is_a_clean_error(
    repo: Path, rev: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _diff(repo, rev, capsys=capsys)
    assert (code, out, err) == (2, "", message + "\n")


def test_a_revision_without_the_game(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "README").write_text("a project\n", encoding="utf-8")
    _git(repo, "add", "README")
    _git(repo, "commit", "-q", "-m", "readme")
    _git(repo, "checkout", "-q", "--orphan", "empty")
    _git(repo, "rm", "-q", "-r", "--cached", "rules_spec")
    _git(repo, "commit", "-q", "-m", "no game")
    code, _, err = _diff(repo, "empty", "main", capsys=capsys)
    assert (code, err) == (2, "empty: the revision has no rules_spec/harbour/game.yaml\n")


def test_outside_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "rules_spec"
    shutil.copytree(EDITIONS / "second" / "harbour", root / "harbour")
    code = main(["diff", "--spec-root", str(root), "harbour", "HEAD~1"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.endswith("is not in a git repository to read a revision from\n")


def test_a_link_out_of_the_game_folder_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A revision is untrusted: a committed link cannot make the diff read outside it."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("vocabulary:\n  leaked: Leaked from outside\n", encoding="utf-8")
    (repo / "rules_spec" / "harbour" / "zz-vocabulary.yaml").symlink_to(outside)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "a link out")
    code, out, err = _diff(repo, "HEAD", "HEAD~1", capsys=capsys)
    assert (code, out) == (2, "")
    assert err.startswith("HEAD: refused to read rules_spec/harbour/: ")
    assert "Leaked" not in err


def test_a_broken_catalog_at_a_revision_is_named_there(repo: Path) -> None:
    """The old wording's catalog is read from a temporary folder: errors name the revision."""
    from rulepress.editions.sources import read_catalogs
    from rulepress.i18n.catalogs import CatalogError, read_catalog

    po = repo / "locales" / "cs" / "LC_MESSAGES" / "harbour.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "b\n', encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "a broken catalog")
    game_dir = repo / "rules_spec" / "harbour"

    def read_old() -> None:
        with read_catalogs("HEAD", game_dir, repo / "locales") as folder:
            assert folder is not None
            read_catalog(folder / "cs" / "LC_MESSAGES" / "harbour.po", "cs")

    with pytest.raises(CatalogError) as info:
        read_old()
    said = "\n".join([info.value.summary, *(str(p) for p in info.value.problems)])
    assert "HEAD:locales/cs/LC_MESSAGES/harbour.po" in said
    assert "rulepress-catalogs" not in said
