"""A game's spec folder on disk: which folders hold games, which files a game has, how paths show.

``rules_spec/<game>/`` holds one game: its ``game.yaml`` first, then its other
YAML files in name order.
"""

from __future__ import annotations

import os
from pathlib import Path

GAME_FILE = "game.yaml"


def display_path(path: Path) -> str:
    """A path as users should read it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - other drive on Windows
        return str(path)


def spec_files(directory: Path) -> list[Path]:
    files = sorted(p for p in directory.glob("*.yaml") if p.is_file())
    files.sort(key=lambda p: (p.name != GAME_FILE, p.name))
    return files


def find_game_dirs(root: Path) -> list[Path]:
    """Every directory below ``root`` (or ``root`` itself) that holds a game.yaml."""
    if (root / GAME_FILE).is_file():
        return [root]
    return sorted(p.parent for p in root.glob(f"*/{GAME_FILE}"))
