"""``python -m rulepress``: the same as the ``rulepress`` command.

The console script enters here too. Before the command line is imported, the
current folder leaves ``sys.path`` (:mod:`rulepress.isolation`): ``python -m``
put it first, and the command's own imports (click, pydantic …) would otherwise
be looked up there.
"""

import sys

from rulepress import isolation


def run() -> None:
    isolation.harden()
    from rulepress.cli import main  # noqa: PLC0415 - only once the path is safe

    sys.exit(main())


if __name__ == "__main__":
    run()
