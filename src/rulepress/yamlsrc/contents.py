"""What a spec folder may hold: data of known kinds, never code, never a link.

A game's folder (``rules_spec/<game>/``) is contributed by other people and
checked out where users build. rulepress reads only its YAML, the documents its
``sources`` cite and the icons its spec names, but a file that rulepress never
reads can still matter: a ``sphinx.py`` in it is imported by any Python that
runs with that folder on its path. rulepress itself never does
(:mod:`rulepress.isolation`); ``rulepress validate`` still reports such a file,
so that a reviewer sees it before it is merged.

Accepted, anywhere under the folder: the spec's YAML (``*.yaml``), icons
(``*.svg``), source documents and notes (``*.md``, ``*.txt``, ``*.pdf``),
pictures (``*.png``, ``*.jpg``, ``*.jpeg``, ``*.webp``) and ``.gitkeep``. The
spec root itself (``rules_spec/``) may hold game folders, notes and pictures of
those kinds. Everything else is a located problem: Python (source, bytecode,
extension modules, ``.pth``) above all, any other file, and a symbolic link
(it could point anywhere on the machine).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from rulepress.errors import Location, Problem

#: the suffixes of the files a spec folder may hold (compared in lower case)
ACCEPTED = frozenset(
    {".yaml", ".svg", ".md", ".txt", ".pdf", ".png", ".jpg", ".jpeg", ".webp", ".gitkeep"}
)
#: files that are Python code, or make Python run code (a ``.pth`` line can)
PYTHON = frozenset({".py", ".pyw", ".pyc", ".pyo", ".pyd", ".so", ".pth"})
WHERE = "spec folder"
#: at most this many unexpected entries are named; past them, one line says how many more
SHOWN = 50


def _what(path: Path) -> str | None:
    """Why ``path`` may not be in a spec folder (None: it may)."""
    if path.is_symlink():
        return "a symbolic link: a spec folder holds files only, and rulepress follows no link"
    suffix = path.suffix.lower() if path.suffix else path.name.lower()
    if suffix in PYTHON or path.name == "__pycache__":
        return "Python code: a spec folder holds data only (nothing in it may ever run); remove it"
    if path.is_dir():
        return None
    if not path.is_file():
        return "not a regular file (a device, pipe or socket); remove it"
    if suffix == ".yml":
        return "rulepress reads *.yaml only: rename it to .yaml, or remove it"
    if suffix not in ACCEPTED:
        kinds = ", ".join(sorted(ACCEPTED))
        return f"not a kind of file a spec folder holds ({kinds}); remove it"
    return None


def _walk(folder: Path) -> Iterable[Path]:
    """Every entry under ``folder``, links reported rather than followed."""
    for top, dirs, files in os.walk(folder):  # os.walk follows no link by default
        here = Path(top)
        for name in sorted(dirs):
            yield here / name
        for name in sorted(files):
            yield here / name
        # a Python package or bytecode folder is one problem, not one per file in it
        dirs[:] = [d for d in dirs if _what(here / d) is None]


def content_problems(spec_root: Path, shown: str) -> list[Problem]:
    """Located problems for what the spec root and its game folders hold beyond data.

    ``shown`` is how the spec root is named in messages (as the user gave it).
    """
    found = []
    for path in _walk(spec_root):
        what = _what(path)
        if what is not None:
            name = os.path.join(shown, os.path.relpath(path, spec_root))
            found.append(Problem(Location(name, 1, 1), WHERE, what))
    if len(found) > SHOWN:
        more = len(found) - SHOWN
        found = [*found[:SHOWN], Problem(Location(shown), WHERE, f"and {more} more like these")]
    return found
