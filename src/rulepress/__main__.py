"""``python -m rulepress``: the same as the ``rulepress`` command.

The console script enters here too. Before the command line is imported, the
current folder leaves ``sys.path`` (:mod:`rulepress.isolation`): ``python -m``
put it first, and the command's own imports (click, pydantic …) would otherwise
be looked up there.

When a command that runs without the cycle collector (``score``, see
:data:`rulepress.cli.UNCOLLECTED`) is done, the process ends without tearing the
interpreter down (:func:`leave`): the exit handlers run and the standard streams
are flushed, as on any exit, and then the process exits with the command's code.
Tearing down freed, one by one, every object the command left (the modules, the
spec, their classes and validators), to give back memory that ending the process
gives back anyway: a collection over all of them, then about 6 ms, the longest
step after the imports of a warm score. Other commands leave as ever: a build's
objects are finalized on the way out.

The command line's imports run without the collector too, for every command:
importing makes many objects (classes, functions) and no garbage, and the
collections the allocations set off walked them for nothing.
"""

import atexit
import gc
import os
import sys
from typing import NoReturn

from rulepress import isolation


def run() -> None:
    isolation.harden()
    collecting = gc.isenabled()
    gc.disable()
    from rulepress.cli import UNCOLLECTED, command_of, main  # noqa: PLC0415 - only once the path is safe

    uncollected = command_of(sys.argv[1:]) in UNCOLLECTED
    if collecting and not uncollected:
        # The objects the import made (modules, classes, functions) live as long as the
        # process: frozen, no collection of the command walks them again.
        gc.freeze()
        gc.enable()
    # (a command that runs uncollected keeps the collector off to its end: re-enabled
    # after it, the first allocation set off a collection of everything the command had
    # made, its spec and the modules it imported, some 8 % of a warm score, for nothing)
    code = main()
    if uncollected:
        leave(code)
    sys.exit(code)


def leave(code: int) -> NoReturn:
    """End the process with ``code`` as :func:`sys.exit` would, less the interpreter's teardown.

    The exit handlers run (:mod:`atexit`'s, which also finalize what
    :class:`weakref.finalize` and :mod:`tempfile` left to the end) and the standard
    streams are flushed; then :func:`os._exit` ends the process, with no thread left to
    wait for (the commands that leave so start none). Should a stream not flush (a
    closed pipe, a full disk), Python's own exit reports it, as it always has.
    """
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # (None when the process was started without it)
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    run()
