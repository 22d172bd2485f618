"""Code runs only from the installed environment: never from the current folder or a user site.

Specs, catalogs and table states come from other people, and so may the folder a
user stands in when they build (a checkout of a contribution, a game's spec
folder). Python puts that folder first on ``sys.path`` for ``python -m`` and
``python -c``, and ``-c`` is how :mod:`multiprocessing` starts the fork server
that imports Sphinx: a ``sphinx.py`` or a ``docutils/`` there would run in its
place. So:

- :func:`harden` is the first thing the command does (the console script and
  ``python -m rulepress`` both enter through :mod:`rulepress.__main__`): it takes
  the current folder, relative entries and the user's own site-packages off
  ``sys.path`` (the processes the build forks take their path from this one),
  and puts :data:`CHILD_ENVIRONMENT` into the environment of everything it starts;
- :data:`CHILD_ENVIRONMENT` is ``PYTHONSAFEPATH`` (Python 3.11's ``-P``: no entry
  for the current folder or a script's folder) and ``PYTHONNOUSERSITE`` (``-s``).
  The worker module sets it for the Sphinx server whoever calls it (a library
  user, the tests). ``-I`` is not used: it would also drop ``PYTHONPATH``, the
  user's own setting (trusted, like their command line), which the tests use.

A Python started with ``-E`` ignores both variables; :mod:`multiprocessing`
passes ``-P`` and ``-s`` on by itself when this process has them.
"""

from __future__ import annotations

import os
import site
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

#: what every Python process rulepress starts gets in its environment
CHILD_ENVIRONMENT: Mapping[str, str] = {"PYTHONSAFEPATH": "1", "PYTHONNOUSERSITE": "1"}


def untrusted_entries(path: list[str], cwd: str | None) -> list[str]:
    """The entries of ``path`` that are not the installed environment's.

    The empty entry and any relative one (they mean the current folder, whatever it
    is when an import happens), the current folder itself, and the user's own
    site-packages.
    """
    here = os.path.realpath(cwd) if cwd is not None else None
    user_site = os.path.realpath(site.getusersitepackages()) if site.ENABLE_USER_SITE else None
    found = []
    for entry in path:
        real = os.path.realpath(entry) if os.path.isabs(entry) else None
        if real is None or real in (here, user_site):
            found.append(entry)
    return found


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # a folder removed under us: then only relative entries can point into it
        return None


def drop_untrusted_paths() -> None:
    """Take the current folder, relative entries and the user site off ``sys.path``."""
    unwanted = set(untrusted_entries(sys.path, _cwd()))
    sys.path[:] = [entry for entry in sys.path if entry not in unwanted]


def harden() -> None:
    """Make this process, and every process it starts, import from the installed environment only."""
    drop_untrusted_paths()
    os.environ.update(CHILD_ENVIRONMENT)


@contextmanager
def child_environment() -> Iterator[None]:
    """:data:`CHILD_ENVIRONMENT` in ``os.environ`` for the block (for a child started in it)."""
    saved = {name: os.environ.get(name) for name in CHILD_ENVIRONMENT}
    os.environ.update(CHILD_ENVIRONMENT)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
