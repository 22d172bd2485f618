"""The rules spec: its typed model, the located-error loader and the checks."""

from rulepress.spec.load import LoadedSpec, find_game_dirs, load_spec

__all__ = ["LoadedSpec", "find_game_dirs", "load_spec"]
