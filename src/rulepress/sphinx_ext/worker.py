"""Sphinx runs in worker processes that have it imported already.

A ``sphinx-build`` process spends about half a second importing Sphinx, the
theme and the extensions before it looks at a page: for a rebuild after a
one-rule edit that is most of the work, three times over (one project per
language). The site build therefore starts a fork server that imports them
once (:func:`pool`), while the build generates its page trees, and runs each
Sphinx build in a fresh fork of it: one process per build, so no build sees
another's state, and a crash in one is reported as that build's failure.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import sys
import traceback
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import forkserver

from rulepress import isolation

#: what a build imports before reading a page (the fork server imports them once)
PRELOAD = (
    "sphinx.cmd.build",
    "sphinx.builders.html",
    "sphinx.ext.doctest",
    "sphinx_design",
    "myst_parser",
    "rulepress.sphinx_ext",
    "rulepress.sphinx_ext.doctree",
    "rulepress.sphinx_ext.search_cs",
    # Each process imports the caller's main module again, as multiprocessing does
    # (a quarter of a second for rulepress's command line): what the command line
    # and the site build import is therefore imported here, once, too.
    "rulepress.cli",
    "rulepress.commands.build",
    "rulepress.sphinx_ext.build",
)


def warm() -> None:
    """Import what every build needs (the fork server does, by importing :mod:`.warm`).

    Sphinx sets up all its built-in builders and extensions in every build (the
    link checker imports requests), so they are imported here too.
    """
    import importlib  # noqa: PLC0415

    from sphinx import application  # noqa: PLC0415

    for name in (*application.builtin_extensions, *PRELOAD):
        with contextlib.suppress(ImportError):  # a missing one fails in the build, reported
            importlib.import_module(name)


def run(argv: list[str]) -> tuple[int, str]:
    """Sphinx's command line in this process: (exit code, everything it printed)."""
    # this process has the caller's sys.path (multiprocessing hands it over): a library
    # caller run with `python -m` would have the current folder on it, which Sphinx's
    # lazy imports (a search language, a Pygments lexer) would then look in first
    isolation.drop_untrusted_paths()
    from sphinx.cmd.build import build_main  # noqa: PLC0415

    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            code = build_main(argv)
        except SystemExit as exc:  # Sphinx exits on some configuration errors
            code = exc.code if isinstance(exc.code, int) else 1
        except Exception:  # a crash is this build's failure: reported, with its trace
            traceback.print_exc(file=output)
            code = 1
    return code, output.getvalue()


def start() -> None:
    """Start the fork server, if it is not running: it imports Sphinx in the background.

    Its interpreter gets ``PYTHONHASHSEED=0``, so that what Sphinx writes does
    not depend on the hash seed, and a safe path (:mod:`rulepress.isolation`):
    multiprocessing starts it with ``python -c``, which would otherwise put the
    current folder first on its path, where a planted ``sphinx.py`` would be
    imported instead of Sphinx. The command line calls this first, so that the
    server's imports overlap with its own.
    """
    forkserver.set_forkserver_preload([f"{__package__}.warm"])
    saved = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = "0"
    # The server would inherit this process's standard output and error, so that a
    # reader of a pipe (`| tee`, a CI log) would wait for it to finish importing even
    # when nothing is built. It writes nothing (the builds' output is captured and
    # returned), so it gets /dev/null instead.
    sys.stdout.flush()
    sys.stderr.flush()
    kept = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        with isolation.child_environment():
            forkserver.ensure_running()
    finally:
        os.dup2(kept[0], 1)
        os.dup2(kept[1], 2)
        for fd in (*kept, null):
            os.close(fd)
        if saved is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = saved


@contextlib.contextmanager
def pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Processes for Sphinx builds, forked from the server (started if need be).

    Call it before the work that can overlap with the server's imports.
    """
    start()
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(workers, mp_context=context, max_tasks_per_child=1) as executor:
        yield executor
