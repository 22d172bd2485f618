"""The tutorial docs/first-game.md, run step by step in an empty folder.

Its fenced blocks are its steps, in order; every block is one of three kinds:

- ```` ```console ````: lines starting with ``$ `` are commands, run by bash in
  the current folder (``cd`` changes it); the lines after a command, up to the
  next one, are what it prints (stdout, then stderr), compared as doctest does
  with ELLIPSIS (``...`` stands for any text). A command must succeed, unless
  the block's info string says ``exit=N``.
- ```` ```yaml ```` whose first line is ``# file: PATH``: the whole file, written.
- ```` ```diff ````: an edit of one file (``--- PATH``), each ``@@`` hunk's old
  lines found exactly once in it and replaced by the new ones.

Any other block fails the test, so that nothing the page shows escapes being run.
The quick test runs every step but the builds; the slow one runs them all.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.conftest import DATA, ROOT
from tests.test_any_game import passed, project_beside_ours, run_suite

TUTORIAL = ROOT / "docs" / "first-game.md"
#: an opening or closing fence (the page uses backticks only)
FENCE = re.compile(r"^```(.*)$")
FILE_LINE = re.compile(r"^# file: (\S+)$")


@dataclass
class Step:
    kind: str  # "command", "file" or "edit"
    line: int  # where it is in the page, for messages
    text: str  # the command, the file's content or the diff
    path: str = ""
    output: str | None = None  # what the page shows a command prints
    status: int = 0


def _blocks(text: str) -> list[tuple[int, str, list[str]]]:
    """(line, info string, lines) of every fenced block of the page."""
    blocks, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i] != "```":
            body.append(lines[i])
            i += 1
        assert i < len(lines), f"first-game.md:{start}: a block is never closed"
        blocks.append((start, opening.group(1).strip(), body))
        i += 1
    return blocks


def _console(line: int, info: str, body: list[str]) -> list[Step]:
    status = 0
    for word in info.split()[1:]:
        key, _, value = word.partition("=")
        assert key == "exit", f"first-game.md:{line}: unknown {word!r}"
        assert value.isdigit(), f"first-game.md:{line}: exit=N needs a number, not {word!r}"
        status = int(value)
    steps: list[Step] = []
    for offset, text in enumerate(body):
        if text.startswith("$ "):
            steps.append(Step("command", line + offset + 1, text[2:]))
        else:
            assert steps, f"first-game.md:{line}: output before any command"
            steps[-1].output = (steps[-1].output or "") + text + "\n"
    assert steps, f"first-game.md:{line}: a console block without a command"
    steps[-1].status = status  # exit=N is the status of the block's last command
    return steps


def tutorial_steps(text: str) -> list[Step]:
    """The page's steps, in order; a block of any other kind is an error."""
    steps: list[Step] = []
    for line, info, body in _blocks(text):
        kind = info.split()[0] if info else ""
        if kind == "console":
            steps += _console(line, info, body)
        elif kind == "yaml" and body and FILE_LINE.match(body[0]):
            path = FILE_LINE.match(body[0]).group(1)  # type: ignore[union-attr]
            steps.append(Step("file", line, "\n".join(body) + "\n", path))
        elif kind == "diff" and len(body) > 2 and body[0].startswith("--- "):
            assert body[1] == "+++ " + body[0][4:], f"first-game.md:{line}: one file per diff"
            steps.append(Step("edit", line, "\n".join(body[2:]) + "\n", body[0][4:]))
        else:
            pytest.fail(f"first-game.md:{line}: a ```{info} block the test does not run")
    return steps


def apply_diff(path: Path, diff: str) -> None:
    """Apply a unified diff's hunks to ``path``, each found by its old lines, exactly once.

    No line numbers (a reader's diff is easier without them), so no patch tool:
    a hunk whose old lines are missing or appear twice means the page and the
    file it edits have drifted apart.
    """
    text = path.read_text(encoding="utf-8")
    for hunk in re.split(r"^@@.*\n", diff, flags=re.MULTILINE)[1:]:
        old, new = [], []
        for line in hunk.splitlines():
            mark, rest = (line[:1], line[1:]) if line else (" ", "")
            assert mark in " -+", f"not a diff line: {line!r}"
            if mark in " -":
                old.append(rest)
            if mark in " +":
                new.append(rest)
        before, after = "\n".join(old) + "\n", "\n".join(new) + "\n"
        assert text.count(before) == 1, f"{path.name}: found {text.count(before)} times:\n{before}"
        text = text.replace(before, after)
    path.write_text(text, encoding="utf-8")


