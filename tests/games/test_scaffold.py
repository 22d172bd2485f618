"""``rulepress new GAME``: a new game that validates, scores and builds as it is scaffolded.

The scaffold is made in a copy of the real specs' folder, beside the real
games, so that it is checked the way a designer's project would check it:
``validate`` (every game, its worked example run), ``score``, ``examples`` and
``state-template``. An existing folder is never overwritten, and a failure
leaves nothing behind. The slow test builds its site and print files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulepress.errors import ExitCode
from rulepress.games import load_spec
from rulepress.games.scaffold import FILES
from tests.conftest import GAMES, SPEC_ROOT, Run, run_main

#: the new game's id: one no game under rules_spec/ has (the tutorial's is star-hunt)
GAME = "first-draft"
assert GAME not in GAMES
EXAMPLE = "fewest-cards-break-a-tie"


def _files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones too) and its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder holding a copy of the real specs, and no catalogs yet."""
    shutil.copytree(SPEC_ROOT, tmp_path / "rules_spec")
    return tmp_path


def _new(project: Path, *args: str) -> Run:
    return run_main("new", *args, cwd=project)


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One project with the new game beside the real ones, made once: the tests that use
    it only read it (a test's own files go to its tmp_path)."""
    project = tmp_path_factory.mktemp("scaffolded")
    shutil.copytree(SPEC_ROOT, project / "rules_spec")
    result = _new(project, GAME, "--lang", "cs")
    assert result.code == 0, result.err
    return project


def test_new_writes_the_game_and_its_catalogs(project: Path) -> None:
    result = _new(project, GAME, "--lang", "cs", "--title", 'Star Hunt: "Deluxe" # 2')
    assert result.code == 0, result.err
    folder = project / "rules_spec" / GAME
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)
    assert f"new game: rules_spec/{GAME}/" in result.out
    assert (project / "locales" / f"{GAME}.pot").is_file()
    assert (project / "locales" / "cs" / "LC_MESSAGES" / f"{GAME}.po").is_file()
    # the title is one YAML value, whatever it holds (quotes, a colon, a hash)
    spec = load_spec(folder).spec
    assert spec.game.title == 'Star Hunt: "Deluxe" # 2'
    assert spec.game.languages == ["en", "cs"]
    # no staging folder is left in the specs' folder
    assert not [p for p in (project / "rules_spec").iterdir() if p.name.startswith(".")]


def test_every_file_says_what_it_is_for(scaffolded: Path) -> None:
    for name in FILES:
        text = (scaffolded / "rules_spec" / GAME / name).read_text(encoding="utf-8")
        assert text.startswith("#"), name
        assert "$" not in text, name  # every placeholder was filled


def test_it_validates_beside_the_real_games(scaffolded: Path) -> None:
    result = run_main("validate", cwd=scaffolded)
    assert result.code == 0, result.out + result.err
    assert f"rules_spec/{GAME}: ok (1 examples checked)" in result.out
    assert "rules_spec/stationfall: ok" in result.out


def test_its_example_scores_as_its_text_says(scaffolded: Path) -> None:
    listed = run_main("examples", GAME, cwd=scaffolded)
    assert listed.code == 0, listed.err
    assert listed.out.split()[0] == EXAMPLE
    result = run_main("score", GAME, "--example", EXAMPLE, "--format", "json", cwd=scaffolded)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    totals = {p["id"]: p["total"] for p in data["players"]}
    assert totals == {"Ada": 9, "Ben": 9, "Cleo": 8}
    assert data["winners"]["winners"] == ["Ada"]
    text = run_main("score", GAME, "--example", EXAMPLE, cwd=scaffolded)
    assert "Fewest cards in hand: Ada 1, Ben 2. Ada wins." in text.out


def test_its_state_template_is_scored(scaffolded: Path, tmp_path: Path) -> None:
    template = run_main("state-template", GAME, cwd=scaffolded)
    assert template.code == 0, template.err
    assert "stars:" in template.out
    (tmp_path / "table.yaml").write_text(template.out, encoding="utf-8")
    result = run_main("score", GAME, str(tmp_path / "table.yaml"), cwd=scaffolded)
    assert result.code == 0, result.err
    assert "Who wins" in result.out


