"""The reference as files, without a site build: what ``rulepress reference`` writes.

Into one folder (``docs/reference/`` beside the specs' folder by default):

* ``spec-reference.md``: the author's reference (:func:`author_reference`), as
  plain Markdown;
* ``cli.md``: every command's ``--help`` (:mod:`rulepress.reference.cli_page`);
* ``spec.schema.json``: the JSON Schema of a spec file, as ``rulepress schema``
  prints it;
* ``table-states/<game>.<sequence>.schema.json``: the JSON Schema of each
  game's table states, one per sequence, as ``rulepress schema --state`` prints
  it.

The first three are rulepress's own and the same for every project: the
repository commits them, and a test keeps them equal to what this module
writes (``rulepress reference --check``). The table-state schemas are each
game's: they change with its spec, so a project makes them when it wants
them and the repository leaves them out (``.gitignore``); a new game never
makes the committed reference stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from rulepress.errors import Location, Problem, RulepressError
from rulepress.games import find_game_dirs, load_spec, spec_schema, state_schema
from rulepress.invisible import json_text
from rulepress.output import replace_files
from rulepress.reference.cli_page import cli_markdown
from rulepress.reference.page import author_reference

#: the files every project's reference holds, the same whatever its games
SHARED = ("spec-reference.md", "cli.md", "spec.schema.json")
#: the folder of the games' table-state schemas
STATES = "table-states"
#: the one command that refreshes a project's reference (what --check tells to run)
REFRESH = "rulepress reference"


class StaleReferenceError(RulepressError):
    """A reference file differs from what the generator writes (exit 1)."""


@dataclass(frozen=True)
class Reference:
    """What to document: the command (and the name it is run by) and the specs' folder."""

    command: click.Command
    prog: str
    spec_root: Path

    def shared(self) -> dict[str, bytes]:
        """The files of :data:`SHARED`, by name."""
        return {
            "spec-reference.md": author_reference(markdown=True).encode(),
            "cli.md": cli_markdown(self.command, self.prog).encode(),
            "spec.schema.json": _json(spec_schema()),
        }

    def states(self) -> dict[str, bytes]:
        """Each game's table-state schemas, by their path in the folder."""
        out: dict[str, bytes] = {}
        for directory in find_game_dirs(self.spec_root):
            spec = load_spec(directory).spec
            for seq in spec.sequences:
                name = f"{STATES}/{spec.game.id}.{seq.id}.schema.json"
                out[name] = _json(state_schema(spec, seq.id))
        return out


def _json(data: object) -> bytes:
    return (json_text(data, indent=2) + "\n").encode()


def write_reference(reference: Reference, out: Path, *, states: bool = True) -> list[Path]:
    """Write the reference into ``out``, all files or none; the paths whose bytes changed."""
    files = reference.shared() | (reference.states() if states else {})
    return replace_files({out / name: data for name, data in files.items()})


def check_reference(reference: Reference, out: Path) -> None:
    """Raise :class:`StaleReferenceError` naming each shared file of ``out`` that is out of date.

    Only the shared files: the table-state schemas are each game's, made on demand.
    """
    stale = [
        Problem(Location(str(out / name)), "", f"out of date (run `{REFRESH}`)")
        for name, data in reference.shared().items()
        if not (out / name).is_file() or (out / name).read_bytes() != data
    ]
    if stale:
        raise StaleReferenceError("the reference is stale", stale)