def _shim(folder: Path) -> dict[str, str]:
    """An environment whose ``rulepress`` is this Python's, and no project of ours around."""
    folder.mkdir()
    script = folder / "rulepress"
    script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m rulepress "$@"\n')
    script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULEPRESS_")}
    env["PATH"] = f"{folder}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_steps(steps: list[Step], here: Path, env: dict[str, str]) -> Path:
    """Run ``steps`` in order from the folder ``here``; the folder the last one leaves."""
    checker = doctest.OutputChecker()
    for step in steps:
        where = f"first-game.md:{step.line}"
        if step.kind == "file":
            (here / step.path).write_text(step.text, encoding="utf-8")
        elif step.kind == "edit":
            apply_diff(here / step.path, step.text)
        elif step.text.startswith("cd "):
            here = here / step.text[3:]
            assert here.is_dir(), f"{where}: no folder {here}"
        else:
            proc = subprocess.run(
                ["bash", "-c", step.text],
                cwd=here,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            shown = proc.stdout + proc.stderr
            assert proc.returncode == step.status, (
                f"{where}: $ {step.text} exited {proc.returncode}:\n{shown}"
            )
            if step.output is not None and not checker.check_output(
                step.output, shown, doctest.ELLIPSIS
            ):
                raise AssertionError(
                    f"{where}: $ {step.text} printed something else:\n"
                    + checker.output_difference(
                        doctest.Example(step.text, step.output), shown, doctest.ELLIPSIS
                    )
                )
    return here


def first_build(steps: list[Step]) -> int:
    """The index of the first ``rulepress build`` step: the page's builds come last
    (test_every_block_of_the_page_is_a_step), after every other step."""
    return next(i for i, s in enumerate(steps) if s.text.startswith("rulepress build"))


@dataclass
class Walked:
    """The page walked up to its builds: the steps, the folder they left, the environment."""

    steps: list[Step]
    here: Path
    env: dict[str, str]
    work: Path


@pytest.fixture(scope="module")
def up_to_the_builds(tmp_path_factory: pytest.TempPathFactory) -> Walked:
    """Every step before the builds, run once in an empty folder: the quick test checks
    them, and the slow one goes on from there with the builds (each walking the page from
    the start ran every one of them twice in a full run)."""
    tmp = tmp_path_factory.mktemp("tutorial")
    steps = tutorial_steps(TUTORIAL.read_text(encoding="utf-8"))
    env = _shim(tmp / "bin")
    work = tmp / "work"
    work.mkdir()
    here = run_steps(steps[: first_build(steps)], work, env)
    return Walked(steps, here, env, work)


#: the rest of the Czech translation of the page's game, by msgctxt
REST_OF_CZECH = DATA / "tutorial" / "star-hunt.cs.yaml"


def translate_the_rest(catalog: Path) -> None:
    """Fill in every message of ``catalog`` the page leaves untranslated, from
    ``REST_OF_CZECH``; each of those must be there, and nothing else."""
    from babel.messages.pofile import read_po, write_po

    rest = yaml.safe_load(REST_OF_CZECH.read_text(encoding="utf-8"))
    with catalog.open("rb") as f:
        messages = read_po(f)
    filled = set()
    for message in messages:
        if not message.id or message.fuzzy:
            continue
        done = all(message.string) if isinstance(message.string, tuple) else message.string
        if done:
            continue
        assert message.context in rest, f"no Czech for {message.context} in {REST_OF_CZECH.name}"
        text = rest[message.context]
        message.string = tuple(text) if isinstance(text, list) else text
        filled.add(message.context)
    assert filled == set(rest), f"not in the page's catalog: {sorted(set(rest) - filled)}"
    with catalog.open("wb") as f:
        write_po(f, messages)


def test_every_block_of_the_page_is_a_step() -> None:
    steps = tutorial_steps(TUTORIAL.read_text(encoding="utf-8"))
    kinds = {s.kind for s in steps}
    assert kinds == {"command", "file", "edit"}
    commands = [s.text for s in steps if s.kind == "command"]
    for needed in ("rulepress new", "rulepress score", "rulepress i18n update", "rulepress build"):
        assert any(c.startswith(needed) for c in commands), needed
    # the catalogs' real sequence: the template, the catalog merged from it, then QA
    sequence = ("rulepress i18n extract", "rulepress i18n update", "rulepress i18n check")
    firsts = [next(i for i, c in enumerate(commands) if c.startswith(s)) for s in sequence]
    assert firsts == sorted(firsts), sequence
    # the builds come last: the quick run leaves them out without missing a later step
    first_build = next(i for i, s in enumerate(steps) if s.text.startswith("rulepress build"))
    assert all(s.kind == "command" for s in steps[first_build:])


def test_the_page_is_in_the_guides() -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    toctree = index[index.index("```{toctree}") :]
    assert "\nfirst-game\n" in toctree[: toctree.index("\n```")]


def test_a_diff_that_does_not_fit_its_file_fails(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("a: 1\nb: 2\n", encoding="utf-8")
    apply_diff(path, "@@\n a: 1\n-b: 2\n+b: 3\n")
    assert path.read_text(encoding="utf-8") == "a: 1\nb: 3\n"
    with pytest.raises(AssertionError, match="found 0 times"):
        apply_diff(path, "@@\n-b: 2\n+b: 4\n")


def test_the_tutorial_runs_as_written(up_to_the_builds: Walked) -> None:
    """Every step but the builds (the fixture runs them, and fails on the first that
    does not do what the page says); the builds are the slow test's."""
    walked = up_to_the_builds
    builds = [s for s in walked.steps if s.text.startswith("rulepress build")]
    assert builds == walked.steps[first_build(walked.steps) :]
    assert (walked.work / "star-hunt-rules" / "rules_spec" / "star-hunt").is_dir()


@pytest.mark.slow
@pytest.mark.print
def test_the_tutorial_publishes_as_written(up_to_the_builds: Walked, tmp_path: Path) -> None:
    """From an empty folder: the game the page builds validates, scores, builds its site and
    print files in English and Czech, and passes the suite's tests of any game."""
    walked = up_to_the_builds
    run_steps(walked.steps[first_build(walked.steps) :], walked.here, walked.env)
    made = walked.work / "star-hunt-rules"
    site = made / "build" / "site"
    czech = (site / "cs" / "star-hunt" / "rules.html").read_text(encoding="utf-8")
    assert "Konec hry" in czech  # the translated rule title
    assert "Počítání bodů" in czech
    # the page leaves Czech a preview, printed in English only; its translator fills in
    # the rest, and the next build publishes and prints the game in Czech too
    assert not (made / "build" / "print" / "cs" / "star-hunt").exists()
    translate_the_rest(made / "locales" / "cs" / "LC_MESSAGES" / "star-hunt.po")
    env = _shim(tmp_path / "bin-again")
    for command in ("i18n check --domain star-hunt", "build --quiet"):
        done = subprocess.run(
            ["rulepress", *command.split()],
            cwd=made,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, f"rulepress {command}:\n{done.stdout}{done.stderr}"
        assert "preview" not in done.stdout + done.stderr
    for lang in ("en", "cs"):
        assert (site / lang / "star-hunt" / "examples.html").is_file(), lang
        printed = made / "build" / "print" / lang / "star-hunt"
        assert {"rulebook-a4.pdf", "reference-a5.pdf"} <= {p.name for p in printed.iterdir()}
    # the game as the page leaves it, beside ours: every game-parametrized test, quick
    # and slow, for it (tests/test_any_game.py)
    project = project_beside_ours(
        tmp_path / "suite", {made / "rules_spec" / "star-hunt": made / "locales"}
    )
    out = run_suite(project, ["star-hunt"], None, tmp_path / "run")
    assert passed(out) > 60
