"""`rulepress reference`: the author, CLI and schema references as files, without Sphinx.

The repository commits the files every project shares (docs/reference/), and the
first test keeps them equal to what the generator writes. The fixed values a spec
may write are listed from the models and the checks' own sets, never typed out.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import Literal

import click
import pytest
from pydantic import BaseModel

from rulepress.model.spec_model import Criterion
from rulepress.operations import majorities
from rulepress.reference import page, values
from rulepress.reference.cli_page import cli_markdown
from rulepress.reference.files import (
    REFRESH,
    SHARED,
    Reference,
    StaleReferenceError,
    check_reference,
)
from tests.conftest import DATA, ROOT, SPEC_ROOT, run_main

COMMITTED = ROOT / "docs" / "reference"


def _reference(spec_root: Path = SPEC_ROOT) -> Reference:
    from rulepress.cli import cli

    return Reference(cli, "rulepress", spec_root)


@pytest.fixture(scope="module")
def markdown() -> str:
    return page.author_reference(markdown=True)


def test_the_committed_reference_is_up_to_date() -> None:
    try:
        check_reference(_reference(), COMMITTED)
    except StaleReferenceError as exc:
        pytest.fail(f"{exc.render()}\nrefresh it with `{REFRESH}`")


def test_a_stale_reference_file_is_named_with_the_command_that_refreshes_it(
    tmp_path: Path,
) -> None:
    out = tmp_path / "reference"
    shutil.copytree(COMMITTED, out, ignore=shutil.ignore_patterns("table-states"))
    with (out / "cli.md").open("a", encoding="utf-8") as handle:
        handle.write("an edit by hand\n")
    (out / "spec.schema.json").unlink()
    with pytest.raises(StaleReferenceError) as caught:
        check_reference(_reference(), out)
    assert [str(p) for p in caught.value.problems] == [
        f"{out / name}: out of date (run `rulepress reference`)"
        for name in ("cli.md", "spec.schema.json")
    ]


def test_the_command_writes_every_file_and_says_where(tmp_path: Path) -> None:
    """A game of its own spec root: the shared files, and its table-state schema."""
    spec_root = tmp_path / "rules_spec"
    shutil.copytree(DATA / "specs" / "tiny", spec_root / "tiny")
    out = tmp_path / "ref"
    run = run_main("reference", "--spec-root", str(spec_root), "--out", str(out), cwd=tmp_path)
    assert run.code == 0, run.err
    assert run.out == "reference: ref/ (4 file(s) written)\n"
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == sorted([*SHARED, "table-states/tiny.tiny-scoring.schema.json"])
    state = json.loads((out / "table-states" / "tiny.tiny-scoring.schema.json").read_text())
    assert state["properties"]["game"] == {"const": "tiny"}
    # the default folder: docs/reference beside the specs' folder; --check reads it
    assert run_main("reference", "--spec-root", str(spec_root), cwd=tmp_path).code == 0
    assert (tmp_path / "docs" / "reference" / "cli.md").is_file()
    check = run_main("reference", "--check", "--spec-root", str(spec_root), cwd=tmp_path)
    assert (check.code, check.out) == (0, "reference: up to date in docs/reference/\n")


def test_the_generator_imports_no_sphinx() -> None:
    code = (
        "import sys, json\n"
        "from rulepress.cli import cli\n"
        "from rulepress.reference.files import Reference\n"
        f"Reference(cli, 'rulepress', __import__('pathlib').Path({str(SPEC_ROOT)!r})).shared()\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    loaded = set(json.loads(out))
    assert not loaded & {"sphinx", "sphinx_click", "myst_parser", "docutils"}
    assert "click" in loaded  # sanity: the CLI page was made


def test_the_markdown_page_has_no_myst_left_and_every_link_lands(markdown: str) -> None:
    assert "{ref}" not in markdown
    assert "{doc}" not in markdown
    assert not re.search(r"^\([a-z0-9-]+\)=$", markdown, flags=re.MULTILINE)
    anchors = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', markdown))
    links = set(re.findall(r"\]\(#([a-z0-9-]+)\)", markdown))
    assert links
    assert links <= anchors
    for target in re.findall(r"\]\((\.\./[^)#]+)\)", markdown):
        assert (COMMITTED / target).resolve().is_file(), target


def test_the_myst_page_keeps_its_targets_for_the_site() -> None:
    myst = page.author_reference()
    assert "(ref-values)=" in myst
    assert "{doc}`../spec-authors`" in myst


def _row(markdown: str, where: str) -> str:
    return next(line for line in markdown.splitlines() if line.startswith(f"| `{where}`"))


@pytest.mark.parametrize(
    ("where", "wanted"),
    [
        ("examples[].expect.decided_by", ["eligibility", "shared", "none", "unresolved"]),
        ("sequences[].steps[].winners.criteria[].order", ["highest", "lowest"]),
        ("sequences[].steps[].score.component.ties", ["split", "best", "worst", "none"]),
        ("sequences[].steps[].winners.final_tie", ["share", "report"]),
        ("audit.entries[].kind", ["stated", "inferred", "components", "table-state"]),
        ("field_types.<name>.type", ["int", "bool", "choice", "record"]),
        ("sequences[].steps[].score.component.op", ["sum", "majorities", "weighted_counts"]),
    ],
)
def test_the_page_lists_each_fixed_value(markdown: str, where: str, wanted: list[str]) -> None:
    row = _row(markdown, where)
    assert all(f"`{value}`" in row for value in wanted), row


def test_a_value_added_to_a_literal_of_the_model_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    info = Criterion.model_fields["order"]
    monkeypatch.setattr(info, "annotation", Literal["highest", "lowest", "median"])
    found = {f.where: f.values for f in values.fixed_values()}
    assert found["sequences[].steps[].winners.criteria[].order"] == ("highest", "lowest", "median")


def test_a_value_added_to_a_set_in_code_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(majorities, "TIE_RULES", (*majorities.TIE_RULES, "round_up"))
    found = {f.where: f.values for f in values.fixed_values()}
    assert "round_up" in found["sequences[].steps[].score.component.ties"]


def test_a_model_built_here_has_its_literals_listed_at_their_paths() -> None:
    class Leaf(BaseModel):
        mode: Literal["a", "b"] | None = None

    class Root(BaseModel):
        leaves: dict[str, list[Leaf]] = {}
        kind: typing.Annotated[Literal["x", "y", "z"], "meta"] = "x"

    found = values.literal_values(Root, lambda _: [])
    assert [(f.where, f.values) for f in found] == [
        ("kind", ("x", "y", "z")),
        ("leaves.<name>[].mode", ("a", "b")),
    ]


def test_the_cli_page_has_every_command_as_click_prints_its_help() -> None:
    @click.group()
    def tool() -> None:
        """A tool."""

    @tool.group()
    def deep() -> None:
        """A group of commands."""

    @deep.command()
    @click.option("--fast", is_flag=True, help="Go fast.")
    def run(fast: bool) -> None:
        """Run something."""

    @tool.command(hidden=True)
    def secret() -> None:
        """Not shown."""

    text = cli_markdown(tool, "tool")
    assert re.findall(r"^## `(.+)`$", text, flags=re.MULTILINE) == [
        "tool",
        "tool deep",
        "tool deep run",
    ]
    assert "Usage: tool deep run [OPTIONS]" in text
    assert "--fast  Go fast." in text
    assert "secret" not in text
