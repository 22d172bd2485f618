"""The rules spec: its typed model, the located-error loader and the checks."""

from rulepress.spec.load import find_game_dirs, load_spec
from rulepress.spec.loaded import LoadedSpec

__all__ = ["LoadedSpec", "find_game_dirs", "load_spec"]
