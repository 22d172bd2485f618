"""``python -m rulepress``: the same as the ``rulepress`` command."""

import sys

from rulepress.cli import main


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
