"""Which edition a build compares each game with: ``--since``, else what its spec records.

``game.previous_edition`` (:class:`rulepress.model.previous.PreviousEdition`)
is read from ``game.yaml`` alone, as the languages are
(:func:`rulepress.model.languages.game_languages`), so that a build knows
each game's previous edition before it loads the spec (its caches are keyed
by it). Then:

* a ``folder`` is found relative to the game's folder; one that is not
  there, does not hold the game's spec or lies outside the project once its
  links are followed is an error of the spec, located at the field;
* a ``revision`` that cannot be read where the build runs (git missing, a
  copy of the files without their history, a shallow clone without that
  commit) is not an error: the spec is right, the checkout lacks the history.
  The game then has no changes page and no errata sheet, and the build says
  why in one line and how to get the history. Every other output is built
  as always, so a tarball or a CI job with a shallow clone still publishes.

``--since`` (or ``$RULEPRESS_SINCE``) names the edition for every game of
one build instead, and stays an error when it cannot be read: it was asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from rulepress.editions.sources import game_folder, revision
from rulepress.errors import Problem, SpecError, UsageError
from rulepress.model.previous import MAX_UP, PreviousEdition
from rulepress.yamlsrc import (
    GAME_FILE,
    DataPath,
    YamlError,
    display_path,
    format_path,
    load_yaml_file,
    pydantic_problems,
)

_FIELD: DataPath = ("game", "previous_edition")
_ADAPTER: TypeAdapter[PreviousEdition] = TypeAdapter(PreviousEdition)


@dataclass(frozen=True)
class Since:
    """The edition a game is compared with: what :func:`~.sources.read_edition` reads.

    ``given`` is a folder (an absolute path) or a revision; ``recorded`` says
    whether the spec recorded it (else ``--since`` named it).
    """

    given: str
    recorded: bool


def recorded_previous(game_dir: Path) -> PreviousEdition | None:
    """``game.previous_edition`` of ``game_dir``'s ``game.yaml``, checked (a located SpecError)."""
    path = game_dir / GAME_FILE
    shown = display_path(path)
    try:
        data, sources = load_yaml_file(path, shown)
    except YamlError as exc:
        raise SpecError(f"{shown}: cannot read the game's previous edition", exc.problems) from None
    game = data.get("game") if isinstance(data, dict) else None
    value = game.get("previous_edition") if isinstance(game, dict) else None
    if value is None:
        return None
    try:
        return _ADAPTER.validate_python(value)
    except ValidationError as exc:
        problems = [
            Problem(p.location, format_path(_FIELD) + ("." + p.where if p.where else ""), p.message)
            for p in pydantic_problems(exc, sources, _FIELD)
        ]
        raise SpecError(f"{shown}: the previous edition is malformed", problems) from None


def _folder(game_dir: Path, folder: str) -> Path:
    """The recorded folder, found: a located SpecError if it is not a usable edition."""
    path = game_dir / GAME_FILE
    shown = display_path(path)
    # the lexical bound is the model's; links are followed here, where the files are
    project = game_dir.resolve().parents[MAX_UP - 1]
    found = (game_dir / folder).resolve()
    problem: str | None = None
    if not found.is_relative_to(project):
        problem = f"{folder!r} leads outside the project (through a link)"
    elif not found.is_dir():
        problem = f"no folder {folder!r} next to the game's folder"
    elif game_folder(found, game_dir.name) is None:
        problem = (
            f"{folder!r} holds no spec of {game_dir.name} (looked for {GAME_FILE} in it,"
            f" in {game_dir.name}/ and in rules_spec/{game_dir.name}/)"
        )
    if problem is None:
        return found
    _, sources = load_yaml_file(path, shown)
    where = (*_FIELD, "folder")
    located = Problem(sources.locate(where), format_path(where), problem)
    raise SpecError(f"{shown}: the previous edition is not there", [located])


def previous_edition_of(
    game_dir: Path, since: str | None, warn: Callable[[str], None] | None = None
) -> Since | None:
    """The edition a build compares ``game_dir``'s game with, or None for none.

    ``since`` (the build's ``--since``) wins; else the spec's record: a folder
    that is not there is a SpecError, a revision that cannot be read is
    ``warn``-ed about and gives None (see the module docstring).
    """
    if since is not None:
        return Since(str(Path(since).resolve()) if Path(since).is_dir() else since, False)
    recorded = recorded_previous(game_dir)
    if recorded is None:
        return None
    if recorded.folder is not None:
        return Since(str(_folder(game_dir, recorded.folder)), True)
    assert recorded.revision is not None
    try:
        revision(recorded.revision, game_dir)
    except UsageError as exc:
        if warn is not None:
            warn(
                f"{game_dir.name}: no page 'Changes in this edition' and no errata sheet:"
                f" its previous edition, the revision {recorded.revision} ({GAME_FILE}"
                f" game.previous_edition), cannot be read here ({exc.summary}). A clone"
                " with its history has it (git fetch --unshallow; on GitHub Actions,"
                " fetch-depth: 0)."
            )
        return None
    return Since(recorded.revision, True)


def recorded_old(game_dir: Path) -> str:
    """The edition ``rulepress diff GAME`` compares with when it is given no OLD: the record.

    A folder is found as a build finds it; a revision is given as recorded (the diff
    reads it, or says why it cannot). No record is a UsageError that says what to give.
    """
    recorded = recorded_previous(game_dir)
    if recorded is None:
        raise UsageError(
            f"{game_dir.name} records no previous edition ({GAME_FILE} game.previous_edition):"
            " give the edition to compare with, a folder or a git revision"
        )
    if recorded.folder is not None:
        return str(_folder(game_dir, recorded.folder))
    assert recorded.revision is not None
    return recorded.revision


def previous_problems(game_dir: Path) -> list[Problem]:
    """What ``rulepress validate`` reports of the recorded edition: a folder not there.

    A revision is not looked up: whether this checkout has its history is no
    property of the spec (the builds say so when it has not).
    """
    try:
        recorded = recorded_previous(game_dir)
        if recorded is not None and recorded.folder is not None:
            _folder(game_dir, recorded.folder)
    except SpecError as exc:
        return list(exc.problems)
    return []
