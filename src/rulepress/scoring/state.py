"""Reading a table state file for the scorer, with located errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulepress.errors import StateError
from rulepress.spec.load import display_path
from rulepress.spec.loaded import LoadedSpec
from rulepress.spec.state import validate_state
from rulepress.spec.yamlsrc import SourceMap, YamlError, load_yaml_file


def check_state(loaded: LoadedSpec, data: Any, sources: SourceMap, name: str) -> dict[str, Any]:
    """Validate parsed state data; raise StateError with every problem."""
    spec = loaded.spec
    state, problems = validate_state(
        spec.table_state, spec.parameters, data, sources, (), spec.game.id
    )
    if problems:
        raise StateError(f"{name}: not a valid {spec.game.title} table state", problems)
    return state


def load_state(loaded: LoadedSpec, path: Path) -> dict[str, Any]:
    """Read ``path`` as a table state for ``loaded``'s game."""
    name = display_path(path)
    try:
        data, sources = load_yaml_file(path, name)
    except YamlError as exc:
        raise StateError(f"{name}: cannot be read", exc.problems) from None
    return check_state(loaded, data, sources, name)
