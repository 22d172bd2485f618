"""``python -m tests.main_job FOLDER [GAME ...]``: the test run's main job, in the background.

Started by tests/conftest.py as soon as the run's tests are collected, so that the
build runs while the test processes run the tests that do not read it (see
:func:`tests.conftest.build_main_job_at`); with games named, of those games alone
(the run's ``--only-game``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.conftest import build_main_job_at

if __name__ == "__main__":
    build_main_job_at(Path(sys.argv[1]), games=tuple(sys.argv[2:]))
