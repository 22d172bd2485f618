"""Reading a table state file for the scorer, with located errors.

A state file is refused unread past :data:`MAX_STATE_BYTES`, far below the
4 MiB a spec file may have: a table state is written by a player, and even the
largest the state formats allow (9 Stationfall players with every list full)
is a few dozen KiB.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulepress.errors import Problem, StateError, UsageError
from rulepress.model import LoadedSpec, Sequence
from rulepress.scoring.engine import find_sequence
from rulepress.states import validate_state
from rulepress.yamlsrc import SourceMap, YamlError, display_path, load_yaml_file

#: A table state file larger than this is refused before it is parsed.
MAX_STATE_BYTES = 256 * 1024


def state_sequence(
    loaded: LoadedSpec, data: Any, sources: SourceMap, wanted: str | None
) -> Sequence:
    """The sequence a state is for: ``wanted``, else the state's ``sequence`` key, else the default."""
    spec = loaded.spec
    named = data.get("sequence") if isinstance(data, dict) else None
    if wanted is not None and named is not None and named != wanted:
        raise StateError(
            "the state and the command name different sequences",
            [
                Problem(
                    sources.locate(("sequence",)),
                    "sequence",
                    f"this state is for {named!r}, not {wanted!r}",
                )
            ],
        )
    try:
        return find_sequence(spec, wanted or named)[1]
    except UsageError as exc:
        if wanted is None and named is not None:
            raise StateError(
                "unknown sequence",
                [Problem(sources.locate(("sequence",)), "sequence", exc.summary)],
            ) from None
        raise


def check_state(
    loaded: LoadedSpec, data: Any, sources: SourceMap, name: str, sequence: str | None = None
) -> dict[str, Any]:
    """Validate parsed state data for a sequence; raise StateError with every problem."""
    spec = loaded.spec
    seq = state_sequence(loaded, data, sources, sequence)
    state, problems = validate_state(
        spec.table_states[seq.state], spec.parameters, data, sources, (), spec.game.id, spec.sets
    )
    if problems:
        raise StateError(f"{name}: not a valid {spec.game.title} table state", problems)
    state["sequence"] = seq.id
    return state


def load_state(loaded: LoadedSpec, path: Path, sequence: str | None = None) -> dict[str, Any]:
    """Read ``path`` as a table state for ``loaded``'s game."""
    name = display_path(path)
    try:
        data, sources = load_yaml_file(path, name, MAX_STATE_BYTES)
    except YamlError as exc:
        raise StateError(f"{name}: cannot be read", exc.problems) from None
    return check_state(loaded, data, sources, name, sequence)
