"""``python -m rulepress``: the same as the ``rulepress`` command.

The console script enters here too. Before the command line is imported, the
current folder leaves ``sys.path`` (:mod:`rulepress.isolation`): ``python -m``
put it first, and the command's own imports (click, pydantic …) would otherwise
be looked up there.

When the command is done, the objects it leaves are frozen out of Python's cycle
collector (:func:`gc.freeze`): the collection the interpreter makes on its way
out walked every one of them (the modules, the spec, their validators) to free
nothing that ending the process does not, and took about a seventh of a warm
``rulepress score``. Exit handlers, flushes and finalizers run as before.
"""

import gc
import sys

from rulepress import isolation


def run() -> None:
    isolation.harden()
    from rulepress.cli import main  # noqa: PLC0415 - only once the path is safe

    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