def test_its_catalogs_are_current(scaffolded: Path) -> None:
    for step in ("extract", "update"):
        result = run_main("i18n", step, "--check", "--domain", GAME, cwd=scaffolded)
        assert result.code == 0, result.out + result.err
    stats = run_main("i18n", "stats", "--format", "json", cwd=scaffolded)
    rows = [r for r in json.loads(stats.out) if r["domain"] == GAME]
    assert [(r["lang"], r["percent"]) for r in rows] == [("cs", 0.0)]


def test_an_existing_game_is_never_overwritten(scaffolded: Path) -> None:
    before = _files(scaffolded)
    result = _new(scaffolded, GAME)
    assert result.code == ExitCode.OUTPUT
    assert f"rules_spec/{GAME}: a game folder is already there" in result.err
    assert _files(scaffolded) == before
    # nor a real game's folder
    result = _new(scaffolded, "stationfall")
    assert result.code == ExitCode.OUTPUT
    assert "rules_spec/stationfall: a game folder is already there" in result.err
    assert _files(scaffolded) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("Star-Hunt",), "'Star-Hunt' is not a valid game id"),
        (("star_hunt",), "'star_hunt' is not a valid game id"),
        (("../escape",), "'../escape' is not a valid game id"),
        ((GAME, "--lang", "xx"), "--lang xx: 'xx' is not a language Babel knows"),
        ((GAME, "--title", "two\nlines"), "--title 'two\\nlines': give a title of one line"),
    ],
)
def test_a_bad_id_language_or_title_writes_nothing(
    project: Path, args: tuple[str, ...], message: str
) -> None:
    before = _files(project)
    result = _new(project, *args)
    assert result.code == ExitCode.USAGE, result.err
    assert message in result.err
    assert "Traceback" not in result.err
    assert _files(project) == before


def test_a_title_the_spec_refuses_is_located_in_the_game_folder(project: Path) -> None:
    before = _files(project)
    result = _new(project, GAME, "--title", "See {rule:9}")
    assert result.code == ExitCode.SPEC
    assert result.err.startswith(f"rules_spec/{GAME}/game.yaml:"), result.err
    assert "rule 9 exists nowhere" in result.err
    assert _files(project) == before


def test_catalogs_that_cannot_be_written_leave_no_game(project: Path) -> None:
    (project / "locales" / "cs").mkdir(parents=True)
    (project / "locales" / "cs" / "LC_MESSAGES").write_text("a file where a folder should be")
    before = _files(project)
    result = _new(project, GAME, "--lang", "cs")
    assert result.code == ExitCode.OUTPUT, result.err
    assert "Traceback" not in result.err
    assert _files(project) == before
    assert not (project / "rules_spec" / GAME).exists()


def test_a_new_project_starts_from_an_empty_folder(tmp_path: Path) -> None:
    result = run_main("new", GAME, cwd=tmp_path)
    assert result.code == 0, result.err
    assert (tmp_path / "rules_spec" / GAME / "game.yaml").is_file()
    # English only: the template, and no catalog to translate
    assert _files(tmp_path / "locales") == {
        f"{GAME}.pot": (tmp_path / "locales" / f"{GAME}.pot").read_bytes()
    }
    by_env = run_main(
        "new",
        "second-game",
        cwd=tmp_path / "locales",
        env={"RULEPRESS_SPEC_ROOT": str(tmp_path / "elsewhere")},
    )
    assert by_env.code == 0, by_env.err
    assert (tmp_path / "elsewhere" / "second-game" / "game.yaml").is_file()


@pytest.mark.slow
@pytest.mark.print
def test_it_builds_its_site_and_print_files(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert run_main("new", GAME, "--lang", "cs", cwd=project).code == 0
    site, printed = tmp_path / "site", tmp_path / "print"
    result = run_main("build", "print", "--lang", "en", "--out", str(printed), cwd=project)
    assert result.code == 0, result.err
    pdfs = sorted(p.name for p in (printed / "en" / GAME).glob("*.pdf"))
    assert {"rulebook-a4.pdf", "reference-a5.pdf", "cards-poker.pdf"} <= set(pdfs)
    result = run_main(
        "build", "site", "--lang", "en", "--out", str(site), "--pdfs", str(printed), cwd=project
    )
    assert result.code == 0, result.err
    rules = (site / "en" / GAME / "rules.html").read_text(encoding="utf-8")
    assert 'id="rule-1-2"' in rules
    assert "First Draft" in rules  # the title made from the id
