"""The author's reference's runnable examples: one small spec fragment per step kind and operation.

Each :class:`Example` is a step (or two) of a sequence, the fields of the
table state it reads, a table state, and what its result must be, written by
hand in a data file: ``step_examples/<kind>.yaml`` here for the step kinds,
and the file each operation names (``rulepress/operations/examples/``) for
the operations. :func:`reference_game` writes them into one small game (each example
its own sequence, state format and worked example), which rulepress loads and
checks like any other: the spec check sees every fragment, and each worked
example's ``expect`` is compared with what the scorer gives, by
``rulepress.scoring.examples.check_examples`` (the reference's tests run it),
so no result the reference shows can be wrong.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, fields
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from textwrap import dedent, indent

from rulepress.model import operations
from rulepress.yamlsrc.reader import load_yaml_text


@dataclass(frozen=True)
class Example:
    """One runnable example: what the reference shows, and what makes it a game."""

    #: the step kind or operation it shows (``updates``, ``sum``, …)
    name: str
    #: one sentence on what it shows
    title: str
    #: YAML: the sequence's ``steps``
    steps: str
    #: YAML: the ``fields`` of the players in its state format
    fields: str
    #: YAML: the worked example's ``state``
    state: str
    #: YAML: the worked example's ``expect``
    expect: str
    #: YAML: the ``fields`` of the table in its state format
    table_fields: str = ""
    #: YAML: sections of the game it needs besides (``tables``, ``vocabulary``, ``sets``)
    extra: str = ""
    #: YAML: the ``constraints`` on each player in its state format
    constraints: str = ""
    #: YAML: the ``constraints`` on the table in its state format
    table_constraints: str = ""
    #: YAML: a table state the constraints refuse (the page shows what is reported)
    refused: str = ""


#: the order of the examples in the reference game (``score``: the operations', in the
#: registry's order); the page shows each with its step kind or operation
ORDER = ("updates", "score", "tally", "winners")
#: where the step kinds' examples are (the operations' are named by each operation)
STEP_EXAMPLES = files("rulepress.reference") / "step_examples"
#: an example file's sections, each the YAML text of one part of its game
SECTIONS = tuple(f.name for f in fields(Example) if f.name not in {"name", "title"})


def read_example(name: str, source: Traversable) -> Example:
    """An example from its data file, read with the spec's YAML loader (it is data, not code).

    The file is one mapping: ``title``, and each section (:data:`SECTIONS`) as
    YAML nested under its key. The page shows a section as it is written in
    the file (its comments and layout kept), so a section's text is the
    file's lines under its key, dedented; the loader has checked it is YAML.
    """
    text = source.read_text(encoding="utf-8")
    data, where = load_yaml_text(text, f"{name}.yaml")
    if not isinstance(data, dict) or not isinstance(data.get("title"), str):
        raise ValueError(f"{name}.yaml: an example is a mapping with a 'title'")
    unknown = set(data) - {"title", *SECTIONS}
    if unknown:
        raise ValueError(f"{name}.yaml: unknown sections {', '.join(sorted(unknown))}")
    missing = [
        f.name
        for f in fields(Example)
        if f.name not in data and f.name != "name" and f.default is MISSING
    ]
    if missing:
        raise ValueError(f"{name}.yaml: no {', '.join(missing)}")
    lines = text.splitlines(keepends=True)
    starts = sorted((where.keys[(key,)].line, key) for key in data)
    texts: dict[str, str] = {}
    for (line, key), (end, _) in zip(starts, [*starts[1:], (len(lines) + 1, "")], strict=True):
        if key == "title":
            continue
        if not isinstance(data[key], dict | list) or where.values[(key,)].line == line:
            raise ValueError(f"{name}.yaml: {key} is written as a block under its key")
        texts[key] = dedent("".join(lines[line : end - 1])).rstrip("\n") + "\n"
    return Example(name=name, title=data["title"], **texts)


@cache
def all_examples() -> tuple[Example, ...]:
    """Every example: the step kinds', with the operations' for ``score`` (see :data:`ORDER`)."""
    found: list[Example] = []
    for kind in ORDER:
        if kind != "score":
            found.append(read_example(kind, STEP_EXAMPLES / f"{kind}.yaml"))
            continue
        for op, operation in operations.installed().items():
            source = operations.example_of(operation)
            if source is not None:
                found.append(read_example(op, source))
    return tuple(found)


_GAME = """\
game:
  id: reference
  title: Reference examples
  edition: generated
  version: "1"
  players: 1–4
  source:
    language: en
    document: none (the examples of rulepress's author's reference)
  languages: [en]
  summary: The runnable examples of the author's reference, one sequence each.
rules:
  - number: "1"
    title: Scoring
    text: Score as each example's steps say.
"""


def example_id(example: Example) -> str:
    """The id of an example's sequence, state format and worked example."""
    return "ref-" + example.name.replace("_", "-")


def game_files(examples: tuple[Example, ...] | None = None) -> dict[str, str]:
    """The reference game's YAML files, by name: one sequence, format and example each."""
    examples = all_examples() if examples is None else examples
    files = {"game.yaml": _GAME + f"scorer:\n  sequence: {example_id(examples[0])}\n"}
    for example in examples:
        ident = example_id(example)
        table = (
            "    table:\n      fields:\n" + indent(example.table_fields, " " * 8)
            if example.table_fields
            else ""
        )
        if example.table_constraints:
            table += "      constraints:\n" + indent(example.table_constraints, " " * 8)
        players = (
            "      constraints:\n" + indent(example.constraints, " " * 8)
            if example.constraints
            else ""
        )
        files[f"{example.name}.yaml"] = "\n".join(
            [
                "table_states:",
                f"  {ident}:",
                f"    description: The table state of the {example.name} example.",
                "    players:",
                "      max: 4",
                "      fields:",
                indent(example.fields, " " * 8).rstrip(),
                players.rstrip(),
                table.rstrip(),
                "sequences:",
                f"  - id: {ident}",
                f"    title: {example.name}",
                f"    text: The {example.name} example.",
                '    rules: ["1"]',
                f"    state: {ident}",
                "    total_label: Points",
                "    steps:",
                indent(example.steps, " " * 6).rstrip(),
                "examples:",
                f"  - id: {ident}",
                f"    title: The {example.name} example",
                '    rules: ["1"]',
                f"    text: The {example.name} example.",
                f"    sequence: {ident}",
                "    state:",
                indent(example.state, " " * 6).rstrip(),
                "    expect:",
                indent(example.expect, " " * 6).rstrip(),
                "",
            ]
        )
        if example.extra:
            # sections such as vocabulary or tables: each file may give part of them
            files[f"{example.name}-extra.yaml"] = example.extra
    return files


@contextmanager
def reference_game(examples: tuple[Example, ...] | None = None) -> Iterator[Path]:
    """The reference game written into a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="rulepress-reference-") as tmp:
        game = Path(tmp) / "rules_spec" / "reference"
        game.mkdir(parents=True)
        for name, text in game_files(examples).items():
            (game / name).write_text(text, encoding="utf-8")
        yield game
