"""``python -m rulepress``: the same as the ``rulepress`` command.

The console script enters here too. Before the command line is imported, the
current folder leaves ``sys.path`` (:mod:`rulepress.isolation`): ``python -m``
put it first, and the command's own imports (click, pydantic …) would otherwise
be looked up there.

When a command that runs without the cycle collector (``score``, see
:data:`rulepress.cli.UNCOLLECTED`) is done, the objects it leaves are frozen out
of the collector (:func:`gc.freeze`): the collection the interpreter makes on its
way out walked every one of them (the modules, the spec, their validators) to
free nothing that ending the process does not, and took about a seventh of a
warm score. Exit handlers and flushes run as before. Other commands leave as
ever: a build's objects in reference cycles are finalized on the way out.

The command line's imports run without the collector too, for every command:
importing makes many objects (classes, functions) and no garbage, and the
collections the allocations set off walked them for nothing.
"""

import gc
import sys

from rulepress import isolation


def run() -> None:
    isolation.harden()
    collecting = gc.isenabled()
    gc.disable()
    from rulepress.cli import UNCOLLECTED, command_of, main  # noqa: PLC0415 - only once the path is safe

    if collecting:
        gc.enable()
    code = main()
    if command_of(sys.argv[1:]) in UNCOLLECTED:
        gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
